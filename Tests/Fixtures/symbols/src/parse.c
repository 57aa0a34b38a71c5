#include "inline.h"

__attribute__((noinline)) int parse_number(const char *text) {
    int total = 0;
    while (*text) {
        total = accumulate(total, *text);
        text++;
    }
    return total;
}

__attribute__((noinline)) int parse_pair(const char *a, const char *b) {
    int first = parse_number(a);
    int second = parse_number(b);
    return first * 100 + second;
}
