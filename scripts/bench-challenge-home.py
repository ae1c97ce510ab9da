#!/usr/bin/env python3
"""The Challenge Home benchmark of issue 20 (docs/benchmarks.md, "Challenge Home"): a `wdiet serve` (release by
default) on a fresh SQLite file over loopback; a web guest 16 weeks into a 17-week challenge (every day's nutrition,
workout and habits, a weigh-in every week, made through the API: scripts/bench_common.py), then --runs requests one
after another (one client: the load is one person opening Home) of `GET /api/v1/challenge` and of the Home page
`/challenge` (the same session's cookie). Prints P50 / P95 / P99 / max of each, the server's CPU time per request
(/proc/<pid>/stat) and the load average. Target: P99 <= 10 ms.

With --write-every N, every Nth request is preceded by a write: the figure for Home right after a change; those
requests' own percentiles are printed too. --write-via says which: `habits` (default) saves today's habits through
the API (the Challenge service's own save, which brings the user's kept snapshot forward), `meal` logs a meal in
w-diet's meal log (another path: the next Home reads the database again, decoding only the rows written since, as
after a sync push or another device's write), `mix` takes turns through what a real user writes beside Home: today's
habits, a meal, the challenge's settings, an edit of this week's weigh-in (also a logged weight: Home reads again) and
today's nutrition.

With --postgres URL (a cluster's postgres://user@host:port/db) the server runs on a scratch database of its own in
that cluster (created, then dropped), and the CPU time of that database's server processes per request is printed
beside the server's.

    scripts/bench-challenge-home.py [--binary .build/release/wdiet] [--runs 500] [--port 18094] [--write-every 0]
        [--write-via habits|meal|mix] [--postgres postgres://postgres@127.0.0.1:55433/postgres]
"""
import argparse
import contextlib
import datetime
import os
import statistics
import time

from bench_common import ROOT, Guest, ScratchPostgres, Server, load, percentile, seed_challenge


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "wdiet"))
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--port", type=int, default=18094)
    parser.add_argument("--write-every", type=int, default=0)
    parser.add_argument("--write-via", choices=["habits", "meal", "mix"], default="habits")
    parser.add_argument("--postgres", help="a PostgreSQL cluster's URL: run on a scratch database in it")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        postgres = None
        if args.postgres:
            postgres = stack.enter_context(ScratchPostgres(args.postgres, f"wdiet_bench_home_{os.getpid()}"))
        server = stack.enter_context(Server(args.binary, args.port, prefix="wdiet-bench-challenge-home-",
                                            database=postgres.url if postgres else None))
        measure(args, server, postgres)


def measure(args, server, postgres):
    guest = Guest(server.base)
    seed_challenge(guest)
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    print(f"before: {load()}")
    for name, path in [("GET /api/v1/challenge", "/api/v1/challenge"), ("GET /challenge (page)", "/challenge")]:
        for _ in range(20):
            _, body = guest.request("GET", path)  # warm-up
        assert b'"week":16' in body.replace(b" ", b"") or b'Week 16 of 17' in body, body[:300]
        times = []
        cpu_before = server.cpu_seconds()
        backends = ScratchPostgres.cpu_of(postgres.backend_pids()) if postgres else {}
        for run in range(args.runs):
            if args.write_every and run % args.write_every == 0:
                write(guest, args.write_via, run, run // args.write_every, today)
            began = time.perf_counter()
            status, _ = guest.request("GET", path)
            times.append((time.perf_counter() - began) * 1000)
            assert status == 200, status
        cpu = server.cpu_seconds() - cpu_before  # the whole loop (ticks of 10 ms), writes included
        database = ""
        if postgres:
            after = ScratchPostgres.cpu_of(backends)  # the connections there before and after the loop
            database = f", PostgreSQL's processes {sum(after[p] - backends[p] for p in after) / args.runs * 1000:.2f} ms"
        print(f"{name}: {args.runs} runs, P50 {percentile(times, 50):.2f} ms, P95 {percentile(times, 95):.2f} ms, "
              f"P99 {percentile(times, 99):.2f} ms, max {max(times):.2f} ms (mean {statistics.mean(times):.2f}); "
              f"server CPU {cpu / args.runs * 1000:.2f} ms a request{database}")
        if args.write_every:
            after = [t for run, t in enumerate(times) if run % args.write_every == 0]
            print(f"  of them right after a write: {len(after)} runs, P50 {percentile(after, 50):.2f} ms, "
                  f"P95 {percentile(after, 95):.2f} ms, P99 {percentile(after, 99):.2f} ms, max {max(after):.2f} ms")
    print(f"after: {load()}")


def write(guest, via, run, count, today):
    """One write before a Home request: `via` habits, meal, or mix (the `count`th write picks its turn)."""
    if via == "mix":
        via = ["habits", "meal", "settings", "weigh-in", "nutrition"][count % 5]
    if via == "meal":
        guest.must("POST", "/api/v1/meals", {"name": "Apple", "calories": 80 + run % 7,
                                             "loggedAt": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")})
    elif via == "settings":
        guest.must("PUT", "/api/v1/challenge/settings", {"smartRules": count % 2 == 0})
    elif via == "weigh-in":
        guest.must("PUT", "/api/v1/challenge/weeks/16/weigh-in", {"weight": round(73.8 - 0.1 * (count % 3), 1), "waist": 85.6})
    elif via == "nutrition":
        guest.must("PUT", f"/api/v1/challenge/days/{today}/nutrition", {"kcal": 1700 + count % 7 * 10, "protein": 130, "carbs": 170, "fat": 55})
    else:
        guest.must("PUT", f"/api/v1/challenge/days/{today}/habits", {"sleep": count % 2 == 0})


if __name__ == "__main__":
    main()
