#!/bin/sh
# Testers' pages and downloads: `betactl serve` (the release build users run) side by side with Debian's
# nginx in one run, on the same machine. Prints ratios (betactl / nginx); see README.md for goals and
# the latest results.
#
#   /t/<token> of a tester with 5 devices and 20 releases, against nginx serving the same HTML saved
#   as a static file, at 50 connections; then the same while `betactl release` publishes a 300 MB ipa
#   beside it, again and again; then the 300 MB ipa downloaded through `betactl serve` and from nginx.
#
# Usage: bench/web/run.sh [SECONDS_PER_RUN]   (default 8; ROUNDS=3 alternating rounds, median).
# Needs nginx, wrk, python3, curl (`.ci/install-deps --test`).
set -eu
cd "$(dirname "$0")/../.."
DURATION=${1:-8}
ROUNDS=${ROUNDS:-3}
WORK=$(mktemp -d /tmp/betactl-web-bench.XXXXXX)
NGINX_PORT=18281
BETA_PORT=18282
SERVER_PID=""
LOADER_PID=""
cleanup() {
    [ -n "$LOADER_PID" ] && kill "$LOADER_PID" 2>/dev/null || true
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
    [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    sleep 0.5
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
ulimit -n 20000 2>/dev/null || true

for tool in nginx wrk python3 curl; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is missing (.ci/install-deps --test)" >&2; exit 1; }
done

echo "building betactl (release)..." >&2
swift build -c release --product betactl >/dev/null
BETACTL=$(swift build -c release --show-bin-path)/betactl
export BETACTL_HOME="$WORK/home"
APP=Tests/Fixtures/formats/app
IPHONE="Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1"

echo "seeding a home: 1 tester with 5 devices, 20 releases, and a 300 MB build..." >&2
"$BETACTL" init --public-url https://beta.example.com >/dev/null
TOKEN=$("$BETACTL" add-tester "Ann Lee" --email ann@example.com --group qa --json \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["page"].rsplit("/t/", 1)[1])')
n=0
for device in 00008030-0000000000000A01:iPhone15,2 00008101-0000000000000B02:iPad13,4 \
              00008110-0000000000000D04:iPhone16,1 00008120-0000000000000F06:iPad14,3 00008030-0000000000000A07:iPhone14,5; do
    n=$((n + 1))
    "$BETACTL" add-device ann@example.com "${device%%:*}" --model "${device#*:}" --name "Ann's device $n" >/dev/null
done
"$BETACTL" release "$APP/Beta.ipa" --dsym "$APP/Beta.app.dSYM.zip" --dsym "$APP/BetaWidget.appex.dSYM.zip" \
    --notes "Build 1. Release notes with a link: https://example.com/notes/1" >/dev/null 2>&1
for i in $(seq 2 20); do
    "$BETACTL" release "$APP/Beta.ipa" --again --notes "Build $i.

What's new: faster launch, fixed crashes. Details at https://example.com/notes/$i" >/dev/null 2>&1
done
python3 bench/ingest/make_ipa.py "$APP/Beta.xcarchive.zip" "$WORK/big.ipa" "$WORK/big.dSYM.zip" 300 >/dev/null
"$BETACTL" release "$WORK/big.ipa" --dsym "$WORK/big.dSYM.zip" --group big >/dev/null 2>&1
BIG_RELEASE=$("$BETACTL" releases --json | python3 -c 'import json, sys; print(max(r["id"] for r in json.load(sys.stdin)))')
BIG_SHA=$("$BETACTL" show-release "$BIG_RELEASE" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["sha256"])')
BIG_TOKEN=$("$BETACTL" add-tester "Big Downloader" --group big --json \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["page"].rsplit("/t/", 1)[1])')

"$BETACTL" serve --listen 127.0.0.1:$BETA_PORT --no-access-log 2>"$WORK/serve.log" &
SERVER_PID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$BETA_PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

# nginx serves the very page betactl renders, saved as a file at the same path, and a copy of the
# archived package on the same file system (the home itself is private to its owner, 0700).
CORES=$(nproc)
mkdir -p "$WORK/www/t" "$WORK/nginx"
chmod 755 "$WORK" "$WORK/www" "$WORK/www/t"
curl -s -A "$IPHONE" "http://127.0.0.1:$BETA_PORT/t/$TOKEN" -o "$WORK/www/t/$TOKEN"
cp "$WORK/home/blobs/$(echo "$BIG_SHA" | cut -c1-2)/$BIG_SHA" "$WORK/www/big.ipa"
chmod 644 "$WORK/www/t/$TOKEN" "$WORK/www/big.ipa"
cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes $CORES;
pid $WORK/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 8192; }
http {
    access_log off;
    sendfile on;
    keepalive_timeout 60s;
    keepalive_requests 100000000;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location /t/ { root $WORK/www; default_type "text/html; charset=utf-8"; }
        location = /big.ipa { root $WORK/www; default_type application/octet-stream; }
    }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" 2>/dev/null
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$NGINX_PORT/t/$TOKEN" >/dev/null 2>&1 && break; sleep 0.1; done
PAGE_BYTES=$(wc -c < "$WORK/www/t/$TOKEN")

# wrk_run PORT PATH CONNECTIONS -> "requests bytes duration_us errors"
wrk_run() {
    threads=2
    [ "$3" -lt 2 ] && threads=1
    wrk -t$threads -c"$3" -d"${DURATION}s" --timeout 30s -H "User-Agent: $IPHONE" -s bench/http/report.lua "http://127.0.0.1:$1$2" \
        | awk '/^RESULT/ { split($2,a,"="); split($3,b,"="); split($4,c,"="); split($5,d,"="); print a[2], b[2], c[2], d[2] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
rate() { set -- $(wrk_run "$1" "$2" "$3"); awk -v r="$1" -v u="$3" 'BEGIN { printf "%.0f", r * 1e6 / u }'; }
throughput() { set -- $(wrk_run "$1" "$2" "$3"); awk -v b="$2" -v u="$3" 'BEGIN { printf "%.0f", b / u }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
paired() { # METRIC PATH_NGINX PATH_BETA CONNECTIONS: alternating rounds, so noise hits both alike
    a=""; b=""
    for _ in $(seq "$ROUNDS"); do
        a="$a $($1 $NGINX_PORT "$2" "$4")"
        b="$b $($1 $BETA_PORT "$3" "$4")"
    done
    echo "$(median $a) $(median $b)"
}
rss_mb() { ps -o rss= -p "$1" | awk '{ printf "%d", $1 / 1024 }'; }

echo "# Web bench ($(date -u +%Y-%m-%dT%H:%MZ), $CORES cores, ${DURATION}s per run, median of $ROUNDS alternating rounds)"
echo
echo "The tester page is $PAGE_BYTES bytes (5 devices, 20 releases); nginx serves the same bytes from a file."
echo
echo "## /t/<token>, requests/s at 50 connections (wrk, keep-alive, iPhone User-Agent)"
echo "| condition | nginx | betactl serve | ratio | goal |"
echo "|---|---|---|---|---|"
set -- $(paired rate "/t/$TOKEN" "/t/$TOKEN" 50)
echo "| quiet | $1 | $2 | $(ratio "$2" "$1") | >= 0.3 |"
# A 300 MB release running beside the server, over and over, for the whole measurement.
( while :; do "$BETACTL" release "$WORK/big.ipa" --dsym "$WORK/big.dSYM.zip" --again --group big >/dev/null 2>&1 || true; done ) &
LOADER_PID=$!
sleep 1
set -- $(paired rate "/t/$TOKEN" "/t/$TOKEN" 50)
kill "$LOADER_PID" 2>/dev/null || true
wait "$LOADER_PID" 2>/dev/null || true
LOADER_PID=""
pkill -f "betactl release $WORK/big.ipa" 2>/dev/null || true
echo "| while \`betactl release\` of a 300 MB ipa runs | $1 | $2 | $(ratio "$2" "$1") | >= 0.3 |"
echo
echo "## The 300 MB ipa download, MB/s (sendfile)"
echo "| clients | nginx | betactl serve | ratio | goal |"
echo "|---|---|---|---|---|"
for clients in 1 8; do
    set -- $(paired throughput /big.ipa "/t/$BIG_TOKEN/releases/$BIG_RELEASE/app.ipa" $clients)
    echo "| $clients | $1 | $2 | $(ratio "$2" "$1") | >= 0.9 |"
done
echo
echo "betactl serve resident memory at the end: $(rss_mb $SERVER_PID) MB."
