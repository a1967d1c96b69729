//! All six SET engines a user can choose (`snapsolve::set::engines()`), one table.
//!
//! The same seeded layouts as `crates/snapsolve_set/benches/finders.rs` (seed 2026,
//! ChaCha8), fewer of them: 64 per size, because the SAT and 0-1 IP engines
//! take milliseconds (they set up a solver and re-solve once per SET, plus a
//! final proof that no SET is left). Each engine's answers are checked against
//! brute force before timing; each timed call gets the next layout in turn.
//!
//! Run: `cargo bench -p snapsolve --bench set_engines`. The pure engines are
//! measured at every size with 1,000 layouts in `snapsolve_set`'s own benchmark;
//! here the point is the solver-backed ones beside them, at 12 and 21 cards.

#[path = "../../snapsolve_set/tests/support/layouts.rs"]
mod layouts;

use divan::{Bencher, black_box};
use snapsolve_set::Layout;
use snapsolve_set::finders::SetFinder;

const SEED: u64 = 2026;
const LAYOUTS: usize = 64;

/// The engines with a benchmark below, in `engines()` order.
const BENCHED: [&str; 6] = ["brute", "pairs", "group", "fast", "sat", "ilp"];

fn main() {
    let names: Vec<&str> = snapsolve::set::engines().iter().map(|e| e.name()).collect();
    assert_eq!(names, BENCHED, "a new engine needs a benchmark here");
    divan::main();
}

fn engine(name: &str) -> &'static dyn SetFinder {
    snapsolve::set::engine(name).expect("engine exists")
}

fn bench_engine(bencher: Bencher, name: &str, n: usize) {
    let finder = engine(name);
    // The first LAYOUTS of the finders benchmark's 1,000 layouts of this size.
    let layouts: Vec<Layout> = layouts::checked_layouts(SEED, n, LAYOUTS, finder);
    let mut next = 0;
    bencher
        .with_inputs(|| {
            next = (next + 1) % layouts.len();
            &layouts[next]
        })
        .bench_local_values(|layout| finder.find_sets(black_box(layout)));
}

#[divan::bench(args = [12, 21])]
fn brute(bencher: Bencher, n: usize) {
    bench_engine(bencher, "brute", n);
}

#[divan::bench(args = [12, 21])]
fn pairs(bencher: Bencher, n: usize) {
    bench_engine(bencher, "pairs", n);
}

#[divan::bench(args = [12, 21])]
fn group(bencher: Bencher, n: usize) {
    bench_engine(bencher, "group", n);
}

#[divan::bench(args = [12, 21])]
fn fast(bencher: Bencher, n: usize) {
    bench_engine(bencher, "fast", n);
}

#[divan::bench(args = [12, 21], sample_count = 20)]
fn sat(bencher: Bencher, n: usize) {
    bench_engine(bencher, "sat", n);
}

#[divan::bench(args = [12, 21], sample_count = 20)]
fn ilp(bencher: Bencher, n: usize) {
    bench_engine(bencher, "ilp", n);
}
