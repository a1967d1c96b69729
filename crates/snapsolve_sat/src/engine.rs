//! Engine 5: every SET by a CDCL SAT solver, one model at a time.
//!
//! The CNF of [`SetCnf`] goes into one incremental solver instance. Each model
//! names three cards; the clause `¬x_i ∨ ¬x_j ∨ ¬x_k` then blocks that SET (and
//! only it, since the property literals are functions of the cards) and the
//! solver runs again until it reports UNSAT. A layout with `s` SETs costs
//! `s + 1` solver calls, learnt clauses carried over between them.
//!
//! Two solvers can answer, both through RustSAT's `Solve` trait:
//! - [`SatSolver::BatSat`], always built: BatSat, a MiniSat-style CDCL solver
//!   written in Rust, so the default build needs nothing but the Rust toolchain;
//! - [`SatSolver::CaDiCaL`], with the `cadical` feature: CaDiCaL through its C++
//!   sources and bindgen, which needs a C++ compiler and libclang at build time.
//!   It runs in its `plain` configuration with the `lucky` phase off: on a
//!   formula of about a hundred clauses, preprocessing, inprocessing and the
//!   lucky-assignment probes done at every call cost more than the search itself
//!   (`cargo bench -p snapsolve_sat --features cadical` times the default
//!   configuration beside it).

use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::{Clause, TernaryVal};
use snapsolve_set::finders::{EngineError, OneSetAtATime, SetFinder, enumerate_by_exclusion};
use snapsolve_set::{Layout, Triple};

use crate::encoding::SetCnf;

/// A SAT solver the engine can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SatSolver {
    /// BatSat (pure Rust), always available.
    BatSat,
    /// CaDiCaL (C++), built with the `cadical` feature.
    #[cfg(feature = "cadical")]
    CaDiCaL,
}

impl SatSolver {
    /// Every solver this build holds, the preferred one first.
    pub const AVAILABLE: &'static [SatSolver] = &[
        #[cfg(feature = "cadical")]
        SatSolver::CaDiCaL,
        SatSolver::BatSat,
    ];

    /// The solver `--engine sat` uses: CaDiCaL when it is built in, else BatSat.
    pub const PREFERRED: SatSolver = SatSolver::AVAILABLE[0];

    /// The solver's name and version, as shown to users.
    pub fn label(self) -> &'static str {
        match self {
            SatSolver::BatSat => "BatSat 0.6 (Rust)",
            #[cfg(feature = "cadical")]
            SatSolver::CaDiCaL => "CaDiCaL 2.1 (C++)",
        }
    }
}

/// Seed 004's SAT encoding solved by a CDCL solver, all SETs by blocking clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SatEngine {
    solver: SatSolver,
}

impl SatEngine {
    /// The engine on the preferred solver of this build.
    pub const PREFERRED: SatEngine = SatEngine::on(SatSolver::PREFERRED);

    /// The engine on a given solver.
    pub const fn on(solver: SatSolver) -> SatEngine {
        SatEngine { solver }
    }
}

impl Default for SatEngine {
    fn default() -> SatEngine {
        SatEngine::PREFERRED
    }
}

impl SetFinder for SatEngine {
    fn name(&self) -> &'static str {
        NAME
    }

    fn solver(&self) -> Option<&'static str> {
        Some(self.solver.label())
    }

    fn find_sets(&self, layout: &Layout) -> Result<Vec<Triple>, EngineError> {
        enumerate_sets(layout, self.solver)
    }
}

const NAME: &str = "sat";

fn engine_error(message: impl std::fmt::Display) -> EngineError {
    EngineError::new(NAME, message)
}

/// All SETs of the layout, sorted, found by repeated calls of `solver` with blocking clauses.
pub fn enumerate_sets(layout: &Layout, solver: SatSolver) -> Result<Vec<Triple>, EngineError> {
    match solver {
        SatSolver::BatSat => enumerate_with(layout, rustsat_batsat::BasicSolver::default()),
        #[cfg(feature = "cadical")]
        SatSolver::CaDiCaL => enumerate_with(layout, small_formula_cadical()?),
    }
}

fn enumerate_with<S: Solve>(layout: &Layout, mut solver: S) -> Result<Vec<Triple>, EngineError> {
    let cnf = SetCnf::encode(layout);
    solver.add_cnf_ref(cnf.cnf()).map_err(engine_error)?;
    enumerate_by_exclusion(&mut SatSearch { solver, cnf }, layout.len())
}

/// One solver instance holding a layout's CNF; blocking clauses pile up in it.
struct SatSearch<S> {
    solver: S,
    cnf: SetCnf,
}

impl<S: Solve> OneSetAtATime for SatSearch<S> {
    fn engine(&self) -> &'static str {
        NAME
    }

    fn next_set(&mut self) -> Result<Option<Triple>, EngineError> {
        match self.solver.solve().map_err(engine_error)? {
            SolverResult::Unsat => Ok(None),
            SolverResult::Interrupted => Err(engine_error("the SAT solver was interrupted")),
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
#[cfg(feature = "cadical")]
fn small_formula_cadical() -> Result<rustsat_cadical::CaDiCaL<'static, 'static>, EngineError> {
    let mut solver = rustsat_cadical::CaDiCaL::default();
    solver
        .set_configuration(rustsat_cadical::Config::Plain)
        .map_err(engine_error)?;
    solver.set_option("lucky", 0).map_err(engine_error)?;
    Ok(solver)
}

/// The three card positions that are true in the solver's model.
fn chosen_cards<S: Solve>(solver: &S, cnf: &SetCnf) -> Result<Triple, EngineError> {
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

    fn every_solver() -> impl Iterator<Item = SatEngine> {
        SatSolver::AVAILABLE.iter().map(|&s| SatEngine::on(s))
    }

    #[test]
    fn finds_the_sets_of_a_known_layout() {
        let layout = Layout::parse(
            "1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle 1-red-open-oval \
             2-red-striped-oval 3-red-open-oval",
        )
        .expect("layout parses");
        for engine in every_solver() {
            let sets = engine.find_sets(&layout).expect("solver runs");
            assert_eq!(sets, vec![[0, 1, 2], [0, 4, 5]], "{engine:?}");
            assert_eq!(sets, find_sets_brute(layout.cards()));
        }
    }

    #[test]
    fn small_layouts_have_no_sets() {
        for names in ["", "1-red-solid-oval", "1-red-solid-oval 2-red-solid-oval"] {
            let layout = Layout::parse(names).expect("layout parses");
            for engine in every_solver() {
                assert_eq!(engine.find_sets(&layout), Ok(vec![]), "{engine:?}");
            }
        }
    }

    #[test]
    fn the_full_deck_has_1080_sets() {
        let expected = find_sets_brute(Layout::full_deck().cards());
        assert_eq!(expected.len(), 1080);
        for engine in every_solver() {
            let sets = engine.find_sets(&Layout::full_deck()).expect("solver runs");
            assert_eq!(sets, expected, "{engine:?}");
        }
    }

    #[test]
    fn the_engine_says_which_solver_answered() {
        let label = SatEngine::PREFERRED
            .solver()
            .expect("a solver-backed engine");
        if cfg!(feature = "cadical") {
            assert!(label.starts_with("CaDiCaL"), "{label}");
        } else {
            assert!(label.starts_with("BatSat"), "{label}");
        }
    }
}
