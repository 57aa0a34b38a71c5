#!/bin/sh
# Compares `betactl release` (ingest: CRC-check every entry, extract and parse executables and dSYMs,
# hash and archive the file) of a large generated ipa with `unzip -t` + `sha256sum` on the same file.
# Goal: within 1.5x of their combined time. Reports peak memory (max RSS) of each.
# Usage: bench/ingest/run.sh [size-in-MB] [runs]
set -eu
cd "$(dirname "$0")/../.."
SIZE_MB="${1:-500}"
RUNS="${2:-3}"
swift build -c release --product betactl >/dev/null
BIN="$(swift build -c release --show-bin-path)/betactl"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 bench/ingest/make_ipa.py Tests/Fixtures/formats/app/Beta.xcarchive.zip "$WORK/Big.ipa" "$WORK/Big.app.dSYM.zip" "$SIZE_MB"
python3 - "$BIN" "$WORK" "$RUNS" <<'PY'
import os, resource, statistics, subprocess, sys, time
binary, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
ipa, dsym = f"{work}/Big.ipa", f"{work}/Big.app.dSYM.zip"

def measure(commands):
    """Wall time of running the commands one after another, and the largest max RSS among them."""
    start = time.perf_counter()
    peak = 0
    for command in commands:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        pid = os.fork()
        if pid == 0:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1); os.dup2(devnull, 2)
            os.execvp(command[0], command)
        _, status, usage = os.wait4(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"{' '.join(command)} failed")
        peak = max(peak, usage.ru_maxrss)
    return time.perf_counter() - start, peak

def fresh_home():
    home = f"{work}/home-{time.perf_counter_ns()}"
    subprocess.run([binary, "--home", home, "init"], check=True, stdout=subprocess.DEVNULL)
    return home

subprocess.run(["cat", ipa], check=True, stdout=subprocess.DEVNULL)  # warm the page cache for both sides
peers, ours = [], []
for _ in range(runs):
    peers.append(measure([["unzip", "-tqq", ipa], ["sha256sum", ipa]]))
    home = fresh_home()
    ours.append(measure([[binary, "--home", home, "release", ipa, "--dsym", dsym]]))
    subprocess.run(["rm", "-rf", home], check=True)
size_mb = os.path.getsize(ipa) / (1 << 20)
peer_time = statistics.median(t for t, _ in peers)
our_time = statistics.median(t for t, _ in ours)
ratio = our_time / peer_time
print(f"ipa: {size_mb:.0f} MB on disk, {runs} runs, median wall time")
print(f"  unzip -t + sha256sum : {peer_time:6.2f} s   peak RSS {max(m for _, m in peers) / 1024:6.1f} MB")
print(f"  betactl release      : {our_time:6.2f} s   peak RSS {max(m for _, m in ours) / 1024:6.1f} MB")
print(f"  ratio {ratio:.2f}x ({'meets' if ratio <= 1.5 else 'MISSES'} the 1.5x goal)")
PY
