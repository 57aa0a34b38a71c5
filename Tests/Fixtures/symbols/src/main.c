extern int parse_pair(const char *a, const char *b);
extern unsigned checksum(const unsigned char *bytes, unsigned long length);
extern long fixture_count(long value) __asm__("_$s7Fixture5count2ofS2i_tF");
extern int shapes_entry(int count);
#ifdef WITH_SWIFT
extern long swift_compute(long x, long y) __asm__("_$s7Fixture7compute_5labelBi64_Bi64__Bi64_tF");
extern long swift_closure(long x) __asm__("_$s7Fixture10useClosureyBi64_Bi64_F");
#endif

int main(int argc, char **argv) {
    int value = parse_pair(argv[0], argc > 1 ? argv[1] : "42");
    value += (int)checksum((const unsigned char *)argv[0], (unsigned long)argc);
    value += (int)fixture_count(value);
    value += shapes_entry(argc);
#ifdef WITH_SWIFT
    value += (int)swift_compute(value, argc);
    value += (int)swift_closure(value);
#endif
    return value;
}
