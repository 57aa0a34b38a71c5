#!/bin/sh
# Times `betactl resign` of a generated ipa of about 300 MB (the fixture Beta app with large assets
# inside it, signed and sealed) against `unzip -q` + `zip -qr` of the same ipa (goal: at most half
# their time), and `betactl check-signature` of it against `unzip -t` + `sha256sum` of the extracted
# files (goal: at most their time), both sides in the same run; peak RSS (goal: under 100 MB).
# Needs clang, lld-19, llvm-19 and openssl (the fixture generator's tools), zip and unzip.
# Usage: bench/resign/run.sh [assets-MB] [runs]
set -eu
cd "$(dirname "$0")/../.."
ASSETS_MB="${1:-400}"
RUNS="${2:-3}"
swift build -c release --product betactl >/dev/null
BIN="$(swift build -c release --show-bin-path)/betactl"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# The app, signed as Xcode would with the generator's certificate, its dSYMs and profiles.
mkdir -p "$WORK/fixtures" "$WORK/gen" "$WORK/build/Payload"
cp -r Tests/Fixtures/formats/src "$WORK/fixtures/"
ZERO_AR_DATE=1 BETACTL_BENCH_ASSETS_MB="$ASSETS_MB" python3 Tests/Fixtures/formats/tools/make_fixtures.py "$WORK/fixtures" "$WORK/gen" >/dev/null
mv "$WORK/gen/payload-bench/Beta.app" "$WORK/build/Payload/"
(cd "$WORK/build" && zip -qry "$WORK/Big.ipa" Payload)
rm -rf "$WORK/build" "$WORK/gen"
# The new identity and profile, made as Tests/TestSupport/ResigningFixtures.swift makes them.
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -keyout "$WORK/key.pem" -out "$WORK/cert.pem" \
    -subj "/UID=ABCDE12345/CN=iPhone Distribution: Resigner (ABCDE12345)/OU=ABCDE12345/O=Resigner/C=US" 2>/dev/null
python3 - "$WORK" "$WORK/fixtures/profiles/beta_adhoc.mobileprovision" <<'PY'
import plistlib, subprocess, sys
work, source = sys.argv[1], sys.argv[2]
plist = subprocess.run(["openssl", "cms", "-verify", "-noverify", "-inform", "DER", "-in", source],
                       check=True, capture_output=True).stdout
profile = plistlib.loads(plist)
der = subprocess.run(["openssl", "x509", "-in", work + "/cert.pem", "-outform", "DER"], check=True, capture_output=True).stdout
profile["DeveloperCertificates"] = [der]
profile["Name"] = "Resigned Ad Hoc"
profile["UUID"] = "0b6e7a1c-2f00-4c5e-9d1a-5e7a000000ff"
profile["Entitlements"]["application-identifier"] = "ABCDE12345.*"
open(work + "/profile.plist", "wb").write(plistlib.dumps(profile))
subprocess.run(["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-in", work + "/profile.plist",
                "-signer", work + "/cert.pem", "-inkey", work + "/key.pem", "-out", work + "/new.mobileprovision"], check=True)
PY
python3 - "$BIN" "$WORK" "$RUNS" <<'PY'
import os, statistics, subprocess, sys, time
binary, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
ipa = f"{work}/Big.ipa"
dsyms = [f"{work}/fixtures/app/Beta.app.dSYM.zip", f"{work}/fixtures/app/BetaWidget.appex.dSYM.zip"]

def measure(commands):
    """Wall time of running the commands (argv, working directory) one after another, and the
    largest max RSS among them."""
    start = time.perf_counter()
    peak = 0
    for command, cwd in commands:
        pid = os.fork()
        if pid == 0:
            if cwd:
                os.chdir(cwd)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1); os.dup2(devnull, 2)
            os.execvp(command[0], command)
        _, status, usage = os.wait4(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"{' '.join(command)} failed")
        peak = max(peak, usage.ru_maxrss)
    return time.perf_counter() - start, peak

def betactl(home, *arguments):
    subprocess.run([binary, "--home", home, *arguments], check=True, stdout=subprocess.DEVNULL)

subprocess.run(["cat", ipa], check=True, stdout=subprocess.DEVNULL)  # warm the page cache for both sides
zips, resigns, tests, checks = [], [], [], []
for run in range(runs):
    extracted = f"{work}/x{run}"
    zips.append(measure([(["unzip", "-q", ipa, "-d", extracted], None), (["zip", "-qry", f"{work}/z{run}.ipa", "Payload"], extracted)]))
    files = sorted(os.path.join(d, f) for d, _, names in os.walk(extracted) for f in names)
    tests.append(measure([(["unzip", "-tqq", ipa], None), (["sha256sum", *files], None)]))
    subprocess.run(["rm", "-rf", extracted, f"{work}/z{run}.ipa"], check=True)
    home = f"{work}/home{run}"
    betactl(home, "init", "--team-id", "ABCDE12345")
    betactl(home, "release", ipa, *sum((["--dsym", d] for d in dsyms), []))
    betactl(home, "code-identity", "import", f"{work}/cert.pem", f"{work}/key.pem")
    resigns.append(measure([([binary, "--home", home, "resign", "1", "--profile", f"{work}/new.mobileprovision"], None)]))
    checks.append(measure([([binary, "check-signature", ipa], None)]))
    subprocess.run(["rm", "-rf", home], check=True)

def line(name, samples):
    return f"  {name:28}: {statistics.median(t for t, _ in samples):6.2f} s   peak RSS {max(m for _, m in samples) / 1024:6.1f} MB"

size_mb = os.path.getsize(ipa) / (1 << 20)
print(f"ipa: {size_mb:.0f} MB on disk, {runs} runs, median wall time")
print(line("unzip -q + zip -qr", zips))
print(line("betactl resign", resigns))
resign_ratio = statistics.median(t for t, _ in resigns) / statistics.median(t for t, _ in zips)
print(f"  ratio {resign_ratio:.2f}x ({'meets' if resign_ratio <= 0.5 else 'MISSES'} the 0.5x goal)")
print(line("unzip -t + sha256sum", tests))
print(line("betactl check-signature", checks))
check_ratio = statistics.median(t for t, _ in checks) / statistics.median(t for t, _ in tests)
print(f"  ratio {check_ratio:.2f}x ({'meets' if check_ratio <= 1 else 'MISSES'} the 1x goal)")
peak = max(m for _, m in resigns + checks) / 1024
print(f"  betactl peak RSS {peak:.1f} MB ({'meets' if peak < 100 else 'MISSES'} the 100 MB goal)")
PY
