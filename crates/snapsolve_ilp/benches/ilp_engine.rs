//! Time for the 0-1 IP engine to find every SET of one random layout.
//!
//! Protocol: 64 layouts per size drawn from a fixed seed (the ones `snapsolve`'s
//! `set_engines` bench uses); each is checked against the plain triple check
//! before timing; every timed iteration solves the next layout in turn (model,
//! one solve per SET plus the infeasible one, cuts added to one solver
//! instance), on each solver of the build: microlp always, HiGHS with
//! `--features highs`. Beside them, the same enumeration rebuilding the model
//! from scratch for every solve, the way the engine worked before it kept its
//! instance. Run: `cargo bench -p snapsolve_ilp [--features highs]`.

use std::cell::Cell;

#[path = "../../snapsolve_set/tests/support/layouts.rs"]
mod layouts;

use divan::Bencher;
use snapsolve_ilp::{IlpEngine, IlpSolver, SetIlp, solve_once};
use snapsolve_set::Layout;
use snapsolve_set::finders::{SetFinder, find_sets_brute};

fn main() {
    divan::main();
}

/// The 64 layouts of each size that `snapsolve`'s `set_engines` bench times
/// (seed 2026, ChaCha8), each checked against the plain finder.
fn checked_layouts(cards: usize, engine: &IlpEngine) -> Vec<Layout> {
    layouts::checked_layouts(2026, cards, 64, engine)
}

/// Every timed iteration runs `count` on the next layout in turn.
fn bench_layouts<T>(bencher: Bencher, layouts: &[Layout], count: impl Fn(&Layout) -> T) {
    let next = Cell::new(0);
    bencher.bench_local(|| {
        let layout = &layouts[next.get() % layouts.len()];
        next.set(next.get() + 1);
        count(divan::black_box(layout))
    });
}

fn bench_engine(bencher: Bencher, cards: usize, solver: IlpSolver) {
    let engine = IlpEngine::on(solver);
    bench_layouts(bencher, &checked_layouts(cards, &engine), |layout| {
        engine.find_sets(layout)
    });
}

/// The enumeration with a fresh model per solve: the comparator.
fn count_sets_rebuilding(layout: &Layout, solver: IlpSolver) -> usize {
    let mut model = SetIlp::build(layout);
    let mut count = 0;
    while let Some(triple) = solve_once(&model, solver).expect("solver runs") {
        model.add_no_good(triple);
        count += 1;
    }
    count
}

fn bench_rebuilding(bencher: Bencher, cards: usize, solver: IlpSolver) {
    let layouts = checked_layouts(cards, &IlpEngine::on(solver));
    for layout in &layouts {
        assert_eq!(
            count_sets_rebuilding(layout, solver),
            find_sets_brute(layout.cards()).len()
        );
    }
    bench_layouts(bencher, &layouts, |layout| {
        count_sets_rebuilding(layout, solver)
    });
}

#[divan::bench(args = [12, 15, 18, 21])]
fn ilp_microlp(bencher: Bencher, cards: usize) {
    bench_engine(bencher, cards, IlpSolver::MicroLp);
}

#[divan::bench(args = [12, 15, 18, 21])]
fn ilp_microlp_rebuild_per_cut(bencher: Bencher, cards: usize) {
    bench_rebuilding(bencher, cards, IlpSolver::MicroLp);
}

#[cfg(feature = "highs")]
#[divan::bench(args = [12, 15, 18, 21])]
fn ilp_highs(bencher: Bencher, cards: usize) {
    bench_engine(bencher, cards, IlpSolver::HiGHS);
}

#[cfg(feature = "highs")]
#[divan::bench(args = [12, 15, 18, 21])]
fn ilp_highs_rebuild_per_cut(bencher: Bencher, cards: usize) {
    bench_rebuilding(bencher, cards, IlpSolver::HiGHS);
}
