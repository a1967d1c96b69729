//! Counting subsets of the deck up to its symmetries, through a chain of flats.
//!
//! The 81 cards are the points of the affine space AG(4,3); three cards form a
//! SET exactly when they are a line. Affine maps `x ↦ Ax + b` (`A` invertible
//! mod 3) send lines to lines, so they preserve "is a cap" and "holds s SETs".
//! Counting every subset one by one is hopeless (C(81,12) ≈ 7·10¹³), so we
//! count only the subsets that contain a fixed frame of points and multiply,
//! with weights that make the multiplication exact.
//!
//! **The frame.** In card-index coordinates (base 3, last digit first) the flat
//! `F_i = {x < 3^i}` is the linear span of the unit points `1, 3, …, 3^(i-1)`:
//!
//! ```text
//!   F_0 = {0}  ⊂  F_1 = {0,1,2}  ⊂  F_2 = {0..9}  ⊂  F_3 = {0..27}  ⊂  F_4 = all 81
//!   frame B_j = {0, 1, 3, …, 3^(j-1)}     class(x) = the least i with x ∈ F_i
//! ```
//!
//! **The identity.** Let `S` be a subset with affine span of dimension `j`, and
//! `o_i(S) = |S \ F_(i-1)|` (with `F_(-1) = ∅`). The stabiliser of the first
//! `i` frame points acts transitively on the `m_i = 81 − 3^(i-1)` points off
//! `F_(i-1)` (`m_0 = 81`). Picking, one level at a time, a point of `S` off the
//! current flat and moving it to the next frame point gives
//!
//! ```text
//!   #{S : |S| = k, property P}  =  Σ_{j}  Σ_{B_j ⊆ S ⊆ F_j, |S| = k, P(S)}  Π_{i=0..j} m_i / o_i(S)
//! ```
//!
//! for any property `P` that affine maps preserve. Every `S` on the right spans
//! exactly `F_j` (it holds the frame and lies in `F_j`), so `j` is the largest
//! class among its points, and the weight depends only on how many points of
//! `S` fall in each class: its [`Shape`]. The enumerations therefore only tally
//! shapes, and [`weighted_total`] turns a tally into exact integers with
//! big rationals (the sum of the weights is an integer; we check it).
//!
//! For 12-card subsets this visits C(76,7) ≈ 1.9·10⁹ subsets instead of
//! 7·10¹³, and for caps (SET-free subsets) about 10⁹ instead of 10¹³.
//!
//! Everything is parametrised by the dimension `d ≤ 4` so that the tests can
//! compare with plain enumeration in AG(2,3) and AG(3,3): the points of AG(d,3)
//! are the cards with index below `3^d`.

use num_bigint::BigUint;
use num_rational::Ratio;
use num_traits::{One, ToPrimitive, Zero};

/// A set of points of the deck, one bit per card index.
pub(crate) type Points = u128;

/// The largest dimension: the real deck, AG(4,3).
pub(crate) const DECK_DIM: usize = 4;

/// `3^i` for `i = 0..=4`.
const POW3: [usize; 5] = [1, 3, 9, 27, 81];

/// The flats and frame of AG(d,3) seen as the cards with index below `3^d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chain {
    dim: usize,
}

impl Chain {
    /// The chain of AG(dim,3); `dim` must be `1..=4`.
    pub(crate) fn new(dim: usize) -> Chain {
        assert!(
            (1..=DECK_DIM).contains(&dim),
            "dimension {dim} not in 1..=4"
        );
        Chain { dim }
    }

    /// The dimension `d`.
    pub(crate) fn dim(self) -> usize {
        self.dim
    }

    /// Number of points, `3^d`.
    pub(crate) fn points(self) -> usize {
        POW3[self.dim]
    }

    /// The points of the flat `F_j`, as a mask.
    pub(crate) fn flat(self, j: usize) -> Points {
        mask_below(POW3[j])
    }

    /// The frame `B_j = {0, 1, 3, …, 3^(j-1)}`, which spans `F_j`.
    pub(crate) fn frame(self, j: usize) -> Vec<u8> {
        std::iter::once(0)
            .chain((0..j).map(|i| POW3[i] as u8))
            .collect()
    }

    /// `m_i`: how many points lie off `F_(i-1)` (all of them for `i = 0`).
    fn off_flat(self, i: usize) -> u64 {
        let inside = if i == 0 { 0 } else { POW3[i - 1] };
        (self.points() - inside) as u64
    }

    /// The exact weight `Π_{i=0..j} m_i / o_i` of a subset of this shape.
    pub(crate) fn weight(self, shape: Shape) -> Ratio<BigUint> {
        let span = shape.span();
        let mut weight = Ratio::<BigUint>::one();
        let mut outside = shape.size() as u64;
        for i in 0..=span {
            weight *= Ratio::new(BigUint::from(self.off_flat(i)), BigUint::from(outside));
            outside -= shape.0[i] as u64;
        }
        weight
    }
}

/// Mask of the points `0..n`.
pub(crate) const fn mask_below(n: usize) -> Points {
    if n >= 128 { !0 } else { (1u128 << n) - 1 }
}

/// The class of a point: the least `i` with the point in `F_i`.
#[inline]
pub(crate) fn class_of(point: u8) -> usize {
    CLASSES[point as usize] as usize
}

/// `CLASSES[p]` = class of point `p` (a table: this sits in the hottest loops).
static CLASSES: [u8; 81] = {
    let mut classes = [0u8; 81];
    let mut p = 1;
    while p < 81 {
        classes[p] = match p {
            1..=2 => 1,
            3..=8 => 2,
            9..=26 => 3,
            _ => 4,
        };
        p += 1;
    }
    classes
};

/// The points of class `c`, as a mask.
#[inline]
pub(crate) fn class_mask(c: usize) -> Points {
    CLASS_MASKS[c]
}

static CLASS_MASKS: [Points; 5] = [
    1,
    mask_below(3) & !mask_below(1),
    mask_below(9) & !mask_below(3),
    mask_below(27) & !mask_below(9),
    mask_below(81) & !mask_below(27),
];

/// How many points of a subset fall in each class (`shape.0[c]`, `c = 0..=4`).
///
/// Subsets in the enumerations always hold point 0, so `shape.0[0] == 1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Shape(pub(crate) [u8; 5]);

impl Shape {
    /// The shape of a list of points.
    pub(crate) fn of(points: &[u8]) -> Shape {
        let mut shape = Shape::default();
        for &p in points {
            shape.0[class_of(p)] += 1;
        }
        shape
    }

    /// The shape with one more point of class `c`.
    pub(crate) fn plus(self, c: usize) -> Shape {
        let mut next = self;
        next.0[c] += 1;
        next
    }

    /// Number of points.
    pub(crate) fn size(self) -> usize {
        self.0.iter().map(|&n| n as usize).sum()
    }

    /// Dimension of the span: the largest class present.
    fn span(self) -> usize {
        (0..5).rev().find(|&c| self.0[c] > 0).unwrap_or(0)
    }
}

/// Counts of enumerated subsets by shape and by a small value (number of
/// SETs, or 0 when only caps are counted), in a dense array.
#[derive(Clone, Debug)]
pub(crate) struct ShapeTally {
    /// Largest subset size tallied.
    max_size: usize,
    /// Values are `0..values`.
    values: usize,
    /// Extent of the array along classes 1..=4.
    extents: [usize; 4],
    counts: Vec<u64>,
}

impl ShapeTally {
    /// An empty tally for subsets of at most `max_size` points and values below `values`.
    pub(crate) fn new(max_size: usize, values: usize) -> ShapeTally {
        let extents = [1, 2, 3, 4].map(|c| {
            let class_size = POW3[c] - POW3[c - 1];
            class_size.min(max_size) + 1
        });
        let len = extents.iter().product::<usize>() * values;
        ShapeTally {
            max_size,
            values,
            extents,
            counts: vec![0; len],
        }
    }

    fn index(&self, shape: Shape, value: usize) -> usize {
        let [_, a, b, c, d] = shape.0.map(usize::from);
        debug_assert!(value < self.values && shape.size() <= self.max_size);
        let [_, eb, ec, ed] = self.extents;
        (((a * eb + b) * ec + c) * ed + d) * self.values + value
    }

    /// Adds `count` subsets of this shape and value.
    #[inline]
    pub(crate) fn add(&mut self, shape: Shape, value: usize, count: u64) {
        let i = self.index(shape, value);
        self.counts[i] += count;
    }

    /// The counters of one shape, indexed by value (for hot loops).
    #[inline]
    pub(crate) fn row_mut(&mut self, shape: Shape) -> &mut [u64] {
        let start = self.index(shape, 0);
        &mut self.counts[start..start + self.values]
    }

    /// Where the counters of a shape start in [`ShapeTally::counts_mut`], and
    /// how far one more point of each class moves that start: the index is
    /// linear in the shape, so hot loops can add strides instead of
    /// recomputing it.
    #[inline]
    pub(crate) fn start_and_strides(&self, shape: Shape) -> (usize, [usize; 5]) {
        let [_, eb, ec, ed] = self.extents;
        let class4 = self.values;
        let class3 = ed * class4;
        let class2 = ec * class3;
        let class1 = eb * class2;
        (self.index(shape, 0), [0, class1, class2, class3, class4])
    }

    /// All counters (see [`ShapeTally::start_and_strides`]).
    #[inline]
    pub(crate) fn counts_mut(&mut self) -> &mut [u64] {
        &mut self.counts
    }

    /// Adds another tally of the same dimensions into this one.
    pub(crate) fn merge(mut self, other: ShapeTally) -> ShapeTally {
        debug_assert_eq!(self.counts.len(), other.counts.len());
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
        self
    }

    /// Every non-zero entry: shape (with point 0 present), value, count.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (Shape, usize, u64)> + '_ {
        let [ea, eb, ec, ed] = self.extents;
        let values = self.values;
        self.counts
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count > 0)
            .map(move |(i, &count)| {
                let value = i % values;
                let mut rest = i / values;
                let d = rest % ed;
                rest /= ed;
                let c = rest % ec;
                rest /= ec;
                let b = rest % eb;
                let a = rest / eb;
                debug_assert!(a < ea);
                (Shape([1, a as u8, b as u8, c as u8, d as u8]), value, count)
            })
    }
}

/// Exact number of subsets of the whole space, by size and value:
/// `totals[k][value]`, computed from a tally of frame-holding subsets with
/// the weights of the module documentation.
///
/// # Panics
/// If a weighted sum is not an integer, which would mean the enumeration is
/// wrong (the identity guarantees integers).
pub(crate) fn weighted_total(chain: Chain, tally: &ShapeTally) -> Vec<Vec<u128>> {
    let mut sums = vec![vec![Ratio::<BigUint>::zero(); tally.values]; tally.max_size + 1];
    for (shape, value, count) in tally.entries() {
        sums[shape.size()][value] += chain.weight(shape) * BigUint::from(count);
    }
    sums.into_iter()
        .enumerate()
        .map(|(k, row)| {
            row.into_iter()
                .enumerate()
                .map(|(value, sum)| {
                    assert!(
                        sum.is_integer(),
                        "weighted count of {k}-subsets with value {value} is not an integer: {sum}"
                    );
                    sum.to_integer()
                        .to_u128()
                        .expect("a count of subsets of 81 points fits in u128")
                })
                .collect()
        })
        .collect()
}

/// The binomial coefficient C(n, k) (0 when k > n).
pub fn binomial(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_partition_the_flats() {
        let chain = Chain::new(4);
        let mut union = 0;
        for c in 0..=4 {
            assert_eq!(union & class_mask(c), 0);
            union |= class_mask(c);
            assert_eq!(union, chain.flat(c));
        }
        for p in 0..81u8 {
            assert_ne!(class_mask(class_of(p)) & (1 << p), 0);
        }
        assert_eq!(chain.frame(4), vec![0, 1, 3, 9, 27]);
    }

    #[test]
    fn flats_are_closed_under_sets() {
        for (j, &size) in POW3.iter().enumerate() {
            let flat = Chain::new(4).flat(j);
            for a in 0..size as u8 {
                for b in 0..size as u8 {
                    let c = crate::Card::third(
                        crate::Card::from_index(a).unwrap(),
                        crate::Card::from_index(b).unwrap(),
                    );
                    assert_ne!(flat & (1 << c.index()), 0);
                }
            }
        }
    }

    #[test]
    fn frame_weights_multiply_to_the_group_order() {
        // A frame has one point per class, so o_i = 5 - i and its weight is
        // 81·80·78·72·54 / 5!: the affine group acts simply transitively on
        // ordered frames, so that is the number of unordered ones.
        let w = Chain::new(4).weight(Shape([1, 1, 1, 1, 1]));
        assert_eq!(
            w,
            Ratio::from_integer(BigUint::from(1_965_150_720u64 / 120))
        );
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(81, 12), 70_724_320_184_700);
        assert_eq!(binomial(81, 3), 85_320);
        assert_eq!(binomial(3, 4), 0);
        assert_eq!(binomial(81, 40), 212_392_290_424_395_860_814_420);
    }
}
