//! Engine 6: every SET by a MILP solver, one optimum at a time.
//!
//! The model of [`SetIlp`] goes into one solver instance. An optimum names three
//! cards; the no-good cut `x_i + x_j + x_k ≤ 2` is appended to the data model
//! *and* added as a row to the same instance, which is then solved again, until
//! the solver reports it infeasible. A layout with `s` SETs costs `s + 1` solves
//! on one model: nothing is rebuilt between cuts (an earlier version went
//! through `good_lp`, which cannot add a row to a solved problem, and rebuilt
//! the whole model per cut; `cargo bench -p snapsolve_ilp` times both).
//!
//! Two solvers can answer:
//! - [`IlpSolver::MicroLp`], always built: microlp, a simplex with branch and
//!   bound written in Rust, so the default build needs nothing but the Rust toolchain;
//! - [`IlpSolver::HiGHS`], with the `highs` feature: HiGHS through the `highs`
//!   binding, whose C++ sources are built with cmake.

#[cfg(feature = "highs")]
mod highs;
mod microlp;

use snapsolve_set::finders::{EngineError, OneSetAtATime, SetFinder, enumerate_by_exclusion};
use snapsolve_set::{Layout, Triple};

use crate::model::{Row, SetIlp};

/// A MILP solver the engine can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IlpSolver {
    /// microlp (pure Rust), always available.
    MicroLp,
    /// HiGHS (C++), built with the `highs` feature.
    #[cfg(feature = "highs")]
    HiGHS,
}

impl IlpSolver {
    /// Every solver this build holds, the preferred one first.
    pub const AVAILABLE: &'static [IlpSolver] = &[
        #[cfg(feature = "highs")]
        IlpSolver::HiGHS,
        IlpSolver::MicroLp,
    ];

    /// The solver `--engine ilp` uses: HiGHS when it is built in, else microlp.
    pub const PREFERRED: IlpSolver = IlpSolver::AVAILABLE[0];

    /// The solver's name and version, as shown to users.
    pub fn label(self) -> &'static str {
        match self {
            IlpSolver::MicroLp => "microlp 0.7 (Rust)",
            #[cfg(feature = "highs")]
            IlpSolver::HiGHS => "HiGHS 1.x (C++)",
        }
    }
}

/// Seed 001's binary IP solved by a MILP solver, all SETs by no-good cuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IlpEngine {
    solver: IlpSolver,
}

impl IlpEngine {
    /// The engine on the preferred solver of this build.
    pub const PREFERRED: IlpEngine = IlpEngine::on(IlpSolver::PREFERRED);

    /// The engine on a given solver.
    pub const fn on(solver: IlpSolver) -> IlpEngine {
        IlpEngine { solver }
    }
}

impl Default for IlpEngine {
    fn default() -> IlpEngine {
        IlpEngine::PREFERRED
    }
}

impl SetFinder for IlpEngine {
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

const NAME: &str = "ilp";

fn engine_error(message: impl std::fmt::Display) -> EngineError {
    EngineError::new(NAME, message)
}

/// A solver instance that holds a model and takes cuts between solves.
trait CutSolver: Sized {
    /// Loads the model.
    fn new(model: &SetIlp) -> Result<Self, EngineError>;

    /// Adds one row (a cut) to the loaded model.
    fn add_row(&mut self, row: &Row) -> Result<(), EngineError>;

    /// Solves: the cards chosen at an optimum, or `None` when the model is infeasible.
    fn solve(&mut self) -> Result<Option<Triple>, EngineError>;
}

/// All SETs of the layout, sorted, found by repeated solves of `solver` with no-good cuts.
pub fn enumerate_sets(layout: &Layout, solver: IlpSolver) -> Result<Vec<Triple>, EngineError> {
    match solver {
        IlpSolver::MicroLp => enumerate_with::<microlp::MicroLp>(layout),
        #[cfg(feature = "highs")]
        IlpSolver::HiGHS => enumerate_with::<highs::Highs>(layout),
    }
}

fn enumerate_with<S: CutSolver>(layout: &Layout) -> Result<Vec<Triple>, EngineError> {
    let model = SetIlp::build(layout);
    let solver = S::new(&model)?;
    enumerate_by_exclusion(&mut IlpSearch { model, solver }, layout.len())
}

/// Solves the model once, from scratch: the chosen cards, or `None` when it is infeasible.
pub fn solve_once(model: &SetIlp, solver: IlpSolver) -> Result<Option<Triple>, EngineError> {
    match solver {
        IlpSolver::MicroLp => microlp::MicroLp::new(model)?.solve(),
        #[cfg(feature = "highs")]
        IlpSolver::HiGHS => highs::Highs::new(model)?.solve(),
    }
}

/// The data model and the solver instance, kept in step: each cut goes into both.
struct IlpSearch<S> {
    model: SetIlp,
    solver: S,
}

impl<S: CutSolver> OneSetAtATime for IlpSearch<S> {
    fn engine(&self) -> &'static str {
        NAME
    }

    fn next_set(&mut self) -> Result<Option<Triple>, EngineError> {
        self.solver.solve()
    }

    fn rule_out(&mut self, set: Triple) -> Result<(), EngineError> {
        self.model.add_no_good(set);
        let cut = self
            .model
            .rows()
            .last()
            .ok_or_else(|| engine_error("no cut"))?;
        self.solver.add_row(cut)
    }
}

/// The chosen cards from the values of the first `n_cards` columns (the `x_i`),
/// which come back as floats within the solver's integrality tolerance.
fn chosen_cards(card_values: impl Iterator<Item = f64>) -> Result<Triple, EngineError> {
    let chosen: Vec<usize> = card_values
        .enumerate()
        .filter(|&(_, value)| value > 0.5)
        .map(|(i, _)| i)
        .collect();
    <Triple>::try_from(chosen.as_slice()).map_err(|_| {
        engine_error(format!(
            "an optimum chose {} cards instead of 3",
            chosen.len()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use snapsolve_set::finders::find_sets_brute;

    fn every_solver() -> impl Iterator<Item = IlpEngine> {
        IlpSolver::AVAILABLE.iter().map(|&s| IlpEngine::on(s))
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
    fn a_full_table_of_21_cards_agrees_with_the_plain_finder() {
        let layout =
            Layout::new(Layout::full_deck().cards()[..21].to_vec()).expect("distinct cards");
        let expected = find_sets_brute(layout.cards());
        for engine in every_solver() {
            assert_eq!(
                engine.find_sets(&layout),
                Ok(expected.clone()),
                "{engine:?}"
            );
        }
    }

    #[test]
    fn the_engine_says_which_solver_answered() {
        let label = IlpEngine::PREFERRED
            .solver()
            .expect("a solver-backed engine");
        if cfg!(feature = "highs") {
            assert!(label.starts_with("HiGHS"), "{label}");
        } else {
            assert!(label.starts_with("microlp"), "{label}");
        }
    }
}
