//! The whole-game simulator of `snapsolve set stats game`, one thread.
//!
//! Protocol: each sample plays [`GAMES`] games on a one-thread rayon pool
//! (so the figure is per core), with a new seed per sample so that no two
//! samples replay the same games. divan reports the time per sample and, from
//! the item counter, games per second; BENCHMARKS.md quotes the median.
//! The simulator's answers are checked by its unit tests (against a plain
//! reference game and the exact figures), not here.
//!
//! Run: `cargo bench -p snapsolve_set --bench games`.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use snapsolve_set::stats::{Pick, no_progress, simulate_games};

/// Games per sample.
const GAMES: u64 = 10_000;

fn main() {
    divan::main();
}

fn play(bencher: Bencher, pick: Pick) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let mut seed = 0;
    bencher
        .counter(ItemsCount::new(GAMES))
        .with_inputs(|| {
            seed += 1;
            seed
        })
        .bench_local_values(|seed| {
            pool.install(|| simulate_games(GAMES, pick, black_box(seed), &no_progress))
                .sets_taken
        });
}

/// Uniformly random SET taken at each position (the figure issue #3 asks about).
#[divan::bench(sample_count = 60)]
fn random_pick(bencher: Bencher) {
    play(bencher, Pick::Random);
}

/// The first SET in table order taken at each position.
#[divan::bench(sample_count = 30)]
fn first_pick(bencher: Bencher) {
    play(bencher, Pick::First);
}
