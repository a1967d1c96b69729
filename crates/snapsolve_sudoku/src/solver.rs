//! What every solver answers, and the verdict people and programs get.

use crate::grid::Grid;

/// A sudoku solver. Every solver in this crate has this one signature, so tests and
/// benchmarks loop over all of them (as tdoku's `all_solvers.h` does).
pub trait Solver: Sync {
    /// Short name for benchmarks and `--solver`.
    fn name(&self) -> &'static str;

    /// Up to `limit` distinct solutions of `puzzle` (none when its givens clash).
    fn solutions(&self, puzzle: &Grid, limit: usize) -> Vec<Grid>;

    /// How many solutions `puzzle` has, counting no further than `limit`.
    fn count_solutions(&self, puzzle: &Grid, limit: usize) -> usize {
        self.solutions(puzzle, limit).len()
    }

    /// None, one, or several solutions (with two of them).
    fn verdict(&self, puzzle: &Grid) -> Verdict {
        Verdict::from_solutions(self.solutions(puzzle, 2))
    }
}

/// How many solutions a puzzle has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No way to fill the grid.
    None,
    /// Exactly one solution: a proper sudoku.
    Unique(Grid),
    /// Two or more solutions; two of them.
    Multiple(Grid, Grid),
}

impl Verdict {
    /// From a list of at most two distinct solutions.
    pub fn from_solutions(mut found: Vec<Grid>) -> Verdict {
        match found.len() {
            0 => Verdict::None,
            1 => Verdict::Unique(found.remove(0)),
            _ => {
                let first = found.remove(0);
                Verdict::Multiple(first, found.remove(0))
            }
        }
    }

    /// `"none"`, `"unique"` or `"multiple"`, as in the JSON output.
    pub fn status(&self) -> &'static str {
        match self {
            Verdict::None => "none",
            Verdict::Unique(_) => "unique",
            Verdict::Multiple(..) => "multiple",
        }
    }

    /// A solution, if there is one (the first of two when there are several).
    pub fn solution(&self) -> Option<&Grid> {
        match self {
            Verdict::None => None,
            Verdict::Unique(grid) | Verdict::Multiple(grid, _) => Some(grid),
        }
    }
}
