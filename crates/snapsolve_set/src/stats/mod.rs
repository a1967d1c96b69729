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
mod random;
mod symmetry;

pub use caps::{CapTable, NoSetChance, count_caps};
pub use deal::{DealDistribution, DealError, exact_deal, exact_moments, sample_deals};
pub use game::{
    GameEngine, GameStats, Pick, Position, RatioSums, simulate_games, simulate_games_on,
};
pub use symmetry::binomial;

use random::rng_for;

/// Called with (work done, total work) as a long computation advances, from any thread.
pub type Progress<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// A [`Progress`] callback that ignores reports.
pub fn no_progress(_done: u64, _total: u64) {}

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
