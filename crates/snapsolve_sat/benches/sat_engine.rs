//! Time for the SAT engine to find every SET of one random layout.
//!
//! Protocol: 64 layouts per size drawn from a fixed seed (the ones `snapsolve`'s
//! `set_engines` bench uses); each is checked against the plain triple check
//! before timing; every timed iteration solves the next layout in turn
//! (encoding, solver set-up, one call per SET plus the final UNSAT call), on
//! each solver of the build: BatSat always, CaDiCaL with `--features cadical`,
//! and beside it the same enumeration with CaDiCaL in its default
//! configuration, the setting the engine moved away from.
//! Run: `cargo bench -p snapsolve_sat [--features cadical]`.

use std::cell::Cell;

#[path = "../../snapsolve_set/tests/support/layouts.rs"]
mod layouts;

use divan::Bencher;
use snapsolve_sat::{SatEngine, SatSolver};
use snapsolve_set::Layout;
use snapsolve_set::finders::SetFinder;

fn main() {
    divan::main();
}

/// The 64 layouts of each size that `snapsolve`'s `set_engines` bench times
/// (seed 2026, ChaCha8), each checked against the plain finder.
fn checked_layouts(cards: usize, engine: &SatEngine) -> Vec<Layout> {
    layouts::checked_layouts(2026, cards, 64, engine)
}

/// Every timed iteration finds the SETs of the next layout in turn.
fn bench_engine(bencher: Bencher, cards: usize, solver: SatSolver) {
    let engine = SatEngine::on(solver);
    let layouts = checked_layouts(cards, &engine);
    let next = Cell::new(0);
    bencher.bench_local(|| {
        let layout = &layouts[next.get() % layouts.len()];
        next.set(next.get() + 1);
        engine.find_sets(divan::black_box(layout))
    });
}

#[divan::bench(args = [12, 15, 18, 21])]
fn sat_batsat(bencher: Bencher, cards: usize) {
    bench_engine(bencher, cards, SatSolver::BatSat);
}

#[cfg(feature = "cadical")]
#[divan::bench(args = [12, 15, 18, 21])]
fn sat_cadical(bencher: Bencher, cards: usize) {
    bench_engine(bencher, cards, SatSolver::CaDiCaL);
}

#[cfg(feature = "cadical")]
mod cadical_default_config {
    use super::*;
    use rustsat::solvers::{Solve, SolverResult};
    use rustsat::types::{Clause, TernaryVal};
    use rustsat_cadical::CaDiCaL;
    use snapsolve_sat::SetCnf;
    use snapsolve_set::finders::find_sets_brute;

    /// The engine's loop with CaDiCaL's default configuration: the comparator.
    fn count_sets_default_config(layout: &Layout) -> usize {
        let cnf = SetCnf::encode(layout);
        let mut solver = CaDiCaL::default();
        solver.add_cnf_ref(cnf.cnf()).expect("solver accepts CNF");
        let mut count = 0;
        while solver.solve().expect("solver runs") == SolverResult::Sat {
            let block: Clause = (0..layout.len())
                .map(|i| cnf.card_var(i))
                .filter(|&v| solver.var_val(v).expect("model") == TernaryVal::True)
                .map(|v| v.neg_lit())
                .collect();
            solver.add_clause(block).expect("solver accepts clause");
            count += 1;
        }
        count
    }

    #[divan::bench(args = [12, 15, 18, 21])]
    fn sat_cadical_default_config(bencher: Bencher, cards: usize) {
        let layouts = checked_layouts(cards, &SatEngine::on(SatSolver::CaDiCaL));
        for layout in &layouts {
            assert_eq!(
                count_sets_default_config(layout),
                find_sets_brute(layout.cards()).len()
            );
        }
        let next = Cell::new(0);
        bencher.bench_local(|| {
            let layout = &layouts[next.get() % layouts.len()];
            next.set(next.get() + 1);
            count_sets_default_config(divan::black_box(layout))
        });
    }
}
