//! Engine 6: every SET by HiGHS, one optimum at a time.
//!
//! The model of [`SetIlp`] goes into one HiGHS instance (through the `highs`
//! crate, the binding `good_lp` itself uses). An optimum names three cards; the
//! no-good cut `x_i + x_j + x_k ≤ 2` is appended to the data model *and* added
//! as a row to the same HiGHS instance, which is then solved again, until HiGHS
//! reports it infeasible. A layout with `s` SETs costs `s + 1` solves on one
//! model: nothing is rebuilt between cuts (an earlier version went through
//! `good_lp`, which cannot add a row to a solved problem, and rebuilt the whole
//! model per cut; `cargo bench -p snapsolve_ilp` times both).

use highs::{Col, HighsModelStatus, Model, RowProblem, Sense as Objective};
use snapsolve_set::finders::{EngineError, OneSetAtATime, SetFinder, enumerate_by_exclusion};
use snapsolve_set::{Layout, Triple};

use crate::model::{Row, Sense, SetIlp};

/// Seed 001's binary IP solved by HiGHS, all SETs by no-good cuts.
#[derive(Clone, Copy, Debug, Default)]
pub struct IlpEngine;

impl SetFinder for IlpEngine {
    fn name(&self) -> &'static str {
        NAME
    }

    fn find_sets(&self, layout: &Layout) -> Result<Vec<Triple>, EngineError> {
        enumerate_sets(layout)
    }
}

const NAME: &str = "ilp";

fn engine_error(message: impl std::fmt::Display) -> EngineError {
    EngineError::new(NAME, message)
}

/// All SETs of the layout, sorted, found by repeated HiGHS solves with no-good cuts.
pub fn enumerate_sets(layout: &Layout) -> Result<Vec<Triple>, EngineError> {
    let model = SetIlp::build(layout);
    let solver = IlpSolver::new(&model)?;
    enumerate_by_exclusion(&mut IlpSearch { model, solver }, layout.len())
}

/// The data model and the HiGHS instance, kept in step: each cut goes into both.
struct IlpSearch {
    model: SetIlp,
    solver: IlpSolver,
}

impl OneSetAtATime for IlpSearch {
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

/// Solves the model once, from scratch: the chosen cards, or `None` when it is infeasible.
pub fn solve_once(model: &SetIlp) -> Result<Option<Triple>, EngineError> {
    IlpSolver::new(model)?.solve()
}

/// One HiGHS instance holding a [`SetIlp`], kept between solves so cuts are only added.
struct IlpSolver {
    /// `None` only while a solve is running (HiGHS's binding moves the model through it).
    highs: Option<Model>,
    columns: Vec<Col>,
    n_cards: usize,
}

impl IlpSolver {
    fn new(model: &SetIlp) -> Result<IlpSolver, EngineError> {
        let mut problem = RowProblem::default();
        let mut objective = vec![0.0; model.variables().len()];
        for &(j, c) in model.objective() {
            objective[j] = f64::from(c);
        }
        let columns: Vec<Col> = objective
            .iter()
            .map(|&cost| problem.add_integer_column(cost, 0.0..=1.0))
            .collect();
        for row in model.rows() {
            let terms = row_terms(&columns, row);
            match row.sense {
                Sense::Equal => problem.add_row(f64::from(row.rhs)..=f64::from(row.rhs), terms),
                Sense::AtMost => problem.add_row(..=f64::from(row.rhs), terms),
            }
        }
        let mut highs = problem
            .try_optimise(Objective::Maximise)
            .map_err(|status| engine_error(format!("HiGHS refused the model: {status:?}")))?;
        // One thread: HiGHS's pool buys nothing on a 17-row model.
        highs
            .try_set_option("threads", 1)
            .map_err(|status| engine_error(format!("HiGHS option: {status:?}")))?;
        Ok(IlpSolver {
            highs: Some(highs),
            columns,
            n_cards: model.n_cards(),
        })
    }

    fn add_row(&mut self, row: &Row) -> Result<(), EngineError> {
        let highs = self
            .highs
            .as_mut()
            .ok_or_else(|| engine_error("no model"))?;
        let terms = row_terms(&self.columns, row);
        let rhs = f64::from(row.rhs);
        let added = match row.sense {
            Sense::Equal => highs.try_add_row(rhs..=rhs, terms),
            Sense::AtMost => highs.try_add_row(..=rhs, terms),
        };
        added
            .map(|_| ())
            .map_err(|status| engine_error(format!("HiGHS refused a row: {status:?}")))
    }

    fn solve(&mut self) -> Result<Option<Triple>, EngineError> {
        let highs = self.highs.take().ok_or_else(|| engine_error("no model"))?;
        let solved = highs
            .try_solve()
            .map_err(|status| engine_error(format!("HiGHS: {status:?}")))?;
        let status = solved.status();
        let values = solved.get_solution();
        self.highs = Some(Model::from(solved));
        match status {
            HighsModelStatus::Optimal => {}
            HighsModelStatus::Infeasible => return Ok(None),
            other => return Err(engine_error(format!("HiGHS ended with {other:?}"))),
        }
        // Binaries come back as floats within HiGHS's integrality tolerance.
        let chosen: Vec<usize> = (0..self.n_cards)
            .filter(|&i| values.columns()[i] > 0.5)
            .collect();
        <Triple>::try_from(chosen.as_slice())
            .map(Some)
            .map_err(|_| {
                engine_error(format!(
                    "an optimum chose {} cards instead of 3",
                    chosen.len()
                ))
            })
    }
}

fn row_terms(columns: &[Col], row: &Row) -> Vec<(Col, f64)> {
    row.terms
        .iter()
        .map(|&(j, c)| (columns[j], f64::from(c)))
        .collect()
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
        let sets = IlpEngine.find_sets(&layout).expect("solver runs");
        assert_eq!(sets, vec![[0, 1, 2], [0, 4, 5]]);
        assert_eq!(sets, find_sets_brute(layout.cards()));
    }

    #[test]
    fn small_layouts_have_no_sets() {
        for names in ["", "1-red-solid-oval", "1-red-solid-oval 2-red-solid-oval"] {
            let layout = Layout::parse(names).expect("layout parses");
            assert_eq!(IlpEngine.find_sets(&layout), Ok(vec![]));
        }
    }
}
