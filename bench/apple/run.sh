#!/bin/sh
# Times what users run against App Store Connect: `betactl apple sync` of 450 devices and
# `betactl apple profile` for an app with an extension, against the test App Store Connect server
# (Tests/Servers/asc_server.py: TLS, every request and response checked against Apple's OpenAPI
# document in ../shared/asc/). Goal (issue 18): each under 2 s with the minimum number of calls.
# No peer can run here (fastlane's spaceship and Apple's own tools only talk to Apple), so the
# report is each command's time against the goal and the calls the server counted.
# Needs `.ci/install-deps --test` (the server's openapi-core environment).
# Usage: bench/apple/run.sh [runs]
set -eu
cd "$(dirname "$0")/../.."
RUNS="${1:-5}"
swift build -c release --product betactl >/dev/null
BIN="$(swift build -c release --show-bin-path)/betactl"
PYTHON="${BETACTL_ASC_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/betactl/asc-oracle}/bin/python"
WORK="$(mktemp -d)"
trap 'kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$WORK/AuthKey_BENCH12345.p8" 2>/dev/null
openssl pkey -in "$WORK/AuthKey_BENCH12345.p8" -pubout -out "$WORK/public.pem"
python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
scenario = {"generate_devices": 450, "bundle_ids": ["com.example.beta", "com.example.beta.widget"],
            "key_id": "BENCH12345", "issuer_id": "57246542-96fe-1a63-e053-0824d011072a",
            "public_key": open(f"{work}/public.pem").read()}
json.dump(scenario, open(f"{work}/scenario.json", "w"))
PY
mkdir -p "$WORK/state"
"$PYTHON" Tests/Servers/asc_server.py --openapi ../shared/asc/app-store-connect-openapi-3.7.0.json --state "$WORK/state" \
    --scenario "$WORK/scenario.json" > "$WORK/server.out" 2> "$WORK/server.err" &
SERVER=$!
for _ in $(seq 1 100); do grep -q "listening on" "$WORK/server.out" 2>/dev/null && break; sleep 0.1; done
BASE="$(sed -n 's/.*listening on //p' "$WORK/server.out" | head -n 1)"
[ -n "$BASE" ] || { cat "$WORK/server.err" >&2; exit 1; }
python3 - "$BIN" "$WORK" "$BASE" "$RUNS" <<'PY'
import json, statistics, subprocess, sys, time
binary, work, base, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
app = "Tests/Fixtures/formats/app"

def betactl(home, *arguments):
    subprocess.run([binary, "--home", home, *arguments], check=True, stdout=subprocess.DEVNULL)

def calls():
    try:
        return [json.loads(line) for line in open(f"{work}/state/calls.jsonl")]
    except FileNotFoundError:
        return []

def timed(home, *arguments):
    before = len(calls())
    start = time.perf_counter()
    betactl(home, *arguments)
    elapsed = time.perf_counter() - start
    made = calls()[before:]
    problems = [p for call in made for p in call["problems"]]
    if problems:
        sys.exit(f"contract problems: {problems[:3]}")
    return elapsed, len(made)

results = {"apple sync (450 devices)": [], "apple profile (app + extension)": []}
counts = {}
for run in range(runs):
    home = f"{work}/home-{run}"
    betactl(home, "init", "--team-id", "TEAMID1234")
    betactl(home, "release", f"{app}/Beta.ipa", "--dsym", f"{app}/Beta.app.dSYM.zip", "--dsym", f"{app}/BetaWidget.appex.dSYM.zip")
    betactl(home, "apple", "connect", "--key", f"{work}/AuthKey_BENCH12345.p8", "--key-id", "BENCH12345",
            "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a", "--base-url", base, "--ca-file", f"{work}/state/ca.pem")
    for name, arguments in (("apple sync (450 devices)", ("apple", "sync")), ("apple profile (app + extension)", ("apple", "profile", "com.example.beta"))):
        elapsed, made = timed(home, *arguments)
        results[name].append(elapsed)
        counts[name] = made

print(f"{'command':<34}{'median':>9}{'best':>9}{'goal':>7}{'ratio':>8}{'calls':>7}")
for name, times in results.items():
    median = statistics.median(times)
    print(f"{name:<34}{median:>8.3f}s{min(times):>8.3f}s{2.0:>6.1f}s{median / 2.0:>8.2f}{counts[name]:>7}")
PY
