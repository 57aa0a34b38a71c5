#!/bin/sh
# Crash intake under load: 32 wrk connections upload distinct ~100 KB .ips reports to
# `betactl serve` while it symbolicates them in the background. Goals (issue 12): at least 500
# durable reports/s accepted, the queue drained within 2 s after the load ends, server RSS under
# 200 MB. Results go to bench/intake/README.md.
#   usage: bench/intake/run.sh [SECONDS] [RUNS]     Needs: wrk, python3, the Swift toolchain.
set -eu
cd "$(dirname "$0")/../.."
for tool in wrk python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done
swift build -c release --product betactl >/dev/null
BETACTL=$(swift build -c release --show-bin-path)/betactl
nice -n 10 python3 bench/intake/bench.py "$BETACTL" --seconds "${1:-10}" --runs "${2:-3}" --write-readme
