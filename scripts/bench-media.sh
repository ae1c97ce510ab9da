#!/usr/bin/env bash
# The media benchmarks of issue 18 (docs/benchmarks.md, "Media"), against a release `wdiet serve` on a fresh SQLite
# file (or --database postgres://…) over loopback:
#
# 1. Photo upload: a 12-megapixel photo (4000×3000, made here with libvips: a colour gradient under Gaussian noise,
#    JPEG quality 92, with GPS and orientation EXIF written by exiftool; a phone-like HEIC, and the JPEG's picture as a
#    one-image HEIC: see below) uploaded
#    --uploads times each with `curl -T` under new ids; prints each request's time (the whole PUT: upload over
#    loopback, vipsheader, vipsthumbnail for the display JPEG and the thumbnail, the store's write) and the median.
# 2. Meal saves while photos upload: wrk with scripts/wrk/meal-save.lua, paced at --rate saves a second over 4
#    connections for --duration, alone and while --uploaders loops keep PUTting the 12-megapixel JPEG, alternately
#    --rounds times on the same server; prints each run's P50/P90/P95/P99, how many photos were uploaded, and
#    whether the saves stayed unchanged: each percentile's rise (median of the runs with uploads minus median of the
#    runs alone) against the alone runs' own spread (scripts/bench_unchanged.py; docs/benchmarks.md "Media").
#
#   scripts/bench-media.sh [--binary PATH] [--dir DIR] [--port 18091] [--uploads 10] [--rate 200] [--duration 20s]
#                          [--uploaders 2] [--formats "jpg heic heic-single"] [--database postgres://…] [--ids kernel|python]
#                          [--while uploads|stub-uploads|vips|audio-uploads] [--pace SECONDS] [--rounds 3]
#
# --while parts the meal saves' rise while photos upload into its two causes:
#   uploads       (the default) the uploads as they are;
#   stub-uploads  the same uploads to a server whose vipsheader and vipsthumbnail are stand-ins that do no image work
#                 (they answer the size and copy a display JPEG made beforehand): the uploads' own server work —
#                 receiving the body, its SHA-256, the private copy, starting three processes, the store's write;
#                 no upload timing (--formats is ignored); with stand-ins an upload takes ~50 ms, so give each loop
#                 --pace (seconds between its uploads) to match the real uploads' rate;
#   vips          no uploads: one loop runs the three vips commands of a JPEG upload at nice 10 with the server's
#                 environment for them (what the server's one processing slot does), nothing over HTTP.
#   audio-uploads the loops PUT a 5.4 MB recording (a WAV the size of the JPEG, made here) instead: no tools run,
#                 the bytes are received, hashed and written to the media file as they are; give --pace as for
#                 stub-uploads (docs/benchmarks.md "What is left at P99").
#
# DIR keeps the photos (the HEIC takes minutes to make); the database is made anew each run.
# --binary defaults to .build/release/wdiet (`swift build -c release --product wdiet`). Needs vips, exiftool, curl and
# wrk (Debian: libvips-tools, libimage-exiftool-perl, curl, wrk), and python3 for the HEIC.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$(pwd)"

BINARY="$REPO/.build/release/wdiet"
DIR="${TMPDIR:-/tmp}/wdiet-bench-media"
PORT=18091
UPLOADS=10
RATE=200
DURATION=20s
UPLOADERS=2
DATABASE=""
FORMATS="jpg heic"
IDS=kernel
WHILE=uploads
PACE=0
ROUNDS=3
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) BINARY="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
        --dir) DIR="$2"; shift 2 ;;
        --port) PORT="$2"; shift 2 ;;
        --uploads) UPLOADS="$2"; shift 2 ;;
        --rate) RATE="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --uploaders) UPLOADERS="$2"; shift 2 ;;
        --database) DATABASE="$2"; shift 2 ;;
        --formats) FORMATS="$2"; shift 2 ;;
        --ids) IDS="$2"; shift 2 ;;
        --while) WHILE="$2"; shift 2 ;;
        --pace) PACE="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
for tool in vips exiftool curl wrk; do
    command -v "$tool" >/dev/null || { echo "$tool is missing (apt-get install libvips-tools libimage-exiftool-perl curl wrk)" >&2; exit 1; }
done
[ -x "$BINARY" ] || { echo "no wdiet binary at $BINARY: swift build -c release --product wdiet, or --binary PATH" >&2; exit 1; }

mkdir -p "$DIR"
cd "$DIR"
rm -f media-bench.sqlite*
BASE="http://127.0.0.1:$PORT"

if [ ! -s photo.jpg ]; then
echo "Making the 12-megapixel photo ..."
vips xyz xy.v 4000 3000
vips linear xy.v ramp.v 0.06 0 --uchar
vips bandjoin_const ramp.v rgb.v 128
vips gaussnoise noise.v 4000 3000 --sigma 12 --mean 0
vips add rgb.v noise.v noisy.v
vips cast noisy.v photo.v uchar
vips copy photo.v photo.jpg[Q=92]
exiftool -q -overwrite_original -GPSLatitude=52.52 -GPSLatitudeRef=N -GPSLongitude=13.40 -GPSLongitudeRef=E \
    -Orientation#=6 -Make=BenchCam photo.jpg
rm -f ./*.v
fi
# heic: a phone's 12-megapixel HEIC as an iPhone writes it — 4032×3024 in 8×6 tiles of 512×512 (libheif decodes
# a grid's tiles on up to four threads of its own), rotated by an `irot` property, the JPEG's Exif, ~2.5 MB (iPhones'
# are 1.5-3.5 MB): a scene of Perlin noise at three scales over a colour ramp, mild sensor noise, x265 quality 60
# (scripts/make-grid-heic.py). heic-single: the JPEG's picture as one HEVC image (what `vips copy x.heic` writes:
# no grid, decoded on one thread), 7.9 MB — 2-5 times a phone's bytes for the same pixels: the noise of the JPEG's
# picture. x265 takes minutes for either: made once, kept in DIR.
if [[ " $FORMATS " == *" heic "* ]] && [ ! -s photo-grid.heic ]; then
    echo "Making the phone-like HEIC (minutes) ..."
    vips xyz xy.v 4032 3024
    vips linear xy.v ramp.v 0.03 40 --uchar
    vips bandjoin_const ramp.v rgb.v 100
    vips perlin p1.v 4032 3024 --cell-size 256
    vips perlin p2.v 4032 3024 --cell-size 32 --seed 7
    vips perlin p3.v 4032 3024 --cell-size 8 --seed 3
    vips linear p1.v p1s.v 40 0
    vips linear p2.v p2s.v 20 0
    vips linear p3.v p3s.v 10 0
    vips add p1s.v p2s.v pa.v
    vips add pa.v p3s.v pb.v
    vips bandjoin "pb.v pb.v pb.v" pbb.v
    vips add rgb.v pbb.v scene.v
    vips gaussnoise noise.v 4032 3024 --sigma 2
    vips add scene.v noise.v noisy.v
    vips cast noisy.v scene.png uchar
    exiftool -b -EXIF photo.jpg > exif.bin
    python3 "$REPO/scripts/make-grid-heic.py" scene.png photo-grid.heic --quality 60 --rotation 270 --exif exif.bin
    rm -f ./*.v scene.png exif.bin
fi
[[ " $FORMATS " != *" heic-single "* ]] || [ -s photo.heic ] || { echo "Making the one-image HEIC (minutes) ..."; vips copy photo.jpg photo.heic[Q=80]; }
echo "photo.jpg $(stat -c %s photo.jpg) bytes ($(vipsheader photo.jpg | cut -d: -f2))"

SERVER_PATH="$PATH"
if [ "$WHILE" = stub-uploads ]; then
    FORMATS=""
    mkdir -p stub-tools
    vipsthumbnail photo.jpg --size '1600x1600>' -o stub-tools/display.jpg[Q=82,strip]
    header_line="$(vipsheader photo.jpg | cut -d: -f2-)"
    printf '#!/bin/sh\necho "$1:%s"\n' "$header_line" > stub-tools/vipsheader
    # vipsthumbnail IN --size S [...] -o OUT[options]: the prepared JPEG to OUT.
    printf '#!/bin/sh\nwhile [ "$1" != -o ]; do shift; done\ncp "%s" "${2%%%%\\[*}"\n' "$DIR/stub-tools/display.jpg" > stub-tools/vipsthumbnail
    chmod +x stub-tools/vipsheader stub-tools/vipsthumbnail
    SERVER_PATH="$DIR/stub-tools:$PATH"
fi

DB="${DATABASE:-$DIR/media-bench.sqlite}"
# No SR28 folder from here: the server starts without a food catalog (meal saves of manual meals need none).
env -u WDIET_FOOD_DATA PATH="$SERVER_PATH" "$BINARY" serve --port "$PORT" --database "$DB" --log-level warning > server.log 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do curl -sf "$BASE/health" >/dev/null && break; sleep 0.2; done  # up to 60 s: a loaded machine

# 20 guests with a profile; their tokens for wrk.
: > tokens.txt
for i in $(seq 1 20); do
    token=$(curl -sf -X POST "$BASE/api/v1/auth/guest" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
    curl -sf -X PUT "$BASE/api/v1/profile" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
        -d '{"dateOfBirth":"1995-06-15","sex":"male","heightCm":180,"weightKg":80,"goal":"lose","activity":"moderate","timeZone":"Europe/Berlin","planStartDate":"2026-01-01"}' >/dev/null
    echo "$token" >> tokens.txt
done
TOKEN=$(head -1 tokens.txt)
# A new id per upload. The kernel's, read without starting a process: the load generator shares the server's cores,
# and `python3 -c 'import uuid…'` (--ids python, what this script did first) cost 0.07-0.1 s of CPU per upload at
# nice 0 — more than the server's own share of an upload (below).
newid() {
    if [ "$IDS" = python ]; then python3 -c 'import uuid; print(uuid.uuid4())'; else local id; read -r id < /proc/sys/kernel/random/uuid; echo "$id"; fi
}

upload() {  # file type → "status seconds"
    # No `Expect: 100-continue` (curl sends it for a body over 1 MB; the server answers it at once since 9a3fa33, so
    # this saves a round trip only). `-T` streams the file; `--data-binary @file` read it into curl's memory first.
    local id
    id=$(newid)
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -X PUT "$BASE/api/v1/media/$id" \
        -H "Authorization: Bearer $TOKEN" -H "Content-Type: $2" -H "Expect:" -T "$1"
}

# CPU seconds (user + system) so far: the server's own threads, the processes it started and waited for (the vips
# tools), and this script's children (curl, and python with --ids python). Clock ticks are 1/100 s.
cpu_server() { awk '{printf "%d %d", $14 + $15, $16 + $17}' "/proc/$SERVER/stat"; }
# `times` runs in this shell (in a $(…) subshell it would report that subshell's children); the file is then read.
note_clients() { times > clients.cpu; }
clients_seconds() { awk 'NR == 2 {gsub(/[ms]/, " "); print ($1 * 60 + $2) + ($3 * 60 + $4)}' clients.cpu; }

for format in $FORMATS; do
    case "$format" in
        jpg) set -- photo.jpg image/jpeg ;;
        heic) set -- photo-grid.heic image/heic ;;
        heic-single) set -- photo.heic image/heic ;;
        *) echo "--formats: jpg, heic and/or heic-single" >&2; exit 2 ;;
    esac
    echo "Uploading $1 $UPLOADS times:"
    upload "$1" "$2" > /dev/null  # warm-up
    : > times.txt
    read -r server_before tools_before <<< "$(cpu_server)"
    note_clients; clients_before=$(clients_seconds)
    for _ in $(seq 1 "$UPLOADS"); do
        upload "$1" "$2" > result.txt
        result=$(cat result.txt)
        echo "  $result"
        [ "${result%% *}" = 201 ] || { echo "upload failed: $result" >&2; exit 1; }
        echo "${result#* }" >> times.txt
    done
    read -r server_after tools_after <<< "$(cpu_server)"
    note_clients; clients_after=$(clients_seconds)
    sort -n times.txt | awk '{a[NR]=$1} END {printf "RESULT name=upload-%s n=%d median_s=%.3f min_s=%.3f max_s=%.3f\n", "'"$1"'", NR, (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2), a[1], a[NR]}'
    awk -v n="$UPLOADS" -v s=$((server_after - server_before)) -v t=$((tools_after - tools_before)) -v c="$clients_before $clients_after" \
        'BEGIN {split(c, cc, " "); printf "RESULT name=cpu-per-upload-%s server_s=%.3f vips_s=%.3f client_s=%.3f (ids: '"$IDS"')\n", "'"$1"'", s / 100 / n, t / 100 / n, (cc[2] - cc[1]) / n}'
done

export WDIET_TOKENS="$DIR/tokens.txt" WDIET_RATE="$RATE" WDIET_THREADS=2  # the pacing splits the rate over wrk -t 2 below
meal_saves() {  # label: one wrk run of --duration, its RESULT line renamed
    wrk -t 2 -c 4 -d "$DURATION" --latency -s "$REPO/scripts/wrk/meal-save.lua" "$BASE" | grep RESULT | sed "s/name=meal-save /name=$1 /" | tee -a saves.txt
}

# The background load, started and stopped each round. Each loop checks a stop file between uploads, so stopping
# waits for the upload in flight (and its processing) to finish: none runs on into the next "alone" run.
start_load() {
    rm -f stop
    LOOPS=()
    if [ "$WHILE" = vips ]; then
        mkdir -p vips-loop/vips-home
        ( L="$DIR/vips-loop"  # absolute paths: vipsthumbnail's -o is relative to its input's folder
          export VIPS_BLOCK_UNTRUSTED=1 VIPS_CONCURRENCY=1 TMPDIR="$L" VIPSHOME="$L/vips-home"
          while [ ! -e "$DIR/stop" ]; do
              start=$EPOCHREALTIME
              nice -n 10 vipsheader "$DIR/photo.jpg" > /dev/null
              nice -n 10 vipsthumbnail "$DIR/photo.jpg" --size '1600x1600>' --import-profile srgb --export-profile srgb -o "$L/display.jpg[Q=82,strip,optimize_coding]"
              nice -n 10 vipsthumbnail "$L/display.jpg" --size '320x320>' -o "$L/thumbnail.jpg[Q=75,strip,optimize_coding]"
              echo "201 $start $EPOCHREALTIME" >> "$DIR/uploads.txt"  # no process started for the clock
          done ) &
        LOOPS+=($!)
    else
        for _ in $(seq 1 "$UPLOADERS"); do
            ( while [ ! -e "$DIR/stop" ]; do upload "$LOOP_FILE" "$LOOP_TYPE" >> uploads.txt; [ "$PACE" = 0 ] || sleep "$PACE"; done ) &
            LOOPS+=($!)
        done
    fi
    sleep 1  # under way
}
stop_load() {
    touch stop
    wait "${LOOPS[@]}" 2>/dev/null || true
    sleep 1  # the server's last upload written
}

LOOP_FILE=photo.jpg LOOP_TYPE=image/jpeg
if [ "$WHILE" = audio-uploads ]; then
    # 61 s of 16-bit mono noise at 44.1 kHz: 5,400,044 bytes, about the JPEG's size.
    [ -f audio.wav ] || python3 -c 'import os, wave
w = wave.open("audio.wav", "wb"); w.setnchannels(1); w.setsampwidth(2); w.setframerate(44100); w.writeframes(os.urandom(5_400_000)); w.close()'
    LOOP_FILE=audio.wav LOOP_TYPE=audio/wav
fi
case "$WHILE" in
    vips) load="one loop running a JPEG upload's vips commands at nice 10 (no uploads)" ;;
    audio-uploads) load="$UPLOADERS loops uploading a 5.4 MB WAV recording" ;;
    *) load="$UPLOADERS loops uploading the 12-megapixel JPEG ($WHILE)" ;;
esac
# Alone and with the load alternately, --rounds times on the same server: the alone runs' own spread is what a rise
# is compared with (scripts/bench_unchanged.py).
: > saves.txt
: > uploads.txt
for round in $(seq 1 "$ROUNDS"); do
    echo "Round $round of $ROUNDS, $(date -u +%H:%M:%S) UTC: meal saves at $RATE/s alone (load $(cut -d' ' -f1-3 /proc/loadavg)):"
    meal_saves meal-save-alone
    start_load
    echo "Round $round of $ROUNDS, $(date -u +%H:%M:%S) UTC: meal saves at $RATE/s while $load:"
    meal_saves meal-save-during
    stop_load
done
awk '{n++; if ($1 == 201) ok++; s += (NF == 3 ? $3 - $2 : $2)} END {printf "RESULT name=uploads-during-meal-saves uploads=%d created=%d mean_s=%.3f (in %d rounds)\n", n, ok, s/n, '"$ROUNDS"'}' uploads.txt
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$REPO/scripts/bench_unchanged.py" saves.txt meal-save-alone meal-save-during
