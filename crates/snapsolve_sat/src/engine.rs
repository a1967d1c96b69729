//! Engine 5: every SET by CaDiCaL, one model at a time.
//!
//! The CNF of [`SetCnf`] goes into one incremental CaDiCaL instance. Each model
//! names three cards; the clause `¬x_i ∨ ¬x_j ∨ ¬x_k` then blocks that SET (and
//! only it, since the property literals are functions of the cards) and the
//! solver runs again until it reports UNSAT. A layout with `s` SETs costs
//! `s + 1` solver calls, learnt clauses carried over between them.
//!
//! CaDiCaL runs in its `plain` configuration with the `lucky` phase off: on a
//! formula of about a hundred clauses, preprocessing, inprocessing and the
//! lucky-assignment probes done at every call cost more than the search itself
//! (`cargo bench -p snapsolve_sat` times the default configuration beside it).

use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::{Clause, TernaryVal};
use rustsat_cadical::{CaDiCaL, Config};
use snapsolve_set::finders::{EngineError, OneSetAtATime, SetFinder, enumerate_by_exclusion};
use snapsolve_set::{Layout, Triple};

use crate::encoding::SetCnf;

/// Seed 004's SAT encoding solved by CaDiCaL, all SETs by blocking clauses.
#[derive(Clone, Copy, Debug, Default)]
pub struct SatEngine;

impl SetFinder for SatEngine {
    fn name(&self) -> &'static str {
        NAME
    }

    fn find_sets(&self, layout: &Layout) -> Result<Vec<Triple>, EngineError> {
        enumerate_sets(layout)
    }
}

const NAME: &str = "sat";

fn engine_error(message: impl std::fmt::Display) -> EngineError {
    EngineError::new(NAME, message)
}

/// All SETs of the layout, sorted, found by repeated SAT calls with blocking clauses.
pub fn enumerate_sets(layout: &Layout) -> Result<Vec<Triple>, EngineError> {
    let cnf = SetCnf::encode(layout);
    let mut solver = small_formula_solver()?;
    solver.add_cnf_ref(cnf.cnf()).map_err(engine_error)?;
    enumerate_by_exclusion(&mut SatSearch { solver, cnf }, layout.len())
}

/// One CaDiCaL instance holding a layout's CNF; blocking clauses pile up in it.
struct SatSearch {
    solver: CaDiCaL<'static, 'static>,
    cnf: SetCnf,
}

impl OneSetAtATime for SatSearch {
    fn engine(&self) -> &'static str {
        NAME
    }

    fn next_set(&mut self) -> Result<Option<Triple>, EngineError> {
        match self.solver.solve().map_err(engine_error)? {
            SolverResult::Unsat => Ok(None),
            SolverResult::Interrupted => Err(engine_error("CaDiCaL was interrupted")),
            SolverResult::Sat => chosen_cards(&self.solver, &self.cnf).map(Some),
        }
    }

    /// `¬x_i ∨ ¬x_j ∨ ¬x_k`: blocks this SET and only it.
    fn rule_out(&mut self, set: Triple) -> Result<(), EngineError> {
        let blocking: Clause = set
            .iter()
            .map(|&i| self.cnf.card_var(i).neg_lit())
            .collect();
        self.solver.add_clause(blocking).map_err(engine_error)
    }
}

/// CaDiCaL set up for many calls on a tiny formula (see the module documentation).
fn small_formula_solver() -> Result<CaDiCaL<'static, 'static>, EngineError> {
    let mut solver = CaDiCaL::default();
    solver
        .set_configuration(Config::Plain)
        .map_err(engine_error)?;
    solver.set_option("lucky", 0).map_err(engine_error)?;
    Ok(solver)
}

/// The three card positions that are true in the solver's model.
fn chosen_cards(solver: &CaDiCaL, cnf: &SetCnf) -> Result<Triple, EngineError> {
    let mut chosen = Vec::with_capacity(3);
    for position in 0..cnf.n_cards() {
        if solver
            .var_val(cnf.card_var(position))
            .map_err(engine_error)?
            == TernaryVal::True
        {
            chosen.push(position);
        }
    }
    <Triple>::try_from(chosen.as_slice()).map_err(|_| {
        engine_error(format!(
            "a model chose {} cards instead of 3: the encoding is broken",
            chosen.len()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use snapsolve_set::finders::find_sets_brute;

    #[test]
    fn finds_the_sets_of_a_known_layout() {
        let layout = Layout::parse(
            "1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle 1-red-open-oval \
             2-red-striped-oval 3-red-open-oval",
        )
        .expect("layout parses");
        let sets = SatEngine.find_sets(&layout).expect("solver runs");
        assert_eq!(sets, vec![[0, 1, 2], [0, 4, 5]]);
        assert_eq!(sets, find_sets_brute(layout.cards()));
    }

    #[test]
    fn small_layouts_have_no_sets() {
        for names in ["", "1-red-solid-oval", "1-red-solid-oval 2-red-solid-oval"] {
            let layout = Layout::parse(names).expect("layout parses");
            assert_eq!(SatEngine.find_sets(&layout), Ok(vec![]));
        }
    }

    #[test]
    fn the_full_deck_has_1080_sets() {
        let sets = SatEngine
            .find_sets(&Layout::full_deck())
            .expect("solver runs");
        assert_eq!(sets.len(), 1080);
        assert_eq!(sets, find_sets_brute(Layout::full_deck().cards()));
    }
}
