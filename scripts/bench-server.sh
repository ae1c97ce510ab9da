#!/usr/bin/env bash
# The server load benchmark of issue 3: `wdiet serve` (release build) over loopback, on a database seeded with
# 1,000 users × 365 days (5 meals and 1 weight a day), under wrk with 2 threads and 32 connections for the
# dashboard, food search and meal save, one after another. Prints P50/P90/P95/P99, requests/s and the non-2xx
# count of each (must be 0).
#
#   scripts/bench-server.sh [--dir DIR] [--duration 20s] [--connections 32] [--threads 2] [--users 1000] [--days 365]
#                           [--only dashboard|search|meal-save] [--binary PATH [--dev-binary PATH]] [--serve-args "ARGS"] [--rate N]
#                           [--postgres [--postgres-port 55452] | --database postgres://… [--tokens FILE] [--postgres-data DIR]]
#
# --postgres runs the same load on PostgreSQL: a throw-away cluster (scripts/postgres-test-cluster.sh, in a
# temporary folder, on --postgres-port) is started, seeded with `wdiet-dev seed --database postgres://…` and stopped and
# deleted at the end. --database runs it on an existing PostgreSQL database instead, which is seeded (replacing its
# users) unless --tokens names the tokens file of an earlier seed of it; note that the meal-save run leaves its meals
# there. On PostgreSQL the summary adds the CPU the database's processes used per request (with --database, when
# --postgres-data names the cluster's data folder on this machine).
#
# --rate N paces the load at N requests a second over all the connections, open-loop (scripts/wrk/common.lua):
# each wrk thread keeps a Poisson timeline of send times at N / threads, and a free connection waits for the next
# slot instead of sending at once. Below saturation the server then sees N a second, whatever its latency. Without
# it every connection is always busy and the latencies are mostly the queue's (connections / throughput: the
# throughput figure); with it they are those of a server at that load (the latency figure). wrk times a request
# from its send, not from its slot, so at or above saturation (the summary's "late" share above ~0) the paced
# latencies understate the queue: state such a run by the rate it served, not the one offered. The summary gives
# the offered rate, the rate served (wrk's answers) and, for the meal save, the rate of meals the database gained.
#
# --binary runs a wdiet binary built elsewhere instead of building one: keep a copy of the old build to compare two
# builds in alternating runs. A seed is made by the developer tool `wdiet-dev seed`, built (release) when a seed is
# needed, or the one --dev-binary names. --serve-args adds options to `wdiet serve` (e.g. "--executor swift-pool").
#
# Next to the latencies it prints the CPU time the server and wrk used per request (from /proc and getrusage),
# which neighbours on the machine disturb much less than latencies: with C connections always busy, the mean
# latency is C / throughput (Little's law), and throughput is bounded by 2 cores / (CPU per request).
#
# The seeded database and its tokens stay in DIR (default: $TMPDIR/wdiet-bench-server) and are reused by the next
# run; delete DIR to seed anew. The server runs on a fresh copy of the seeded file (DIR/run.sqlite), so that the
# meals the meal-save run adds never reach a later dashboard run (which would then read dozens of meals a day
# instead of the seeded five).
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
ONLY="dashboard search meal-save"
BINARY=""
DEV_BINARY=""
SERVE_ARGS=""
RATE=""
POSTGRES=""
POSTGRES_PORT=55452
DATABASE_URL=""
PG_TOKENS=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dir) DIR="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --connections) CONNECTIONS="$2"; shift 2 ;;
        --users) USERS="$2"; shift 2 ;;
        --days) DAYS="$2"; shift 2 ;;
        --threads) THREADS="$2"; shift 2 ;;
        --only) ONLY="$2"; shift 2 ;;
        --port) PORT="$2"; shift 2 ;;
        --binary) BINARY="$2"; shift 2 ;;
        --dev-binary) DEV_BINARY="$2"; shift 2 ;;
        --serve-args) SERVE_ARGS="$2"; shift 2 ;;
        --rate) RATE="$2"; shift 2 ;;
        --postgres) POSTGRES=1; shift ;;
        --postgres-port) POSTGRES_PORT="$2"; shift 2 ;;
        --database) DATABASE_URL="$2"; shift 2 ;;
        --tokens) PG_TOKENS="$2"; shift 2 ;;
        --postgres-data) PG_DATA="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
if [ -n "$RATE" ]; then
    case "$RATE" in *[!0-9]*|0*) echo "--rate takes a whole number of requests a second above 0, not $RATE" >&2; exit 2 ;; esac
    export WDIET_RATE="$RATE"  # read by scripts/wrk/common.lua
fi

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
need_packages=()
command -v wrk >/dev/null 2>&1 || need_packages+=(wrk)
command -v curl >/dev/null 2>&1 || need_packages+=(curl)
command -v sqlite3 >/dev/null 2>&1 || need_packages+=(sqlite3)
dpkg -s libsqlite3-dev >/dev/null 2>&1 || need_packages+=(libsqlite3-dev)
if [ ${#need_packages[@]} -gt 0 ]; then
    echo "Installing ${need_packages[*]} ..."
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_packages[@]}"
fi

SCRATCH="${WDIET_BENCH_SCRATCH:-.build-perf}"
if [ -n "$BINARY" ]; then
    WDIET="$BINARY"
else
    echo "== Building wdiet (release, --scratch-path $SCRATCH)"
    swift build -c release --product wdiet --scratch-path "$SCRATCH"
    WDIET="$SCRATCH/release/wdiet"
fi
# `wdiet-dev seed`, built only when a seed is needed and none is at hand.
seed() {
    local tool="$DEV_BINARY"
    if [ -z "$tool" ]; then
        echo "== Building wdiet-dev (release, --scratch-path $SCRATCH)"
        swift build -c release --product wdiet-dev --scratch-path "$SCRATCH"
        tool="$SCRATCH/release/wdiet-dev"
    fi
    "$tool" seed "$@"
}

mkdir -p "$DIR"
PG_CLUSTER=""
PG_POSTMASTER=""
# --postgres-data: the data folder of the --database cluster, when it is on this machine, for its CPU per request.
if [ -n "${PG_DATA:-}" ]; then PG_POSTMASTER="$(head -1 "$PG_DATA/postmaster.pid")"; fi
cleanup() {
    if [ -n "${SERVER:-}" ] && kill -0 "$SERVER" 2>/dev/null; then
        kill -TERM "$SERVER"
        wait "$SERVER" || echo "wdiet serve exited with $?" >&2
    fi
    if [ -n "$PG_CLUSTER" ]; then scripts/postgres-test-cluster.sh stop "$PG_CLUSTER"; fi
}
trap cleanup EXIT
if [ -n "$POSTGRES" ]; then
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || {
        $SUDO apt-get update -qq; DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql; }
    PG_CLUSTER="$(mktemp -d "${TMPDIR:-/tmp}/wdiet-bench-pg.XXXXXX")"
    echo "== Starting a throw-away PostgreSQL cluster in $PG_CLUSTER on port $POSTGRES_PORT"
    DATABASE_URL="$(scripts/postgres-test-cluster.sh start "$PG_CLUSTER" "$POSTGRES_PORT")"
    PG_POSTMASTER="$(head -1 "$PG_CLUSTER/data/postmaster.pid")"
fi
if [ -n "$DATABASE_URL" ]; then
    if [ -n "$PG_TOKENS" ]; then
        TOKENS="$PG_TOKENS"
        echo "== Reusing the seeded PostgreSQL database (tokens in $TOKENS)"
    else
        TOKENS="$DIR/postgres-${USERS}x${DAYS}.tokens"
        echo "== Seeding PostgreSQL ($USERS users × $DAYS days)"
        seed_began=$(date +%s)
        seed --users "$USERS" --days "$DAYS" --database "$DATABASE_URL" --tokens-out "$TOKENS" --force
        echo "== Seeded in $(( $(date +%s) - seed_began )) s"
    fi
    SERVE_DATABASE="$DATABASE_URL"
    echo "== Starting wdiet serve on 127.0.0.1:$PORT (PostgreSQL)"
else
    DB="$DIR/seed-${USERS}x${DAYS}.sqlite"
    TOKENS="$DIR/seed-${USERS}x${DAYS}.tokens"
    if [ -s "$DB" ] && [ -s "$TOKENS" ]; then
        echo "== Reusing the seeded database $DB"
    else
        echo "== Seeding $DB"
        seed --users "$USERS" --days "$DAYS" --database "$DB" --tokens-out "$TOKENS" --force
    fi

    RUN_DB="$DIR/run.sqlite"
    rm -f "$RUN_DB" "$RUN_DB-wal" "$RUN_DB-shm"
    cp "$DB" "$RUN_DB"
    if [ -f "$DB-wal" ]; then cp "$DB-wal" "$RUN_DB-wal"; fi
    SERVE_DATABASE="$RUN_DB"
    echo "== Starting wdiet serve on 127.0.0.1:$PORT (on a copy of the seeded file)"
fi
# shellcheck disable=SC2086 # SERVE_ARGS is a list of options
"$WDIET" serve --hostname 127.0.0.1 --port "$PORT" --database "$SERVE_DATABASE" --log-level warning $SERVE_ARGS > "$DIR/serve.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 300); do
    curl -fsS -o /dev/null "http://127.0.0.1:$PORT/api/v1/openapi.yaml" 2>/dev/null && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$DIR/serve.log" >&2; exit 1; }
    sleep 0.2
done
curl -fsS -o /dev/null -H "Authorization: Bearer $(head -1 "$TOKENS")" "http://127.0.0.1:$PORT/api/v1/dashboard"

export WDIET_TOKENS="$TOKENS"
RESULTS=()
# utime + stime of a process, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# The same for the PostgreSQL cluster: the postmaster and its children (the server's connections, the WAL writer,
# the checkpointer…); 0 when the database is not ours.
postgres_ticks() {
    if [ -z "$PG_POSTMASTER" ]; then echo 0; return; fi
    # shellcheck disable=SC2046 # one path per process
    cat "/proc/$PG_POSTMASTER/stat" $(for child in $(cat "/proc/$PG_POSTMASTER/task/$PG_POSTMASTER/children" 2>/dev/null); do echo "/proc/$child/stat"; done) 2>/dev/null \
        | awk '{ sum += $14 + $15 } END { print sum + 0 }'
}
TICKS_PER_SECOND=$(getconf CLK_TCK)
# The meals the database holds: the server's own count of the saves it committed, against wrk's count of answers.
meal_rows() {
    if [ -n "$DATABASE_URL" ]; then psql "$DATABASE_URL" -Atqc "SELECT count(*) FROM meals"
    else sqlite3 "$RUN_DB" "SELECT count(*) FROM meals"; fi
}
# "search" is measured twice: the 80 queries of search.lua, which the server's page cache answers once warm, and
# search-uncached.lua, where every query is new (what a search costs when nobody typed the same before).
ONLY=$(echo " $ONLY " | sed 's/ search / search search-uncached /')
export WDIET_THREADS="$THREADS"  # read by scripts/wrk/common.lua (pacing) and search-uncached.lua
for bench in $ONLY; do
    if [ -n "$RATE" ]; then echo "== paced at $RATE requests a second over the $CONNECTIONS connections (WDIET_RATE=$RATE)"; fi
    echo "== wrk --latency -t$THREADS -c$CONNECTIONS -d$DURATION -s scripts/wrk/$bench.lua http://127.0.0.1:$PORT"
    # A short warm-up (caches, the pool's readers, the file's pages), not counted.
    wrk -t"$THREADS" -c"$CONNECTIONS" -d3s -s "scripts/wrk/$bench.lua" "http://127.0.0.1:$PORT" > /dev/null
    meals_before=""; [ "$bench" = "meal-save" ] && meals_before=$(meal_rows)
    load_before=$(cut -d' ' -f1 /proc/loadavg)
    server_before=$(cpu_ticks "$SERVER")
    postgres_before=$(postgres_ticks)
    output=$( { /usr/bin/env time -f "WRKCPU %U %S" wrk --latency -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" -s "scripts/wrk/$bench.lua" "http://127.0.0.1:$PORT"; } 2>&1 )
    server_after=$(cpu_ticks "$SERVER")
    postgres_after=$(postgres_ticks)
    saved_rps="-"
    if [ -n "$meals_before" ]; then
        seconds=$(echo "$output" | grep '^RESULT' | tr ' ' '\n' | grep '^seconds=' | cut -d= -f2)
        saved_rps=$(awk -v n=$(( $(meal_rows) - meals_before )) -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
    fi
    echo "$output" | grep -v '^WRKCPU'
    requests=$(echo "$output" | grep '^RESULT' | tr ' ' '\n' | grep '^requests=' | cut -d= -f2)
    server_ms=$(awk -v t=$((server_after - server_before)) -v hz="$TICKS_PER_SECOND" -v n="$requests" 'BEGIN { printf "%.3f", t * 1000 / hz / n }')
    wrk_ms=$(echo "$output" | awk -v n="$requests" '/^WRKCPU/ { printf "%.3f", ($2 + $3) * 1000 / n }')
    postgres_ms="-"
    [ -n "$PG_POSTMASTER" ] && postgres_ms=$(awk -v t=$((postgres_after - postgres_before)) -v hz="$TICKS_PER_SECOND" -v n="$requests" 'BEGIN { printf "%.3f", t * 1000 / hz / n }')
    RESULTS+=("$(echo "$output" | grep '^RESULT') server_cpu_ms=$server_ms wrk_cpu_ms=$wrk_ms postgres_cpu_ms=$postgres_ms saved_rps=$saved_rps load=$load_before→$(cut -d' ' -f1 /proc/loadavg)")
done

LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"
cleanup
trap - EXIT

echo
BACKEND="SQLite"; [ -n "$DATABASE_URL" ] && BACKEND="PostgreSQL"
echo "== Summary ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load average $LOAD, $BACKEND, $USERS users × $DAYS days, wrk -t$THREADS -c$CONNECTIONS -d$DURATION${RATE:+, paced at $RATE req/s})"
# offered: --rate; req/s: wrk's answers (served); saved/s: meals the database gained; late: requests sent over 1 ms
# after their slot (not ~0: saturated, see --rate); load: the 1-minute load average at the run's start → end.
printf '%-15s %9s %9s %9s %9s %9s %8s %8s %8s %6s %7s %14s %12s %13s %11s\n' what P50 P90 P95 P99 max offered req/s saved/s late non-2xx "server CPU/req" "wrk CPU/req" "PG CPU/req" load
for line in "${RESULTS[@]}"; do
    get() { echo "$line" | tr ' ' '\n' | grep "^$1=" | cut -d= -f2 || true; }
    offered="$(get offered)"; late="$(get late_pct)"; late="${late:+$late%}"
    printf '%-15s %6s ms %6s ms %6s ms %6s ms %6s ms %8s %8s %8s %6s %7s %11s ms %9s ms %10s ms %11s\n' "$(get name)" "$(get p50_ms)" "$(get p90_ms)" "$(get p95_ms)" "$(get p99_ms)" "$(get max_ms)" "${offered:--}" "$(get rps)" "$(get saved_rps)" "${late:--}" "$(get non2xx)" "$(get server_cpu_ms)" "$(get wrk_cpu_ms)" "$(get postgres_cpu_ms)" "$(get load)"
    [ "$(get non2xx)" = "0" ] && [ "$(get socket_errors)" = "0" ] || { echo "FAILED: non-2xx responses or socket errors in $(get name)" >&2; exit 1; }
done
