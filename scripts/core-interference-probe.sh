#!/usr/bin/env bash
# Does work on one core slow down work on the other? (docs/benchmarks.md "Meal saves while photos upload": whether
# "unchanged" at the tail is reachable on this machine at all, whatever the background's scheduling.) Needs cc,
# taskset and, for the "vips" background, the vips tools; run it on an otherwise idle machine.
#
#   scripts/core-interference-probe.sh [--repeats 7] [--image PATH] [--label PATH]
#
# A probe pinned to CPU 0 times fixed units of work, each kind `--repeats` times:
# (CPU time of the probe's thread, so other processes on CPU 0 do not count)
#   alu      integer arithmetic in registers (nothing a neighbour shares but the physical core, if the two virtual
#            CPUs are hyper-threads of one)
#   l3       a pointer chase through 8 MiB (more than a core's 2 MiB L2: the shared L3)
#   dram     a pointer chase through 256 MiB (memory)
# while CPU 1 runs, in turn: nothing; the same ALU loop; a memory streamer (reads and writes 256 MiB over and over);
# and the photo tools as an upload runs them (`vipsthumbnail` of a 12-megapixel JPEG to 2048 px, at nice 10,
# VIPS_CONCURRENCY=1), in a loop; and, with a label photo (default: the first JPEG of
# ../shared/datasets/nutrition-labels/dev beside the checkout), Tesseract reading it as a scan does (nice 10,
# OMP_THREAD_LIMIT=1, English and German) in a loop. Prints each unit's median CPU time per background, its ratio to "nothing" and the range (min–max).
# A ratio of 1.00 means the other core's work costs this core nothing; above it, a request's CPU grows while
# background work runs on the other core, which no scheduling of that work can undo.
set -euo pipefail
REPEATS=7
IMAGE=""
LABEL=""
while [ $# -gt 0 ]; do
    case "$1" in
        --repeats) REPEATS="$2"; shift 2 ;;
        --image) IMAGE="$2"; shift 2 ;;
        --label) LABEL="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
[ "$(nproc)" -ge 2 ] || { echo "needs two CPUs" >&2; exit 2; }
if [ -z "$LABEL" ]; then
    LABEL="$(ls "$(dirname "$0")"/../../shared/datasets/nutrition-labels/dev/*.jpg 2>/dev/null | head -1 || true)"
fi
[ -n "$LABEL" ] && LABEL="$(cd "$(dirname "$LABEL")" && pwd)/$(basename "$LABEL")"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/wdiet-interference.XXXXXX")"
BACKGROUND=""
cleanup() { [ -n "$BACKGROUND" ] && kill "$BACKGROUND" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
cd "$WORK"

cat > probe.c <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    /* This thread's CPU time: a slice another process takes on CPU 0 is not counted, what a neighbour on CPU 1
       costs this one (a shared physical core, cache or memory) is. */
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* A random cycle through n slots (Sattolo's shuffle), so the chase cannot be prefetched. */
static size_t *cycle(size_t n) {
    size_t *next = malloc(n * sizeof *next);
    for (size_t i = 0; i < n; i++) next[i] = i;
    uint64_t x = 88172645463325252ull;
    for (size_t i = n - 1; i > 0; i--) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        size_t j = x % i, t = next[i];
        next[i] = next[j]; next[j] = t;
    }
    return next;
}

static volatile uint64_t sink;

static double alu(void) {
    double start = now();
    uint64_t a = 1, b = 3;
    for (long i = 0; i < 200000000L; i++) { a = a * 6364136223846793005ull + b; b ^= a >> 29; }
    sink = a + b;
    return now() - start;
}

static double chase(size_t *next, long steps) {
    double start = now();
    size_t i = 0;
    for (long s = 0; s < steps; s++) i = next[i];
    sink = i;
    return now() - start;
}

/* Background modes for CPU 1. */
static void spin(void) { for (;;) alu(); }
static void stream(void) {
    size_t n = 256u << 20;
    char *buffer = malloc(n);
    for (unsigned char v = 0;; v++) memset(buffer, v, n), sink += buffer[v * 4099 % n];
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "spin") == 0) spin();
    if (argc > 1 && strcmp(argv[1], "stream") == 0) stream();
    int repeats = argc > 2 ? atoi(argv[2]) : 7;
    size_t *l3 = cycle((8u << 20) / sizeof(size_t)), *dram = cycle((256u << 20) / sizeof(size_t));
    chase(l3, 4000000); chase(dram, 4000000);  /* warm the pages */
    for (int r = 0; r < repeats; r++) {
        printf("alu %.4f\n", alu());
        printf("l3 %.4f\n", chase(l3, 10000000));
        printf("dram %.4f\n", chase(dram, 4000000));
        fflush(stdout);
    }
    return 0;
}
C
cc -O2 -o probe probe.c

if [ -z "$IMAGE" ] && command -v vips >/dev/null 2>&1; then
    IMAGE="$WORK/photo.jpg"
    # As scripts/bench-media.sh makes its 12-megapixel JPEG: a colour ramp under Gaussian noise.
    (cd "$WORK" && vips xyz xy.v 4000 3000 && vips linear xy.v ramp.v 0.06 0 --uchar && vips bandjoin_const ramp.v rgb.v 128 \
        && vips gaussnoise noise.v 4000 3000 --sigma 12 --mean 0 && vips add rgb.v noise.v noisy.v \
        && vips cast noisy.v photo.v uchar && vips copy photo.v "photo.jpg[Q=92]" && rm -f ./*.v)
fi

run() {  # mode
    local mode="$1"
    BACKGROUND=""
    case "$mode" in
        spin|stream) taskset -c 1 ./probe "$mode" & BACKGROUND=$! ;;
        vips)
            [ -n "$IMAGE" ] || { echo "vips: no vips tools, skipped" >&2; return; }
            taskset -c 1 nice -n 10 env VIPS_CONCURRENCY=1 bash -c \
                "while :; do vipsthumbnail '$IMAGE' --size 2048 -o '$WORK/out.jpg[Q=85]'; done" & BACKGROUND=$! ;;
        ocr)
            { [ -n "$LABEL" ] && command -v tesseract >/dev/null; } || { echo "ocr: no label photo or no tesseract, skipped" >&2; return; }
            taskset -c 1 nice -n 10 env OMP_THREAD_LIMIT=1 bash -c \
                "while :; do tesseract '$LABEL' - -l eng+deu >/dev/null 2>&1; done" & BACKGROUND=$! ;;
    esac
    sleep 0.5
    taskset -c 0 ./probe measure "$REPEATS" | sed "s/^/$mode /" >> results.txt
    if [ -n "$BACKGROUND" ]; then kill -- "$BACKGROUND" 2>/dev/null; pkill -P "$BACKGROUND" 2>/dev/null || true; wait "$BACKGROUND" 2>/dev/null || true; fi
    BACKGROUND=""
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# Two rounds, "none" before, between and after, so a drift of the machine (other tenants share its L3) shows.
for mode in none spin stream vips ocr none spin stream vips ocr none; do run "$mode"; done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - results.txt <<'PYTHON'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    mode, unit, seconds = line.split()
    times.setdefault(unit, {}).setdefault(mode, []).append(float(seconds))
modes = ["none", "spin", "stream", "vips", "ocr"]
print("| unit on CPU 0 | " + " | ".join(f"CPU 1: {m}" for m in modes) + " |")
print("| --- |" + " --- |" * len(modes))
for unit, by_mode in times.items():
    base = statistics.median(by_mode["none"])
    cells = []
    for m in modes:
        if m not in by_mode: cells.append("–"); continue
        med = statistics.median(by_mode[m])
        cells.append(f"{med * 1000:.0f} ms (×{med / base:.2f}; {min(by_mode[m]) * 1000:.0f}–{max(by_mode[m]) * 1000:.0f})")
    print(f"| {unit} | " + " | ".join(cells) + " |")
PYTHON
