//! Random streams and unbiased small draws for the simulations.
//!
//! Simulations split their work into fixed units (chunks of deals, single
//! games), each drawing from its own stream, so results are the same
//! whatever the thread count.
//!
//! Draws in a small range use Lemire's multiply-shift ("Fast random integer
//! generation in an interval", 2019): the high half of `word · n` is uniform
//! in `0..n` once the rare low halves below `2^64 mod n` are rejected, so no
//! division is needed on the common path. A shuffle draws several indices
//! from one 64-bit word the same way (Brackett-Rozinsky and Lemire, "Batched
//! ranged random integer generation", 2024): the low half of each product
//! feeds the next range, and the word is rejected when the final low half
//! falls below `2^64 mod (product of the ranges)`.

use rand::RngCore;

/// The random stream of one unit of work.
pub(crate) type Stream = rand_pcg::Pcg64Mcg;

/// The random stream number `stream` of a run with this seed.
///
/// PCG-64 (MCG variant) is portable and fast; SplitMix64 spreads nearby
/// `(seed, stream)` pairs over unrelated states.
pub(crate) fn rng_for(seed: u64, stream: u64) -> Stream {
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

/// A uniform integer in `0..n`; `n` must be at least 1.
#[inline]
pub(crate) fn below(rng: &mut impl RngCore, n: u64) -> u64 {
    debug_assert!(n > 0);
    let mut product = u128::from(rng.next_u64()) * u128::from(n);
    if (product as u64) < n {
        // Only now is the exact threshold worth a division.
        let threshold = n.wrapping_neg() % n;
        while (product as u64) < threshold {
            product = u128::from(rng.next_u64()) * u128::from(n);
        }
    }
    (product >> 64) as u64
}

/// Indices drawn per 64-bit word in [`shuffle`]: with ranges up to 1024 the
/// product stays below 2^60, so a word is rejected with chance below 2^-4
/// (below 2^-26 for the 81-card deck).
const BATCH: usize = 6;

/// Largest slice [`shuffle`] accepts.
pub(crate) const SHUFFLE_MAX: usize = 1 << 10;

/// Puts `items` in uniformly random order (Fisher–Yates from the top).
///
/// # Panics
/// If `items` holds more than [`SHUFFLE_MAX`] elements.
pub(crate) fn shuffle<T>(rng: &mut impl RngCore, items: &mut [T]) {
    assert!(items.len() <= SHUFFLE_MAX, "shuffle: slice too long");
    // `top`: the range of the next draw; the pick goes to position `top - 1`.
    let mut top = items.len();
    while top > 1 {
        let k = BATCH.min(top - 1);
        let mut picks = [0usize; BATCH];
        loop {
            let mut rest = rng.next_u64();
            let mut ranges = 1u64;
            for (i, pick) in picks[..k].iter_mut().enumerate() {
                let range = (top - i) as u64;
                let product = u128::from(rest) * u128::from(range);
                *pick = (product >> 64) as usize;
                rest = product as u64;
                ranges *= range;
            }
            // `rest >= ranges` implies `rest >= 2^64 mod ranges`: no division.
            if rest >= ranges || rest >= ranges.wrapping_neg() % ranges {
                break;
            }
        }
        for (i, &pick) in picks[..k].iter().enumerate() {
            items.swap(top - 1 - i, pick);
        }
        top -= k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pearson's chi-square statistic of observed counts against equal expectations.
    fn chi_square(counts: &[u64]) -> f64 {
        let total: u64 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    #[test]
    fn below_is_uniform_and_in_range() {
        let mut rng = rng_for(1, 2);
        for n in [1u64, 2, 3, 7, 70] {
            let mut counts = vec![0u64; n as usize];
            for _ in 0..70_000 {
                counts[below(&mut rng, n) as usize] += 1;
            }
            // df = n - 1 ≤ 69: the 99.99% quantile of chi-square(69) is about 122.
            assert!(chi_square(&counts) < 125.0, "n = {n}: {counts:?}");
        }
    }

    #[test]
    fn shuffles_of_five_items_hit_every_order_evenly() {
        let mut rng = rng_for(3, 4);
        let mut counts = vec![0u64; 120];
        for _ in 0..120_000 {
            let mut items = [0u8, 1, 2, 3, 4];
            shuffle(&mut rng, &mut items);
            // Lehmer code: the rank of the permutation among the 120.
            let rank = (0..5).fold(0usize, |rank, i| {
                let smaller_after = items[i + 1..].iter().filter(|&&x| x < items[i]).count();
                rank * (5 - i) + smaller_after
            });
            counts[rank] += 1;
        }
        // df = 119: the 99.99% quantile of chi-square(119) is about 187.
        assert!(chi_square(&counts) < 190.0, "{counts:?}");
    }

    #[test]
    fn a_shuffled_deck_puts_every_card_everywhere_evenly() {
        let mut rng = rng_for(5, 6);
        let mut at_top = vec![0u64; 81];
        let mut at_bottom = vec![0u64; 81];
        let mut deck: [u8; 81] = std::array::from_fn(|i| i as u8);
        for _ in 0..81_000 {
            shuffle(&mut rng, &mut deck);
            let mut sorted = deck;
            sorted.sort_unstable();
            assert!(sorted.iter().enumerate().all(|(i, &c)| c == i as u8));
            at_top[deck[0] as usize] += 1;
            at_bottom[deck[80] as usize] += 1;
        }
        // df = 80: the 99.99% quantile of chi-square(80) is about 138.
        assert!(chi_square(&at_top) < 140.0, "{at_top:?}");
        assert!(chi_square(&at_bottom) < 140.0, "{at_bottom:?}");
    }

    #[test]
    fn shuffle_keeps_short_slices() {
        let mut rng = rng_for(0, 0);
        let mut empty: [u8; 0] = [];
        shuffle(&mut rng, &mut empty);
        let mut one = [9u8];
        shuffle(&mut rng, &mut one);
        assert_eq!(one, [9]);
    }
}
