#!/usr/bin/env bash
# Nutrition-label reading measured on real photos (issue 19): builds `wdiet-dev` (release by default) and runs
# `wdiet-dev label-accuracy` on a folder of photos with a labels.json (default: the dev set in
# ../shared/datasets/nutrition-labels/dev, read in place, never copied). Prints per field correct / wrong / left
# empty, the confident-but-wrong rate (the hard line: ≤ 3 % of all fields), P50/P95 time per photo and a per-photo
# table of the stage that failed. Needs tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-deu and libvips-tools.
#
#   scripts/label-accuracy.sh [--debug] [FOLDER] [-- wdiet-dev options, e.g. --save-words DIR | --words DIR | --quiet]
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=release
if [[ "${1:-}" == "--debug" ]]; then configuration=debug; shift; fi
folder="${1:-../shared/datasets/nutrition-labels/dev}"
[[ $# -gt 0 ]] && shift
[[ "${1:-}" == "--" ]] && shift
swift build -c "$configuration" --product wdiet-dev >&2
echo "build: $configuration" >&2
exec "$(swift build -c "$configuration" --show-bin-path)/wdiet-dev" label-accuracy "$folder" "$@"
