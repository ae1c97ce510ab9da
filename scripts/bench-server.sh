#!/usr/bin/env bash
# The server load benchmark of issue 3: `wdiet serve` (release build) over loopback, on a database seeded with
# 1,000 users × 365 days (5 meals and 1 weight a day), under wrk with 2 threads and 32 connections for the
# dashboard, food search and meal save, one after another. Prints P50/P90/P95/P99, requests/s and the non-2xx
# count of each (must be 0).
#
#   scripts/bench-server.sh [--dir DIR] [--duration 20s] [--connections 32] [--users 1000] [--days 365]
#
# The seeded database and its tokens stay in DIR (default: $TMPDIR/wdiet-bench-server) and are reused by the next
# run; delete DIR to seed anew. The meal-save run adds meals to that database (run order: dashboard, search, meals).
# Installs wrk (Debian) when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

DIR="${TMPDIR:-/tmp}/wdiet-bench-server"
DURATION=20s
CONNECTIONS=32
THREADS=2
USERS=1000
DAYS=365
PORT=18089
while [ $# -gt 0 ]; do
    case "$1" in
        --dir) DIR="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --users) USERS="$2"; shift 2 ;;
        --days) DAYS="$2"; shift 2 ;;
        --port) PORT="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
need_packages=()
command -v wrk >/dev/null 2>&1 || need_packages+=(wrk)
command -v curl >/dev/null 2>&1 || need_packages+=(curl)
dpkg -s libsqlite3-dev >/dev/null 2>&1 || need_packages+=(libsqlite3-dev)
if [ ${#need_packages[@]} -gt 0 ]; then
    echo "Installing ${need_packages[*]} ..."
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_packages[@]}"
fi

SCRATCH="${WDIET_BENCH_SCRATCH:-.build-perf}"
echo "== Building wdiet (release, --scratch-path $SCRATCH)"
swift build -c release --product wdiet --scratch-path "$SCRATCH"
WDIET="$SCRATCH/release/wdiet"

mkdir -p "$DIR"
DB="$DIR/seed-${USERS}x${DAYS}.sqlite"
TOKENS="$DIR/seed-${USERS}x${DAYS}.tokens"
if [ -s "$DB" ] && [ -s "$TOKENS" ]; then
    echo "== Reusing the seeded database $DB"
else
    echo "== Seeding $DB"
    "$WDIET" seed --users "$USERS" --days "$DAYS" --database "$DB" --tokens-out "$TOKENS" --force
fi

echo "== Starting wdiet serve on 127.0.0.1:$PORT"
"$WDIET" serve --hostname 127.0.0.1 --port "$PORT" --database "$DB" --log-level warning > "$DIR/serve.log" 2>&1 &
SERVER=$!
stop_server() {
    if kill -0 "$SERVER" 2>/dev/null; then
        kill -TERM "$SERVER"
        wait "$SERVER" || echo "wdiet serve exited with $?" >&2
    fi
}
trap stop_server EXIT
for _ in $(seq 1 300); do
    curl -fsS -o /dev/null "http://127.0.0.1:$PORT/api/v1/openapi.yaml" 2>/dev/null && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$DIR/serve.log" >&2; exit 1; }
    sleep 0.2
done
curl -fsS -o /dev/null -H "Authorization: Bearer $(head -1 "$TOKENS")" "http://127.0.0.1:$PORT/api/v1/dashboard"

export WDIET_TOKENS="$TOKENS"
RESULTS=()
for bench in dashboard search meal-save; do
    echo "== wrk --latency -t$THREADS -c$CONNECTIONS -d$DURATION -s scripts/wrk/$bench.lua http://127.0.0.1:$PORT"
    # A short warm-up (caches, the pool's readers), not counted.
    wrk -t"$THREADS" -c"$CONNECTIONS" -d2s -s "scripts/wrk/$bench.lua" "http://127.0.0.1:$PORT" > /dev/null
    output=$(wrk --latency -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "scripts/wrk/$bench.lua" "http://127.0.0.1:$PORT")
    echo "$output"
    RESULTS+=("$(echo "$output" | grep '^RESULT')")
done

stop_server
trap - EXIT

echo
echo "== Summary ($(date -u +%Y-%m-%d), $(nproc) cores, $USERS users × $DAYS days, wrk -t$THREADS -c$CONNECTIONS -d$DURATION)"
printf '%-10s %9s %9s %9s %9s %9s %10s %7s\n' what P50 P90 P95 P99 max req/s non-2xx
for line in "${RESULTS[@]}"; do
    get() { echo "$line" | tr ' ' '\n' | grep "^$1=" | cut -d= -f2; }
    printf '%-10s %7s ms %6s ms %6s ms %6s ms %6s ms %10s %7s\n' "$(get name)" "$(get p50_ms)" "$(get p90_ms)" "$(get p95_ms)" "$(get p99_ms)" "$(get max_ms)" "$(get rps)" "$(get non2xx)"
    [ "$(get non2xx)" = "0" ] && [ "$(get socket_errors)" = "0" ] || { echo "FAILED: non-2xx responses or socket errors in $(get name)" >&2; exit 1; }
done
