// Helpers that are always inlined, so their callers' DWARF carries inlined subroutine chains.
#ifndef FIXTURE_INLINE_H
#define FIXTURE_INLINE_H

static inline __attribute__((always_inline)) int clamp_digit(int c) {
    if (c < '0')
        return 0;
    if (c > '9')
        return 9;
    return c - '0';
}

static inline __attribute__((always_inline)) int accumulate(int total, int c) {
    int digit = clamp_digit(c);
    return total * 10 + digit;
}

#endif
