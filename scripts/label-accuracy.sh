#!/usr/bin/env bash
# Nutrition-label reading measured on real photos (issue 19): builds `wdiet-dev` (release by default) and runs
# `wdiet-dev label-accuracy` on a folder of photos with a labels.json (default: the dev set in
# ../shared/datasets/nutrition-labels/dev, read in place, never copied). Prints per field correct / wrong / left
# empty, the confident-but-wrong rate (the hard line: ≤ 3 % of all fields), P50/P95 time per photo and a per-photo
# table of the stage that failed. Needs tesseract-ocr, tesseract-ocr-eng and libvips-tools. See docs/label-scan.md.
#
#   scripts/label-accuracy.sh [--debug | --binary PATH] [FOLDER] [-- wdiet-dev options: --save-words DIR | --words DIR | --quiet]
#
# --binary runs a wdiet-dev built elsewhere (e.g. `swift build -c release --product wdiet-dev --scratch-path DIR`,
# which does not hold the shared .build's lock while other people build).
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=release
binary=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --debug) configuration=debug; shift ;;
        --binary) binary="$2"; shift 2 ;;
        *) break ;;
    esac
done
folder="../shared/datasets/nutrition-labels/dev"
if [[ $# -gt 0 && "$1" != "--" ]]; then folder="$1"; shift; fi
[[ "${1:-}" == "--" ]] && shift
if [[ -z "$binary" ]]; then
    swift build -c "$configuration" --product wdiet-dev >&2
    binary="$(swift build -c "$configuration" --show-bin-path)/wdiet-dev"
    echo "build: $configuration" >&2
fi
exec "$binary" label-accuracy "$folder" "$@"
