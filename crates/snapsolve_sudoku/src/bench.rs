//! The speed protocol, after tdoku's `run_benchmark.cc`, shared by `snapsolve sudoku
//! bench` and the comparator in `bench/sudoku_comparator`:
//!
//! 1. the puzzles are shuffled with a fixed seed (no solver profits from file order);
//! 2. a warm-up cycles through them for a while (caches, branch predictors, clocks);
//! 3. the timed part cycles through them on the calling thread (one core) until the
//!    time budget is spent, reading the clock after every puzzle (the same small cost
//!    for every solver); every solve also proves uniqueness (counts solutions up to 2);
//! 4. the answers are checked afterwards, outside the timed part.
//!
//! A slow solver that cannot finish one pass in the budget is measured on the shuffled
//! prefix it reached, which is a fair sample; [`BenchResult::complete_pass`] says so.
//!
//! On a shared machine, [`measure_interleaved`] compares solvers fairly: they take
//! turns in short slices, each continuing where it stopped, so that every solver sees
//! the same mix of quiet and busy moments.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_pcg::Pcg64Mcg;

/// Time budgets of one measurement.
#[derive(Debug, Clone, Copy)]
pub struct BenchConfig {
    /// Warm-up time before timing.
    pub warmup: Duration,
    /// Timed budget (the run ends at the first clock reading after it).
    pub budget: Duration,
    /// Shuffle seed.
    pub seed: u64,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            warmup: Duration::from_millis(500),
            budget: Duration::from_secs(2),
            seed: 0x5eed_5d0c,
        }
    }
}

/// One solver on one puzzle list.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchResult {
    /// Puzzles solved in the timed part (a puzzle solved twice counts twice).
    pub solved: usize,
    /// Length of the timed part.
    pub seconds: f64,
    /// Whether every puzzle of the list was solved at least once while timed.
    pub complete_pass: bool,
}

impl BenchResult {
    /// Puzzles per second.
    pub fn rate(&self) -> f64 {
        self.solved as f64 / self.seconds
    }

    /// Microseconds per puzzle.
    pub fn micros_per_puzzle(&self) -> f64 {
        1e6 * self.seconds / self.solved as f64
    }
}

/// The inputs in a fixed pseudo-random order.
pub fn shuffled<T: Clone>(items: &[T], seed: u64) -> Vec<T> {
    let mut out = items.to_vec();
    out.shuffle(&mut Pcg64Mcg::seed_from_u64(seed));
    out
}

/// Times `solve` over `puzzles` (already shuffled and converted to the solver's own
/// type, so neither is timed). `solve` must count solutions up to 2; its result goes
/// through `black_box` so the work cannot be optimised away.
pub fn measure<P, R>(
    puzzles: &[P],
    config: &BenchConfig,
    mut solve: impl FnMut(&P) -> R,
) -> BenchResult {
    if puzzles.is_empty() {
        return BenchResult {
            solved: 0,
            seconds: 0.0,
            complete_pass: true,
        };
    }
    let run = |budget: Duration, solve: &mut dyn FnMut(&P) -> R| {
        let start = Instant::now();
        let mut solved = 0;
        loop {
            std::hint::black_box(solve(&puzzles[solved % puzzles.len()]));
            solved += 1;
            let elapsed = start.elapsed();
            if elapsed >= budget {
                return (solved, elapsed.as_secs_f64());
            }
        }
    };
    run(config.warmup, &mut solve);
    let (solved, seconds) = run(config.budget, &mut solve);
    BenchResult {
        solved,
        seconds,
        complete_pass: solved >= puzzles.len(),
    }
}

/// Times several solvers on one list in turns: after a warm-up of each, `slices`
/// rounds in which every solver runs for `config.budget / slices`, continuing from the
/// puzzle it stopped at. `solvers[k](i)` solves puzzle `i` (of `len`, already shuffled
/// and converted) with solver `k`, counting solutions up to 2, and returns something
/// the work depends on (it goes through `black_box`).
pub fn measure_interleaved(
    len: usize,
    config: &BenchConfig,
    slices: usize,
    solvers: &mut [&mut dyn FnMut(usize) -> usize],
) -> Vec<BenchResult> {
    let slices = slices.max(1);
    let mut results = vec![
        BenchResult {
            solved: 0,
            seconds: 0.0,
            complete_pass: len == 0,
        };
        solvers.len()
    ];
    if len == 0 {
        return results;
    }
    let slice = config.budget / slices as u32;
    let run = |solve: &mut dyn FnMut(usize) -> usize, from: usize, budget: Duration| {
        let start = Instant::now();
        let mut next = from;
        loop {
            std::hint::black_box(solve(next % len));
            next += 1;
            let elapsed = start.elapsed();
            if elapsed >= budget {
                return (next - from, elapsed.as_secs_f64());
            }
        }
    };
    for solve in solvers.iter_mut() {
        run(&mut **solve, 0, config.warmup);
    }
    for _ in 0..slices {
        for (solve, result) in solvers.iter_mut().zip(results.iter_mut()) {
            let (solved, seconds) = run(&mut **solve, result.solved, slice);
            result.solved += solved;
            result.seconds += seconds;
        }
    }
    for result in &mut results {
        result.complete_pass = result.solved >= len;
    }
    results
}

/// Median of some measurements (the mean of the middle two for an even count).
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_is_a_fixed_permutation() {
        let items: Vec<u32> = (0..100).collect();
        let a = shuffled(&items, 7);
        assert_eq!(a, shuffled(&items, 7));
        assert_ne!(a, items);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, items);
    }

    #[test]
    fn interleaved_solvers_take_turns_and_continue() {
        let config = BenchConfig {
            warmup: Duration::ZERO,
            budget: Duration::ZERO,
            seed: 1,
        };
        let (mut seen_a, mut seen_b) = (Vec::new(), Vec::new());
        let results = measure_interleaved(
            5,
            &config,
            3,
            &mut [
                &mut |i| {
                    seen_a.push(i);
                    i
                },
                &mut |i| {
                    seen_b.push(i);
                    i
                },
            ],
        );
        // One warm-up puzzle each, then one puzzle per slice, continuing.
        assert_eq!(seen_a, [0, 0, 1, 2]);
        assert_eq!(seen_b, [0, 0, 1, 2]);
        assert_eq!(results.len(), 2);
        assert_eq!(results[0].solved, 3);
        assert!(!results[0].complete_pass);
    }

    #[test]
    fn measure_counts_whole_rounds() {
        let config = BenchConfig {
            warmup: Duration::ZERO,
            budget: Duration::ZERO,
            seed: 1,
        };
        let mut calls = 0;
        let result = measure(&[1, 2, 3], &config, |x| {
            calls += 1;
            *x
        });
        assert_eq!(result.solved, 1);
        assert_eq!(calls, 2);
        assert!(!result.complete_pass);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
