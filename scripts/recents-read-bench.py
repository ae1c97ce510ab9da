#!/usr/bin/env python3
"""The recents' read (GET /api/v1/foods/recent) on a seeded SQLite file: the statement SQLiteMealStore.meals(from:through:limit:)
runs, for 300 random users, over the last 60 days. Usage: scripts/recents-read-bench.py FILE (seeded by
`wdiet-dev seed --users 1000 --days 365 --database FILE`). Prints the plan, rows per user and the time per read."""
import datetime, random, sqlite3, sys, time

db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
sql = ("SELECT * FROM meals WHERE userId = ? AND localDate BETWEEN ? AND ? AND deletedAt IS NULL "
       "ORDER BY loggedAt DESC, createdAt DESC LIMIT 600")
users = [r[0] for r in db.execute("SELECT id FROM users")]
today = datetime.date.fromisoformat(db.execute("SELECT max(localDate) FROM meals").fetchone()[0])
start, end = (today - datetime.timedelta(days=60)).isoformat(), (today + datetime.timedelta(days=1)).isoformat()
print("plan:", [row[3] for row in db.execute("EXPLAIN QUERY PLAN " + sql, (users[0], start, end))])
random.seed(1)
times, counts = [], []
for user in random.sample(users, min(300, len(users))):
    began = time.perf_counter()
    counts.append(len(db.execute(sql, (user, start, end)).fetchall()))
    times.append((time.perf_counter() - began) * 1000)
times.sort()
counts.sort()
print(f"{len(times)} users, {counts[len(counts) // 2]} meals each (median); "
      f"P50 {times[len(times) // 2]:.2f} ms, P95 {times[int(len(times) * 0.95)]:.2f} ms, max {times[-1]:.2f} ms")
