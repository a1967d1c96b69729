//! Engine 6: every SET by HiGHS, one optimum at a time.
//!
//! Each round hands the model of [`SetIlp`] (with the cuts so far) to HiGHS
//! through `good_lp`. An optimum names three cards; the no-good cut
//! `x_i + x_j + x_k ≤ 2` then removes that SET and the model is solved again,
//! until HiGHS reports it infeasible. A layout with `s` SETs costs `s + 1`
//! solves. `good_lp` builds a fresh HiGHS model per solve (it offers no way to
//! add a row to a solved problem), which at 17 + s rows costs little next to
//! the branch and bound itself.

use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolverModel, constraint, highs,
    variable,
};
use snapsolve_set::finders::{EngineError, SetFinder};
use snapsolve_set::{Layout, Triple};

use crate::model::{Sense, SetIlp};

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
    EngineError {
        engine: NAME,
        message: message.to_string(),
    }
}

/// All SETs of the layout, sorted, found by repeated HiGHS solves with no-good cuts.
pub fn enumerate_sets(layout: &Layout) -> Result<Vec<Triple>, EngineError> {
    let mut model = SetIlp::build(layout);
    let n = layout.len();
    // No layout has more SETs than triples: more optima would mean a broken model.
    let max_sets = n * n.saturating_sub(1) * n.saturating_sub(2) / 6;
    let mut sets = Vec::new();
    while let Some(triple) = solve_once(&model)? {
        if sets.len() == max_sets {
            return Err(engine_error(
                "more optima than triples: the model is broken",
            ));
        }
        model.add_no_good(triple);
        sets.push(triple);
    }
    sets.sort_unstable();
    Ok(sets)
}

/// Solves the model once: the chosen cards, or `None` when it is infeasible.
pub fn solve_once(model: &SetIlp) -> Result<Option<Triple>, EngineError> {
    let mut problem_variables = ProblemVariables::new();
    let vars: Vec<good_lp::Variable> = model
        .variables()
        .iter()
        .map(|v| problem_variables.add(variable().binary().name(v.name.clone())))
        .collect();
    let linear = |terms: &[(usize, i32)]| -> Expression {
        terms.iter().map(|&(j, c)| f64::from(c) * vars[j]).sum()
    };
    let mut problem = problem_variables
        .maximise(linear(model.objective()))
        .using(highs)
        // One thread: HiGHS's pool buys nothing on a 17-row model.
        .set_threads(1);
    for row in model.rows() {
        let lhs = linear(&row.terms);
        let rhs = f64::from(row.rhs);
        problem = problem.with(match row.sense {
            Sense::Equal => constraint::eq(lhs, rhs),
            Sense::AtMost => constraint::leq(lhs, rhs),
        });
    }
    let solution = match problem.solve() {
        Ok(solution) => solution,
        Err(ResolutionError::Infeasible) => return Ok(None),
        Err(error) => return Err(engine_error(format!("HiGHS: {error}"))),
    };
    // Binaries come back as floats within HiGHS's integrality tolerance.
    let chosen: Vec<usize> = (0..model.n_cards())
        .filter(|&i| solution.value(vars[i]) > 0.5)
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
