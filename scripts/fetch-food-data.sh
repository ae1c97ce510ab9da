#!/usr/bin/env bash
# Downloads USDA SR28 (the ASCII release, sr28asc.zip) and keeps the five files w-diet reads, checked against
# the SHA-256 sums of the copy in shared/datasets/usda-sr28. Public domain data (USDA ARS).
#
#   scripts/fetch-food-data.sh [DIR]      # default DIR: ./usda-sr28
#
# Then: wdiet import-foods --from DIR   (or export WDIET_FOOD_DATA=DIR)
set -euo pipefail

dest="${1:-usda-sr28}"
urls=(
    "https://www.ars.usda.gov/ARSUserFiles/80400525/Data/SR/SR28/dnload/sr28asc.zip"
    "https://www.ars.usda.gov/SP2UserFiles/Place/12354500/Data/SR/SR28/dnload/sr28asc.zip"
)
files=(FD_GROUP.txt FOOD_DES.txt NUTR_DEF.txt NUT_DATA.txt WEIGHT.txt)
sums="1f497ae6b4b0127956d0eff4ec2d190d040bac8e6892ff0fb45773d4913033ba  FD_GROUP.txt
a0b39f3ac21703c75c855c35bd8f99df4710db2904a8c351fc5e7f5ed3596b98  FOOD_DES.txt
fa0c3bef08d2dbd68baf3496ae09db718f01cc3f3103b90d4c8712456cab3b20  NUTR_DEF.txt
8b86e1d65bfa581e503fdafd16ce41fc04e7e4b00498c3888a04ec0c8f846759  NUT_DATA.txt
98484d7e26b3803467e65a9ab2ad8094bc94ed0c50375efb7e26a8bd60b1afae  WEIGHT.txt"

for tool in curl unzip sha256sum; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "fetch-food-data: $tool is required (Debian: apt-get install $tool)." >&2
        exit 1
    fi
done

# Nothing to do when the folder already holds the right files.
if [ -d "$dest" ] && (cd "$dest" && printf '%s\n' "$sums" | sha256sum --check --status 2>/dev/null); then
    echo "SR28 is already in $(cd "$dest" && pwd)"
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

downloaded=""
for url in "${urls[@]}"; do
    echo "Downloading $url ..."
    if curl --fail --location --silent --show-error --retry 3 --connect-timeout 20 --max-time 600 \
        --output "$work/sr28asc.zip" "$url"; then
        downloaded="yes"
        break
    fi
done
if [ -z "$downloaded" ]; then
    echo "fetch-food-data: could not download sr28asc.zip from USDA (tried ${#urls[@]} addresses)." >&2
    exit 1
fi

# -j: the archive's folder layout does not matter; only the five files are taken.
if ! unzip -o -q -j "$work/sr28asc.zip" "${files[@]}" -d "$work/files"; then
    echo "fetch-food-data: the download is not the SR28 ASCII archive (unzip failed)." >&2
    exit 1
fi
if ! (cd "$work/files" && printf '%s\n' "$sums" | sha256sum --check --quiet); then
    echo "fetch-food-data: checksums do not match the SR28 release w-diet expects; nothing was installed." >&2
    exit 1
fi

mkdir -p "$dest"
for file in "${files[@]}"; do
    mv -f "$work/files/$file" "$dest/$file"
done
echo "SR28 is in $(cd "$dest" && pwd)"
echo "Next: wdiet import-foods --from \"$(cd "$dest" && pwd)\"   (or export WDIET_FOOD_DATA=\"$(cd "$dest" && pwd)\")"
