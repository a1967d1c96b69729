"""Times seed 003's three finders on layouts exported by snapsolve's side-by-side example.

Usage: python3 run_seed003.py LAYOUTS.json

LAYOUTS.json: {"layouts": [{"cards": [[v0, v1, v2, v3], ...], "sets": [[i, j, k], ...]}, ...]}
with attribute values 0..2 and the SETs snapsolve found. Every function's answer is
checked against "sets" before it is timed (order-insensitive: find_sets3 lists its
SETs grouped, not sorted). Prints one line per (layout, function):
    <layout index> <function> <median seconds per call> <calls per timing>
Exits 1 if any answer differs.
"""

import json
import statistics
import sys
import timeit

import numpy

import seed003

FUNCTIONS = [("find_sets", seed003.find_sets),
             ("find_sets2", seed003.find_sets2),
             ("find_sets3", seed003.find_sets3)]
REPEATS = 5
TARGET_SECONDS = 0.02  # per timing: enough calls to rise above timer noise


def normalise(sets):
    return sorted(tuple(sorted(int(i) for i in s)) for s in sets)


def main():
    with open(sys.argv[1]) as f:
        layouts = json.load(f)["layouts"]
    failures = 0
    for index, layout in enumerate(layouts):
        # The seed's layout: one row per attribute, one column per card.
        cards = numpy.array(layout["cards"], dtype=int).T
        expected = normalise(layout["sets"])
        for name, function in FUNCTIONS:
            found = normalise(function(cards))
            if found != expected:
                print(f"# MISMATCH layout {index} {name}: {found} != {expected}", file=sys.stderr)
                failures += 1
            once = timeit.timeit(lambda: function(cards), number=1)
            number = max(1, int(TARGET_SECONDS / max(once, 1e-9)))
            times = timeit.repeat(lambda: function(cards), number=number, repeat=REPEATS)
            print(f"{index} {name} {statistics.median(times) / number:.9e} {number}", flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
