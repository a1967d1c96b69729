#!/usr/bin/env python3
"""Seed 003's whole-game simulation beside `snapsolve set stats game`, in one run.

`onegame()` and `random_deck()` are copied as written in seed 003 (with its
`find_sets2`, imported from seed003.py). Both simulators play games; the script
prints time per game for each, the ratio, and both estimates of the share of
positions without a SET as seed 003 counts them (every position but each
game's final one). The Rust side runs on `--threads` threads (default 1, as
Python runs on one core), with process start and JSON output included.

    python3 bench/python/game_compare.py --python-games 300 --rust-games 1000000 \
        --snapsolve target/release/snapsolve --threads 1
"""
import argparse
import itertools
import json
import os
import subprocess
import sys
import time

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed003 import find_sets2  # noqa: E402

nfeatures = 3
ndims = 4


def random_deck():
    # initialize cards deck
    cards = numpy.array([card for card in itertools.product(range(nfeatures),
                                                            repeat=ndims)]).T
    n = cards.shape[1]
    # shuffle
    return cards[:, numpy.random.permutation(n)]


ncards = 12


def onegame():
    nsolutions = []
    deck = random_deck()
    pos = ncards
    cards = deck[:, :pos]
    while True:
        # find all sets
        sets = find_sets2(cards)
        nsets = len(sets)
        if nsets > 0:
            # choose a random set
            chosen = sets[numpy.random.randint(len(sets))]
            # remove cards from chosen set
            idx = [i for i in range(cards.shape[1]) if i not in chosen]
            cards = cards[:, idx]
            # add new cards
            if cards.shape[1] < 12:
                nadd = 12 - cards.shape[1]
                cards = numpy.concatenate((cards, deck[:, pos:pos + nadd]), axis=1)
                pos += nadd
        else:
            if pos >= deck.shape[1]:
                break  # game is over
            # add additional cards
            cards = numpy.concatenate((cards, deck[:, pos:pos + 3]), axis=1)
            pos += 3
        nsolutions.append(nsets)
    return nsolutions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python-games", type=int, default=300)
    parser.add_argument("--rust-games", type=int, default=1_000_000)
    parser.add_argument("--snapsolve", default="target/release/snapsolve")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1,
                        help="threads for snapsolve (RAYON_NUM_THREADS)")
    args = parser.parse_args()

    numpy.random.seed(args.seed)
    start = time.perf_counter()
    counts = []
    for _ in range(args.python_games):
        counts.extend(onegame())
    python_seconds = time.perf_counter() - start
    python_no_set = sum(1 for n in counts if n == 0) / len(counts)

    start = time.perf_counter()
    out = subprocess.run(
        [args.snapsolve, "set", "stats", "game", "--games", str(args.rust_games),
         "--seed", str(args.seed), "--json"],
        check=True, capture_output=True, text=True,
        env=dict(os.environ, RAYON_NUM_THREADS=str(args.threads))).stdout
    rust_seconds = time.perf_counter() - start
    rust = json.loads(out)
    rust_no_set = rust["positions"]["before_end"]["p_no_set"]

    per_python = python_seconds / args.python_games
    per_rust = rust_seconds / args.rust_games
    print(f"seed 003 onegame(): {args.python_games} games in {python_seconds:.2f} s "
          f"= {1e3 * per_python:.3f} ms/game; no SET at {100 * python_no_set:.2f}% of positions")
    print(f"snapsolve ({args.threads} thread{'s' if args.threads > 1 else ''}): "
          f"{args.rust_games} games in {rust_seconds:.2f} s "
          f"= {1e6 * per_rust:.3f} us/game; no SET at {100 * rust_no_set:.3f}% of positions")
    print(f"ratio: snapsolve is {per_python / per_rust:,.0f}x faster per game "
          f"on {args.threads} thread{'s' if args.threads > 1 else ''} (process start included)")


if __name__ == "__main__":
    main()
