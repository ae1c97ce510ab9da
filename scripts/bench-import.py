#!/usr/bin/env python3
"""Another user's meal save while four 8 MB imports run (issue 21 item 3), over HTTP against `wdiet serve`.

    scripts/bench-import.py --binary .build/release/wdiet [--imports 4] [--megabytes 8] [--port 18311] [--dir DIR]

Starts `wdiet serve` on a fresh copy of a SQLite file (made once in DIR, with the SR28 catalog imported on its first
start), makes guests over the API, builds an export of MEGABYTES of meals (one guest's real export, its meals repeated
on earlier days with fresh ids), then: one user saves a meal every 20 ms for 5 s alone (the usual latencies), then
the same while IMPORTS guests import that document at once; prints P50/P95/P99/max of the saves in each phase and
how long the imports took and what they answered, the server's CPU time in each phase (/proc/<pid>/stat; during
the imports it is mostly theirs) and the load average. Standard library only.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

PROFILE = {"dateOfBirth": "1990-04-02", "sex": "female", "heightCm": 168, "weightKg": 72, "goal": "lose",
           "activity": "moderate", "timeZone": "UTC"}


def call(base, method, path, token=None, body=None, raw=None, timeout=300):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
            return response.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, text[:200]


def guest(base):
    status, body = call(base, "POST", "/api/v1/auth/guest")
    assert status == 201, (status, body)
    return body["token"]


def start(binary, database, port, log_path):
    log = open(log_path, "a")
    process = subprocess.Popen([binary, "serve", "--port", str(port), "--database", database],
                               stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 900
    while True:
        try:
            with urllib.request.urlopen(base + "/health", timeout=1) as response:
                if response.status == 200:
                    return process, base
        except OSError:
            pass
        if process.poll() is not None or time.time() > deadline:
            process.kill()
            sys.exit("wdiet serve did not start; see " + log_path)
        time.sleep(0.25)


def document(base, megabytes):
    """A real export of one guest (profile and a day of meals), its meals repeated on earlier days up to the size."""
    token = guest(base)
    assert call(base, "PUT", "/api/v1/profile", token, PROFILE)[0] in (200, 201)
    for name, kcal in [("Porridge with blueberries and honey", 380), ("Chicken salad sandwich", 520),
                       ("Spaghetti bolognese with parmesan", 710), ("Greek yogurt with walnuts", 240)]:
        assert call(base, "POST", "/api/v1/meals", token, {"name": name, "calories": kcal, "protein": 20,
                                                           "carbs": 50, "fat": 12, "fiber": 4})[0] == 201
    status, export = call(base, "GET", "/api/v1/export?format=json", token)
    assert status == 200, status
    day_meals = export["meals"]
    meals, days, size = [], 0, 0
    while size < megabytes * 1_000_000 and days < 20_000:
        days += 1
        for meal in day_meals:
            copy = json.loads(json.dumps(meal))
            copy["id"] = str(uuid.uuid4())
            for key in ("loggedAt", "createdAt", "updatedAt"):
                if key in copy:
                    at = datetime.datetime.fromisoformat(copy[key].replace("Z", "+00:00")) - datetime.timedelta(days=days)
                    copy[key] = at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"
            if "localDate" in copy:
                copy["localDate"] = (datetime.date.fromisoformat(copy["localDate"]) - datetime.timedelta(days=days)).isoformat()
            meals.append(copy)
            size += len(json.dumps(copy)) + 2
    export["meals"] = meals
    export["analyticsEvents"] = []
    return json.dumps(export).encode(), len(meals)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def saves(base, token, stop, out):
    while not stop.is_set():
        began = time.perf_counter()
        status, _ = call(base, "POST", "/api/v1/meals", token, {"name": "Apple", "calories": 95}, timeout=120)
        out.append(((time.perf_counter() - began) * 1000, status))
        time.sleep(0.02)


def cpu_seconds(pid):
    """The server's user + system CPU time so far, from /proc/<pid>/stat (Linux)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summary(label, samples, cpu, seconds):
    ms = [m for m, _ in samples]
    bad = sum(1 for _, s in samples if s != 201)
    print(f"{label}: {len(ms)} saves, P50 {percentile(ms, 50):.1f} ms, P95 {percentile(ms, 95):.1f} ms, "
          f"P99 {percentile(ms, 99):.1f} ms, max {max(ms):.1f} ms, non-201 {bad}; "
          f"server CPU {cpu:.2f} s in {seconds:.1f} s ({cpu / max(1, len(ms)) * 1000:.2f} ms per save); "
          f"load average {os.getloadavg()[0]:.1f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/wdiet")
    parser.add_argument("--imports", type=int, default=4)
    parser.add_argument("--megabytes", type=float, default=8)
    parser.add_argument("--port", type=int, default=18311)
    parser.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "wdiet-bench-import"))
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    seeded = os.path.join(args.dir, "seed.sqlite")
    log_path = os.path.join(args.dir, "server.log")
    if not os.path.exists(seeded):
        process, _ = start(args.binary, seeded, args.port, log_path)   # imports the SR28 catalog once
        process.terminate()
        process.wait(timeout=60)
    run = os.path.join(args.dir, "run.sqlite")
    for suffix in ("", "-wal", "-shm", "-media", "-media-wal", "-media-shm", "-serve.lock"):
        if os.path.exists(run + suffix):
            os.remove(run + suffix)
    shutil.copy(seeded, run)
    process, base = start(args.binary, run, args.port, log_path)
    try:
        body, count = document(base, args.megabytes)
        print(f"binary {args.binary}; import document {len(body) / 1e6:.1f} MB, {count} meals; {args.imports} imports")
        saver = guest(base)
        assert call(base, "PUT", "/api/v1/profile", saver, PROFILE)[0] in (200, 201)
        importers = [guest(base) for _ in range(args.imports)]

        print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        stop, alone = threading.Event(), []
        cpu, began = cpu_seconds(process.pid), time.perf_counter()
        thread = threading.Thread(target=saves, args=(base, saver, stop, alone))
        thread.start()
        time.sleep(5)
        stop.set()
        thread.join()
        summary("alone", alone, cpu_seconds(process.pid) - cpu, time.perf_counter() - began)

        stop, during = threading.Event(), []
        thread = threading.Thread(target=saves, args=(base, saver, stop, during))
        thread.start()
        cpu, began = cpu_seconds(process.pid), time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(args.imports) as pool:
            answers = list(pool.map(lambda t: (call(base, "POST", "/api/v1/import", t, raw=body, timeout=600),
                                               time.perf_counter() - began), importers))
        stop.set()
        thread.join()
        summary(f"during {args.imports} imports", during, cpu_seconds(process.pid) - cpu, time.perf_counter() - began)
        for (status, answer), seconds in answers:
            print(f"  import: {status} after {seconds:.1f} s {json.dumps(answer)[:120]}")
    finally:
        process.terminate()
        process.wait(timeout=60)


if __name__ == "__main__":
    main()
