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
use snapsolve_set::stats::{GameEngine, Pick, no_progress, simulate_games_on};

/// Games per sample.
const GAMES: u64 = 10_000;

fn main() {
    divan::main();
}

fn play(bencher: Bencher, engine: GameEngine, pick: Pick) {
    if !engine.available() {
        eprintln!("skipped: this CPU cannot run {engine:?}");
        return;
    }
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
            pool.install(|| simulate_games_on(engine, GAMES, pick, black_box(seed), &no_progress))
                .map(|stats| stats.sets_taken)
        });
}

/// Uniformly random SET taken at each position (the figure issue #3 asks
/// about), with the fastest engine (what `snapsolve set stats game` uses).
#[divan::bench(sample_count = 60)]
fn random_pick(bencher: Bencher) {
    play(bencher, GameEngine::best(), Pick::Random);
}

/// The same with the portable engine (other CPUs).
#[divan::bench(sample_count = 30)]
fn random_pick_portable(bencher: Bencher) {
    play(bencher, GameEngine::Portable, Pick::Random);
}

/// The first SET in table order taken at each position (fastest engine).
#[divan::bench(sample_count = 30)]
fn first_pick(bencher: Bencher) {
    play(bencher, GameEngine::best(), Pick::First);
}
