#!/usr/bin/env bash
# PostgreSQL: media bytes in a `bytea` table against large objects — the measurement behind docs/media.md ("Where the
# bytes are stored"). Makes a throw-away database on the cluster given, fills a source table with random items,
# then times, for each layout: inserting every item, reading every item back (md5 of each), deleting them; and
# reports the WAL each insert wrote and the size on disk before vacuum. The database is dropped at the end.
#
#   scripts/bench-media-storage.sh postgres://postgres@127.0.0.1:55433/postgres [ITEMS (300)] [KB per item (400)]
set -euo pipefail
URL="${1:?usage: $0 POSTGRES_URL [ITEMS] [KB]}"
ITEMS="${2:-300}"
KB="${3:-400}"
DB="wdiet_media_storage_bench_$$"
psql "$URL" -qAt -c "CREATE DATABASE $DB" >/dev/null
trap 'psql "$URL" -qAt -c "DROP DATABASE IF EXISTS $DB" >/dev/null' EXIT
BENCH_URL="${URL%/*}/$DB"

run() { psql "$BENCH_URL" -qAt -v ON_ERROR_STOP=1 "$@"; }
# Seconds a statement takes, measured by the server (clock_timestamp around it in one DO block would hide the
# commit; psql's \timing includes the round trip, which is what a server pays too).
timed() {
    local started ended
    started=$(date +%s.%N)
    run -c "$1" >/dev/null
    ended=$(date +%s.%N)
    python3 -c "print(f'{$ended - $started:.2f} s')"
}
wal_now() { run -c "SELECT pg_current_wal_lsn()"; }
wal_since() { run -c "SELECT pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), '$1'))"; }

# Random bytes (incompressible, as JPEG and recordings are): 16 bytes of md5 at a time.
run -c "CREATE TABLE source (id int PRIMARY KEY, data bytea NOT NULL)"
run -c "INSERT INTO source SELECT i, (SELECT string_agg(decode(md5(random()::text || i || j), 'hex'), ''::bytea)
        FROM generate_series(1, $KB * 64) j) FROM generate_series(1, $ITEMS) i"
run -c "CREATE TABLE media (id int PRIMARY KEY, data bytea NOT NULL)"
run -c "ALTER TABLE media ALTER COLUMN data SET STORAGE EXTERNAL"
run -c "CREATE TABLE media_lo (id int PRIMARY KEY, oid oid NOT NULL)"
run -c "CHECKPOINT"

echo "$ITEMS items of $KB KB, PostgreSQL $(run -c 'SHOW server_version'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %-14s %-14s\n' "" "bytea table" "large objects"

wal=$(wal_now); bytea_insert=$(timed "INSERT INTO media SELECT id, data FROM source"); bytea_wal=$(wal_since "$wal")
wal=$(wal_now); lo_insert=$(timed "INSERT INTO media_lo SELECT id, lo_from_bytea(0, data) FROM source"); lo_wal=$(wal_since "$wal")
printf '%-28s %-14s %-14s\n' "insert all" "$bytea_insert" "$lo_insert"
printf '%-28s %-14s %-14s\n' "WAL written" "$bytea_wal" "$lo_wal"
for round in 1 2; do
    bytea_read=$(timed "SELECT count(DISTINCT md5(data)) FROM media")
    lo_read=$(timed "SELECT count(DISTINCT md5(lo_get(oid))) FROM media_lo")
    printf '%-28s %-14s %-14s\n' "read all back, round $round" "$bytea_read" "$lo_read"
done
bytea_size=$(run -c "SELECT pg_size_pretty(pg_total_relation_size('media'))")
lo_size=$(run -c "SELECT pg_size_pretty(pg_total_relation_size('pg_largeobject'))")
printf '%-28s %-14s %-14s\n' "on disk before vacuum" "$bytea_size" "$lo_size"
bytea_delete=$(timed "DELETE FROM media")
lo_delete=$(timed "SELECT count(lo_unlink(oid)) FROM media_lo; DELETE FROM media_lo")
printf '%-28s %-14s %-14s\n' "delete all" "$bytea_delete" "$lo_delete"
