#!/usr/bin/env python3
"""The summary PDF benchmark of issue 20 (docs/benchmarks.md, "Challenge summary"): a `wdiet serve` (release by
default) on a fresh SQLite file over loopback; a web guest 16 weeks into a 17-week challenge (every day's nutrition,
workout and habits, a weigh-in and a 1,600 × 1,200 photo every week, made through the API: scripts/bench_common.py),
then `GET /api/v1/challenge/summary` as a PDF (first and latest photo embedded) --runs times one after another, and
as the share PNG. Prints each run's time and size, P50 / P95 / max, the CPU time per PDF of the server and of its
child processes (rsvg-convert, vips; /proc/<pid>/stat) and the load average. The time is the whole request: reading
the challenge, scaling the two photos to print size, drawing the SVG, rsvg-convert's run.

    scripts/bench-challenge-summary.py [--binary .build/release/wdiet] [--runs 20] [--port 18093]

Needs rsvg-convert (Debian librsvg2-bin) and vips (libvips-tools, for the upload's processing and the test photo).
"""
import argparse
import statistics
import subprocess
import time

from bench_common import ROOT, Guest, Server, load, percentile, seed_challenge


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "wdiet"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--port", type=int, default=18093)
    args = parser.parse_args()
    with Server(args.binary, args.port, prefix="wdiet-bench-summary-") as server:
        folder = server.folder
        photo = folder / "photo.jpg"
        subprocess.run(["vips", "xyz", str(folder / "xy.v"), "1600", "1200"], check=True)
        subprocess.run(["vips", "linear", str(folder / "xy.v"), str(folder / "ramp.v"), "0.15", "0", "--uchar"], check=True)
        subprocess.run(["vips", "bandjoin_const", str(folder / "ramp.v"), str(folder / "rgb.v"), "128"], check=True)
        subprocess.run(["vips", "copy", str(folder / "rgb.v"), str(photo) + "[Q=85]"], check=True)
        guest = Guest(server.base)
        made = time.time()
        seed_challenge(guest, photo=photo)
        print(f"16 weeks made through the API in {time.time() - made:.1f} s")

        def timed(fmt):
            began = time.perf_counter()
            status, body = guest.request("GET", f"/api/v1/challenge/summary?format={fmt}")
            elapsed = time.perf_counter() - began
            assert status == 200, status
            return elapsed, len(body)

        timed("pdf")  # warm-up (the first run loads rsvg-convert and fonts from disk)
        print(f"before: {load()}")
        times = []
        cpu, children = server.cpu_seconds(), server.children_cpu_seconds()
        for run in range(args.runs):
            elapsed, size = timed("pdf")
            times.append(elapsed * 1000)
            print(f"pdf run {run + 1}: {elapsed * 1000:.0f} ms, {size / 1024:.0f} KiB")
        cpu, children = server.cpu_seconds() - cpu, server.children_cpu_seconds() - children
        print(f"PDF: P50 {statistics.median(times):.0f} ms, P95 {percentile(times, 95):.0f} ms, max {max(times):.0f} ms "
              f"over {len(times)} runs; CPU a PDF: server {cpu / args.runs * 1000:.0f} ms, its tools {children / args.runs * 1000:.0f} ms")
        pngs = [timed("png")[0] * 1000 for _ in range(5)]
        print(f"PNG: P50 {statistics.median(pngs):.0f} ms, max {max(pngs):.0f} ms over 5 runs")
        print(f"after: {load()}")


if __name__ == "__main__":
    main()
