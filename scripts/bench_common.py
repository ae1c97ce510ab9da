"""What the Challenge benchmarks share (scripts/bench-challenge-home.py, scripts/bench-challenge-summary.py;
docs/benchmarks.md): a `wdiet serve` on a fresh SQLite file over loopback, a web guest with its CSRF token (the
session cookie in a jar, as the browser has it), a user 16 weeks into a 17-week challenge made through the API, the
server's CPU time from /proc/<pid>/stat, the load average and percentiles. Standard library only.
"""
import base64
import datetime
import hashlib
import hmac
import http.cookiejar
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Server:
    """`wdiet serve` on a fresh SQLite file in a temporary folder (or on `database`, a postgres:// URL of an empty
    database); `with Server(binary, port) as server:` starts it, waits for /health and stops it at the end."""

    def __init__(self, binary, port, prefix="wdiet-bench-", extra=(), database=None):
        self.binary, self.port, self.extra, self.database = binary, port, list(extra), database
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
        self.base = f"http://127.0.0.1:{port}"
        self.process = None

    def __enter__(self):
        log = open(self.folder / "server.log", "w")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--database", self.database or str(self.folder / "bench.sqlite"),
             "--from", str(self.folder / "no-food-data")] + self.extra,
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 900
        while True:
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=2) as response:
                    if response.status == 200:
                        return self
            except OSError:
                pass
            if self.process.poll() is not None or time.time() > deadline:
                self.process.kill()
                sys.exit(f"wdiet serve did not start; see {self.folder / 'server.log'}")
            time.sleep(0.3)

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=30)

    def cpu_seconds(self):
        """The server's user + system CPU time so far (its threads, not its children)."""
        fields = pathlib.Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def children_cpu_seconds(self):
        """The CPU time of its waited-for child processes (rsvg-convert, vips)."""
        fields = pathlib.Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[13]) + int(fields[14])) / CLOCK_TICKS


class Guest:
    """A web guest as the browser makes one ("Continue without an account"): the session cookie in a jar and the
    CSRF token the server derives from it (HMAC-SHA256), sent with every state-changing request."""

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        page = self.request("GET", "/onboarding")[1]
        csrf = re.search(rb'name="_csrf" value="([^"]+)"', page).group(1).decode()
        form = urllib.parse.urlencode({"_csrf": csrf}).encode()
        self.opener.open(urllib.request.Request(
            base + "/onboarding/guest", data=form, method="POST",
            headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": base}), timeout=60).read()
        session = next(c.value for c in self.jar if c.name == "wdiet_session")
        mac = hmac.new(session.encode(), b"wdiet-csrf-v1", hashlib.sha256).digest()
        self.csrf = base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def request(self, method, path, body=None, content_type="application/json"):
        """(status, body bytes); a dict body is sent as JSON, bytes as they are."""
        data = None
        headers = {}
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers["Content-Type"] = content_type
        if method != "GET" and getattr(self, "csrf", None):
            headers["X-CSRF-Token"] = self.csrf
            headers["Origin"] = self.base
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        with self.opener.open(req, timeout=60) as response:
            return response.status, response.read()

    def must(self, method, path, body=None, content_type="application/json"):
        status, answer = self.request(method, path, body, content_type)
        assert 200 <= status < 300, (method, path, status, answer[:300])
        return answer


def seed_challenge(guest, photo=None, weeks_in=16):
    """A user `weeks_in` weeks into a 17-week challenge (today is in week `weeks_in`), on the Lose plan: every day
    before today logged (nutrition typed, about one in nine skipped; a Push/Pull/Legs/Plyo-Abs week with Rest on
    Sundays; habits, steps missed on Wednesdays), today's too unless `photo` is given (the summary's), a weigh-in
    every week and, with `photo` (a JPEG file), that photo every week. Returns the start date."""
    today = datetime.datetime.now(datetime.timezone.utc).date()
    start = today - datetime.timedelta(days=today.weekday() + (weeks_in - 1) * 7)
    guest.must("PUT", "/api/v1/profile", {
        "dateOfBirth": "1990-01-01", "sex": "female", "heightCm": 168, "weightKg": 82, "goal": "lose",
        "activity": "moderate", "timeZone": "UTC", "planStartDate": start.isoformat()})
    guest.must("POST", "/api/v1/challenge", {"startDate": start.isoformat(), "goalWeight": 72, "startWeight": 82})
    day = start
    last = today if photo is None else today - datetime.timedelta(days=1)
    while day <= last:
        iso = day.isoformat()
        nutrition = ({"status": "skipped"} if day.toordinal() % 9 == 0
                     else {"kcal": 1700 + day.toordinal() % 5 * 50, "protein": 130, "carbs": 170, "fat": 55})
        guest.must("PUT", f"/api/v1/challenge/days/{iso}/nutrition", nutrition)
        workout = ({"type": "rest"} if day.weekday() == 6
                   else {"type": ["push", "pull", "legs", "plyoAbs"][day.weekday() % 4], "useTemplate": True})
        guest.must("PUT", f"/api/v1/challenge/days/{iso}/workout", workout)
        guest.must("PUT", f"/api/v1/challenge/days/{iso}/habits", {"water": True, "steps": day.weekday() != 2, "sleep": True})
        day += datetime.timedelta(days=1)
    for week in range(1, weeks_in + 1):
        guest.must("POST", f"/api/v1/challenge/weeks/{week}/weigh-in", {"weight": round(82 - 0.55 * (week - 1), 1), "waist": 92 - week * 0.4})
        if photo is not None:
            media = str(uuid.uuid4())
            guest.must("PUT", f"/api/v1/media/{media}", pathlib.Path(photo).read_bytes(), content_type="image/jpeg")
            guest.must("PUT", f"/api/v1/challenge/weeks/{week}/photo", {"mediaId": media})
    return start


class ScratchPostgres:
    """A database of its own in the PostgreSQL cluster at `url` (postgres://user@host:port/db), created empty and
    dropped at the end (psql); `backends_cpu_seconds()` is the CPU time of its server processes now connected (the
    cluster runs on this machine: /proc)."""

    def __init__(self, url, name):
        self.admin, self.name = url, name
        parsed = urllib.parse.urlsplit(url)
        self.url = urllib.parse.urlunsplit(parsed._replace(path="/" + name))

    def psql(self, sql):
        return subprocess.run(["psql", "-X", "-q", "-t", "-A", "-d", self.admin, "-c", sql],
                              check=True, capture_output=True, text=True).stdout

    def __enter__(self):
        self.psql(f'DROP DATABASE IF EXISTS "{self.name}"')
        self.psql(f'CREATE DATABASE "{self.name}"')
        return self

    def __exit__(self, *exc):
        self.psql(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{self.name}'")
        self.psql(f'DROP DATABASE IF EXISTS "{self.name}"')

    def backend_pids(self):
        return [int(p) for p in self.psql(f"SELECT pid FROM pg_stat_activity WHERE datname = '{self.name}'").split()]

    @staticmethod
    def cpu_of(pids):
        """{pid: user + system seconds} of the processes still there."""
        seconds = {}
        for pid in pids:
            try:
                fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            seconds[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        return seconds


def percentile(values, p):
    """The nearest-rank percentile (P50, P95, P99) of the values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered))) - 1))]


def load():
    return "load average %.2f, %.2f, %.2f" % os.getloadavg()
