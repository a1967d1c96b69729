//! Every SET finder at 12, 15, 18 and 21 cards, on fixed seeded random layouts.
//!
//! Protocol: for each size, 1,000 layouts are drawn from seed [`SEED`] (the same
//! ones the side-by-side run against seed 003's Python uses, see
//! `examples/set_vs_python.rs`). Each timed call gets the next layout in turn,
//! so branch predictors cannot learn one layout; divan reports the time of one
//! call, i.e. one layout, and its median over samples is the figure quoted in
//! BENCHMARKS.md. Answers are checked against brute force before timing.
//!
//! Run: `cargo bench -p snapsolve_set --bench finders`.

#[path = "../tests/support/layouts.rs"]
mod layouts;

use divan::{Bencher, black_box};
use snapsolve_set::finders::{
    SetFinder, all_finders, count_sets, find_sets, find_sets_brute, find_sets_into, has_set,
    portable,
};
use snapsolve_set::{Layout, Triple};

/// Seed of the benchmark layouts (shared with the side-by-side example).
const SEED: u64 = 2026;
/// Layouts per size.
const LAYOUTS: usize = 1000;
const SIZES: [usize; 4] = [12, 15, 18, 21];

fn main() {
    divan::main();
}

/// Seeded layouts of `n` cards whose answers every engine has been checked on.
fn checked_layouts(n: usize) -> Vec<Layout> {
    let layouts = layouts::seeded_layouts(SEED, n, LAYOUTS);
    for layout in &layouts {
        let expected = find_sets_brute(layout.cards());
        for finder in all_finders() {
            assert_eq!(finder.find_sets(layout).ok().as_ref(), Some(&expected));
        }
    }
    layouts
}

/// Times `f` on one layout per call, cycling through the layouts of size `n`.
fn per_layout<T>(bencher: Bencher, n: usize, mut f: impl FnMut(&Layout) -> T) {
    let layouts = checked_layouts(n);
    let mut next = 0;
    bencher
        .with_inputs(|| {
            next = (next + 1) % layouts.len();
            &layouts[next]
        })
        .bench_local_values(|layout| f(black_box(layout)));
}

fn engine(name: &str) -> &'static dyn SetFinder {
    all_finders()
        .into_iter()
        .find(|f| f.name() == name)
        .expect("engine exists")
}

#[divan::bench(args = SIZES)]
fn brute(bencher: Bencher, n: usize) {
    let finder = engine("brute");
    per_layout(bencher, n, |l| finder.find_sets(l));
}

#[divan::bench(args = SIZES)]
fn pairs(bencher: Bencher, n: usize) {
    let finder = engine("pairs");
    per_layout(bencher, n, |l| finder.find_sets(l));
}

#[divan::bench(args = SIZES)]
fn group(bencher: Bencher, n: usize) {
    let finder = engine("group");
    per_layout(bencher, n, |l| finder.find_sets(l));
}

/// The default engine through the `SetFinder` trait (what the CLI calls).
#[divan::bench(args = SIZES)]
fn fast(bencher: Bencher, n: usize) {
    let finder = engine("fast");
    per_layout(bencher, n, |l| finder.find_sets(l));
}

/// The default engine's free function, returning a fresh `Vec`.
#[divan::bench(args = SIZES)]
fn fast_vec(bencher: Bencher, n: usize) {
    per_layout(bencher, n, |l| find_sets(l.cards()));
}

/// The default engine writing into a buffer reused across calls (no allocation).
#[divan::bench(args = SIZES)]
fn fast_into(bencher: Bencher, n: usize) {
    let mut buffer: Vec<Triple> = Vec::with_capacity(1080);
    per_layout(bencher, n, |l| {
        buffer.clear();
        find_sets_into(l.cards(), &mut buffer);
        buffer.len()
    });
}

#[divan::bench(args = SIZES)]
fn count(bencher: Bencher, n: usize) {
    per_layout(bencher, n, |l| count_sets(l.cards()));
}

#[divan::bench(args = SIZES)]
fn any(bencher: Bencher, n: usize) {
    per_layout(bencher, n, |l| has_set(l.cards()));
}

/// The portable core the default engine falls back to (no AVX-512 VBMI, or > 64 cards).
#[divan::bench(args = SIZES)]
fn portable_into(bencher: Bencher, n: usize) {
    let mut buffer: Vec<Triple> = Vec::with_capacity(1080);
    per_layout(bencher, n, |l| {
        buffer.clear();
        portable::find_sets_into(l.cards(), &mut buffer);
        buffer.len()
    });
}

#[divan::bench(args = SIZES)]
fn portable_count(bencher: Bencher, n: usize) {
    per_layout(bencher, n, |l| portable::count_sets(l.cards()));
}
