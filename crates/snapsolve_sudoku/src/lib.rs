//! Sudoku: the grid, reading puzzles, a fast bit-parallel solver that also proves
//! uniqueness, a plain backtracking reference solver, clash detection and hints.
//!
//! This crate knows nothing of images or command lines: it takes digits and returns
//! digits, verdicts and explanations.
//!
//! ```
//! use snapsolve_sudoku::{Grid, Verdict, solve};
//!
//! let puzzle: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! match solve(&puzzle) {
//!     Verdict::Unique(solution) => assert!(solution.to_line().starts_with("417369825")),
//!     other => panic!("expected one solution, got {other:?}"),
//! }
//! ```
#![deny(missing_docs)]

pub mod backtrack;
pub mod batch;
pub mod bench;
pub mod diagnose;
pub mod fast;
pub mod generate;
pub mod grid;
pub mod hints;
pub mod parse;
pub mod rules;
pub mod solver;

pub use backtrack::BacktrackSolver;
pub use diagnose::{NoSolution, explain_no_solution};
pub use fast::FastSolver;
pub use grid::{Grid, Unit, cell_name, cell_names};
pub use parse::{ParseError, Puzzle, parse_puzzles};
pub use rules::{Clash, check_solution, find_clashes};
pub use solver::{Solver, Verdict};

/// Every solver, fastest first (for tests and benchmarks that compare them).
pub fn all_solvers() -> [&'static dyn Solver; 2] {
    [&FastSolver, &BacktrackSolver]
}

/// None, one or several solutions, by the fast solver.
pub fn solve(puzzle: &Grid) -> Verdict {
    FastSolver.verdict(puzzle)
}

/// How many solutions, counting no further than `limit` (2 answers "is it unique?").
pub fn count_solutions(puzzle: &Grid, limit: usize) -> usize {
    FastSolver.count_solutions(puzzle, limit)
}
