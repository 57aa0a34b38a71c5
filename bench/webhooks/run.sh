#!/bin/sh
# Compares `betactl release` in a home with no webhook and in one with 5 webhooks subscribed to
# release.published, while `betactl serve` runs on each home delivering to a receiver that takes
# 2 s to answer. Delivery is asynchronous (an outbox row per webhook in the release's transaction),
# so the goal is: the median with 5 webhooks within 10% (or 30 ms) of the median without.
# Usage: bench/webhooks/run.sh [runs]   (BETACTL_BIN=path uses that binary instead of a release build)
set -eu
cd "$(dirname "$0")/../.."
RUNS="${1:-9}"
if [ -z "${BETACTL_BIN:-}" ]; then
    swift build -c release --product betactl >/dev/null
    BETACTL_BIN="$(swift build -c release --show-bin-path)/betactl"
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 - "$BETACTL_BIN" "$WORK" "$RUNS" <<'PY'
import os, re, statistics, subprocess, sys, time
binary, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
ipa = "Tests/Fixtures/formats/app/Beta.ipa"

children = []
receiver = subprocess.Popen(["python3", "Tests/Servers/webhook_receiver.py", "--state", work], stdout=subprocess.PIPE, text=True,
                            stderr=subprocess.DEVNULL)
children.append(receiver)
port = int(re.search(r"listening on (\d+)", receiver.stdout.readline()).group(1))

def home(name, hooks):
    path = f"{work}/{name}"
    subprocess.run([binary, "--home", path, "init"], check=True, stdout=subprocess.DEVNULL)
    for index in range(hooks):
        subprocess.run([binary, "--home", path, "webhook", "add", f"http://127.0.0.1:{port}/slow/1000000/2?hook={index}",
                        "--event", "release.published", "--allow-private"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = subprocess.Popen([binary, "--home", path, "serve", "--listen", "127.0.0.1:0", "--no-access-log"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    children.append(server)
    while "listening on" not in server.stderr.readline():
        pass
    return path

def release(path):
    start = time.perf_counter()
    subprocess.run([binary, "--home", path, "release", ipa, "--allow-missing-symbols", "--again"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

def stop_children():
    for child in children:
        child.terminate()
    for child in children:
        child.wait()

try:
    plain, hooked = home("plain", 0), home("hooked", 5)
    release(plain); release(hooked)  # warm up: caches, the first release of each home
    without, with_hooks = [], []
    for _ in range(runs):
        without.append(release(plain))
        with_hooks.append(release(hooked))
finally:
    stop_children()
base, five = statistics.median(without), statistics.median(with_hooks)
delivered = sum(1 for line in open(f"{work}/requests.jsonl")) if os.path.exists(f"{work}/requests.jsonl") else 0
print(f"release, no webhook:  median {base * 1000:.0f} ms over {runs} runs")
print(f"release, 5 webhooks:  median {five * 1000:.0f} ms over {runs} runs ({five / base:.2f}x); "
      f"{delivered} deliveries reached the 2 s receiver meanwhile")
ok = five <= max(base * 1.10, base + 0.030)
print("goal (within 10% or 30 ms):", "met" if ok else "NOT met")
sys.exit(0 if ok else 1)
PY
