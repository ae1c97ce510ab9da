#!/usr/bin/env bash
# Runs every test of w-diet. Installs what the tests need when it is missing (Debian, as root or with sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

need_packages=()
# GRDB links the system SQLite (with FTS5).
if ! { [ -f /usr/include/sqlite3.h ] || dpkg -s libsqlite3-dev >/dev/null 2>&1; }; then need_packages+=(libsqlite3-dev); fi
if [ ${#need_packages[@]} -gt 0 ]; then
    echo "Installing ${need_packages[*]} ..."
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_packages[@]}"
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

swift build
swift test "$@"
