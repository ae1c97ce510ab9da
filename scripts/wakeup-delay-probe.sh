#!/usr/bin/env bash
# How long a normal thread waits for a core held by background work, by the background's scheduling (docs/benchmarks.md
# "Meal saves while photos upload", why nice 10 stays). Needs root (perf's sched tracepoints), cc and python3.
#
#   scripts/wakeup-delay-probe.sh [--seconds 3] [--rounds 4]
#
# A client process on CPU 0 sends a byte to a server process on CPU 1, which spins 300 µs (a request's work) and
# answers; the client waits 700 µs and sends again. A CPU-bound "hog" shares CPU 1 in one of three ways, in turn:
#   nice10       nice 10 (what label scans and photo tools run at)
#   nice10-short nice 10 with a 0.1 ms EEVDF slice request (sched_setattr's sched_runtime; Linux ≥ 6.12)
#   short-wakee  nice 10, and the client and server (the woken side) ask for the 0.1 ms slice instead
#   idle         Linux's idle class (SCHED_IDLE)
# perf records every sched_waking and sched_switch; for each wake-up of the server the delay until it ran is sorted
# by who held CPU 1 just before it (the hog, or anything else: the rest of the machine). Each mode runs --seconds,
# --rounds times, alternately; the delays are pooled.
set -euo pipefail
SECONDS_EACH=3
ROUNDS=4
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) SECONDS_EACH="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
WORK="$(mktemp -d "${TMPDIR:-/tmp}/wdiet-wakeup.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
cat > probe.c <<'C'
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
struct attr { uint32_t size, policy; uint64_t flags; int32_t nice; uint32_t priority; uint64_t runtime, deadline, period; uint32_t util_min, util_max; };
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static void pin(int cpu) { cpu_set_t s; CPU_ZERO(&s); CPU_SET(cpu, &s); sched_setaffinity(0, sizeof s, &s); }
int main(int argc, char **argv) {
    if (argc == 5 && !strcmp(argv[1], "hog")) {  /* hog POLICY NICE SLICE_NS: spin on CPU 1 */
        struct attr a; memset(&a, 0, sizeof a); a.size = sizeof a;
        a.policy = atoi(argv[2]); a.nice = atoi(argv[3]); a.runtime = strtoull(argv[4], 0, 10);
        if (syscall(SYS_sched_setattr, 0, &a, 0)) { perror("sched_setattr"); return 1; }
        pin(1); for (volatile uint64_t x = 0;; x++) ;
    }
    /* pingpong SECONDS PIDFILE [SLICE_NS]: with a slice, both sides ask for it */
    if (argc > 4) {
        struct attr a; memset(&a, 0, sizeof a); a.size = sizeof a; a.runtime = strtoull(argv[4], 0, 10);
        if (syscall(SYS_sched_setattr, 0, &a, 0)) { perror("sched_setattr"); return 1; }
    }
    double seconds = atof(argv[2]); int sv[2]; socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    pid_t server = fork();
    if (!server) {
        close(sv[0]); pin(1); char c;
        while (read(sv[1], &c, 1) == 1) { double end = now() + 300e-6; while (now() < end) ; write(sv[1], &c, 1); }
        _exit(0);
    }
    FILE *f = fopen(argv[3], "w"); fprintf(f, "%d\n", server); fclose(f);
    close(sv[1]); pin(0); char c = 'x'; double end = now() + seconds;
    while (now() < end) { write(sv[0], &c, 1); read(sv[0], &c, 1); struct timespec ts = { 0, 700000 }; nanosleep(&ts, 0); }
    close(sv[0]); waitpid(server, 0, 0); return 0;
}
C
cc -O2 -o probe probe.c
cat > delays.py <<'PY'
import collections, json, re, subprocess, sys
# For each wake-up of the server: the time until it was switched in, and who was switched out for it.
data, server = sys.argv[1], sys.argv[2]
out = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,cpu,time,event,trace"], capture_output=True, text=True).stdout
woken, delays = None, collections.defaultdict(list)
for line in out.splitlines():
    m = re.match(r"\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(sched:\S+):\s*(.*)", line)
    if not m: continue
    t, event, rest = float(m.group(4)), m.group(5), m.group(6) + " "
    if event == "sched:sched_waking" and f" pid={server} " in " " + rest and woken is None:
        woken = t
    elif event == "sched:sched_switch" and f"next_pid={server} " in rest and woken is not None:
        prev = re.search(r"prev_comm=(.*?) prev_pid=(\d+)", rest)
        who = "hog" if prev and prev.group(1) == "probe" and prev.group(2) != server else "other"
        delays[who].append((t - woken) * 1e6)
        woken = None
print(json.dumps(delays))
PY
for _ in $(seq 1 "$ROUNDS"); do
    for mode in nice10 nice10-short short-wakee idle; do
        wakee_slice=()
        case "$mode" in
            nice10) ./probe hog 0 10 0 & ;;
            short-wakee) ./probe hog 0 10 0 & wakee_slice=(100000) ;;
            nice10-short) ./probe hog 0 10 100000 & ;;
            idle) ./probe hog 5 0 0 & ;;
        esac
        hog=$!
        sleep 0.2
        perf record -q -a -e sched:sched_switch -e sched:sched_waking -o "$mode.data" -- ./probe pingpong "$SECONDS_EACH" server.pid "${wakee_slice[@]}" 2>/dev/null
        kill "$hog"; wait "$hog" 2>/dev/null || true
        python3 delays.py "$mode.data" "$(cat server.pid)" >> "$mode.json"
    done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - <<'PY'
import json
for mode in ("nice10", "nice10-short", "short-wakee", "idle"):
    pooled = {"hog": [], "other": []}
    for line in open(f"{mode}.json"):
        for who, values in json.loads(line).items(): pooled[who] += values
    for who in ("hog", "other"):
        v = sorted(pooled[who])
        if not v: continue
        p = lambda q: v[min(len(v) - 1, int(q * len(v)))]
        print(f"{mode:13s} after {who:5s}: wake-ups {len(v):5d}, delay P50 {p(.5):6.0f} P95 {p(.95):6.0f} P99 {p(.99):6.0f} max {v[-1]:6.0f} µs, "
              f"over 1 ms {sum(1 for x in v if x > 1000)}")
PY
