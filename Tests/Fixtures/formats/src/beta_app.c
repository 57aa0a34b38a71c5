// The "Beta" app's executable for the formats fixtures (never run; only its Mach-O and DWARF matter).
static int scale(int value) { return value * 3 + 1; }
int beta_entry(int count) { return scale(count) - 2; }
int main(int argc, char **argv) { (void)argv; return beta_entry(argc); }
