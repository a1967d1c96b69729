//! Listing every SET with a solver that answers one SET at a time.
//!
//! The SAT engine (blocking clauses) and the 0-1 IP engine (no-good cuts) both
//! ask their solver for some SET, rule that SET out, and ask again until the
//! solver finds none. The loop, and its guard against a broken model, live here once.

use crate::layout::Triple;

use super::EngineError;

/// A solver holding one layout's model that names one SET per call.
pub trait OneSetAtATime {
    /// The engine's name, for errors.
    fn engine(&self) -> &'static str;

    /// A SET not ruled out yet, or `None` when none is left.
    fn next_set(&mut self) -> Result<Option<Triple>, EngineError>;

    /// Keeps `set` out of every later answer.
    fn rule_out(&mut self, set: Triple) -> Result<(), EngineError>;
}

/// Every SET of a layout of `n_cards` cards, sorted: ask, rule out, repeat.
/// A layout with `s` SETs costs `s + 1` calls to [`OneSetAtATime::next_set`].
pub fn enumerate_by_exclusion(
    solver: &mut impl OneSetAtATime,
    n_cards: usize,
) -> Result<Vec<Triple>, EngineError> {
    // No layout has more SETs than triples: more answers would mean a broken model
    // (one that keeps naming a SET it was told to rule out).
    let n = n_cards;
    let max_sets = n * n.saturating_sub(1) * n.saturating_sub(2) / 6;
    let mut sets = Vec::new();
    while let Some(set) = solver.next_set()? {
        if sets.len() == max_sets {
            return Err(EngineError::new(
                solver.engine(),
                "more answers than triples: the model is broken",
            ));
        }
        solver.rule_out(set)?;
        sets.push(set);
    }
    sets.sort_unstable();
    Ok(sets)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers from a fixed list, optionally ignoring what it is told to rule out.
    struct Scripted {
        sets: Vec<Triple>,
        obeys: bool,
    }

    impl OneSetAtATime for Scripted {
        fn engine(&self) -> &'static str {
            "scripted"
        }
        fn next_set(&mut self) -> Result<Option<Triple>, EngineError> {
            Ok(self.sets.last().copied())
        }
        fn rule_out(&mut self, set: Triple) -> Result<(), EngineError> {
            if self.obeys {
                self.sets.retain(|s| *s != set);
            }
            Ok(())
        }
    }

    #[test]
    fn lists_every_answer_sorted() {
        let mut solver = Scripted {
            sets: vec![[0, 1, 2], [1, 3, 4], [0, 3, 5]],
            obeys: true,
        };
        let sets = enumerate_by_exclusion(&mut solver, 6).expect("the script obeys");
        assert_eq!(sets, vec![[0, 1, 2], [0, 3, 5], [1, 3, 4]]);
    }

    #[test]
    fn a_solver_that_repeats_itself_is_an_error_not_a_hang() {
        let mut solver = Scripted {
            sets: vec![[0, 1, 2]],
            obeys: false,
        };
        let error = enumerate_by_exclusion(&mut solver, 4).expect_err("the script never stops");
        assert_eq!(error.engine, "scripted");
        assert!(error.message.contains("broken"), "{error}");
    }
}
