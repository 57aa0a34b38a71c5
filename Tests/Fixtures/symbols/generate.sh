#!/usr/bin/env bash
# Regenerates the symbolication fixtures from src/ with the LLVM 19 toolchain and the Swift
# compiler, and records what llvm-symbolizer (the oracle) says about every instruction.
#
#   arm64-dwarf4/App.dSYM   C (3 units, always_inline chains), C++ and Swift, DWARF 4
#   arm64-dwarf5/App.dSYM   the same sources with DWARF 5 (strx, addrx, rnglists, line v5)
#   fat/Fat.dSYM            one DWARF file with an arm64 and an armv7 slice (llvm-lipo)
#   expected/*.tsv          llvm-symbolizer-19 --inlines --no-demangle for every address,
#                           one frame per line: address, depth, function, file, line, column
#   expected/names.tsv      each raw name and how it should be shown: Swift names through
#                           `swift-demangle --simplified`, C++ through llvm-cxxfilt
#   crashes/*               crash reports against the fixture images
#
# armv7: ld64.lld cannot link it, so armv7-image.py lays the objects out as a minimal
# MH_EXECUTE (segments, symbol table, UUID) and writes the address map ld would have put in
# N_OSO stabs; `dsymutil -y` links the real clang DWARF with it. See armv7-image.py.
#
# Needs: clang (Swift toolchain), swiftc, swift-demangle, lld-19, llvm-19, python3.
set -euo pipefail
cd "$(dirname "$0")"
HERE=$(pwd)
# A fixed scratch path and zeroed object timestamps keep the linked UUIDs reproducible.
WORK=/tmp/betactl-symbol-fixtures
rm -rf "$WORK" && mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
export ZERO_AR_DATE=1
SRC="$HERE/src"
PREFIX=/build/Fixture
SYMBOLIZER=llvm-symbolizer-19

compile_c() {  # triple dwarf-flag outdir
    local triple=$1 dwarf=$2 out=$3
    mkdir -p "$out"
    (cd "$SRC" && for f in main.c parse.c checksum.c; do
        clang -target "$triple" "$dwarf" -O1 -fno-omit-frame-pointer -Iinclude -DWITH_SWIFT \
            -fdebug-prefix-map="$SRC"="$PREFIX" -c "$f" -o "$out/${f%.c}.o"
    done)
}

build_arm64() {  # variant dwarf-version
    local variant=$1 version=$2 out="$WORK/$1"
    compile_c arm64-apple-ios15.0 "-gdwarf-$version" "$out"
    (cd "$SRC" && clang++ -target arm64-apple-ios15.0 "-gdwarf-$version" -O1 -fno-omit-frame-pointer \
        -fdebug-prefix-map="$SRC"="$PREFIX" -c shapes.cpp -o "$out/shapes.o")
    (cd "$SRC" && swiftc -parse-stdlib -target arm64-apple-ios15.0 -g -dwarf-version="$version" -O \
        -module-name Fixture -runtime-compatibility-version none -Xfrontend -disable-reflection-metadata \
        -debug-prefix-map "$SRC"="$PREFIX" -parse-as-library -c Fixture.swift -o "$out/fixture-swift.o")
    ld64.lld-19 -arch arm64 -platform_version ios 15.0 15.0 -e _main -undefined dynamic_lookup \
        "$out"/main.o "$out"/parse.o "$out"/checksum.o "$out"/shapes.o "$out"/fixture-swift.o -o "$out/App"
    rm -rf "$HERE/$variant"
    mkdir -p "$HERE/$variant"
    dsymutil-19 "$out/App" -o "$HERE/$variant/App.dSYM"
    cp "$out/App" "$WORK/$variant.App"
}

build_fat() {
    local out="$WORK/fat"
    compile_c arm64-apple-ios15.0 -gdwarf-4 "$out/arm64"
    ld64.lld-19 -arch arm64 -platform_version ios 15.0 15.0 -e _main -undefined dynamic_lookup \
        "$out"/arm64/main.o "$out"/arm64/parse.o "$out"/arm64/checksum.o -o "$out/arm64/Fat"
    dsymutil-19 "$out/arm64/Fat" -o "$out/arm64/Fat.dSYM"
    compile_c armv7-apple-ios9.0 -gdwarf-4 "$out/armv7"
    python3 "$HERE/armv7-image.py" "$out/armv7/Fat" "$out/armv7/map" "$out"/armv7/main.o "$out"/armv7/parse.o "$out"/armv7/checksum.o
    sed -i "s/^triple: .*/triple: 'armv7-apple-darwin'/" "$out/armv7/map"
    mkdir -p "$out/armv7/y" && cp "$out/armv7/map" "$out/armv7/y/Fat"
    dsymutil-19 -y "$out/armv7/y/Fat" -o "$out/armv7/Fat.dSYM"
    rm -rf "$HERE/fat"
    mkdir -p "$HERE/fat"
    cp -R "$out/arm64/Fat.dSYM" "$HERE/fat/Fat.dSYM"
    llvm-lipo-19 -create "$out/arm64/Fat.dSYM/Contents/Resources/DWARF/Fat" "$out/armv7/Fat.dSYM/Contents/Resources/DWARF/Fat" \
        -output "$HERE/fat/Fat.dSYM/Contents/Resources/DWARF/Fat"
    cp "$out/arm64/Fat" "$WORK/fat-arm64.App"
    cp "$out/armv7/Fat" "$WORK/fat-armv7.App"
}

# Every instruction address of __text, plus a few around it, symbolized by the oracle.
record() {  # name dwarf-file arch binary step
    local name=$1 dwarf=$2 arch=$3 binary=$4 step=$5
    python3 - "$binary" "$step" > "$WORK/$name.addresses" <<'PY'
import re, subprocess, sys
binary, step = sys.argv[1], int(sys.argv[2])
out = subprocess.run(["llvm-otool-19", "-l", binary], capture_output=True, text=True, check=True).stdout
block = out[out.index("sectname __text"):]
addr = int(re.search(r"addr 0x([0-9a-f]+)", block).group(1), 16)
size = int(re.search(r"size 0x([0-9a-f]+)", block).group(1), 16)
for a in range(addr - 2 * step, addr + size + 2 * step, step):
    print(hex(a))
PY
    mkdir -p "$HERE/expected"
    "$SYMBOLIZER" --inlines --no-demangle --output-style=JSON --default-arch="$arch" --obj="$dwarf" \
        < "$WORK/$name.addresses" > "$WORK/$name.json"
    python3 - "$WORK/$name.json" > "$HERE/expected/$name.tsv" <<'PY'
import json, sys
print("# address\tdepth\tfunction\tfile\tline\tcolumn  (llvm-symbolizer-19 --inlines --no-demangle)")
for line in open(sys.argv[1]):
    entry = json.loads(line)
    for depth, frame in enumerate(entry["Symbol"]):
        print("%s\t%d\t%s\t%s\t%d\t%d" % (entry["Address"], depth, frame["FunctionName"] or "??",
                                         frame["FileName"] or "??", frame["Line"], frame["Column"]))
PY
}

build_arm64 arm64-dwarf4 4
build_arm64 arm64-dwarf5 5
build_fat
record arm64-dwarf4 arm64-dwarf4/App.dSYM/Contents/Resources/DWARF/App arm64 "$WORK/arm64-dwarf4.App" 4
record arm64-dwarf5 arm64-dwarf5/App.dSYM/Contents/Resources/DWARF/App arm64 "$WORK/arm64-dwarf5.App" 4
record fat-arm64 fat/Fat.dSYM/Contents/Resources/DWARF/Fat arm64 "$WORK/fat-arm64.App" 4
record fat-armv7 fat/Fat.dSYM/Contents/Resources/DWARF/Fat armv7 "$WORK/fat-armv7.App" 2

# How each raw name must be shown.
grep -hv '^#' expected/arm64-*.tsv expected/fat-*.tsv | cut -f3 | grep -v '^??$' | sort -u > "$WORK/names"
{
    echo "# raw name<TAB>display name (swift-demangle --simplified for Swift, llvm-cxxfilt for C++)"
    while IFS= read -r name; do
        case "$name" in
            '$s'*|'$S'*|'_T0'*) shown=$(swift-demangle --simplified --compact "$name") ;;
            _Z*) shown=$(llvm-cxxfilt-19 "$name") ;;
            *) shown=$name ;;
        esac
        printf '%s\t%s\n' "$name" "$shown"
    done < "$WORK/names"
} > expected/names.tsv

# Crash reports against the arm64 DWARF 4 image, in each format betactl reads.
uuid=$(llvm-dwarfdump-19 --uuid arm64-dwarf4/App.dSYM | awk '{print $2}')
python3 "$HERE/make-crashes.py" "$uuid" "$WORK/arm64-dwarf4.App" "$HERE/crashes"

rm -f */App.dSYM/Contents/Resources/Relocations -r
echo "fixtures written to $HERE"
