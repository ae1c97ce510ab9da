#!/usr/bin/env bash
# Food search latency on PostgreSQL: starts a throw-away cluster, runs PostgresFoodSearchBenchmarkTests in a release
# build (P50/P95/P99 over the relevance queries and as-you-type prefixes, and the SR28 import time), stops it.
# Usage: scripts/bench-food-search.sh [PORT]   (WDIET_BENCH_ROUNDS=20 by default; WDIET_BENCH_CONFIG=debug reuses
# the debug build instead of compiling everything in release, for a quick look: its Swift part is slower)
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:-55499}"
dir="$(mktemp -d "${TMPDIR:-/tmp}/wdiet-bench-pg.XXXXXX")"
trap 'scripts/postgres-test-cluster.sh stop "$dir"' EXIT
url="$(scripts/postgres-test-cluster.sh start "$dir" "$port")"
build=(-c release -Xswiftc -enable-testing)  # some test targets use @testable
if [ "${WDIET_BENCH_CONFIG:-release}" = debug ]; then build=(-c debug); fi
WDIET_TEST_POSTGRES_URL="$url" WDIET_BENCH_FOOD_SEARCH=1 \
    swift test "${build[@]}" --filter PostgresFoodSearchBenchmarkTests 2>&1 \
    | grep -E "food search on PostgreSQL|passed|failed|error:"
