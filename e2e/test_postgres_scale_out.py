"""Several `wdiet serve` processes on one PostgreSQL database (issue 4): what a load balancer in front of them needs.

- A user's requests alternate between two processes; every read, on either, sees every write the other acknowledged,
  and a session ended on one is refused by the other at once.
- A server killed with SIGKILL in the middle of 1,000 concurrent meal saves loses none that it answered with a 2xx.
- `--database-connections` bounds the connections one process opens, however many requests wait.
- Two processes starting together on an empty database: one imports the food catalog, both serve it.

These start real servers on a throw-away database of the cluster named by WDIET_TEST_POSTGRES_URL (the README's test
command starts one; the Swift suite fails when it is missing, so these never skip silently there).
"""
import concurrent.futures
import json
import os
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid

import pytest

from conftest import BINARY, ROOT, _free_port, once_per_run

CLUSTER = os.environ.get("WDIET_TEST_POSTGRES_URL", "")

requires_postgres = pytest.mark.skipif(not CLUSTER, reason="WDIET_TEST_POSTGRES_URL is not set (scripts/test.sh sets it)")

# No SR28 folder: a server starts without a food catalog. None of these tests reads the catalog but the first-start
# import's own, which writes a tiny one (`test_two_processes_on_an_empty_database_import_the_catalog_once`); SR28's
# import into PostgreSQL took 50-110 s of CPU a run here.
NO_FOOD_DATA = "/nonexistent-sr28"


def _database_url(name: str) -> str:
    base, _, _ = CLUSTER.rpartition("/")
    return f"{base}/{name}"


def _psql(sql: str) -> None:
    subprocess.run(["psql", CLUSTER, "-q", "-c", sql], check=True, capture_output=True)


def _template() -> str:
    """A database of the cluster that `wdiet serve` migrated on its first start (without a food catalog), made once
    per run (the first test that needs it starts and stops that server): each test's database is a copy of it
    (`CREATE DATABASE … TEMPLATE`), as if a server had started on it before."""
    with once_per_run("pg-template") as folder:
        named = folder / "pg-template"
        if not named.exists():
            name = "wdiet_e2e_template_" + uuid.uuid4().hex
            _psql(f"CREATE DATABASE {name}")
            server = Server(_database_url(name)).start()
            server.stop()  # its connections end with it: a template has none while it is copied
            named.write_text(name)  # conftest's pytest_unconfigure drops it at the end of the run
        return named.read_text()


@pytest.fixture
def database():
    """A fresh database on the test cluster (a copy of the run's migrated template), dropped afterwards."""
    if not CLUSTER:
        pytest.skip("WDIET_TEST_POSTGRES_URL is not set (scripts/test.sh sets it)")
    name = "wdiet_e2e_" + uuid.uuid4().hex
    _psql(f"CREATE DATABASE {name} TEMPLATE {_template()}")
    yield _database_url(name)
    subprocess.run(["psql", CLUSTER, "-q", "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)


class Server:
    """One `wdiet serve` process on the database (with the SR28 files of `food_data`, else without a catalog)."""

    def __init__(self, database_url: str, port: int | None = None, extra_args: tuple[str, ...] = (),
                 food_data: str = NO_FOOD_DATA, log_level: str = "warning"):
        self.database_url = database_url
        self.extra_args = ["--from", food_data, "--log-level", log_level, *extra_args]
        self.port = port or _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.folder = tempfile.mkdtemp(prefix="wdiet-pg-")
        self.log_path = os.path.join(self.folder, "server.log")
        self.process = None

    def start(self, timeout: float = 300) -> "Server":
        return self.launch().wait_until_serving(timeout)

    def launch(self) -> "Server":
        """The process started, not yet serving."""
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", str(self.port), "--database", self.database_url, *self.extra_args],
            cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
        )
        return self

    def wait_until_serving(self, timeout: float = 300) -> "Server":
        log = self.log
        deadline = time.time() + timeout
        while True:
            try:
                with urllib.request.urlopen(self.base + "/health", timeout=1) as response:
                    if response.status == 200:
                        return self
            except OSError:
                pass
            if self.process.poll() is not None or time.time() > deadline:
                exited = self.process.poll()
                self.process.kill()
                log.flush()
                with open(log.name, errors="replace") as written:
                    tail = written.read()[-2000:]
                why = f"exited with {exited}" if exited is not None else f"no /health answer in {timeout:.0f} s"
                raise RuntimeError(f"wdiet serve did not start ({why}); its log ends:\n{tail}")
            time.sleep(0.25)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            assert self.process.wait(timeout=30) == 0, "wdiet serve did not stop gracefully on SIGTERM"

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def call(self, method: str, path: str, body=None, token: str | None = None):
        """(status, parsed JSON or None); connection errors raise."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read()
                return response.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, (json.loads(text) if text else None)


PROFILE = {
    "dateOfBirth": "1990-04-02", "sex": "female", "heightCm": 168, "weightKg": 72, "goal": "lose",
    "activity": "light", "timeZone": "Europe/Berlin",
}


def _guest_with_profile(server: Server) -> str:
    status, body = server.call("POST", "/api/v1/auth/guest", {})
    assert status == 201, body
    token = body["token"]
    status, body = server.call("PUT", "/api/v1/profile", PROFILE, token)
    assert status in (200, 201), body
    return token


@requires_postgres
def test_two_processes_see_each_others_writes(database):
    a = Server(database).start()
    b = Server(database).start()
    try:
        token = _guest_with_profile(a)
        status, profile = b.call("GET", "/api/v1/profile", token=token)
        assert status == 200 and profile["heightCm"] == 168

        # Meals: written on one, read on the other, alternating, 20 rounds.
        # Both processes read the dashboard after every write, so each keeps its inputs (they are kept per process,
        # tagged with the user's data version): a kept copy that missed the other process's write would show here.
        meal_ids = []
        running_total = 0
        for round_number in range(20):
            writer, reader = (a, b) if round_number % 2 == 0 else (b, a)
            status, meal = writer.call("POST", "/api/v1/meals", {"name": f"Meal {round_number}", "calories": 100 + round_number}, token)
            assert status == 201, meal
            meal_ids.append(meal["id"])
            running_total += 100 + round_number
            status, day = reader.call("GET", f"/api/v1/meals?date={meal['localDate']}", token=token)
            assert status == 200, day
            assert {m["id"]: m["calories"] for m in day["meals"]}.get(meal["id"]) == 100 + round_number, day
            for server in (reader, writer, reader):
                status, dashboard = server.call("GET", "/api/v1/dashboard", token=token)
                assert status == 200, dashboard
                assert round(dashboard["totals"]["calories"]) == running_total, (round_number, dashboard["totals"])
        date = meal["localDate"]
        status, listing = a.call("GET", f"/api/v1/meals?date={date}", token=token)
        assert status == 200
        assert sorted(m["id"] for m in listing["meals"]) == sorted(meal_ids)

        # An edit on B is what A reads; a delete on A is gone on B; the dashboard on B adds up A's writes.
        status, edited = b.call("PATCH", f"/api/v1/meals/{meal_ids[0]}", {"calories": 640}, token)
        assert status == 200 and edited["calories"] == 640
        status, day = a.call("GET", f"/api/v1/meals?date={date}", token=token)
        assert {m["id"]: m["calories"] for m in day["meals"]}[meal_ids[0]] == 640
        status, _ = a.call("DELETE", f"/api/v1/meals/{meal_ids[1]}", token=token)
        assert status in (200, 204)
        status, day = b.call("GET", f"/api/v1/meals?date={date}", token=token)
        assert meal_ids[1] not in {m["id"] for m in day["meals"]}
        expected = 640 + sum(100 + n for n in range(2, 20))
        status, dashboard = b.call("GET", f"/api/v1/dashboard?date={date}", token=token)
        assert status == 200, dashboard
        assert round(dashboard["totals"]["calories"]) == expected, dashboard["totals"]

        # A weight logged on B moves A's dashboard (streak on, weight shown).
        status, weight = b.call("POST", "/api/v1/weights", {"kg": 71.4}, token)
        assert status == 201, weight
        status, dashboard = a.call("GET", f"/api/v1/dashboard?date={date}", token=token)
        assert dashboard["weightCard"]["todayKg"] == 71.4, dashboard["weightCard"]

        # Ending the session on A is seen by B at once: no process keeps a session another one ended.
        status, _ = a.call("POST", "/api/v1/auth/logout", {}, token)
        assert status in (200, 204)
        # B's meal save runs on what B last read of the token and checks the session in its own statement: refused,
        # nothing saved.
        status, body = b.call("POST", "/api/v1/meals", {"name": "After logout", "calories": 100}, token)
        assert status == 401, body
        assert _meals_named("After logout", database) == 0
        status, body = b.call("GET", "/api/v1/profile", token=token)
        assert status == 401, body
    finally:
        a.stop()
        b.stop()


def _meals_named(name: str, database_url: str) -> int:
    """Meals with this name in the database, whoever's (read with psql, past every server)."""
    result = subprocess.run(
        ["psql", database_url, "-tAq", "-c", f"SELECT count(*) FROM meals WHERE name = '{name}'"],
        check=True, capture_output=True, text=True,
    )
    return int(result.stdout.strip())


def _backends(database_url: str) -> int:
    """Server processes PostgreSQL runs for connections to this database (psql's own is on another one)."""
    name = database_url.rpartition("/")[2]
    result = subprocess.run(
        ["psql", CLUSTER, "-tAq", "-c", f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{name}'"],
        check=True, capture_output=True, text=True,
    )
    return int(result.stdout.strip())


@requires_postgres
def test_database_connections_bound_one_process(database):
    server = Server(database, extra_args=("--database-connections", "2")).start()
    try:
        tokens = [_guest_with_profile(server) for _ in range(4)]
        peak = 0

        def work(number: int) -> int:
            token = tokens[number % len(tokens)]
            status, meal = server.call("POST", "/api/v1/meals", {"name": f"Meal {number}", "calories": 100 + number}, token)
            assert status == 201, meal
            status, dashboard = server.call("GET", "/api/v1/dashboard", token=token)
            assert status == 200, dashboard
            return status

        # 100 meal saves and 100 dashboards from 32 threads: they queue for the 2 connections, and every one is answered.
        with concurrent.futures.ThreadPoolExecutor(max_workers=32) as pool:
            futures = [pool.submit(work, n) for n in range(100)]
            while not all(f.done() for f in futures):
                peak = max(peak, _backends(database))
                time.sleep(0.05)
            assert [f.result() for f in futures] == [200] * 100
        assert 1 <= peak <= 2, f"{peak} connections for --database-connections 2"
        status, day = server.call("GET", "/api/v1/meals", token=tokens[0])
        assert status == 200 and len(day["meals"]) == 25, day
    finally:
        server.stop()


def test_database_connections_out_of_range_is_refused_in_one_line():
    result = subprocess.run([BINARY, "serve", "--database-connections", "0"], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "--database-connections must be between 1 and 1000." in result.stderr
    assert ".swift" not in result.stderr and "Fatal error" not in result.stderr


# A food catalog in SR28's format (five files, `^`-separated, text in `~`, CRLF), two made-up foods: what `wdiet serve
# --from DIR` imports on a database's first start. (Invented foods and values, not SR28's.)
TINY_SR28 = {
    "FD_GROUP.txt": ["~9900~^~Test Foods~"],
    "FOOD_DES.txt": [
        "~99001~^~9900~^~Plumcots, raw~^~PLUMCOTS,RAW~^^^~Y~^~Pits~^8^^6.25^3.36^8.37^3.60",
        "~99002~^~9900~^~Plumcot jam~^~PLUMCOT JAM~^^^~Y~^^0^^6.25^3.36^8.37^3.60",
    ],
    "NUTR_DEF.txt": [
        "~203~^~g~^~PROCNT~^~Protein~^~2~^~600~", "~204~^~g~^~FAT~^~Total lipid (fat)~^~2~^~800~",
        "~205~^~g~^~CHOCDF~^~Carbohydrate, by difference~^~2~^~1100~",
        "~208~^~kcal~^~ENERC_KCAL~^~Energy~^~0~^~300~", "~291~^~g~^~FIBTG~^~Fiber, total dietary~^~1~^~1200~",
    ],
    "NUT_DATA.txt": [
        "~99001~^~203~^0.80^2^^~1~^^^^^^^^^^^^", "~99001~^~204~^0.30^2^^~1~^^^^^^^^^^^^",
        "~99001~^~205~^13.50^0^^~4~^^^^^^^^^^^^", "~99001~^~208~^57^0^^~4~^^^^^^^^^^^^",
        "~99001~^~291~^1.9^2^^~1~^^^^^^^^^^^^",
        "~99002~^~203~^0.40^0^^~4~^^^^^^^^^^^^", "~99002~^~208~^250^0^^~4~^^^^^^^^^^^^",
    ],
    "WEIGHT.txt": ["~99001~^1^1^~fruit~^70^^", "~99002~^1^1^~tbsp~^20^^"],
}


@requires_postgres
def test_two_processes_on_an_empty_database_import_the_catalog_once(tmp_path):
    """`serve`'s first start on PostgreSQL (the catalog imported before it listens, under a lock): two processes
    started together on a database nobody migrated, one imports, both search the same catalog."""
    for name, lines in TINY_SR28.items():
        (tmp_path / name).write_bytes("".join(line + "\r\n" for line in lines).encode())
    name = "wdiet_e2e_" + uuid.uuid4().hex
    _psql(f"CREATE DATABASE {name}")
    database = _database_url(name)
    servers = [Server(database, food_data=str(tmp_path), log_level="info").launch() for _ in range(2)]
    try:
        for server in servers:
            server.wait_until_serving()
        # The log line of an import: one process imported, the other found the catalog there.
        imported = [open(server.log_path, errors="replace").read().count("Food catalog imported") for server in servers]
        assert sorted(imported) == [0, 1], imported
        result = subprocess.run(["psql", database, "-tAq", "-c", "SELECT count(*) FROM food"],
                                check=True, capture_output=True, text=True)
        assert result.stdout.strip() == "2"
        for server in servers:
            token = _guest_with_profile(server)
            status, found = server.call("GET", "/api/v1/foods/search?q=plumcot", token=token)
            assert status == 200, found
            assert sorted(food["id"] for food in found["results"]) == ["99001", "99002"], found
            raw = next(food for food in found["results"] if food["id"] == "99001")
            assert (raw["name"], raw["kcalPer100g"], raw["proteinPer100g"], raw["carbsPer100g"], raw["fatPer100g"],
                    raw["fiberPer100g"]) == ("Plumcots, raw", 57, 0.8, 13.5, 0.3, 1.9), raw
            assert {"label": "1 fruit", "grams": 70} in [{"label": p["label"], "grams": p["grams"]} for p in raw["portions"]], raw
    finally:
        for server in servers:
            server.stop()
        subprocess.run(["psql", CLUSTER, "-q", "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)


@pytest.fixture(params=["postgres", "sqlite"])
def any_database(request, tmp_path):
    """The kill test on both backends: PostgreSQL with synchronous_commit on, SQLite in WAL mode."""
    if request.param == "sqlite":
        path = tmp_path / "kill.sqlite"
        yield str(path)  # created and migrated by the server's first start, without a catalog, as the PostgreSQL one
    else:
        yield request.getfixturevalue("database")


def test_sigkill_during_concurrent_saves_loses_no_acknowledged_save(any_database):
    server = Server(any_database).start()
    token = _guest_with_profile(server)
    acknowledged = []
    refused = []

    # The day every save lands on (the profile's time zone), from one save before the storm.
    status, first = server.call("POST", "/api/v1/meals", {"name": "Breakfast", "calories": 300}, token)
    assert status == 201, first
    date = first["localDate"]

    def save(number: int):
        meal_id = str(uuid.uuid4())
        try:
            status, body = server.call("POST", "/api/v1/meals", {"id": meal_id, "name": f"Save {number}", "calories": 1 + number}, token)
        except OSError:
            return None  # the connection died with the server: not acknowledged
        if 200 <= status < 300:
            return meal_id
        refused.append((status, body))
        return None

    with concurrent.futures.ThreadPoolExecutor(max_workers=32) as pool:
        futures = [pool.submit(save, n) for n in range(1000)]
        # Kill the server once a quarter of the saves have been answered.
        while sum(f.done() for f in futures) < 250:
            time.sleep(0.01)
        server.kill()
        for future in futures:
            if (meal_id := future.result()) is not None:
                acknowledged.append(meal_id)

    assert 250 <= len(acknowledged) < 1000, f"the kill should land mid-way: {len(acknowledged)} acknowledged"
    assert not refused, refused[:3]

    server.start()
    try:
        status, day = server.call("GET", f"/api/v1/meals?date={date}", token=token)
        assert status == 200, day
        stored = {m["id"] for m in day["meals"]}
        missing = [meal_id for meal_id in acknowledged if meal_id not in stored]
        assert not missing, f"{len(missing)} of {len(acknowledged)} acknowledged saves lost, e.g. {missing[:3]}"
        assert first["id"] in stored
    finally:
        server.stop()
