#!/bin/sh
# HTTP engine benchmark: BetaServerHost and Debian's nginx side by side, same files, same machine, one run.
# Prints ratios (betactl / nginx). See README.md for the goals and the latest results.
#
# Usage: bench/http/run.sh [SECONDS_PER_RUN]   (default 8). Needs nginx, wrk, python3, curl.
set -eu
cd "$(dirname "$0")/../.."
DURATION=${1:-8}
WORK=$(mktemp -d /tmp/betactl-http-bench.XXXXXX)
NGINX_PORT=18181
BETA_PORT=18182
SERVER_PID=""
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null || true
    [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    sleep 0.5
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
ulimit -n 20000 2>/dev/null || true

for tool in nginx wrk python3 curl; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done

echo "building BetaServerHost (release)..." >&2
swift build -c release --product BetaServerHost >/dev/null
HOST_BIN=$(swift build -c release --show-bin-path)/BetaServerHost

mkdir -p "$WORK/files" "$WORK/nginx"
chmod 755 "$WORK" "$WORK/files"  # nginx workers run unprivileged
head -c 209715200 /dev/urandom > "$WORK/files/big.bin"
CORES=$(nproc)
BODY="Hello, world! This is a small in-memory response."
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
        location = /hello { default_type text/plain; return 200 "$BODY\n"; }
        location /files/ { alias $WORK/files/; }
    }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" 2>/dev/null
"$HOST_BIN" --listen 127.0.0.1:$BETA_PORT --root "$WORK/files" --loops "$CORES" --max-connections 20000 2>"$WORK/beta.log" &
SERVER_PID=$!
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$BETA_PORT/healthz" >/dev/null 2>&1 && curl -sf "http://127.0.0.1:$NGINX_PORT/hello" >/dev/null 2>&1 && break
    sleep 0.1
done

# wrk_run PORT PATH CONNECTIONS -> "requests bytes duration_us errors"
wrk_run() {
    threads=2
    [ "$3" -lt 2 ] && threads=1
    wrk -t$threads -c"$3" -d"${DURATION}s" --timeout 30s -s bench/http/report.lua "http://127.0.0.1:$1$2" \
        | awk '/^RESULT/ { split($2,a,"="); split($3,b,"="); split($4,c,"="); split($5,d,"="); print a[2], b[2], c[2], d[2] }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
rss_kb() { ps -o rss= -p "$1" | tr -d ' '; }
nginx_rss_kb() { ps -o rss= --ppid "$(cat "$WORK/nginx.pid")" | awk '{ s += $1 } END { print s }'; }

# rate PORT PATH CONNECTIONS -> requests/s ; throughput PORT PATH CONNECTIONS -> MB/s
rate() { set -- $(wrk_run "$1" "$2" "$3"); awk -v r="$1" -v u="$3" 'BEGIN { printf "%.0f", r * 1e6 / u }'; }
throughput() { set -- $(wrk_run "$1" "$2" "$3"); awk -v b="$2" -v u="$3" 'BEGIN { printf "%.0f", b / u }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Runs nginx and betactl alternately ROUNDS times so machine noise hits both alike; prints the two medians.
ROUNDS=${ROUNDS:-3}
paired() { # METRIC PATH_NGINX PATH_BETA CONNECTIONS
    a=""; b=""
    for _ in $(seq "$ROUNDS"); do
        a="$a $($1 $NGINX_PORT "$2" "$4")"
        b="$b $($1 $BETA_PORT "$3" "$4")"
    done
    echo "$(median $a) $(median $b)"
}

echo "# HTTP bench ($(date -u +%Y-%m-%dT%H:%MZ), $CORES cores, ${DURATION}s per run, median of $ROUNDS alternating rounds)"
echo
echo "## 200 MB file (sendfile), throughput in MB/s"
echo "| clients | nginx | betactl | ratio | goal |"
echo "|---|---|---|---|---|"
for clients in 8 64; do
    set -- $(paired throughput /files/big.bin /files/big.bin $clients)
    echo "| $clients | $1 | $2 | $(ratio "$2" "$1") | >= 0.9 |"
done
echo
echo "## Small in-memory response, requests/s (wrk, keep-alive)"
echo "| connections | nginx | betactl (event-loop route) | ratio | betactl (concurrent route) | ratio | goal |"
echo "|---|---|---|---|---|---|---|"
for connections in 50 100 256; do
    set -- $(paired rate /hello /hello $connections); n_rps=$1; b_rps=$2
    p_rps=$(rate $BETA_PORT /hello-pool $connections)
    echo "| $connections | $n_rps | $b_rps | $(ratio "$b_rps" "$n_rps") | $p_rps | $(ratio "$p_rps" "$n_rps") | >= 0.5 |"
done
echo
echo "## 1,000 idle keep-alive connections, resident memory"
before=$(rss_kb $SERVER_PID)
python3 bench/http/idle.py $BETA_PORT 1000 4 /hello > "$WORK/idle.out" &
IDLE=$!
for _ in $(seq 200); do grep -q READY "$WORK/idle.out" 2>/dev/null && break; sleep 0.1; done
sleep 1
during=$(rss_kb $SERVER_PID)
held=$(grep READY "$WORK/idle.out" | awk '{ print $2 }')
wait $IDLE
n_before=$(nginx_rss_kb)
python3 bench/http/idle.py $NGINX_PORT 1000 4 /hello > "$WORK/idle-nginx.out" &
IDLE=$!
for _ in $(seq 200); do grep -q READY "$WORK/idle-nginx.out" 2>/dev/null && break; sleep 0.1; done
sleep 1
n_during=$(nginx_rss_kb)
wait $IDLE
echo "Connections held open by the client: ${held:-0}."
echo
echo "| server | RSS before | RSS with 1,000 idle | goal |"
echo "|---|---|---|---|"
echo "| betactl | $((before / 1024)) MB | $((during / 1024)) MB | < 64 MB |"
echo "| nginx (workers) | $((n_before / 1024)) MB | $((n_during / 1024)) MB | |"
echo
echo "## 500 slowloris connections open during wrk (50 connections), requests/s"
echo "Each round measures a normal run, then a run with 500 slowloris connections trickling header lines."
echo
echo "| server | normal | with slowloris | ratio | goal |"
echo "|---|---|---|---|---|"
for target in "betactl $BETA_PORT" "nginx $NGINX_PORT"; do
    set -- $target; name=$1; port=$2
    normal=""; slowed=""
    for _ in $(seq "$ROUNDS"); do
        normal="$normal $(rate "$port" /hello 50)"
        python3 bench/http/slowloris.py "$port" 500 $((DURATION + 3)) 1 > "$WORK/slow.out" &
        SLOW=$!
        for _ in $(seq 100); do grep -q OPEN "$WORK/slow.out" 2>/dev/null && break; sleep 0.1; done
        slowed="$slowed $(rate "$port" /hello 50)"
        wait $SLOW || true
    done
    n=$(median $normal); w=$(median $slowed)
    echo "| $name | $n | $w | $(ratio "$w" "$n") | >= 0.9 |"
done
