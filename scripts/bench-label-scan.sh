#!/usr/bin/env bash
# The label-scan benchmark of issue 19, on a release `wdiet serve` over loopback (fresh SQLite database, one guest):
#
#  1. Time per photo: every photo of the folder (default: the dev set, ../shared/datasets/nutrition-labels/dev)
#     through POST /api/v1/labels/read, one at a time, --rounds times; P50/P95/max of the request's wall time and of
#     the server's own `timings.totalMs`. Issue 19: P95 ≤ 2 s.
#  2. Meal saves while scans run: wrk with scripts/wrk/meal-save.lua (20 users), paced at --rate saves a second over
#     4 connections for --duration, alone and while --scanners clients (default 4, processes of their own) post
#     photos back to back, alternately --save-rounds times on the same server; each run's P50/P90/P95/P99, the scans'
#     answers (200s and 503 label_scan_busy), the scans' own cost of stepping back for the saves (the server time of
#     each scan run wholly during the saves against the same photo's in part 1), and whether the saves stayed
#     unchanged: each percentile's rise against the alone runs' own spread (scripts/bench_unchanged.py).
#     Issue 19: meal-save latency unchanged while 4 scans run. (The same meal-save load as scripts/bench-media.sh.)
#
#   scripts/bench-label-scan.sh [--binary PATH] [--photos DIR] [--rounds 3] [--rate 200] [--duration 20s]
#                               [--save-rounds 3] [--scanners 4] [--port 18091]
#
# Without --binary a release build is made in .build (swift build -c release --product wdiet). Needs the label-scan
# tools (tesseract-ocr with eng and deu data, libvips-tools): docs/label-scan.md. The photos are read where they are,
# never copied.
set -euo pipefail
cd "$(dirname "$0")/.."

BINARY=""
PHOTOS="../shared/datasets/nutrition-labels/dev"
ROUNDS=3
RATE=200
DURATION=20s
SAVE_ROUNDS=3
SCANNERS=4
PORT=18091
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) BINARY="$2"; shift 2 ;;
        --photos) PHOTOS="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --rate) RATE="$2"; shift 2 ;;
        --duration) DURATION="$2"; shift 2 ;;
        --save-rounds) SAVE_ROUNDS="$2"; shift 2 ;;
        --scanners) SCANNERS="$2"; shift 2 ;;
        --port) PORT="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

if [ -z "$BINARY" ]; then
    swift build -c release --product wdiet >&2
    BINARY=".build/release/wdiet"
fi
[ -d "$PHOTOS" ] || { echo "no photos at $PHOTOS" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/wdiet-bench-label.XXXXXX")"
# No food catalog: the benchmark needs none, and a first-start import would only delay it.
"$BINARY" serve --port "$PORT" --database "$WORK/bench.sqlite" > "$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$PORT/health" > /dev/null 2>&1 && break
    sleep 0.5
done
echo "server: $BINARY (pid $SERVER), $(nproc) cores, label scans at once: ${WDIET_LABEL_SCANS:-default}"

command -v wrk > /dev/null || { echo "wrk is missing (apt-get install wrk)" >&2; exit 1; }
python3 -u - "$PORT" "$PHOTOS" "$ROUNDS" "$RATE" "$DURATION" "$SAVE_ROUNDS" "$SCANNERS" "$WORK" "$(pwd)" <<'PY'
import json, multiprocessing, os, subprocess, sys, time, urllib.request, urllib.error

port, photos, rounds, rate, duration, save_rounds, scanners, work, repo = sys.argv[1:10]
rounds, save_rounds, scanners = int(rounds), int(save_rounds), int(scanners)
base = f"http://127.0.0.1:{port}"

def call(method, path, body=None, token=None, content_type="application/json"):
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None: request.add_header("Content-Type", content_type)
    if token: request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")

status, guest = call("POST", "/api/v1/auth/guest")
assert status == 201, guest
token = guest["token"]
status, _ = call("PUT", "/api/v1/profile", {"dateOfBirth": "1990-01-01", "sex": "female", "heightCm": 170, "weightKg": 70,
                                           "goal": "lose", "activity": "moderate", "timeZone": "UTC"}, token)
assert status in (200, 201)

files = sorted(f for f in os.listdir(photos) if f.lower().endswith((".jpg", ".jpeg", ".png", ".webp")))
images = [(f, open(os.path.join(photos, f), "rb").read()) for f in files]

def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(p / 100 * len(values) + 0.5)) - 1))]

def scan(data):
    began = time.perf_counter()
    status, body = call("POST", "/api/v1/labels/read", data, token, "image/jpeg")
    return status, body, time.perf_counter() - began

# 1. Time per photo.
walls, totals, statuses, per_photo = [], [], {}, {}
for _ in range(rounds):
    for index, (name, data) in enumerate(images):
        status, body, wall = scan(data)
        statuses[status] = statuses.get(status, 0) + 1
        walls.append(wall)
        if status == 200:
            totals.append(body["timings"]["totalMs"] / 1000)
            per_photo.setdefault(index, []).append(body["timings"]["totalMs"] / 1000)
print(f"\n1. Time per photo: {len(images)} photos × {rounds} rounds, one at a time; answers {statuses}")
print(f"   request wall time: P50 {pct(walls, 50):.2f} s · P95 {pct(walls, 95):.2f} s · max {max(walls):.2f} s")
if totals:
    print(f"   server's totalMs:  P50 {pct(totals, 50):.2f} s · P95 {pct(totals, 95):.2f} s · max {max(totals):.2f} s")

# 2. Meal saves (wrk, paced, 20 users) alone and while the scanners post photos, alternately on the same server.
profile = {"dateOfBirth": "1990-01-01", "sex": "female", "heightCm": 170, "weightKg": 70, "goal": "lose",
           "activity": "moderate", "timeZone": "UTC"}
tokens_path = os.path.join(work, "tokens.txt")
with open(tokens_path, "w") as tokens:
    for _ in range(20):
        status, saver = call("POST", "/api/v1/auth/guest")
        assert status == 201, saver
        assert call("PUT", "/api/v1/profile", profile, saver["token"])[0] in (200, 201)
        tokens.write(saver["token"] + "\n")
results_path = os.path.join(work, "saves.txt")
open(results_path, "w").close()
wrk_env = dict(os.environ, WDIET_TOKENS=tokens_path, WDIET_RATE=rate, WDIET_THREADS="2")  # the pacing splits the rate over wrk -t 2

def meal_saves(name):
    out = subprocess.run(["wrk", "-t", "2", "-c", "4", "-d", duration, "--latency", "-s",
                          os.path.join(repo, "scripts/wrk/meal-save.lua"), base],
                         env=wrk_env, capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("RESULT"):
            line = line.replace("name=meal-save ", f"name={name} ")
            print("   " + line)
            with open(results_path, "a") as results: results.write(line + "\n")

# The scanning clients are processes of their own: as threads of this one they would hold Python's lock while the
# saving loop waits for it (up to its 5 ms switch interval), a delay that is the client's, not the server's.
fork = multiprocessing.get_context("fork")
scan_log = fork.Queue()
def scanner(offset, stop):
    i = offset
    while not stop.is_set():
        index = i % len(images)
        status, body, wall = scan(images[index][1])
        total = body["timings"]["totalMs"] / 1000 if status == 200 else None
        scan_log.put((index, status, wall, total, time.monotonic()))
        i += 1

print(f"\n2. Meal saves at {rate}/s over 4 connections for {duration}, alone and while {scanners} clients scan, "
      f"alternately {save_rounds} times:")
windows = []
for round_ in range(1, save_rounds + 1):
    print(f"  round {round_}, {time.strftime('%H:%M:%S', time.gmtime())} UTC, alone (load {' '.join(open('/proc/loadavg').read().split()[:3])}):")
    meal_saves("meal-save-alone")
    stop = fork.Event()
    workers = [fork.Process(target=scanner, args=(k * 5, stop), daemon=True) for k in range(scanners)]
    for w in workers: w.start()
    time.sleep(1.0)  # the scans are under way
    print(f"  round {round_}, {time.strftime('%H:%M:%S', time.gmtime())} UTC, while {scanners} clients scan:")
    window_start = time.monotonic()
    meal_saves("meal-save-during")
    windows.append((window_start, time.monotonic()))
    stop.set()
    for w in workers: w.join(timeout=15)  # each finishes the scan it waits for
    for w in workers:
        if w.is_alive(): w.terminate()
    time.sleep(1.0)
scans = []
while not scan_log.empty(): scans.append(scan_log.get())
answers = {}
for _, status, _, _, _ in scans: answers[status] = answers.get(status, 0) + 1
print(f"   scans meanwhile: {answers}")
# The scans' own cost of stepping back: each scan that ran wholly while meals were saved, its server time
# (totalMs, the queue's wait not counted) against the same photo's in part 1 (median of the rounds).
alone_by_photo = {index: sorted(times)[len(times) // 2] for index, times in per_photo.items() if times}
inside = [(index, total) for index, status, _, total, finished in scans
          if status == 200 and index in alone_by_photo
          and any(finished <= end and finished - total >= start for start, end in windows)]
if inside:
    ratios = [total / alone_by_photo[index] for index, total in inside]
    print(f"   scans run wholly during the saves: {len(inside)}; server time P50 {pct([t for _, t in inside], 50):.2f} s, "
          f"against the same photos alone: ratio P50 {pct(ratios, 50):.2f} · max {max(ratios):.2f} · "
          f"sum {sum(t for _, t in inside):.2f} s against {sum(alone_by_photo[i] for i, _ in inside):.2f} s")
else:
    print("   no scan ran wholly during the saves")
print(f"   load average at the end: {' '.join(open('/proc/loadavg').read().split()[:3])}")
subprocess.run([sys.executable, os.path.join(repo, "scripts/bench_unchanged.py"), results_path, "meal-save-alone", "meal-save-during"])
PY
