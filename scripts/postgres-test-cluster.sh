#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests: `start DIR PORT` creates and starts it in DIR (trust auth,
# loopback and a socket in DIR) and prints its URL; `stop DIR` stops it and deletes DIR.
# PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user Debian's package creates.
# WDIET_PG_FSYNC=off starts it without fsync (and so without synchronous commits and full-page writes): what the
# test command does, since every test database there is thrown away. Each test's DROP DATABASE waits for a
# checkpoint, and with fsync those waited 60-100 s behind each other in the full suite (pg_stat_activity: IPC
# CheckpointStart/CheckpointDone). The benchmarks keep the default, fsync on, as a real deployment has it.
set -euo pipefail
action="$1"; dir="$2"; port="${3:-55432}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
as_owner=()
if [ "$(id -u)" -eq 0 ]; then as_owner=(runuser -u postgres --); fi
case "$action" in
start)
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown postgres "$dir"; fi
    "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1
    durability="-c fsync=on -c synchronous_commit=on"
    case "${WDIET_PG_FSYNC:-on}" in
        on) ;;
        off) durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off" ;;
        *) echo "WDIET_PG_FSYNC is on or off, not $WDIET_PG_FSYNC" >&2; exit 2 ;;
    esac
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/log" \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=1000 $durability" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
stop)
    if [ -d "$dir/data" ]; then "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true; fi
    rm -rf "$dir"
    ;;
*) echo "usage: $0 start DIR [PORT] | stop DIR" >&2; exit 2 ;;
esac
