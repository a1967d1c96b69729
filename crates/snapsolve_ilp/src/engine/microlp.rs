//! The cut loop's solver on microlp (pure Rust, always built).
//!
//! microlp re-solves an edited problem from its last solution
//! ([`microlp::Solution::add_constraint`]), so each cut costs a few dual simplex
//! steps and a short branch and bound instead of a solve from scratch.

use microlp::{ComparisonOp, Error, OptimizationDirection, Problem, Solution, Variable};
use snapsolve_set::Triple;
use snapsolve_set::finders::EngineError;

use super::{CutSolver, chosen_cards, engine_error};
use crate::model::{Row, Sense, SetIlp};

/// A microlp problem and, once solved, its last solution, which takes the cuts.
pub(super) struct MicroLp {
    state: State,
    columns: Vec<Variable>,
    n_cards: usize,
}

enum State {
    /// Not solved yet: the next solve starts from the problem.
    Fresh(Problem),
    /// Solved to an optimum; a cut waits here until the next solve.
    Solved(Solution, Option<Row>),
    /// The last solve proved the problem infeasible; cuts cannot make it feasible.
    Infeasible,
    /// Moved out during a solve.
    Taken,
}

impl CutSolver for MicroLp {
    fn new(model: &SetIlp) -> Result<MicroLp, EngineError> {
        let mut problem = Problem::new(OptimizationDirection::Maximize);
        let mut objective = vec![0.0; model.variables().len()];
        for &(j, c) in model.objective() {
            objective[j] = f64::from(c);
        }
        let columns: Vec<Variable> = objective
            .iter()
            .map(|&cost| problem.add_binary_var(cost))
            .collect();
        for row in model.rows() {
            let (terms, op, rhs) = row_parts(&columns, row);
            problem.add_constraint(terms.as_slice(), op, rhs);
        }
        Ok(MicroLp {
            state: State::Fresh(problem),
            columns,
            n_cards: model.n_cards(),
        })
    }

    fn add_row(&mut self, row: &Row) -> Result<(), EngineError> {
        match &mut self.state {
            State::Fresh(problem) => {
                let (terms, op, rhs) = row_parts(&self.columns, row);
                problem.add_constraint(terms.as_slice(), op, rhs);
            }
            State::Solved(_, pending @ None) => *pending = Some(row.clone()),
            State::Solved(_, Some(_)) => {
                return Err(engine_error("two cuts added without a solve between them"));
            }
            State::Infeasible => {}
            State::Taken => return Err(engine_error("no model")),
        }
        Ok(())
    }

    fn solve(&mut self) -> Result<Option<Triple>, EngineError> {
        let outcome = match std::mem::replace(&mut self.state, State::Taken) {
            State::Fresh(problem) => problem.solve(),
            State::Solved(solution, Some(cut)) => {
                let (terms, op, rhs) = row_parts(&self.columns, &cut);
                solution.add_constraint(terms.as_slice(), op, rhs)
            }
            State::Solved(solution, None) => {
                let chosen = self.chosen(&solution);
                self.state = State::Solved(solution, None);
                return chosen.map(Some);
            }
            State::Infeasible => {
                self.state = State::Infeasible;
                return Ok(None);
            }
            State::Taken => return Err(engine_error("no model")),
        };
        let solution = match outcome {
            Ok(outcome) => outcome
                .into_solution()
                .map_err(|stopped| engine_error(format!("microlp stopped early: {stopped:?}")))?,
            Err(Error::Infeasible) => {
                self.state = State::Infeasible;
                return Ok(None);
            }
            Err(e) => return Err(engine_error(format!("microlp: {e}"))),
        };
        let chosen = self.chosen(&solution);
        self.state = State::Solved(solution, None);
        chosen.map(Some)
    }
}

impl MicroLp {
    fn chosen(&self, solution: &Solution) -> Result<Triple, EngineError> {
        chosen_cards(
            self.columns[..self.n_cards]
                .iter()
                .map(|&v| solution.var_value(v)),
        )
    }
}

fn row_parts(columns: &[Variable], row: &Row) -> (Vec<(Variable, f64)>, ComparisonOp, f64) {
    let terms = row
        .terms
        .iter()
        .map(|&(j, c)| (columns[j], f64::from(c)))
        .collect();
    let op = match row.sense {
        Sense::Equal => ComparisonOp::Eq,
        Sense::AtMost => ComparisonOp::Le,
    };
    (terms, op, f64::from(row.rhs))
}
