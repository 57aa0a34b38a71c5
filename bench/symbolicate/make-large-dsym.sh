#!/usr/bin/env bash
# Builds bench/out/large/Large.dSYM: an arm64 iOS image whose dSYM holds at least 200 MB of DWARF.
# 24 generated units are compiled once (-g -O1, inlined helper chains) and each object is linked
# many times (its functions are static), then dsymutil links the debug info as for any app.
#   usage: make-large-dsym.sh [COPIES]   (default 56 copies of each unit, about 210 MB of DWARF)
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=bench/out/large
COPIES=${1:-56}
if [ -f "$OUT/Large.dSYM/Contents/Resources/DWARF/Large" ] && [ -f "$OUT/.copies-$COPIES" ]; then
    echo "reusing $OUT/Large.dSYM"; exit 0
fi
rm -rf "$OUT" && mkdir -p "$OUT/src" "$OUT/obj"
python3 bench/symbolicate/generate_sources.py "$OUT/src" 24
ls "$OUT"/src/*.c | xargs -P "$(nproc)" -I{} sh -c 'clang -target arm64-apple-ios15.0 -g -O1 -c "$1" -o "'"$OUT"'/obj/$(basename "$1" .c).o"' _ {}
objects=()
for object in "$OUT"/obj/unit*.o; do
    for copy in $(seq 1 "$COPIES"); do
        name="$OUT/obj/copy$copy-$(basename "$object")"
        cp "$object" "$name"
        objects+=("$name")
    done
done
printf 'int main(void) { return 0; }\n' > "$OUT/src/main.c"
clang -target arm64-apple-ios15.0 -g -c "$OUT/src/main.c" -o "$OUT/obj/main.o"
ld64.lld-19 -arch arm64 -platform_version ios 15.0 15.0 -e _main -undefined dynamic_lookup "$OUT/obj/main.o" "${objects[@]}" -o "$OUT/Large"
dsymutil-19 "$OUT/Large" -o "$OUT/Large.dSYM"
rm -rf "$OUT/obj"
touch "$OUT/.copies-$COPIES"
ls -la "$OUT/Large.dSYM/Contents/Resources/DWARF/Large"
