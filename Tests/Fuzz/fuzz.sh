#!/usr/bin/env bash
# Coverage-guided fuzzing of betactl's parsers with libFuzzer (see Tests/Fuzz/README.md).
#
#   Tests/Fuzz/fuzz.sh build                      build .build-fuzz/betafuzz (instrumented, ASan)
#   Tests/Fuzz/fuzz.sh list                       list the targets
#   Tests/Fuzz/fuzz.sh seeds                      (re)make the seed corpora from the fixtures
#   Tests/Fuzz/fuzz.sh run [TARGET…]              fuzz each target (all when none) for FUZZ_TIME seconds
#   Tests/Fuzz/fuzz.sh repro TARGET FILE…         run inputs once (a crash file, a corpus entry)
#   Tests/Fuzz/fuzz.sh minimize TARGET FILE       shrink a crashing input to .build-fuzz/minimized/
#
# Environment: FUZZ_TIME (seconds per target, default 300), FUZZ_TIMEOUT (seconds one input may take,
# default 10), FUZZ_RSS_MB (memory limit, default 2048), FUZZ_JOBS (parallel targets, default 1),
# FUZZ_ARGS (extra libFuzzer flags).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$root/.build-fuzz"
binary="$out/betafuzz"
fuzz_time="${FUZZ_TIME:-300}"
fuzz_timeout="${FUZZ_TIMEOUT:-10}"
fuzz_rss="${FUZZ_RSS_MB:-2048}"
fuzz_jobs="${FUZZ_JOBS:-1}"

# The Swift runtime's own crash handler gets in the way of the sanitizer's reports.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}"

swift_flags=(-swift-version 6 -O -assert-config Debug -g -sanitize=fuzzer,address -parse-as-library -wmo
             -I "$out/modules" -I "$root/Sources/CZlib" -I "$root/Sources/CSQLite" -I "$root/Sources/CSystemShim"
             -I "$root/Sources/CCrypto" -I "$root/Sources/CCurl")

# Compiles one module's sources together with its harness files; skipped when neither they nor the
# modules it imports (named after it, already built) changed, since -O inlines across modules.
build_module() {
    local module="$1"
    shift
    local upstream=""
    for dependency in "$@"; do upstream+="$(cat "$out/obj/$dependency.stamp")"; done
    local sources=()
    mapfile -t sources < <(find "$root/Sources/$module" "$here/Harnesses/$module" -name '*.swift' 2>/dev/null | sort)
    local stamp="$out/obj/$module.stamp"
    local digest
    digest="$(cat "${sources[@]}" "$root"/Sources/C*/*.h | sha1sum | cut -d' ' -f1)-$(printf '%s ' "${swift_flags[@]}" "$upstream" | sha1sum | cut -d' ' -f1)"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$digest" && -f "$out/obj/$module.o" ]]; then return; fi
    echo "compiling $module (${#sources[@]} files)" >&2
    swiftc "${swift_flags[@]}" -module-name "$module" -emit-module -emit-module-path "$out/modules/$module.swiftmodule" \
        -c -o "$out/obj/$module.o" "${sources[@]}"
    echo "$digest" > "$stamp"
}

build() {
    mkdir -p "$out/obj" "$out/modules"
    build_module AppleFormats
    build_module CryptoCMS
    build_module HTTPClient
    build_module BetaKit AppleFormats CryptoCMS HTTPClient
    build_module BetaServer AppleFormats
    build_module Mustache AppleFormats
    build_module Multipart AppleFormats
    local objects=("$out/obj/AppleFormats.o" "$out/obj/CryptoCMS.o" "$out/obj/HTTPClient.o" "$out/obj/BetaKit.o" "$out/obj/BetaServer.o" "$out/obj/Mustache.o" "$out/obj/Multipart.o")
    local main="$here/Harnesses/Main/FuzzMain.swift"
    if [[ -f "$binary" ]] && [[ -z "$(find "${objects[@]}" "$main" -newer "$binary")" ]]; then return; fi
    echo "linking $binary" >&2
    swiftc "${swift_flags[@]}" -module-name FuzzMain "$main" "${objects[@]}" -lz -ldl -o "$binary" 2>&1 \
        | grep -v "Cannot export local symbol '__asan" >&2 || true
    [[ -x "$binary" ]]
}

targets() { BETA_FUZZ_TARGET=list "$binary"; }

seeds() {
    rm -rf "$out/seeds"
    python3 "$here/seeds.py" "$root" "$out/seeds"
}

# libFuzzer flags per target: the longest input worth trying and a token dictionary if there is one.
target_flags() {
    local target="$1"
    local flags=()
    case "$target" in
        macho|dwarf|index|zip) flags+=(-max_len=262144) ;;
        profile|der|crash|crash-render|png|recognize|kscrash|kscrash-batch|ips-json|jetsam) flags+=(-max_len=131072) ;;
        hockeyapp) flags+=(-max_len=65536) ;;
        demangle) flags+=(-max_len=1024) ;;
        udid) flags+=(-max_len=128) ;;
        *) flags+=(-max_len=16384) ;;
    esac
    local dict="$target"
    [[ "$target" == crash-render ]] && dict=crash
    [[ "$target" == jetsam || "$target" == kscrash-batch ]] && dict=kscrash
    [[ "$target" == ips-json ]] && dict=crash
    [[ "$target" == json ]] && dict=kscrash
    [[ "$target" == enrollment || "$target" == enrollment-intake ]] && dict=mobileconfig
    [[ -f "$here/Dictionaries/$dict.dict" ]] && flags+=("-dict=$here/Dictionaries/$dict.dict")
    printf '%s\n' "${flags[@]}"
}

run_one() {
    local target="$1"
    local corpus="$out/corpus/$target" artifacts="$out/artifacts/$target"
    mkdir -p "$corpus" "$artifacts" "$out/logs"
    local flags=()
    mapfile -t flags < <(target_flags "$target")
    local seed_dir=()
    [[ -d "$out/seeds/$target" ]] && seed_dir=("$out/seeds/$target")
    echo "fuzzing $target for ${fuzz_time}s (log: $out/logs/$target.log)" >&2
    local status=0
    # shellcheck disable=SC2086
    BETA_FUZZ_TARGET="$target" "$binary" "${flags[@]}" -max_total_time="$fuzz_time" -timeout="$fuzz_timeout" \
        -rss_limit_mb="$fuzz_rss" -malloc_limit_mb="$fuzz_rss" -report_slow_units=2 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" ${FUZZ_ARGS:-} "$corpus" "${seed_dir[@]}" > "$out/logs/$target.log" 2>&1 || status=$?
    local found
    found="$(find "$artifacts" -type f | wc -l)"
    echo "$target: exit $status, $(grep -c '^#.*NEW' "$out/logs/$target.log" || true) new units, $found artifacts" >&2
    return 0
}

case "${1:-}" in
    build) build ;;
    list) build; targets ;;
    seeds) seeds ;;
    run)
        shift
        build
        [[ -d "$out/seeds" ]] || seeds
        chosen=("$@")
        [[ ${#chosen[@]} -gt 0 ]] || mapfile -t chosen < <(targets)
        if [[ "$fuzz_jobs" -le 1 ]]; then
            for target in "${chosen[@]}"; do run_one "$target"; done
        else
            printf '%s\n' "${chosen[@]}" | xargs -P "$fuzz_jobs" -I{} "$0" run-one {}
        fi
        ;;
    run-one) build; run_one "$2" ;;
    repro)
        build
        target="$2"; shift 2
        BETA_FUZZ_TARGET="$target" "$binary" -timeout="$fuzz_timeout" -rss_limit_mb="$fuzz_rss" -malloc_limit_mb="$fuzz_rss" "$@"
        ;;
    minimize)
        build
        mkdir -p "$out/minimized"
        name="$(basename "$3")"
        BETA_FUZZ_TARGET="$2" "$binary" -minimize_crash=1 -max_total_time=120 -timeout="$fuzz_timeout" \
            -rss_limit_mb="$fuzz_rss" -exact_artifact_path="$out/minimized/$2-$name" "$3" || true
        echo "minimized: $out/minimized/$2-$name ($(wc -c < "$out/minimized/$2-$name") bytes)" >&2
        ;;
    *)
        sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
        exit 2
        ;;
esac
