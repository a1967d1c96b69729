//! Exact and simulated statistics of SET: caps, random deals and whole games.
//!
//! - [`caps`]: how many sets of `k` cards hold no SET, exactly, for every `k`;
//! - [`deal`]: the distribution of the number of SETs among `n` random
//!   cards, exactly for `n ≤ 12` and by Monte Carlo for any `n`;
//! - [`game`]: whole games simulated by the million, with intervals;
//! - [`symmetry`] (private): the counting identity that makes those exact
//!   counts cheap, by exploiting the affine symmetry of the deck.
//!
//! Long computations report progress through a [`Progress`] callback and use
//! every core through rayon; their results never depend on the thread count.

pub mod caps;
pub mod deal;
pub mod game;
mod symmetry;

pub use caps::{CapTable, NoSetChance, count_caps};
pub use deal::{DealDistribution, DealError, exact_deal, exact_moments, sample_deals};
pub use game::{GameStats, Pick, Position, RatioSums, simulate_games};
pub use symmetry::binomial;

/// Called with (work done, total work) as a long computation advances, from any thread.
pub type Progress<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// A [`Progress`] callback that ignores reports.
pub fn no_progress(_done: u64, _total: u64) {}

/// The random stream number `stream` of a run with this seed.
///
/// Simulations split their work into fixed chunks (or games), each drawing
/// from its own stream, so results are the same whatever the thread count.
/// PCG-64 (MCG variant) is portable and fast; SplitMix64 spreads nearby
/// `(seed, stream)` pairs over unrelated states.
pub(crate) fn rng_for(seed: u64, stream: u64) -> rand_pcg::Pcg64Mcg {
    let high = splitmix64(seed);
    let low = splitmix64(stream ^ high.rotate_left(17));
    rand_pcg::Pcg64Mcg::new((u128::from(high) << 64) | u128::from(low))
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The 95% Wilson score interval for a proportion of `successes` in `trials`
/// independent trials (better than `p ± 1.96·se` near 0 and 1).
pub fn wilson_interval(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n = trials as f64;
    let p = successes as f64 / n;
    let denominator = 1.0 + Z * Z / n;
    let center = (p + Z * Z / (2.0 * n)) / denominator;
    let half = Z * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt() / denominator;
    ((center - half).max(0.0), (center + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_estimate() {
        let (lo, hi) = wilson_interval(30, 1000);
        assert!(lo < 0.03 && 0.03 < hi);
        assert!((lo - 0.0211).abs() < 1e-3 && (hi - 0.0425).abs() < 1e-3);
        let (lo, hi) = wilson_interval(0, 100);
        assert!(lo.abs() < 1e-12);
        assert!(hi > 0.0 && hi < 0.05);
    }
}
