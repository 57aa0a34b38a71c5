// The widget extension's executable.
int widget_timeline(int slots) { return slots > 4 ? 4 : slots; }
int main(int argc, char **argv) { (void)argv; return widget_timeline(argc); }
