#!/usr/bin/env bash
# Benchmarks `betactl symbolicate` against the fastest llvm-symbolizer on the machine (same
# addresses, one process per report and once running, warm index; text and .ips reports) and the
# index build against `llvm-dwarfdump-19 --debug-line`, on a
# generated dSYM with over 200 MB of DWARF, on Sentry's CrashProbe dSYM (when ../shared/fixtures
# is present) and on the small test fixture. Results go to bench/symbolicate/README.md.
#   usage: bench/symbolicate/run.sh [REPORTS] [RUNS]
# Needs: lld-19, llvm-19, python3, the Swift toolchain (whose own llvm-symbolizer is the peer when it is the fastest).
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product betactl
bench/symbolicate/make-large-dsym.sh
python3 bench/symbolicate/bench.py --reports "${1:-20}" --runs "${2:-3}" --write-readme
