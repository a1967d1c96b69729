//! Time for the SAT engine to find every SET of one random layout.
//!
//! Protocol: 64 layouts per size drawn from a fixed seed; each is checked
//! against the plain triple check before timing; every timed iteration solves
//! the next layout in turn (encoding, CaDiCaL set-up, one call per SET plus the
//! final UNSAT call). Run: `cargo bench -p snapsolve_sat`.

use std::cell::Cell;

use divan::Bencher;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use snapsolve_sat::SatEngine;
use snapsolve_set::finders::{SetFinder, find_sets_brute};
use snapsolve_set::{Card, Layout};

fn main() {
    divan::main();
}

/// 64 random layouts of `cards` cards, each checked against the plain finder.
fn checked_layouts(cards: usize, engine: &dyn SetFinder) -> Vec<Layout> {
    let mut rng = StdRng::seed_from_u64(cards as u64);
    (0..64)
        .map(|_| {
            let mut deck: Vec<Card> = Card::all().collect();
            deck.shuffle(&mut rng);
            deck.truncate(cards);
            let layout = Layout::new(deck).expect("distinct cards");
            let found = engine.find_sets(&layout).expect("solver runs");
            assert_eq!(found, find_sets_brute(layout.cards()));
            layout
        })
        .collect()
}

#[divan::bench(args = [12, 15, 18, 21])]
fn sat(bencher: Bencher, cards: usize) {
    let layouts = checked_layouts(cards, &SatEngine);
    let next = Cell::new(0);
    bencher.bench_local(|| {
        let layout = &layouts[next.get() % layouts.len()];
        next.set(next.get() + 1);
        SatEngine.find_sets(divan::black_box(layout))
    });
}
