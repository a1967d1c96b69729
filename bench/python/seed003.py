"""Seed 003's three SET finders, verbatim.

Quoted from "Solving the game Set®" (Pietro Berkes, masterbaboon.com, 2010;
code at http://github.com/pberkes/masterbaboon/tree/master/projects/setgame/),
as reproduced in snapsolve's seed document 003. Only the indentation, lost in
the copy, is restored, and `nfeatures` -- a global the post defines elsewhere
(3 features per dimension) -- is defined here. Cards are a (ndims, ncards)
integer array of values 0..2.

Used only by run_seed003.py for the side-by-side benchmark; not part of the tests.
"""

import numpy
import itertools

nfeatures = 3  # the post's global: 3 possible features per dimension


def same(x):
    """Returns True if all elements are the same."""
    return numpy.all(x == x[0])


def different(x):
    """Returns True if all elements are different."""
    return len(numpy.unique(x)) == len(x)


def is_set(cards, indices):
    """Checks that the cards indexed by 'indices' form a valid set."""
    ndims = cards.shape[0]
    subset = cards[:, indices]
    for dim in range(ndims):
        # cards must be all the same or all different for all dimensions
        if not same(subset[dim, :]) and not different(subset[dim, :]):
            return False
    return True


def find_sets(cards):
    """Brute-force Sets solver."""
    return [indices
            for indices in itertools.combinations(range(cards.shape[1]), 3)
            if is_set(cards, indices)]


def find_sets2(cards):
    ndims, ncards = cards.shape
    all_features = set([0, 1, 2])
    # solutions contain the indices of the cards forming sets
    solutions = []
    # iterate over all pairs
    for idx1, idx2 in itertools.combinations(range(ncards - 1), 2):
        c1, c2 = cards[:, idx1], cards[:, idx2]
        # compute card that would complete the set
        missing = numpy.empty((ndims,), dtype='i')
        for d in range(ndims):
            if c1[d] == c2[d]:
                # same feature on this dimension ->; missing card also has same
                missing[d] = c1[d]
            else:
                # different features -> find third missing feature
                missing[d] = list(all_features - set([c1[d], c2[d]]))[0]
        # look for missing card in the cards array
        where_idx = numpy.flatnonzero(numpy.all(cards[:, idx2 + 1:].T == missing,
                                                axis=1))
        # append to solutions if found
        if len(where_idx) > 0:
            solutions.append((idx1, idx2, where_idx[0] + idx2 + 1))
    return solutions


def find_sets3(cards, indices=None):
    nd, n = cards.shape
    c0 = cards[0, :]
    if indices is None:
        indices = numpy.arange(n)
    groups = [(c0 == f).nonzero()[0] for f in range(nfeatures)]
    # equals
    solequal = []
    for g in groups:
        if len(g) < 3: continue
        solequal += find_sets3(cards[1:nd, g], indices[g])
    # different
    soldiff = [(indices[i0], indices[i1], indices[i2])
               for i0 in groups[0] for i1 in groups[1] for i2 in groups[2]
               if is_set(cards, (i0, i1, i2))]
    return solequal + soldiff
