#!/bin/sh
# The closed loop, timed: from a tester's enrolment POST to an installable re-signed build.
# `betactl serve` (with --allow-unverified-enrollment, and `apple auto on`) takes a device's reply;
# the rule approves it; the server registers the device at the test App Store Connect server
# (Tests/Servers/asc_server.py, adding LATENCY ms to every answer), regenerates the app's profiles,
# re-signs the newest release (a 100 MB ipa: Beta.ipa padded by Tests/Clients/make_big_ipa.py) and
# publishes it superseding the original. The clock stops when the tester's page says the build
# installs on the device. betactl's own time is the total less the batching window and the test
# server's added latency (the calls are sequential).
# Usage: bench/provision/run.sh [runs] [window seconds] [latency ms] [ipa MB]
#   (BETACTL_BIN=path uses that binary instead of a release build; the test server needs the venv
#    of .ci/install-deps --test, $BETACTL_ASC_VENV or ~/.cache/betactl/asc-oracle.)
set -eu
cd "$(dirname "$0")/../.."
RUNS="${1:-3}"; WINDOW="${2:-0}"; LATENCY="${3:-300}"; SIZE="${4:-100}"
if [ -z "${BETACTL_BIN:-}" ]; then
    swift build -c release --product betactl >/dev/null
    BETACTL_BIN="$(swift build -c release --show-bin-path)/betactl"
fi
VENV="${BETACTL_ASC_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/betactl/asc-oracle}"
DOC="$(cd .. && pwd)/shared/asc/app-store-connect-openapi-3.7.0.json"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 Tests/Clients/make_big_ipa.py Tests/Fixtures/formats/app/Beta.ipa "$WORK/big.ipa" "$SIZE" >/dev/null
python3 - "$BETACTL_BIN" "$WORK" "$RUNS" "$WINDOW" "$LATENCY" "$VENV/bin/python" "$DOC" <<'PY'
import json, os, plistlib, re, statistics, subprocess, sys, time, urllib.request
binary, work, runs, window, latency, python, document = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7]
app = "Tests/Fixtures/formats/app/"
IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1"
children = []

def run(*command, **options):
    return subprocess.run(command, check=True, capture_output=True, text=True, **options).stdout

def start(command, marker, stream="stdout"):
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    children.append(process)
    pipe = process.stdout if stream == "stdout" else process.stderr
    while True:
        line = pipe.readline()
        if not line:
            raise SystemExit("did not start: " + " ".join(command) + ": " + process.stderr.read())
        match = re.search(marker, line)
        if match:
            return match.group(1)

def one(index):
    folder = f"{work}/run{index}"
    os.makedirs(folder + "/state")
    run("openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", folder + "/AuthKey.p8")
    public = run("openssl", "pkey", "-in", folder + "/AuthKey.p8", "-pubout")
    scenario = {"key_id": "ABC123DEFG", "issuer_id": "57246542-96fe-1a63-e053-0824d011072a", "public_key": public,
                "generate_devices": 20, "bundle_ids": ["com.example.beta", "com.example.beta.widget"], "latency_ms": latency,
                "entitlements": {"aps-environment": "production", "com.apple.developer.associated-domains": "*",
                                 "com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.beta"],
                                 "com.apple.security.application-groups": ["group.com.example.beta"]}}
    json.dump(scenario, open(folder + "/scenario.json", "w"))
    base = start([python, "Tests/Servers/asc_server.py", "--openapi", document, "--state", folder + "/state", "--scenario", folder + "/scenario.json"],
                 r"listening on (\S+)")
    home = ["--home", folder + "/home"]
    run(binary, *home, "init")
    token = json.loads(run(binary, *home, "add-tester", "Ann Lee", "--json"))["page"].rsplit("/", 1)[1]
    run(binary, *home, "approval-rule", "set", "--all")
    run(binary, *home, "apple", "connect", "--key", folder + "/AuthKey.p8", "--key-id", "ABC123DEFG", "--issuer-id", scenario["issuer_id"],
        "--base-url", base, "--ca-file", folder + "/state/ca.pem")
    run(binary, *home, "apple", "sync")
    run(binary, *home, "code-identity", "import", folder + "/state/dist0.pem", folder + "/state/dist0.key")
    run(binary, *home, "release", work + "/big.ipa", "--dsym", app + "Beta.app.dSYM.zip", "--dsym", app + "BetaWidget.appex.dSYM.zip")
    run(binary, *home, "apple", "auto", "on", "--window", str(window))
    port = start([binary, *home, "serve", "--listen", "127.0.0.1:0", "--allow-unverified-enrollment", "--no-access-log"],
                 r"listening on http://127\.0\.0\.1:(\d+)", stream="stderr")
    page = f"http://127.0.0.1:{port}/t/{token}"
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder + "/device.key", "-out", folder + "/device.pem",
        "-days", "30", "-subj", "/CN=00008120-001A2B3C4D5E6F70/O=Apple Inc./OU=iPhone")
    request = urllib.request.Request(page + "/enroll.mobileconfig", headers={"User-Agent": IPHONE})
    profile = plistlib.loads(urllib.request.urlopen(request).read())
    challenge = profile["PayloadContent"]["Challenge"]
    reply = plistlib.dumps({"CHALLENGE": challenge, "PRODUCT": "iPhone15,2", "SERIAL": "F2LXK0ABCD12", "UDID": "00008120-001A2B3C4D5E6F70",
                            "VERSION": "21A329", "DEVICE_NAME": "Ann's iPhone"})
    signed = subprocess.run(["openssl", "cms", "-sign", "-nodetach", "-outform", "DER", "-signer", folder + "/device.pem",
                             "-inkey", folder + "/device.key"], input=reply, capture_output=True, check=True).stdout
    calls_before = sum(1 for _ in open(folder + "/state/calls.jsonl"))

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args):
            return None
    opener = urllib.request.build_opener(NoRedirect)
    started = time.perf_counter()
    try:
        opener.open(urllib.request.Request(page + "/enroll", data=signed, headers={"Content-Type": "application/pkcs7-signature"}))
    except urllib.error.HTTPError as answer:
        assert answer.code == 301, answer.code
    ready = None
    while time.perf_counter() - started < 600:
        text = urllib.request.urlopen(urllib.request.Request(page, headers={"User-Agent": IPHONE})).read().decode()
        if "Ready: installs" in text:
            ready = time.perf_counter() - started
            break
        if "could not be prepared" in text:
            raise SystemExit("the flow failed: " + run(binary, *home, "jobs"))
        time.sleep(0.05)
    if ready is None:
        raise SystemExit("not ready after 600 s: " + run(binary, *home, "jobs"))
    calls = sum(1 for _ in open(folder + "/state/calls.jsonl")) - calls_before
    for child in children[::-1]:
        child.terminate()
        child.wait()
    children.clear()
    own = ready - window - calls * latency / 1000
    return ready, calls, own

try:
    results = [one(index) for index in range(runs)]
finally:
    for child in children:
        child.terminate()
print(f"ipa {os.path.getsize(work + '/big.ipa') >> 20} MB, window {window} s, test server latency {latency} ms per call, {runs} runs")
print("| run | end to end | calls to Apple | betactl's own time |")
print("|-----|-----------:|---------------:|-------------------:|")
for index, (total, calls, own) in enumerate(results, 1):
    print(f"| {index}   | {total:.1f} s | {calls} | {own:.1f} s |")
print(f"median: end to end {statistics.median(r[0] for r in results):.1f} s (goal under 60 s), "
      f"betactl's own {statistics.median(r[2] for r in results):.1f} s (goal under 5 s)")
PY
