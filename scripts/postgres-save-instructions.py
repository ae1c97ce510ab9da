#!/usr/bin/env python3
"""PostgreSQL's own instructions per meal save, counted by callgrind: less noisy than CPU time on a shared machine.

Runs a single-user backend (`postgres --single`, the cluster stopped) under valgrind's callgrind twice on the same
database, with 100 and with 300 executions of the meal save's statement (`PostgresOwnedRow.makeInsertNewWithEventSQL`
for `meals`, prepared as the server prepares it, a new meal and event id each time, the users in turn), and prints
(instructions of 300 - instructions of 100) / 200: one save's work in the executor, triggers, constraint checks and
commit, without start-up. Each database is warmed by a first run of 10 (its relcache file), so run it on copies made
with CREATE DATABASE ... TEMPLATE to compare schemas (docs/benchmarks.md, "PostgreSQL's instructions per save").

    scripts/postgres-save-instructions.py --data CLUSTER/data [--before-50] DB [DB ...]

As root it runs the backend as the `postgres` user, as scripts/postgres-test-cluster.sh runs the cluster.
"""
import argparse
import glob
import os
import re
import subprocess
import tempfile
import uuid

COLUMNS = ("id, user_id, name, food_id, grams, kcal, protein, carbs, fat, fiber, source, logged_at, local_date, "
           "created_at, updated_at, version, deleted_at, slot").split(", ")
TYPES = ("uuid uuid text text float8 float8 float8 float8 float8 float8 text timestamptz date timestamptz timestamptz "
         "int8 timestamptz text uuid uuid text text timestamptz timestamptz").split()


def statement(count_days=True):
    n = len(COLUMNS)
    values = ", ".join(
        "CASE WHEN version.owner IS NULL THEN version.last_version - 1 ELSE version.last_version END" if name == "version"
        else f"${i + 1}" for i, name in enumerate(COLUMNS))
    return f"""
        WITH event_known AS (SELECT (SELECT user_id FROM analytics_events WHERE id = ${n + 2}) AS owner),
        version AS (
            UPDATE users SET last_version = users.last_version + CASE WHEN event_known.owner IS NULL THEN 2 ELSE 1 END
            FROM event_known
            WHERE users.id = ${n + 1} AND NOT EXISTS (SELECT 1 FROM meals WHERE id = $1)
            RETURNING users.last_version, event_known.owner
        ),
        inserted AS (
            INSERT INTO meals ({", ".join(COLUMNS)}) SELECT {values} FROM version
            ON CONFLICT (id) DO NOTHING RETURNING version{", user_id, local_date, deleted_at" if count_days else ""}
        ),{COUNTED if count_days else ""}
        event AS (
            INSERT INTO analytics_events (id, user_id, name, properties, occurred_at, created_at, updated_at, version)
            SELECT ${n + 2}, ${n + 1}, ${n + 3}, ${n + 4}::jsonb, ${n + 5}, ${n + 6}, ${n + 6}, version.last_version
            FROM version WHERE version.owner IS NULL
            ON CONFLICT (id) DO NOTHING RETURNING 1
        )
        SELECT (SELECT version FROM inserted), (SELECT owner FROM event_known), (SELECT count(*) FROM event)"""


# Since migration 50 the save counts its day itself (`PostgresOwnedRow.countLoggedDaysSQL`); a database before it
# has the trigger that did, and takes the statement without this part (--before-50).
COUNTED = """
        counted AS (
            INSERT INTO logged_days (user_id, local_date, entries)
            SELECT user_id, local_date, 1 FROM inserted WHERE deleted_at IS NULL
            ON CONFLICT (user_id, local_date) DO UPDATE SET entries = logged_days.entries + EXCLUDED.entries
        ),"""


def script(users, count, count_days=True):
    # Single-user mode ends a statement at a newline: one line each.
    lines = [f"PREPARE save({', '.join(TYPES)}) AS {' '.join(statement(count_days).split())}"]
    at = "'2026-11-27T11:00:00Z'"
    for i in range(count):
        user = users[i % len(users)]
        row = [f"'{uuid.uuid4()}'", f"'{user}'", "'Apple'", "NULL", "NULL", "95", "NULL", "NULL", "NULL", "NULL",
               "'manual'", at, "'2026-11-27'", at, at, "0", "NULL", "NULL",
               f"'{user}'", f"'{uuid.uuid4()}'", "'meal_logged'", "'{\"source\":\"manual\",\"meal_type\":\"snack\"}'", at, at]
        lines.append(f"EXECUTE save({', '.join(row)})")
    return "\n".join(lines) + "\n"


def single_user(postgres, data, db, text, workdir):
    out = os.path.join(workdir, f"callgrind-{uuid.uuid4()}.out")
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", postgres, "--single", "-D", data, db]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--"] + command
    result = subprocess.run(command, input=text, capture_output=True, text=True)
    if "ERROR" in result.stdout or "ERROR" in result.stderr:
        raise SystemExit(f"{db}: the backend reported an error:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    with open(out) as file:
        total = int(re.search(r"^summary: (\d+)", file.read(), re.M).group(1))
    os.remove(out)
    return total


def users_of(postgres, data, db, workdir):
    command = [postgres, "--single", "-D", data, db]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--"] + command
    result = subprocess.run(command, input="SELECT id FROM users ORDER BY id\n", capture_output=True, text=True)
    return re.findall(r'id = "([0-9a-f-]{36})"', result.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", required=True, help="the data folder of a stopped cluster")
    parser.add_argument("--postgres", default=sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))[-1])
    parser.add_argument("--before-50", action="store_true",
                        help="databases before migration 50: the statement without its logged_days part")
    parser.add_argument("databases", nargs="+")
    args = parser.parse_args()
    workdir = tempfile.mkdtemp(prefix="wdiet-save-instructions-")
    os.chmod(workdir, 0o777)
    for db in args.databases:
        users = users_of(args.postgres, args.data, db, workdir)
        if not users:
            raise SystemExit(f"{db}: no users (seed it with wdiet-dev seed first)")
        single_user(args.postgres, args.data, db, script(users, 10, not args.before_50), workdir)
        few = single_user(args.postgres, args.data, db, script(users, 100, not args.before_50), workdir)
        many = single_user(args.postgres, args.data, db, script(users, 300, not args.before_50), workdir)
        print(f"{db}: {(many - few) / 200:,.0f} instructions a save (100 saves: {few:,}, 300: {many:,})", flush=True)


if __name__ == "__main__":
    main()
