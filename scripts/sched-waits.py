#!/usr/bin/env python3
"""Who held the CPU when a process's threads waited for one: docs/benchmarks.md "What is left at P99".

Reads `perf sched timehist` output and, for every switch-in of a thread of PID whose scheduling delay (woken until
running) was at least --min-ms, counts the task that ran on that CPU just before, by kind: the process's own threads,
vips (the photo tools), the load generator (curl, cat, wrk, bash, python3), or the task's name. Prints the delay's
P50/P99/P99.9/max over all the process's switch-ins, then the counts and summed delays.

    perf sched record -a -o sched.data -- sleep 8      # while the load runs, as root
    perf sched timehist -i sched.data > timehist.txt
    scripts/sched-waits.py timehist.txt PID [--min-ms 0.5]
"""
import argparse, collections, re

parser = argparse.ArgumentParser()
parser.add_argument("timehist")
parser.add_argument("pid")
parser.add_argument("--min-ms", type=float, default=0.5)
args = parser.parse_args()

# Columns: time, [cpu], task[tid/pid], wait time, sch delay, run time (ms).
rows = []
for line in open(args.timehist):
    parts = line.split()
    if len(parts) < 6 or not re.match(r"^\d+\.\d+$", parts[0]):
        continue
    try:
        rows.append((parts[1], parts[2], float(parts[4])))
    except ValueError:
        continue

def own(task):
    return task.endswith("/" + args.pid + "]")

def kind(task):
    name = re.sub(r"\[.*", "", task)
    if own(task): return "the process's own threads"
    if name.startswith("vips"): return "vips"
    if name in ("curl", "cat", "wrk", "bash", "python3"): return "load generator"
    return name

by_cpu = collections.defaultdict(list)
for row in rows:
    by_cpu[row[0]].append(row)
delays = sorted(delay for _, task, delay in rows if own(task))
if not delays:
    raise SystemExit(f"no switch-ins of pid {args.pid} in {args.timehist}")
at = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))]
print(f"{len(delays)} switch-ins of pid {args.pid}; scheduling delay P50 {at(.5):.3f} ms, P99 {at(.99):.3f}, "
      f"P99.9 {at(.999):.3f}, max {delays[-1]:.3f}")
count, total = collections.Counter(), collections.Counter()
for sequence in by_cpu.values():
    for before, row in zip(sequence, sequence[1:]):
        if own(row[1]) and row[2] >= args.min_ms:
            count[kind(before[1])] += 1
            total[kind(before[1])] += row[2]
print(f"waits of {args.min_ms} ms or more, by what held the CPU just before:")
for name, n in count.most_common():
    print(f"  {name}: {n} waits, {total[name]:.1f} ms")
