//! How many SETs lie among `n` random cards: the exact distribution for
//! `n ≤ 12`, Monte Carlo for any `n`, and the exact mean and variance.
//!
//! **Exact.** A depth-first search over the subsets holding a frame (see
//! [`super::symmetry`]) keeps, for every point `x`, how many pairs of chosen
//! cards have `x` as their third card:
//!
//! ```text
//!   pairs_to[x] = #{ {a, b} ⊆ S : third(a, b) = x }
//!   add q:   sets += pairs_to[q];   pairs_to[third(q, s)] += 1 for every s in S
//!   leaf q:  the subset S + q holds sets + pairs_to[q] SETs   (no update at all)
//! ```
//!
//! The last two cards are never added. A subset `S + q1 + q2` holds
//! `sets + pairs_to[q1] + pairs_to[q2] + [third(q1, q2) ∈ S]` SETs, so all
//! pairs of remaining points are counted at once from a histogram of
//! `pairs_to` by class (a product of two histograms), and only the few pairs
//! whose third card lies in `S` are visited (from each `s` in `S`) to move
//! up by one SET. The 1.9·10⁹ twelve-card leaves and 2.9·10⁸ eleven-card
//! nodes are never visited; ten-card nodes (1.7·10⁷ of them) do the work.
//!
//! **Moments.** With `X` the number of SETs among `n` cards and
//! `p_u = (n)_u / (81)_u` the chance that `u` given cards are all dealt
//! (`(n)_u` = falling factorial), summing over the 1080 lines and over ordered
//! pairs of lines (two distinct lines meet in at most one point):
//!
//! ```text
//!   E[X]   = 1080 p_3 = C(n,3) / 79
//!   E[X²]  = 1080 p_3  +  126,360 p_5  +  1,038,960 p_6
//!            (same line; 81·40·39 ordered pairs sharing a point, 5 cards;
//!             1080² − 1080 − 126,360 disjoint pairs, 6 cards)
//!   Var[X] = E[X²] − E[X]²
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

use num_rational::Ratio;
use rand::Rng;
use rayon::prelude::*;

use super::caps::{THIRD_ROWS, third_index};
use super::symmetry::{Chain, DECK_DIM, Shape, ShapeTally, class_of, weighted_total};
use super::{Progress, rng_for};
use crate::card::Card;
use crate::finders::count_sets;

/// Largest number of cards for which the exact distribution is computed.
pub const EXACT_MAX_CARDS: usize = 12;

/// Samples per independent random stream in Monte Carlo runs.
const SAMPLES_PER_CHUNK: u64 = 1 << 14;

/// The number of SETs among `cards` cards: counts by number of SETs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealDistribution {
    /// Number of cards dealt.
    pub cards: usize,
    /// Whether `counts` are exact subset counts (else Monte Carlo samples).
    pub exact: bool,
    /// `counts[s]`: subsets (or samples) holding exactly `s` SETs.
    pub counts: Vec<u128>,
}

impl DealDistribution {
    /// All subsets (exact) or all samples.
    pub fn total(&self) -> u128 {
        self.counts.iter().sum()
    }

    /// The share with exactly `sets` SETs.
    pub fn probability(&self, sets: usize) -> f64 {
        self.counts.get(sets).copied().unwrap_or(0) as f64 / self.total() as f64
    }

    /// Mean number of SETs.
    pub fn mean(&self) -> f64 {
        self.moment(1) / self.total() as f64
    }

    /// Variance of the number of SETs (of the distribution, not of the sample mean).
    pub fn variance(&self) -> f64 {
        let mean = self.mean();
        self.moment(2) / self.total() as f64 - mean * mean
    }

    fn moment(&self, power: i32) -> f64 {
        self.counts
            .iter()
            .enumerate()
            .map(|(s, &c)| c as f64 * (s as f64).powi(power))
            .sum()
    }

    /// The counts with trailing zero bins removed.
    pub fn trimmed(&self) -> &[u128] {
        let len = self
            .counts
            .iter()
            .rposition(|&c| c > 0)
            .map_or(0, |i| i + 1);
        &self.counts[..len]
    }
}

/// Exact mean and variance of the number of SETs among `cards` random cards.
pub fn exact_moments(cards: usize) -> (Ratio<i128>, Ratio<i128>) {
    let dealt = |u: i128| {
        (0..u).fold(Ratio::from_integer(1), |p, i| {
            p * Ratio::new((cards as i128 - i).max(0), 81 - i)
        })
    };
    let lines = 1080i128;
    let sharing = 81 * 40 * 39;
    let disjoint = lines * lines - lines - sharing;
    let mean = dealt(3) * lines;
    let square = dealt(3) * lines + dealt(5) * sharing + dealt(6) * disjoint;
    (mean, square - mean * mean)
}

/// Largest possible number of SETs among `cards` cards: a pair lies in one
/// SET at most and a SET uses three pairs.
fn max_sets(cards: usize) -> usize {
    cards * cards.saturating_sub(1) / 6
}

/// Why a deal distribution cannot be computed as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealError {
    /// More cards than the deck holds.
    TooManyCards(usize),
    /// Exact counts are only computed up to [`EXACT_MAX_CARDS`].
    TooManyForExact(usize),
    /// Monte Carlo needs at least one sample.
    NoSamples,
}

impl std::fmt::Display for DealError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DealError::TooManyCards(n) => write!(f, "{n} cards asked for, but a deck holds 81"),
            DealError::TooManyForExact(n) => write!(
                f,
                "the exact distribution is computed for at most {EXACT_MAX_CARDS} cards, not {n}: \
                 give a number of samples for Monte Carlo"
            ),
            DealError::NoSamples => write!(f, "Monte Carlo needs at least one sample"),
        }
    }
}

impl std::error::Error for DealError {}

/// The exact distribution of the number of SETs among `cards ≤ 12` cards, on all cores.
pub fn exact_deal(cards: usize, progress: Progress<'_>) -> Result<DealDistribution, DealError> {
    if cards > EXACT_MAX_CARDS {
        return Err(DealError::TooManyForExact(cards));
    }
    Ok(DealDistribution {
        cards,
        exact: true,
        counts: exact_deal_in(Chain::new(DECK_DIM), cards, progress),
    })
}

/// Exact counts by number of SETs of the `cards`-subsets of AG(d,3).
pub(crate) fn exact_deal_in(chain: Chain, cards: usize, progress: Progress<'_>) -> Vec<u128> {
    let values = max_sets(cards) + 1;
    if cards == 0 {
        return vec![1];
    }
    // A task: a frame and the first one or two free points, by index into `free`.
    let mut tasks = Vec::new();
    for j in 0..=chain.dim() {
        let frame = chain.frame(j);
        if frame.len() > cards {
            continue;
        }
        let free: Vec<u8> = (0..chain.flat(j).count_ones() as u8)
            .filter(|p| !frame.contains(p))
            .collect();
        match cards - frame.len() {
            0 => tasks.push((j, vec![])),
            1 => tasks.extend((0..free.len()).map(|a| (j, vec![a]))),
            _ => {
                for a in 0..free.len() {
                    tasks.extend((a + 1..free.len()).map(|b| (j, vec![a, b])));
                }
            }
        }
    }
    let total = tasks.len() as u64;
    let done = AtomicU64::new(0);
    let tally = tasks
        .par_iter()
        .fold(
            || ShapeTally::new(cards, values),
            |mut tally, (j, prefix)| {
                let frame = chain.frame(*j);
                let free: Vec<u8> = (0..chain.flat(*j).count_ones() as u8)
                    .filter(|p| !frame.contains(p))
                    .collect();
                let mut search = DealSearch::new(cards, &mut tally);
                for &p in frame.iter().chain(prefix.iter().map(|&i| &free[i])) {
                    search.add(p);
                }
                if search.len == cards {
                    search.tally_self();
                } else {
                    let from = prefix.last().map_or(0, |&i| i + 1);
                    search.grow(&free, from);
                }
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                tally
            },
        )
        .reduce(|| ShapeTally::new(cards, values), ShapeTally::merge);
    weighted_total(chain, &tally).swap_remove(cards)
}

/// The state of the exact search: the chosen points and, for every point,
/// how many chosen pairs it would complete.
struct DealSearch<'a> {
    target: usize,
    points: [u8; EXACT_MAX_CARDS],
    len: usize,
    pairs_to: [u8; 81],
    sets: usize,
    shape: Shape,
    tally: &'a mut ShapeTally,
}

impl<'a> DealSearch<'a> {
    fn new(target: usize, tally: &'a mut ShapeTally) -> Self {
        DealSearch {
            target,
            points: [0; EXACT_MAX_CARDS],
            len: 0,
            pairs_to: [0; 81],
            sets: 0,
            shape: Shape::default(),
            tally,
        }
    }

    #[inline]
    fn add(&mut self, q: u8) {
        self.sets += self.pairs_to[q as usize] as usize;
        let row = q;
        for &s in &self.points[..self.len] {
            self.pairs_to[third_index(row, s) as usize] += 1;
        }
        self.points[self.len] = q;
        self.len += 1;
        self.shape = self.shape.plus(class_of(q));
    }

    #[inline]
    fn remove(&mut self, q: u8) {
        self.len -= 1;
        self.shape.0[class_of(q)] -= 1;
        for &s in &self.points[..self.len] {
            self.pairs_to[third_index(q, s) as usize] -= 1;
        }
        self.sets -= self.pairs_to[q as usize] as usize;
    }

    /// Tallies every subset `S + q1 + q2` with `q1 < q2` from `rest`, without
    /// visiting them. Its SETs are those of `S`, plus `pairs_to[q1]`, plus
    /// `pairs_to[q2]`, plus one if `third(q1, q2)` lies in `S`. So the pairs
    /// are first counted by class and `pairs_to` value (a product of two
    /// histograms), then the few pairs whose third card is in `S` (found from
    /// each `s` in `S`: `q2 = third(s, q1)`) move up by one SET.
    fn pair_leaves(&mut self, rest: &[u8]) {
        // pairs_to of a point outside S counts disjoint pairs of S (|S| ≤ 10): at most 5.
        const VALUES: usize = EXACT_MAX_CARDS / 2;
        const CLASSES: usize = DECK_DIM + 1;
        let mut histogram = [[0u64; VALUES]; CLASSES];
        // `in_rest[q]`: 1 if q is in `rest` (a byte table: cheaper than a 128-bit shift).
        let mut in_rest = [0u8; 81];
        for &q in rest {
            histogram[class_of(q)][usize::from(self.pairs_to[usize::from(q)])] += 1;
            in_rest[usize::from(q)] = 1;
        }
        let sizes = histogram.map(|h| h.iter().sum::<u64>());
        for c1 in 0..CLASSES {
            for c2 in c1..CLASSES {
                let pairs_exist = if c1 == c2 {
                    sizes[c1] >= 2
                } else {
                    sizes[c1] > 0 && sizes[c2] > 0
                };
                if !pairs_exist {
                    continue;
                }
                let row = &mut self.tally.row_mut(self.shape.plus(c1).plus(c2))[self.sets..];
                for (v1, &n1) in histogram[c1].iter().enumerate().filter(|(_, n)| **n > 0) {
                    for (v2, &n2) in histogram[c2].iter().enumerate().filter(|(_, n)| **n > 0) {
                        let pairs = match (c1 == c2, v1.cmp(&v2)) {
                            (false, _) | (true, std::cmp::Ordering::Less) => n1 * n2,
                            (true, std::cmp::Ordering::Equal) => n1 * (n1 - 1) / 2,
                            (true, std::cmp::Ordering::Greater) => 0,
                        };
                        if pairs > 0 {
                            row[v1 + v2] += pairs;
                        }
                    }
                }
            }
        }
        // The index of (shape + class(q1) + class(q2), value) is linear in both.
        let (start, strides) = self.tally.start_and_strides(self.shape);
        let start = start + self.sets;
        let counts = self.tally.counts_mut();
        for &s in &self.points[..self.len] {
            let row = &THIRD_ROWS[usize::from(s)];
            for &q1 in rest {
                let q2 = row[usize::from(q1)];
                if q2 > q1 && in_rest[usize::from(q2)] != 0 {
                    let at = start
                        + strides[class_of(q1)]
                        + strides[class_of(q2)]
                        + usize::from(self.pairs_to[usize::from(q1)])
                        + usize::from(self.pairs_to[usize::from(q2)]);
                    counts[at] -= 1;
                    counts[at + 1] += 1;
                }
            }
        }
    }

    fn tally_self(&mut self) {
        self.tally.add(self.shape, self.sets, 1);
    }

    /// Every subset adding free points `free[from..]`, in increasing order, up to the target size.
    fn grow(&mut self, free: &[u8], from: usize) {
        let missing = self.target - self.len;
        if missing == 2 {
            self.pair_leaves(&free[from.min(free.len())..]);
            return;
        }
        if missing == 1 {
            // Leaves: read each last card's SETs off `pairs_to`, one class
            // (a contiguous run of `free`) at a time.
            let mut start = from;
            while start < free.len() {
                let class = class_of(free[start]);
                let end = start + free[start..].partition_point(|&q| class_of(q) == class);
                let row = &mut self.tally.row_mut(self.shape.plus(class))[self.sets..];
                for &q in &free[start..end] {
                    row[self.pairs_to[q as usize] as usize] += 1;
                }
                start = end;
            }
            return;
        }
        for i in from..=free.len().saturating_sub(missing) {
            let q = free[i];
            self.add(q);
            self.grow(free, i + 1);
            self.remove(q);
        }
    }
}

/// A Monte Carlo estimate from `samples` deals of `cards` cards, on all
/// cores; the same `seed` gives the same counts whatever the thread count.
pub fn sample_deals(
    cards: usize,
    samples: u64,
    seed: u64,
    progress: Progress<'_>,
) -> Result<DealDistribution, DealError> {
    if cards > Card::COUNT {
        return Err(DealError::TooManyCards(cards));
    }
    if samples == 0 {
        return Err(DealError::NoSamples);
    }
    let chunks = samples.div_ceil(SAMPLES_PER_CHUNK);
    let done = AtomicU64::new(0);
    let counts = (0..chunks)
        .into_par_iter()
        .fold(
            || vec![0u128; max_sets(cards) + 1],
            |mut counts, chunk| {
                let mut rng = rng_for(seed, chunk);
                let first = chunk * SAMPLES_PER_CHUNK;
                let size = SAMPLES_PER_CHUNK.min(samples - first);
                let mut deck: Vec<Card> = Card::all().collect();
                for _ in 0..size {
                    // Partial Fisher–Yates: the first `cards` positions are a uniform deal.
                    for i in 0..cards {
                        let j = rng.random_range(i..Card::COUNT);
                        deck.swap(i, j);
                    }
                    counts[count_sets(&deck[..cards])] += 1;
                }
                progress(done.fetch_add(size, Ordering::Relaxed) + size, samples);
                counts
            },
        )
        .reduce(
            || vec![0u128; max_sets(cards) + 1],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    Ok(DealDistribution {
        cards,
        exact: false,
        counts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{binomial, no_progress};

    /// Counts by number of SETs over every `cards`-subset of AG(d,3), one by one.
    fn plain_counts(dim: usize, cards: usize) -> Vec<u128> {
        fn walk(chosen: &mut Vec<Card>, from: u8, n: u8, cards: usize, out: &mut Vec<u128>) {
            if chosen.len() == cards {
                out[count_sets(chosen)] += 1;
                return;
            }
            for q in from..n {
                chosen.push(Card::from_index(q).unwrap());
                walk(chosen, q + 1, n, cards, out);
                chosen.pop();
            }
        }
        let mut out = vec![0; max_sets(cards) + 1];
        walk(&mut Vec::new(), 0, 3u8.pow(dim as u32), cards, &mut out);
        out
    }

    #[test]
    fn symmetry_counts_match_plain_enumeration() {
        for (dim, max_cards) in [(2, 9), (3, 6), (4, 4)] {
            for cards in 0..=max_cards {
                let exact = exact_deal_in(Chain::new(dim), cards, &no_progress);
                assert_eq!(
                    exact,
                    plain_counts(dim, cards),
                    "AG({dim},3), {cards} cards"
                );
            }
        }
    }

    #[test]
    fn twelve_cards_sum_to_all_deals_with_the_exact_moments() {
        let deal = exact_deal(12, &no_progress).unwrap();
        assert_eq!(deal.total(), binomial(81, 12));
        // The SET-free count agrees with the cap search.
        assert_eq!(deal.counts[0], 2_284_535_476_080);
        // The whole distribution as the search that visited every 12-card
        // leaf found it (before the last two cards were counted in closed form).
        let visited: [u128; 15] = [
            2_284_535_476_080,
            10_266_579_666_720,
            18_459_179_294_400,
            19_278_240_770_880,
            12_746_054_337_120,
            5_650_817_178_240,
            1_649_199_670_560,
            330_527_433_600,
            48_500_063_820,
            8_323_838_640,
            2_091_005_280,
            160_729_920,
            86_346_000,
            21_340_800,
            3_032_640,
        ];
        assert_eq!(deal.trimmed(), &visited);
        let (mean, variance) = exact_moments(12);
        assert_eq!(mean, Ratio::new(220, 79));
        let moment = |power: u32| {
            deal.counts
                .iter()
                .enumerate()
                .map(|(s, &c)| c as i128 * (s as i128).pow(power))
                .sum::<i128>()
        };
        let total = deal.total() as i128;
        assert_eq!(Ratio::new(moment(1), total), mean);
        assert_eq!(
            Ratio::new(moment(2), total) - Ratio::new(moment(1), total).pow(2),
            variance
        );
    }

    #[test]
    fn monte_carlo_agrees_with_exact_within_its_confidence_interval() {
        let exact = exact_deal(9, &no_progress).unwrap();
        let samples = 400_000u64;
        let sampled = sample_deals(9, samples, 7, &no_progress).unwrap();
        assert_eq!(sampled.total(), samples as u128);
        for s in 0..4 {
            let p = exact.probability(s);
            let q = sampled.probability(s);
            // 4.5 standard errors: a false alarm about once in 150,000 runs per bin.
            let se = (p * (1.0 - p) / samples as f64).sqrt();
            assert!((p - q).abs() < 4.5 * se, "{s} SETs: exact {p}, sampled {q}");
        }
        let (mean, variance) = exact_moments(9);
        let mean = *mean.numer() as f64 / *mean.denom() as f64;
        let sd = (*variance.numer() as f64 / *variance.denom() as f64).sqrt();
        assert!((sampled.mean() - mean).abs() < 4.5 * sd / (samples as f64).sqrt());
    }

    #[test]
    fn sampling_is_reproducible_whatever_the_thread_count() {
        let run = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| sample_deals(15, 100_000, 42, &no_progress).unwrap())
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(2));
        assert_ne!(one, sample_deals(15, 100_000, 43, &no_progress).unwrap());
    }

    #[test]
    fn bad_requests_are_errors() {
        assert_eq!(
            exact_deal(13, &no_progress),
            Err(DealError::TooManyForExact(13))
        );
        assert_eq!(
            sample_deals(82, 10, 1, &no_progress),
            Err(DealError::TooManyCards(82))
        );
        assert_eq!(
            sample_deals(12, 0, 1, &no_progress),
            Err(DealError::NoSamples)
        );
    }
}
