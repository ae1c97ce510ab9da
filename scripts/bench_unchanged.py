#!/usr/bin/env python3
"""Whether meal saves stayed unchanged while background work ran (issues 18 and 19; docs/benchmarks.md).

    scripts/bench_unchanged.py RESULTS ALONE_NAME DURING_NAME

RESULTS holds wrk's RESULT lines (scripts/wrk/common.lua) of runs made alternately alone and with the background
load, named ALONE_NAME and DURING_NAME. For P50, P95 and P99: the median of the alone runs, their spread (slowest
minus fastest run: how far two runs of the same thing differ here), the median of the runs with the load, and the
rise (the two medians' difference). A percentile is "unchanged" when its rise is no larger than the alone runs' own
spread: the load moves it no more than running again without it does. At least three runs of each are needed.
"""
import re
import statistics
import sys


def runs(path, name):
    found = []
    for line in open(path):
        if f"name={name} " not in line:
            continue
        fields = dict(re.findall(r"(\w+)=([\d.]+)", line))
        found.append({key: float(fields[key]) for key in ("p50_ms", "p95_ms", "p99_ms", "max_ms", "rps", "non2xx")})
    return found


def main():
    path, alone_name, during_name = sys.argv[1:4]
    alone, during = runs(path, alone_name), runs(path, during_name)
    print(f"\nMeal saves, {len(alone)} runs alone and {len(during)} with the load, alternately "
          f"(reached {min(r['rps'] for r in alone + during):.0f}-{max(r['rps'] for r in alone + during):.0f}/s; "
          f"non-2xx {sum(r['non2xx'] for r in alone + during):.0f}):")
    for kind, group in (("alone", alone), ("with the load", during)):
        print(f"  {kind:14s} " + " | ".join(f"P50 {r['p50_ms']:.2f} P95 {r['p95_ms']:.2f} P99 {r['p99_ms']:.2f}" for r in group))
    if len(alone) < 3 or len(during) < 3:
        print("  fewer than three runs of each: no verdict (--rounds 3 or more)")
        return
    verdicts = []
    for key, label in (("p50_ms", "P50"), ("p95_ms", "P95"), ("p99_ms", "P99")):
        a = [r[key] for r in alone]
        d = [r[key] for r in during]
        spread = max(a) - min(a)
        rise = statistics.median(d) - statistics.median(a)
        same = rise <= spread
        verdicts.append(same)
        print(f"RESULT name=unchanged percentile={label} alone_median_ms={statistics.median(a):.2f} "
              f"alone_spread_ms={spread:.2f} during_median_ms={statistics.median(d):.2f} rise_ms={rise:+.2f} "
              f"unchanged={'yes' if same else 'no'}")
    print(f"  unchanged at P50/P95/P99: {' / '.join('yes' if v else 'no' for v in verdicts)}")


if __name__ == "__main__":
    main()
