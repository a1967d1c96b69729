//! Exact numbers of caps: sets of cards holding no SET, for every size.
//!
//! A depth-first search adds points in increasing index order to the frames of
//! [`super::symmetry`], keeping one 128-bit mask of the points that may still
//! be added (not yet used, not the third card of any pair already chosen):
//!
//! ```text
//!   node:  points[..len]   the cap so far (frame first)
//!          candidates      allowed points above the last one added
//!   child q (a candidate): candidates' = candidates above q  minus  {third(q, p) : p in cap}
//! ```
//!
//! Children are tallied in bulk, by class, with one popcount per class; the
//! search only descends into children that still have candidates. The tree is
//! cut two levels below the frames into a few thousand subtrees shared out to
//! all cores by rayon; tallies are integer counts, so the result does not
//! depend on the schedule. The full AG(4,3) table visits about 10⁹ caps.

use std::sync::atomic::{AtomicU64, Ordering};

use num_integer::Integer;
use rayon::prelude::*;

use super::Progress;
use super::symmetry::{
    Chain, DECK_DIM, Points, Shape, ShapeTally, binomial, class_mask, class_of, weighted_total,
};
use crate::card::Card;

/// The table goes up to this size; 20 is the largest cap in AG(4,3).
pub const CAP_TABLE_MAX: usize = 21;

/// Levels expanded sequentially before the subtrees are shared between threads.
const SPLIT_DEPTH: usize = 2;

/// Number of SET-free subsets of the deck for every size `0..=21`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CapTable {
    counts: Vec<u128>,
}

impl CapTable {
    /// Number of `k`-card subsets with no SET (0 above the table).
    pub fn count(&self, k: usize) -> u128 {
        self.counts.get(k).copied().unwrap_or(0)
    }

    /// `(k, count)` for `k = 0..=21`.
    pub fn iter(&self) -> impl Iterator<Item = (usize, u128)> + '_ {
        self.counts.iter().copied().enumerate()
    }

    /// The exact chance that `k` cards dealt from a full deck hold no SET.
    pub fn no_set_chance(&self, k: usize) -> NoSetChance {
        NoSetChance::new(k, self.count(k))
    }
}

/// The chance that `cards` random cards hold no SET, as an exact fraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoSetChance {
    /// Number of cards dealt.
    pub cards: usize,
    /// SET-free subsets of that size.
    pub caps: u128,
    /// All subsets of that size, C(81, cards).
    pub subsets: u128,
    /// `caps / subsets` in lowest terms: numerator.
    pub numerator: u128,
    /// `caps / subsets` in lowest terms: denominator.
    pub denominator: u128,
}

impl NoSetChance {
    fn new(cards: usize, caps: u128) -> NoSetChance {
        let subsets = binomial(Card::COUNT as u64, cards as u64);
        let gcd = caps.gcd(&subsets).max(1);
        NoSetChance {
            cards,
            caps,
            subsets,
            numerator: caps / gcd,
            denominator: subsets / gcd,
        }
    }

    /// The probability as a float.
    pub fn probability(&self) -> f64 {
        self.caps as f64 / self.subsets as f64
    }

    /// `N` in "1 in N" (infinite when no subset is SET-free).
    pub fn one_in(&self) -> f64 {
        self.subsets as f64 / self.caps as f64
    }
}

/// Counts the caps of the deck for every size `0..=21`, on all cores.
///
/// `progress` is called with (subtrees done, subtrees in all) as work finishes.
pub fn count_caps(progress: Progress<'_>) -> CapTable {
    CapTable {
        counts: count_caps_in(Chain::new(DECK_DIM), progress),
    }
}

/// Caps of AG(d,3) by size `0..=21`, through the frames of `chain`.
pub(crate) fn count_caps_in(chain: Chain, progress: Progress<'_>) -> Vec<u128> {
    let mut tally = ShapeTally::new(CAP_TABLE_MAX, 1);
    let mut frontier: Vec<Subtree> = (0..=chain.dim())
        .map(|j| Subtree::frame(&chain.frame(j), chain.flat(j)))
        .collect();
    let mut scratch = vec![[0; 81]; CAP_TABLE_MAX];
    for node in &frontier {
        tally.add(node.shape, 0, 1);
    }
    for _ in 0..SPLIT_DEPTH {
        let mut next = Vec::new();
        for subtree in &frontier {
            let node = subtree.node();
            node.tally_children(&mut tally);
            node.for_each_child(&mut tally, &mut scratch, |child, _, _| {
                next.push(Subtree::of(child))
            });
        }
        frontier = next;
    }
    let total = frontier.len() as u64;
    let done = AtomicU64::new(0);
    let subtrees = frontier
        .par_iter()
        .fold(
            || ShapeTally::new(CAP_TABLE_MAX, 1),
            |mut tally, subtree| {
                subtree
                    .node()
                    .search(&mut tally, &mut vec![[0; 81]; CAP_TABLE_MAX]);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                tally
            },
        )
        .reduce(|| ShapeTally::new(CAP_TABLE_MAX, 1), ShapeTally::merge);
    let tally = tally.merge(subtrees);
    let mut counts: Vec<u128> = weighted_total(chain, &tally)
        .into_iter()
        .map(|row| row[0])
        .collect();
    counts[0] = 1; // the empty set holds no frame point but is a cap
    counts
}

/// One cap in the search and the points that may extend it.
///
/// The cap's points themselves are not stored: all the search needs is, for
/// every candidate `r`, the set `blocked[r]` of points completing a SET with
/// `r` and a point of the cap. A child adding `q` then costs one table lookup
/// per surviving candidate (`blocked[r] |= third(r, q)`), instead of one per
/// cap point for every candidate (about 14 times more work, measured).
#[derive(Clone, Copy, Debug)]
struct Node<'a> {
    shape: Shape,
    candidates: Points,
    blocked: &'a [Points; 81],
}

/// A node that owns its table: the frames and the roots of parallel subtrees.
#[derive(Clone, Debug)]
struct Subtree {
    shape: Shape,
    candidates: Points,
    blocked: [Points; 81],
}

impl Subtree {
    /// The frame itself, with every point of `flat` it does not rule out.
    fn frame(frame: &[u8], flat: Points) -> Subtree {
        let mut node = Subtree {
            shape: Shape::of(frame),
            candidates: flat,
            blocked: [0; 81],
        };
        for &p in frame {
            node.candidates &= !BIT[p as usize];
        }
        for r in 0..81u8 {
            node.blocked[r as usize] = frame
                .iter()
                .fold(0, |acc, &p| acc | BIT[third_index(r, p) as usize]);
        }
        for &p in frame {
            node.candidates &= !node.blocked[p as usize];
        }
        node
    }

    fn of(node: Node<'_>) -> Subtree {
        Subtree {
            shape: node.shape,
            candidates: node.candidates,
            blocked: *node.blocked,
        }
    }

    fn node(&self) -> Node<'_> {
        Node {
            shape: self.shape,
            candidates: self.candidates,
            blocked: &self.blocked,
        }
    }
}

impl Node<'_> {
    #[inline]
    fn blocked(&self, q: u8) -> Points {
        self.blocked[q as usize]
    }

    /// Tallies every child (this cap plus one candidate) by the class of the new point.
    #[inline]
    fn tally_children(&self, tally: &mut ShapeTally) {
        if self.candidates == 0 {
            return;
        }
        // Candidates lie above the last point added, so no class below the lowest one's.
        let lowest = class_of(self.candidates.trailing_zeros() as u8);
        for c in lowest..=DECK_DIM {
            let n = (self.candidates & class_mask(c)).count_ones();
            if n > 0 {
                tally.add(self.shape.plus(c), 0, n.into());
            }
        }
    }

    /// Calls `visit` with every child that can still grow, its `blocked`
    /// table written into `scratch`; tallies directly the grandchildren of
    /// children with a single candidate left.
    #[inline]
    fn for_each_child(
        &self,
        tally: &mut ShapeTally,
        scratch: &mut [[Points; 81]],
        mut visit: impl FnMut(Node<'_>, &mut ShapeTally, &mut [[Points; 81]]),
    ) {
        let mut rest = self.candidates;
        while rest != 0 {
            let q = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let candidates = rest & !self.blocked(q);
            if candidates == 0 {
                continue;
            }
            let shape = self.shape.plus(class_of(q));
            let r = candidates.trailing_zeros() as u8;
            let after_r = candidates & (candidates - 1);
            if after_r == 0 {
                // One candidate: a single grandchild, nothing deeper.
                tally.add(shape.plus(class_of(r)), 0, 1);
                continue;
            }
            if after_r & (after_r - 1) == 0 {
                // Two candidates r < s: two grandchildren, and {q, r, s} added
                // together unless s completes a SET with r and the cap or q.
                let s = after_r.trailing_zeros() as u8;
                tally.add(shape.plus(class_of(r)), 0, 1);
                let with_s = shape.plus(class_of(s));
                tally.add(with_s, 0, 1);
                if (self.blocked(r) | BIT[third_index(r, q) as usize]) & after_r == 0 {
                    tally.add(with_s.plus(class_of(r)), 0, 1);
                }
                continue;
            }
            let (own, deeper) = scratch
                .split_first_mut()
                .expect("the search is deeper than a cap can grow");
            let row = &THIRD[q as usize];
            let mut each = candidates;
            while each != 0 {
                let r = each.trailing_zeros() as usize;
                each &= each - 1;
                own[r] = self.blocked(r as u8) | BIT[row[r] as usize];
            }
            visit(
                Node {
                    shape,
                    candidates,
                    blocked: own,
                },
                tally,
                deeper,
            );
        }
    }

    /// Tallies every cap below this node (not the node itself).
    fn search(&self, tally: &mut ShapeTally, scratch: &mut [[Points; 81]]) {
        self.tally_children(tally);
        self.for_each_child(tally, scratch, |child, tally, deeper| {
            child.search(tally, deeper)
        });
    }
}

/// `BIT[p]`: the mask of point `p` (a table beats a variable 128-bit shift).
static BIT: [Points; 81] = {
    let mut bits = [0; 81];
    let mut p = 0;
    while p < 81 {
        bits[p] = 1 << p;
        p += 1;
    }
    bits
};

/// `THIRD[a][b]`: index of the card completing `a` and `b`.
static THIRD: [[u8; 81]; 81] = third_indices();

const fn third_indices() -> [[u8; 81]; 81] {
    let mut table = [[0u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            table[a][b] = match (Card::from_index(a as u8), Card::from_index(b as u8)) {
                (Some(x), Some(y)) => x.third(y).index(),
                _ => 0,
            };
            b += 1;
        }
        a += 1;
    }
    table
}

/// `THIRD` for other modules of the statistics, row by row.
pub(crate) static THIRD_ROWS: &[[u8; 81]; 81] = &THIRD;

/// `THIRD` for other modules of the statistics.
pub(crate) fn third_index(a: u8, b: u8) -> u8 {
    THIRD[a as usize][b as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::no_progress;

    /// Caps of AG(d,3) by plain search over all subsets, no symmetry.
    fn caps_by_plain_search(dim: usize) -> Vec<u128> {
        fn grow(cap: &mut Vec<u8>, from: u8, n: u8, counts: &mut Vec<u128>) {
            counts[cap.len()] += 1;
            for q in from..n {
                let clash = cap
                    .iter()
                    .enumerate()
                    .any(|(i, &a)| cap[i + 1..].iter().any(|&b| third_index(a, b) == q));
                if !clash {
                    cap.push(q);
                    grow(cap, q + 1, n, counts);
                    cap.pop();
                }
            }
        }
        let mut counts = vec![0; CAP_TABLE_MAX + 1];
        grow(&mut Vec::new(), 0, 3u8.pow(dim as u32), &mut counts);
        counts
    }

    #[test]
    fn symmetry_count_matches_plain_search_in_small_dimensions() {
        for dim in 1..=3 {
            let plain = caps_by_plain_search(dim);
            let counted = count_caps_in(Chain::new(dim), &no_progress);
            assert_eq!(counted, plain, "AG({dim},3)");
        }
        // AG(2,3): 9 points, the largest cap has 4 points.
        assert_eq!(
            &caps_by_plain_search(2)[..6],
            &[1, 9, 36, 72, 54, 0],
            "caps of the plane"
        );
    }

    #[test]
    fn small_caps_match_closed_forms() {
        // Cheap checks of the table's start without the full search:
        // every pair is a cap; triples minus the 1080 lines.
        let plain = count_caps_in(Chain::new(DECK_DIM), &no_progress);
        assert_eq!(plain[1], 81);
        assert_eq!(plain[2], 3240);
        assert_eq!(plain[3], 85_320 - 1080);
        // The published values (Knuth's SETSET-ALL; Follett et al.).
        assert_eq!(plain[12], 2_284_535_476_080);
        assert_eq!(plain[15], 2_970_003_246_912);
        assert_eq!(plain[18], 6_482_268_000);
        assert_eq!(plain[20], 682_344);
        assert_eq!(plain[21], 0);
    }

    #[test]
    fn chance_is_in_lowest_terms() {
        let table = CapTable {
            counts: vec![1, 81, 3240, 84_240],
        };
        let chance = table.no_set_chance(3);
        assert_eq!((chance.numerator, chance.denominator), (78, 79));
        assert!((chance.one_in() - 79.0 / 78.0).abs() < 1e-12);
    }
}
