//! Time for the 0-1 IP engine to find every SET of one random layout.
//!
//! Protocol: 64 layouts per size drawn from a fixed seed (the ones `snapsolve`'s
//! `set_engines` bench uses); each is checked against the plain triple check
//! before timing; every timed iteration solves
//! the next layout in turn (model, one HiGHS solve per SET plus the infeasible
//! one, cuts added to one HiGHS instance). Beside it, the same enumeration
//! rebuilding the HiGHS model from scratch for every solve, the way the engine
//! worked before it kept its instance. Run: `cargo bench -p snapsolve_ilp`.

use std::cell::Cell;

#[path = "../../snapsolve_set/tests/support/layouts.rs"]
mod layouts;

use divan::Bencher;
use snapsolve_ilp::{IlpEngine, SetIlp, solve_once};
use snapsolve_set::Layout;
use snapsolve_set::finders::{SetFinder, find_sets_brute};

fn main() {
    divan::main();
}

/// The 64 layouts of each size that `snapsolve`'s `set_engines` bench times
/// (seed 2026, ChaCha8), each checked against the plain finder.
fn checked_layouts(cards: usize) -> Vec<Layout> {
    layouts::checked_layouts(2026, cards, 64, &IlpEngine)
}

#[divan::bench(args = [12, 15, 18, 21])]
fn ilp(bencher: Bencher, cards: usize) {
    let layouts = checked_layouts(cards);
    let next = Cell::new(0);
    bencher.bench_local(|| {
        let layout = &layouts[next.get() % layouts.len()];
        next.set(next.get() + 1);
        IlpEngine.find_sets(divan::black_box(layout))
    });
}

/// The enumeration with a fresh HiGHS model per solve: the comparator.
fn count_sets_rebuilding(layout: &Layout) -> usize {
    let mut model = SetIlp::build(layout);
    let mut count = 0;
    while let Some(triple) = solve_once(&model).expect("solver runs") {
        model.add_no_good(triple);
        count += 1;
    }
    count
}

#[divan::bench(args = [12, 15, 18, 21])]
fn ilp_rebuild_per_cut(bencher: Bencher, cards: usize) {
    let layouts = checked_layouts(cards);
    for layout in &layouts {
        assert_eq!(
            count_sets_rebuilding(layout),
            find_sets_brute(layout.cards()).len()
        );
    }
    let next = Cell::new(0);
    bencher.bench_local(|| {
        let layout = &layouts[next.get() % layouts.len()];
        next.set(next.get() + 1);
        count_sets_rebuilding(divan::black_box(layout))
    });
}
