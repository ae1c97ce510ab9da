#!/usr/bin/env python3
"""The summary PDF benchmark of issue 20 (docs/benchmarks.md, "Challenge summary"): a release `wdiet serve` on a
fresh SQLite file over loopback; a user 16 weeks into a 17-week challenge (every day's nutrition, workout and habits,
a weigh-in and a 1,600 × 1,200 photo every week, made through the API), then `GET /api/v1/challenge/summary` as a
PDF (both photos embedded) --runs times one after another, and as the share PNG; prints each run's time and
P50 / P95 / max. The time is the whole request: reading the challenge, drawing the SVG, rsvg-convert's run.

    scripts/bench-challenge-summary.py [--binary .build/release/wdiet] [--runs 20] [--port 18093]

Needs rsvg-convert (Debian librsvg2-bin) and vips (libvips-tools, for the upload's processing and the test photo).
"""
import argparse
import datetime
import json
import os
import pathlib
import statistics
import subprocess
import tempfile
import time
import urllib.request
import uuid

ROOT = pathlib.Path(__file__).resolve().parent.parent


def request(base, method, path, token=None, body=None, content_type="application/json"):
    data = None
    headers = {}
    if body is not None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers["Content-Type"] = content_type
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=60) as response:
        return response.status, response.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "wdiet"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--port", type=int, default=18093)
    args = parser.parse_args()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="wdiet-bench-summary-"))
    photo = folder / "photo.jpg"
    subprocess.run(["vips", "xyz", str(folder / "xy.v"), "1600", "1200"], check=True)
    subprocess.run(["vips", "linear", str(folder / "xy.v"), str(folder / "ramp.v"), "0.15", "0", "--uchar"], check=True)
    subprocess.run(["vips", "bandjoin_const", str(folder / "ramp.v"), str(folder / "rgb.v"), "128"], check=True)
    subprocess.run(["vips", "copy", str(folder / "rgb.v"), str(photo) + "[Q=85]"], check=True)

    base = f"http://127.0.0.1:{args.port}"
    log = open(folder / "server.log", "w")
    server = subprocess.Popen([args.binary, "serve", "--port", str(args.port), "--database", str(folder / "bench.sqlite")],
                              cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(600):
            try:
                if request(base, "GET", "/health")[0] == 200:
                    break
            except OSError:
                time.sleep(0.5)
        token = json.loads(request(base, "POST", "/api/v1/auth/guest")[1])["token"]
        today = datetime.datetime.now(datetime.timezone.utc).date()
        start = today - datetime.timedelta(days=today.weekday() + 15 * 7)  # today is in week 16
        request(base, "PUT", "/api/v1/profile", token, {
            "dateOfBirth": "1990-01-01", "sex": "female", "heightCm": 168, "weightKg": 82, "goal": "lose",
            "activity": "moderate", "timeZone": "UTC", "planStartDate": start.isoformat()})
        request(base, "POST", "/api/v1/challenge", token, {"startDate": start.isoformat(), "goalWeight": 72, "startWeight": 82})
        made = time.time()
        day = start
        while day < today:
            iso = day.isoformat()
            nutrition = {"status": "skipped"} if day.toordinal() % 9 == 0 else {"kcal": 1700 + day.toordinal() % 5 * 50, "protein": 130, "carbs": 170, "fat": 55}
            request(base, "PUT", f"/api/v1/challenge/days/{iso}/nutrition", token, nutrition)
            workout = {"type": "rest"} if day.weekday() == 6 else {"type": ["push", "pull", "legs", "plyoAbs"][day.weekday() % 4], "useTemplate": True}
            request(base, "PUT", f"/api/v1/challenge/days/{iso}/workout", token, workout)
            request(base, "PUT", f"/api/v1/challenge/days/{iso}/habits", token, {"water": True, "steps": day.weekday() != 2, "sleep": True})
            day += datetime.timedelta(days=1)
        for week in range(1, 17):
            request(base, "POST", f"/api/v1/challenge/weeks/{week}/weigh-in", token, {"weight": round(82 - 0.55 * (week - 1), 1), "waist": 92 - week * 0.4})
            media = str(uuid.uuid4())
            request(base, "PUT", f"/api/v1/media/{media}", token, photo.read_bytes(), content_type="image/jpeg")
            request(base, "PUT", f"/api/v1/challenge/weeks/{week}/photo", token, {"mediaId": media})
        print(f"16 weeks made through the API in {time.time() - made:.1f} s")

        def timed(fmt):
            began = time.perf_counter()
            status, body = request(base, "GET", f"/api/v1/challenge/summary?format={fmt}", token)
            elapsed = time.perf_counter() - began
            assert status == 200, status
            return elapsed, len(body)

        timed("pdf")  # warm-up (the first run loads rsvg-convert and fonts from disk)
        times = []
        for run in range(args.runs):
            elapsed, size = timed("pdf")
            times.append(elapsed)
            print(f"pdf run {run + 1}: {elapsed * 1000:.0f} ms, {size / 1024:.0f} KiB")
        times.sort()
        p95 = times[max(0, int(round(0.95 * len(times))) - 1)]
        print(f"PDF: P50 {statistics.median(times) * 1000:.0f} ms, P95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms over {len(times)} runs")
        pngs = sorted(timed("png")[0] for _ in range(5))
        print(f"PNG: P50 {statistics.median(pngs) * 1000:.0f} ms, max {pngs[-1] * 1000:.0f} ms over 5 runs")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
