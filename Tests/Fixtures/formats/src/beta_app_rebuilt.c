// A rebuild of the app with different code: same name, different LC_UUID, so its dSYM does not match.
static int scale(int value) { return value * 5 - 7; }
int beta_entry(int count) { return scale(count) + 11; }
int main(int argc, char **argv) { (void)argv; return beta_entry(argc) ^ 1; }
