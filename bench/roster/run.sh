#!/bin/sh
# Measures `betactl devices` start-up on a roster of 500 devices (goal: under 50 ms wall time).
# Usage: bench/roster/run.sh [runs]
set -eu
cd "$(dirname "$0")/../.."
RUNS="${1:-50}"
swift build -c release --product betactl >/dev/null
BIN="$(swift build -c release --show-bin-path)/betactl"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export BETACTL_HOME="$WORK/home"
"$BIN" init --membership-renewal 2027-03-01 >/dev/null
python3 - "$WORK/devices.txt" <<'PY'
import sys
kinds = ["iPhone", "iPad", "iPod", "Watch", "Apple TV"]
with open(sys.argv[1], "w") as f:
    f.write("Device ID\tDevice Name\tDevice Platform\n")
    for i in range(500):
        f.write("%08X-%016X\t%s %d\tios\n" % (0x8000 + i // 100, i, kinds[i // 100], i))
PY
"$BIN" add-tester "Bench Tester" >/dev/null
"$BIN" import-devices "$WORK/devices.txt" --tester 1 >/dev/null
python3 - "$BIN" "$RUNS" <<'PY'
import statistics, subprocess, sys, time
binary, runs = sys.argv[1], int(sys.argv[2])
for args in (["devices"], ["devices", "--json"]):
    subprocess.run([binary] + args, check=True, stdout=subprocess.DEVNULL)  # warm the page cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([binary] + args, check=True, stdout=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    median, p95 = statistics.median(times), times[int(len(times) * 0.95) - 1]
    verdict = "meets" if p95 < 50 else "MISSES"
    print(f"betactl {' '.join(args):16} 500 devices: median {median:.1f} ms, p95 {p95:.1f} ms ({verdict} the 50 ms goal)")
PY
