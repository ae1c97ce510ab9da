#!/usr/bin/env bash
# The CPU seconds of the browser journeys' whole process tree: pytest and its workers, their `wdiet serve` processes,
# Chromium, Playwright's driver, and a throw-away PostgreSQL cluster of its own (started inside, so its daemons count
# too). On a shared machine wall time says little; CPU seconds are what the test command's phases compete for
# (docs/testing.md, "Where the browser journeys' time goes").
#
#   scripts/journeys-cpu.sh BINARY [pytest arguments]    default arguments: -q -n 2 --dist loadfile e2e
#
# BINARY is a copy of `wdiet` with its resource bundles beside it (cp .build/debug/wdiet /tmp/x/; cp -r
# .build/debug/*.resources /tmp/x/), so that no build replaces it mid-run. Runs in a cgroup of its own (cgroup v2, or
# v1's cpuacct), so it needs root. Prints the pytest summary, then one line: wall, user and system CPU seconds, and
# the 1-minute load average's lowest and highest value during the run (sampled every 30 s).
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$(realpath "$1")"; shift
[ $# -gt 0 ] || set -- -q -n 2 --dist loadfile e2e
name="wdiet-journeys-cpu-$$"
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    group="/sys/fs/cgroup/$name"; mkdir "$group"
    cpu_usec() { awk -v k="$1" '$1 == k {print $2}' "$group/cpu.stat"; }
    user() { cpu_usec user_usec; }; system() { cpu_usec system_usec; }; scale=1000000; parent=/sys/fs/cgroup
else
    group="/sys/fs/cgroup/cpuacct/$name"; mkdir "$group"
    user() { cat "$group/cpuacct.usage_user"; }; system() { cat "$group/cpuacct.usage_sys"; }; scale=1000000000; parent=/sys/fs/cgroup/cpuacct
fi
echo $$ > "$group/cgroup.procs"
pg_dir="$(mktemp -d "${TMPDIR:-/tmp}/wdiet-journeys-pg.XXXXXX")"
port="${WDIET_TEST_POSTGRES_PORT:-55499}"
WDIET_TEST_POSTGRES_URL="$(WDIET_PG_FSYNC=off scripts/postgres-test-cluster.sh start "$pg_dir" "$port")"
export WDIET_TEST_POSTGRES_URL
loads="$(mktemp)"
( while true; do cut -d' ' -f1 /proc/loadavg >>"$loads"; sleep 30; done ) 2>/dev/null &
sampler=$!
finish() {
    pkill -P "$sampler" 2>/dev/null || true  # its sleep, which would keep the cgroup from being removed
    kill "$sampler" 2>/dev/null || true
    scripts/postgres-test-cluster.sh stop "$pg_dir" || true
}
trap finish EXIT
user0=$(user); system0=$(system); start=$(date +%s.%N)
set +e
WDIET_BINARY="$binary" python3 -m pytest "$@"
status=$?
set -e
end=$(date +%s.%N)
finish; trap - EXIT
awk -v u="$(( $(user) - user0 ))" -v s="$(( $(system) - system0 ))" -v scale="$scale" -v start="$start" -v end="$end" \
    -v low="$(sort -n "$loads" | head -1)" -v high="$(sort -n "$loads" | tail -1)" \
    'BEGIN { printf "journeys: wall %.0f s, CPU %.1f s (user %.1f + system %.1f), load %s-%s\n", end - start, (u + s) / scale, u / scale, s / scale, low, high }'
rm -f "$loads"
echo $$ > "$parent/cgroup.procs" 2>/dev/null && rmdir "$group" 2>/dev/null || true
exit "$status"
