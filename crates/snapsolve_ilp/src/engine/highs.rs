//! The cut loop's solver on HiGHS (the `highs` feature): one instance, rows added in place.

use highs::{Col, HighsModelStatus, Model, RowProblem, Sense as Objective};
use snapsolve_set::Triple;

use super::{CutSolver, chosen_cards, engine_error};
use crate::model::{Row, Sense, SetIlp};
use snapsolve_set::finders::EngineError;

/// One HiGHS instance holding a [`SetIlp`], kept between solves so cuts are only added.
pub(super) struct Highs {
    /// `None` only while a solve is running (HiGHS's binding moves the model through it).
    highs: Option<Model>,
    columns: Vec<Col>,
    n_cards: usize,
}

impl CutSolver for Highs {
    fn new(model: &SetIlp) -> Result<Highs, EngineError> {
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
        Ok(Highs {
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
        chosen_cards(values.columns()[..self.n_cards].iter().copied()).map(Some)
    }
}

fn row_terms(columns: &[Col], row: &Row) -> Vec<(Col, f64)> {
    row.terms
        .iter()
        .map(|&(j, c)| (columns[j], f64::from(c)))
        .collect()
}
