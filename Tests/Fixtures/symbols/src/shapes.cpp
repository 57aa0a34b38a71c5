// C++ names exercise __cxa_demangle.
namespace shapes {
template <typename T> struct Box {
    T side;
    __attribute__((always_inline)) T area() const { return side * side + side; }
};

__attribute__((noinline)) int total_area(const int *sides, int count) {
    int total = 0;
    for (int i = 0; i < count; i++) {
        Box<int> box{sides[i]};
        total += box.area();
    }
    return total;
}
} // namespace shapes

extern "C" int shapes_entry(int count) {
    int sides[4] = {count, count + 1, count + 2, count + 3};
    return shapes::total_area(sides, count & 3) + 1;
}
