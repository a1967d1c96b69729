#!/usr/bin/env bash
# Whole-process speed of `snapsolve sudoku solve --file F --json` against tdoku's own
# example/solve.c printing its answers (`tdoku_solve 2 < F`: per puzzle, count up to 2
# solutions, then solve again for the solution when there is one, and print
# `puzzle:count:solution`). Both write to /dev/null; hyperfine takes medians.
#
# tdoku is compiled from ../shared/comparators/tdoku (read in place, never copied; or
# $TDOKU_DIR) with its README's flags (-O3 -march=native) into the cargo target folder.
#
#   bench/sudoku_cli_vs_tdoku.sh [FILE...]     (default: the five tdoku_data files)
#
# Medians of $RUNS runs (default 10) after 2 warm-up runs, both pinned to one core
# (`taskset -c 1`, snapsolve with --threads 1); then snapsolve with its default threads
# (all cores), unpinned. The ratio is tdoku's time over snapsolve's: above 1, we win.
set -euo pipefail
cd "$(dirname "$0")/.."

tdoku_dir=${TDOKU_DIR:-../shared/comparators/tdoku}
data=${SNAPSOLVE_DATA:-../shared/data}/sudoku/puzzles/tdoku_data
target=${CARGO_TARGET_DIR:-target}
runs=${RUNS:-10}

if [ ! -f "$tdoku_dir/example/solve.c" ]; then
  echo "tdoku's sources are not at $tdoku_dir (set TDOKU_DIR): cannot build its example/solve.c" >&2
  exit 1
fi
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install -y hyperfine)" >&2; exit 1; }

build="$target/tdoku_solve"
mkdir -p "$build"
g++ -O3 -march=native -std=c++17 -w -c "$tdoku_dir/src/solver_dpll_triad_simd.cc" -o "$build/solver.o"
g++ -O3 -march=native -std=c++17 -w -c "$tdoku_dir/src/util.cc" -o "$build/util.o"
gcc -O3 -march=native -w -c "$tdoku_dir/example/solve.c" -o "$build/solve.o"
g++ "$build/solve.o" "$build/solver.o" "$build/util.o" -o "$build/tdoku_solve"
tdoku="$build/tdoku_solve"

cargo build --release -q -p snapsolve_cli
snapsolve="$target/release/snapsolve"

if [ $# -eq 0 ]; then
  set -- "$data/puzzles2_17_clue.txt" "$data/puzzles3_magictour_top1465.txt" \
    "$data/puzzles5_forum_hardest_1905_11+.txt" "$data/puzzles6_forum_hardest_1106.txt" \
    "$data/puzzles7_serg_benchmark.txt"
fi

json=$(mktemp)
trap 'rm -f "$json"' EXIT
echo "| file | tdoku example/solve.c (s) | snapsolve --threads 1 (s) | tdoku / snapsolve | snapsolve, all cores, unpinned (s) |"
echo "|---|---:|---:|---:|---:|"
for file in "$@"; do
  [ -f "$file" ] || { echo "no puzzle file $file" >&2; exit 1; }
  # The same puzzles, the same answers: the number of unique ones must agree.
  ours=$("$snapsolve" sudoku solve --file "$file" --json | grep -c '"status":"unique"' || true)
  theirs=$("$tdoku" 2 < "$file" | grep -c ':1:' || true)
  if [ "$ours" != "$theirs" ]; then
    echo "$file: snapsolve finds $ours unique puzzles, tdoku $theirs" >&2
    exit 1
  fi
  hyperfine --warmup 2 --runs "$runs" --style none --output null --export-json "$json" \
    "taskset -c 1 $tdoku 2 < $file" \
    "taskset -c 1 $snapsolve sudoku solve --file $file --json --threads 1" \
    "$snapsolve sudoku solve --file $file --json" >/dev/null 2>&1
  python3 - "$json" "$(basename "$file")" <<'PY'
import json, sys
runs = [r["median"] for r in json.load(open(sys.argv[1]))["results"]]
print(f"| {sys.argv[2]} | {runs[0]:.3f} | {runs[1]:.3f} | {runs[0] / runs[1]:.2f}x | {runs[2]:.3f} |")
PY
done
