#!/usr/bin/env bash
# The label-scan benchmark of issue 19, on a release `wdiet serve` over loopback (fresh SQLite database, one guest):
#
#  1. Time per photo: every photo of the folder (default: the dev set, ../shared/datasets/nutrition-labels/dev)
#     through POST /api/v1/labels/read, one at a time, --rounds times; P50/P95/max of the request's wall time and of
#     the server's own `timings.totalMs`. Issue 19: P95 ≤ 2 s.
#  2. Meal saves while scans run: --saves meal saves (POST /api/v1/meals, one at a time) alone, then the same with
#     --scanners clients (default 4, processes of their own) posting photos back to back the whole time; P50/P95/P99
#     of each, the scans' answers (200s and 503 label_scan_busy), and the scans' own cost of stepping back for the
#     saves: the server time of each scan run wholly during the saves against the same photo's in part 1.
#     Issue 19: meal-save latency unchanged while 4 scans run.
#
#   scripts/bench-label-scan.sh [--binary PATH] [--photos DIR] [--rounds 3] [--saves 300] [--scanners 4] [--port 18091]
#
# Without --binary a release build is made in .build (swift build -c release --product wdiet). Needs the label-scan
# tools (tesseract-ocr with eng and deu data, libvips-tools): docs/label-scan.md. The photos are read where they are,
# never copied.
set -euo pipefail
cd "$(dirname "$0")/.."

BINARY=""
PHOTOS="../shared/datasets/nutrition-labels/dev"
ROUNDS=3
SAVES=300
SCANNERS=4
PORT=18091
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) BINARY="$2"; shift 2 ;;
        --photos) PHOTOS="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --saves) SAVES="$2"; shift 2 ;;
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

python3 - "$PORT" "$PHOTOS" "$ROUNDS" "$SAVES" "$SCANNERS" <<'PY'
import json, multiprocessing, os, sys, time, urllib.request, urllib.error

port, photos, rounds, saves, scanners = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
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

# 2. Meal saves alone, then with scanners.
def save_run(n):
    times, failures = [], 0
    for i in range(n):
        began = time.perf_counter()
        status, _ = call("POST", "/api/v1/meals", {"name": "Bench", "calories": 300 + i % 50, "protein": 20}, token)
        times.append(time.perf_counter() - began)
        if status != 201: failures += 1
    return times, failures

def describe(label, times, failures):
    ms = [t * 1000 for t in times]
    print(f"   {label}: P50 {pct(ms, 50):.1f} ms · P95 {pct(ms, 95):.1f} ms · P99 {pct(ms, 99):.1f} ms · max {max(ms):.1f} ms · non-201 {failures}")

save_run(30)  # warm-up
alone, alone_failures = save_run(saves)
# The scanning clients are processes of their own: as threads of this one they would hold Python's lock while the
# saving loop waits for it (up to its 5 ms switch interval), a delay that is the client's, not the server's.
fork = multiprocessing.get_context("fork")
stop = fork.Event()
scan_log = fork.Queue()
def scanner(offset):
    i = offset
    while not stop.is_set():
        index = i % len(images)
        status, body, wall = scan(images[index][1])
        total = body["timings"]["totalMs"] / 1000 if status == 200 else None
        scan_log.put((index, status, wall, total, time.monotonic()))
        i += 1
workers = [fork.Process(target=scanner, args=(k * 5,), daemon=True) for k in range(scanners)]
for w in workers: w.start()
time.sleep(1.0)  # the scans are under way
window_start = time.monotonic()
during, during_failures = save_run(saves)
window_end = time.monotonic()
stop.set()
time.sleep(0.2)
for w in workers: w.terminate()
scans = []
while not scan_log.empty(): scans.append(scan_log.get())
print(f"\n2. Meal saves, {saves} one at a time:")
describe("alone                 ", alone, alone_failures)
describe(f"while {scanners} clients scan", during, during_failures)
answers = {}
for _, status, _, _, _ in scans: answers[status] = answers.get(status, 0) + 1
print(f"   scans meanwhile: {answers}")
# The scans' own cost of stepping back: each scan that ran wholly while meals were saved, its server time
# (totalMs, the queue's wait not counted) against the same photo's in part 1 (median of the rounds).
alone_by_photo = {index: sorted(times)[len(times) // 2] for index, times in per_photo.items() if times}
inside = [(index, total) for index, status, _, total, finished in scans
          if status == 200 and finished <= window_end and finished - total >= window_start and index in alone_by_photo]
if inside:
    ratios = [total / alone_by_photo[index] for index, total in inside]
    print(f"   scans run wholly during the saves: {len(inside)}; server time P50 {pct([t for _, t in inside], 50):.2f} s, "
          f"against the same photos alone: ratio P50 {pct(ratios, 50):.2f} · max {max(ratios):.2f} · "
          f"sum {sum(t for _, t in inside):.2f} s against {sum(alone_by_photo[i] for i, _ in inside):.2f} s")
else:
    print("   no scan ran wholly during the saves (more --saves for a longer window)")
PY
