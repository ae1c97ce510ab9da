#!/usr/bin/env bash
# Runs every test of w-diet: the Swift tests, then the browser journeys in e2e/ against a real `wdiet serve`.
# Installs what the tests need when it is missing (Debian, as root or with sudo): libsqlite3-dev for GRDB, zlib1g-dev for
# ZIPFoundation (the CSV export's zip),
# Chromium and the colour emoji font for the browser, Playwright for Python (pointed at Debian's Chromium;
# it never downloads a browser).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
need_packages=()
dpkg -s libsqlite3-dev >/dev/null 2>&1 || need_packages+=(libsqlite3-dev)
dpkg -s zlib1g-dev >/dev/null 2>&1 || need_packages+=(zlib1g-dev)
command -v chromium >/dev/null 2>&1 || need_packages+=(chromium)
dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 || need_packages+=(fonts-noto-color-emoji)
command -v python3 >/dev/null 2>&1 || need_packages+=(python3 python3-pip)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need_packages+=(postgresql)
# The media API's photo processing (libvips' command-line tools, HEIC through libheif) and the tests' metadata checks.
command -v vipsthumbnail >/dev/null 2>&1 || need_packages+=(libvips-tools)
dpkg -s libheif1 >/dev/null 2>&1 || need_packages+=(libheif1)
command -v exiftool >/dev/null 2>&1 || need_packages+=(libimage-exiftool-perl)
# Label scanning: Tesseract's library (libtesseract.so.5, loaded at run time with dlopen: nothing links it) and its
# English and German data.
dpkg -s tesseract-ocr-eng >/dev/null 2>&1 || need_packages+=(tesseract-ocr tesseract-ocr-eng)
dpkg -s tesseract-ocr-deu >/dev/null 2>&1 || need_packages+=(tesseract-ocr-deu)
# The Challenge's summary: rsvg-convert draws its PDF and share image; the tests read them with poppler's tools.
command -v rsvg-convert >/dev/null 2>&1 || need_packages+=(librsvg2-bin)
command -v pdftotext >/dev/null 2>&1 || need_packages+=(poppler-utils)
if [ ${#need_packages[@]} -gt 0 ]; then
    echo "Installing ${need_packages[*]} ..."
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_packages[@]}"
fi
if ! python3 -c "import playwright, pytest, xdist, axe_playwright_python, schemathesis" >/dev/null 2>&1; then
    echo "Installing Playwright for Python and pytest ..."
    python3 -m pip install -q -r e2e/requirements.txt || python3 -m pip install -q --break-system-packages -r e2e/requirements.txt
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "Swift 6 is required: https://www.swift.org/install/linux/" >&2
    exit 1
fi

# The SR28 food data: ../shared/datasets/usda-sr28 beside the checkout, or WDIET_FOOD_DATA.
if [ -z "${WDIET_FOOD_DATA:-}" ] && [ ! -f ../shared/datasets/usda-sr28/FOOD_DES.txt ]; then
    echo "The USDA SR28 files were not found in ../shared/datasets/usda-sr28." >&2
    echo "Run scripts/fetch-food-data.sh and set WDIET_FOOD_DATA to the folder it prints." >&2
    exit 1
fi

# The build in two steps, so that the browser journeys need not wait for the test targets: first the products (`wdiet`
# for the journeys, with every dependency), then — while the journeys already run — the test targets. The journeys
# wait on their pages and timers about half of the time; the compiler fills those gaps instead of running before
# them (docs/testing.md, "What scripts/test.sh does").
# The test build has a scratch folder of its own, .build/test-suite, built without debug information (the index
# store stays: SwiftPM reads it on Linux to discover the tests): it compiles with about 16 % less CPU (docs/testing.md, "Build flags"), and on 2 cores the whole command is
# CPU-bound. Its own folder because any flag that differs from plain `swift build` would make the next `swift build`
# or `swift run` rebuild everything. Failures still name file and line (Swift Testing's macros carry them).
BUILD_FLAGS=(--scratch-path .build/test-suite -Xswiftc -gnone -Xcc -g0)
# Each phase's end is printed with the seconds since the script started and how busy the machine's cores were since
# the line before (every process, PostgreSQL's daemons included: /proc/stat), so a CI log shows where the time went and
# whether a phase left cores idle.
cpu_jiffies() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $5+$6}' /proc/stat 2>/dev/null || echo "0 0"; }
read -r LAST_BUSY LAST_IDLE <<<"$(cpu_jiffies)"
LAST_PHASE_AT=$SECONDS
phase() {
    local busy idle seconds
    read -r busy idle <<<"$(cpu_jiffies)"
    seconds=$((SECONDS - LAST_PHASE_AT))
    if [ "$seconds" -gt 0 ] && [ $((busy + idle - LAST_BUSY - LAST_IDLE)) -gt 0 ]; then
        # Busy share of all cores' time, times the number of cores: "1.62 of 2 cores".
        echo "[test.sh ${SECONDS} s] $* (cores busy $(awk -v b=$((busy - LAST_BUSY)) -v t=$((busy + idle - LAST_BUSY - LAST_IDLE)) -v n="$(nproc)" 'BEGIN{printf "%.2f of %d", n*b/t, n}') over the last ${seconds} s)"
    else
        echo "[test.sh ${SECONDS} s] $*"
    fi
    LAST_BUSY=$busy; LAST_IDLE=$idle; LAST_PHASE_AT=$SECONDS
}
phase "set-up checked"
swift build "${BUILD_FLAGS[@]}" --product wdiet
phase "products built"
# A throw-away PostgreSQL cluster for the conformance suite, the multi-process tests and the scale-out journeys,
# stopped at the end. Its files live in memory (/dev/shm) where that is a tmpfs: each test database is ~300 files made
# and deleted again, and on this machine's ext4 a CREATE DATABASE … TEMPLATE with its DROP cost PostgreSQL 0.26 s of
# CPU, two thirds of it the kernel looking for a free inode (0.05 s on tmpfs; docs/testing.md).
# The cluster grew to about 0.5 GB in a full run: a /dev/shm with less than 2 GB free (a container's 64 MB) is not used.
PG_PARENT="${TMPDIR:-/tmp}"
if [ -w /dev/shm ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] \
    && [ "$(df --output=avail -k /dev/shm 2>/dev/null | tail -1 | tr -d ' ')" -ge 2000000 ] 2>/dev/null; then
    PG_PARENT=/dev/shm
fi
PG_DIR="$(mktemp -d "$PG_PARENT/wdiet-test-pg.XXXXXX")"
# The journeys run on a copy of the binary and its resource bundles, so no later build step can replace it mid-run.
E2E_DIR="$(mktemp -d "${TMPDIR:-/tmp}/wdiet-e2e-binary.XXXXXX")"
E2E_LOG="$E2E_DIR/journeys.log"
E2E_PID=""
cleanup() {
    # The journeys' whole process group: pytest, its workers, their servers and browsers.
    # `|| true`: under `set -e` a failed kill (the group already gone) ended the trap before the cluster's stop, and
    # the next run found the port taken.
    [ -n "$E2E_PID" ] && kill -- "-$E2E_PID" 2>/dev/null || true
    scripts/postgres-test-cluster.sh stop "$PG_DIR" || true
    rm -rf "$E2E_DIR"
}
trap cleanup EXIT
# Without fsync: its databases are thrown away, and each test's DROP DATABASE waits for a checkpoint.
WDIET_TEST_POSTGRES_URL="$(WDIET_PG_FSYNC=off scripts/postgres-test-cluster.sh start "$PG_DIR" "${WDIET_TEST_POSTGRES_PORT:-55432}")" || {
    echo "PostgreSQL for the tests did not start (is port ${WDIET_TEST_POSTGRES_PORT:-55432} taken? WDIET_TEST_POSTGRES_PORT picks another)." >&2
    exit 1
}
export WDIET_TEST_POSTGRES_URL
BIN_DIR="$(swift build "${BUILD_FLAGS[@]}" --show-bin-path)"
cp "$BIN_DIR/wdiet" "$E2E_DIR/"
cp -r "$BIN_DIR"/*.resources "$E2E_DIR/"
# The browser journeys: two workers (pytest-xdist), each with its own server and database, a file's tests together on
# one, the longest files first (e2e/conftest.py orders them); SR28 is imported once per run into a template that every
# server starts on a copy of. Three workers failed timing-bound journeys on the loaded machine (docs/testing.md).
# Their output goes to a log, printed when they end.
phase "browser journeys started (their output follows the Swift tests)"
WDIET_BINARY="$E2E_DIR/wdiet" setsid python3 -m pytest -q -n 2 --dist loadfile --durations=15 e2e >"$E2E_LOG" 2>&1 &
E2E_PID=$!
# The test targets (and `wdiet-dev`). Not niced: SwiftPM starts its compilers at priority 0 whatever its own is, and
# under SCHED_IDLE (which they would keep) the compile and the Swift tests after it, already the longer path, would
# wait for the journeys.
swift build "${BUILD_FLAGS[@]}" --build-tests
phase "test targets built"
# Swift Testing runs the suites in parallel. A few full runs on the loaded 2-core machine stopped making progress with
# every thread idle: a PostgreSQL client whose run() never returned once cancelled (README, "Known issues"); its stop
# is bounded now. Should anything else hang, a run that has not finished in 20 minutes (a normal one takes 4-5) is
# stopped and run once more, so a hang is retried once and then fails loudly, never holding CI.
# The output is line-buffered (stdbuf, inherited by the test binary) and kept, so that a stopped run can name the
# tests it started and never finished: block-buffered, its last few kilobytes never reached the log.
SWIFT_TEST_LOG="$(mktemp "${TMPDIR:-/tmp}/wdiet-swift-test.XXXXXX")"
run_swift_tests() {
    timeout --kill-after=30s 20m stdbuf -oL -eL swift test "${BUILD_FLAGS[@]}" --skip-build "$@" 2>&1 | tee "$SWIFT_TEST_LOG"
    return "${PIPESTATUS[0]}"
}
unfinished_tests() {
    python3 - "$SWIFT_TEST_LOG" <<'PYTHON'
import re, sys
started, ended = [], set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if m := re.match(r"◇ Test (.+?) started\.", line):
        started.append(m.group(1))
    elif m := re.match(r"[✔✘] Test (.+?) (with \d+ test cases? )?(passed|failed)", line):
        ended.add(m.group(1))
for name in dict.fromkeys(started):
    if name not in ended and name != "run" and not name.startswith("case passing"):
        print("  " + name)
PYTHON
}
set +e
run_swift_tests "$@"
status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    pkill -KILL -f 'wdietPackageTests.xctest' || true
    echo "swift test did not finish within 20 minutes; the tests it started and never finished:" >&2
    unfinished_tests >&2
    echo "Running it once more." >&2
    run_swift_tests "$@"
    status=$?
fi
rm -f "$SWIFT_TEST_LOG"
phase "Swift tests ended"
set +e
wait "$E2E_PID"
e2e_status=$?
E2E_PID=""
set -e
phase "browser journeys ended"
cat "$E2E_LOG"
[ "$status" -eq 0 ] || { echo "The Swift tests failed (above, before the journeys' output)." >&2; exit "$status"; }
exit "$e2e_status"
