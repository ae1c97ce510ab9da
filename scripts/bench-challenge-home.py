#!/usr/bin/env python3
"""The Challenge Home benchmark of issue 20 (docs/benchmarks.md, "Challenge Home"): a `wdiet serve` (release by
default) on a fresh SQLite file over loopback; a user 16 weeks into a 17-week challenge (every day's nutrition,
workout and habits, a weigh-in every week, made through the API), then --runs requests one after another (one
client: the load is one person opening Home) of `GET /api/v1/challenge` and of the Home page `/challenge` (the
same session as the `wdiet_session` cookie); prints P50 / P95 / P99 / max of each. Target: P99 <= 10 ms.

    scripts/bench-challenge-home.py [--binary .build/release/wdiet] [--runs 500] [--port 18094]
"""
import argparse
import base64
import datetime
import hashlib
import hmac
import http.cookiejar
import json
import re
import pathlib
import statistics
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent


JAR = http.cookiejar.CookieJar()
OPENER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(JAR))


def request(base, method, path, token=None, body=None, cookie=False):
    """A JSON request; `token` is the web session's CSRF token (the session itself is the cookie in JAR)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["X-CSRF-Token"] = token
        headers["Origin"] = base
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with OPENER.open(req, timeout=60) as response:
        return response.status, response.read()


def web_guest(base):
    """A guest with a web session, as the browser makes one ("Continue without an account"); returns its CSRF token
    (HMAC-SHA256 of the session cookie, as the server derives it)."""
    _, page = request(base, "GET", "/onboarding")
    csrf = re.search(rb'name="_csrf" value="([^"]+)"', page).group(1).decode()
    form = urllib.parse.urlencode({"_csrf": csrf}).encode()
    req = urllib.request.Request(base + "/onboarding/guest", data=form, method="POST",
                                 headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": base})
    OPENER.open(req, timeout=60).read()
    session = next(c.value for c in JAR if c.name == "wdiet_session")
    mac = hmac.new(session.encode(), b"wdiet-csrf-v1", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "wdiet"))
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--port", type=int, default=18094)
    args = parser.parse_args()
    folder = pathlib.Path(tempfile.mkdtemp(prefix="wdiet-bench-challenge-home-"))
    base = f"http://127.0.0.1:{args.port}"
    log = open(folder / "server.log", "w")
    server = subprocess.Popen([args.binary, "serve", "--port", str(args.port), "--database", str(folder / "bench.sqlite"),
                               "--from", str(folder / "no-food-data")], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(600):
            try:
                if request(base, "GET", "/health")[0] == 200:
                    break
            except OSError:
                time.sleep(0.5)
        token = web_guest(base)
        today = datetime.datetime.now(datetime.timezone.utc).date()
        start = today - datetime.timedelta(days=today.weekday() + 15 * 7)  # today is in week 16
        request(base, "PUT", "/api/v1/profile", token, {
            "dateOfBirth": "1990-01-01", "sex": "female", "heightCm": 168, "weightKg": 82, "goal": "lose",
            "activity": "moderate", "timeZone": "UTC"})
        request(base, "POST", "/api/v1/challenge", token, {"startDate": start.isoformat(), "goalWeight": 72, "startWeight": 82})
        day = start
        while day <= today:
            iso = day.isoformat()
            nutrition = {"status": "skipped"} if day.toordinal() % 9 == 0 else {"kcal": 1700 + day.toordinal() % 5 * 50, "protein": 130}
            request(base, "PUT", f"/api/v1/challenge/days/{iso}/nutrition", token, nutrition)
            request(base, "PUT", f"/api/v1/challenge/days/{iso}/workout", token, {"type": "push", "useTemplate": True})
            request(base, "PUT", f"/api/v1/challenge/days/{iso}/habits", token, {"water": True, "steps": True, "sleep": day.weekday() != 2})
            if day.weekday() == 0:
                week = (day - start).days // 7 + 1
                request(base, "POST", f"/api/v1/challenge/weeks/{week}/weigh-in", token, {"weight": round(82 - week * 0.5, 1)})
            day += datetime.timedelta(days=1)
        for name, path, cookie in [("GET /api/v1/challenge", "/api/v1/challenge", False), ("GET /challenge (page)", "/challenge", True)]:
            for _ in range(20):
                _, body = request(base, "GET", path, token, cookie=cookie)  # warm-up
            assert b'"week":16' in body.replace(b" ", b"") or b'Week 16 of 17' in body, body[:300]
            times = []
            for _ in range(args.runs):
                began = time.perf_counter()
                status, _ = request(base, "GET", path, token, cookie=cookie)
                times.append((time.perf_counter() - began) * 1000)
                assert status == 200, status
            print(f"{name}: {args.runs} runs, P50 {percentile(times, 50):.2f} ms, P95 {percentile(times, 95):.2f} ms, "
                  f"P99 {percentile(times, 99):.2f} ms, max {max(times):.2f} ms (mean {statistics.mean(times):.2f})")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
