#include "inline.h"

static inline __attribute__((always_inline)) unsigned rotate(unsigned value, int bits) {
    return (value << bits) | (value >> (32 - bits));
}

// A C function carrying a Swift-mangled symbol name, as mixed-language apps have.
long fixture_count(long value) __asm__("_$s7Fixture5count2ofS2i_tF");
long fixture_count(long value) {
    long count = 0;
    while (value > 0) {
        count += value & 1;
        value >>= 1;
    }
    return count;
}

__attribute__((noinline)) unsigned checksum(const unsigned char *bytes, unsigned long length) {
    unsigned sum = 17;
    for (unsigned long i = 0; i < length; i++) {
        sum = rotate(sum, 5) ^ bytes[i];
        sum += (unsigned)clamp_digit(bytes[i]);
    }
    return sum;
}
