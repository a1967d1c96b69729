#!/usr/bin/env bash
# One digest of `snapsolve sudoku photo FILE --json` over every photo of the shared
# sudoku list (sudoku/photos.jsonl, all parts: held-out, training, validation), so a
# change meant to keep the photo path's output (a faster loop, a new data layout) can
# be shown to: run it with the binary before and after, and compare the two digests.
#
#   bench/sudoku_photo_digest.sh [BINARY] [OUT]
#
# BINARY defaults to target/release/snapsolve (build it first), OUT (every photo's
# name, JSON and exit code, in list order) to a temporary file. Paths in the list are
# relative to the shared data folder (../shared/data, or $SNAPSOLVE_DATA).
set -euo pipefail
cd "$(dirname "$0")/.."

binary=$(realpath "${1:-target/release/snapsolve}")
out=${2:-$(mktemp)}
data=${SNAPSOLVE_DATA:-../shared/data}
list="$data/sudoku/photos.jsonl"

[ -x "$binary" ] || { echo "no snapsolve binary at $binary (cargo build --release first)" >&2; exit 1; }
[ -f "$list" ] || { echo "no photo list at $list (set SNAPSOLVE_DATA)" >&2; exit 1; }

: >"$out"
out=$(realpath "$out")
cd "$data"
count=0
while read -r image; do
  echo "== $image" >>"$out"
  status=0
  "$binary" sudoku photo "$image" --json >>"$out" 2>&1 || status=$?
  echo "exit $status" >>"$out"
  count=$((count + 1))
done < <(python3 -c 'import json, sys
for line in open(sys.argv[1]):
    if line.strip():
        print(json.loads(line)["image"])' sudoku/photos.jsonl)
echo "$count photos, output in $out"
sha256sum "$out" | cut -d' ' -f1
