#!/bin/sh
# Soak test: `betactl serve` (release build) under a mixed load for DURATION seconds (default 600;
# CI-sized runs use 30), killed with SIGKILL at random moments and restarted; then checks that
# nothing acknowledged was lost. See bench/soak/README.md.
#
# Usage: bench/soak/run.sh [DURATION_SECONDS] [--seed N]
set -eu
cd "$(dirname "$0")/../.."
DURATION=${1:-600}
shift 2>/dev/null || true
WORK=$(mktemp -d /tmp/betactl-soak.XXXXXX)
trap 'rm -rf "$WORK"' EXIT INT TERM
ulimit -n 20000 2>/dev/null || true

echo "building betactl (release)..." >&2
swift build -c release --product betactl >/dev/null
BETACTL=$(swift build -c release --show-bin-path)/betactl
export BETACTL_HOME="$WORK/home"
APP=Tests/Fixtures/formats/app
"$BETACTL" init --public-url https://beta.example.com >/dev/null
for name in "Ann Lee" "Bo Chen" "Cy Okafor"; do "$BETACTL" add-tester "$name" >/dev/null; done
"$BETACTL" add-device 1 00008030-0000000000000A01 --model iPhone15,2 >/dev/null
"$BETACTL" release "$APP/Beta.ipa" --dsym "$APP/Beta.app.dSYM.zip" --dsym "$APP/BetaWidget.appex.dSYM.zip" --notes "Soak build" >/dev/null 2>&1
"$BETACTL" release "$APP/Beta.xcarchive.zip" --notes "Soak build 2" >/dev/null 2>&1
# Offered only by servers that have them: an API token for CI uploads, an ingest key for crash reports.
if "$BETACTL" token --help >/dev/null 2>&1; then
    SOAK_API_TOKEN=$("$BETACTL" token create soak --scope write --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["secret"])')
    export SOAK_API_TOKEN
fi
if "$BETACTL" crash-key --help >/dev/null 2>&1; then
    SOAK_CRASH_KEY=$("$BETACTL" crash-key create com.example.beta --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')
    export SOAK_CRASH_KEY
fi
python3 bench/soak/soak.py "$BETACTL" "$WORK/home" "$DURATION" "$@"
