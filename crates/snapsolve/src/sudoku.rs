//! Sudoku answers from text: parse, solve (spread over cores), and say why a puzzle
//! has no solution.

use snapsolve_sudoku::batch::solve_all;
use snapsolve_sudoku::bench::{BenchConfig, BenchResult, measure, shuffled};
use snapsolve_sudoku::{
    BacktrackSolver, FastSolver, NoSolution, ParseError, Puzzle, Solver, Verdict,
    explain_no_solution, parse_puzzles,
};

/// The answer for one puzzle of a text.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The puzzle as read (with its line, name and remark).
    pub puzzle: Puzzle,
    /// None, one or several solutions.
    pub verdict: Verdict,
    /// Why there is no solution (empty when there is one).
    pub reasons: Vec<NoSolution>,
}

/// Every solver a user can choose with `--solver`, fastest first.
pub fn solvers() -> [&'static dyn Solver; 2] {
    [&FastSolver, &BacktrackSolver]
}

/// The solver with this name, if any.
pub fn solver(name: &str) -> Option<&'static dyn Solver> {
    solvers().into_iter().find(|s| s.name() == name)
}

/// Name of the default solver.
pub const DEFAULT_SOLVER: &str = "fast";

/// Why solving a text failed.
#[derive(Debug)]
pub enum SolveTextError {
    /// The text is not a list of puzzles.
    Parse(ParseError),
    /// No thread pool of the requested size.
    Threads(String),
}

impl std::fmt::Display for SolveTextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveTextError::Parse(e) => e.fmt(f),
            SolveTextError::Threads(e) => write!(f, "cannot start the worker threads: {e}"),
        }
    }
}

impl std::error::Error for SolveTextError {}

/// Reads every puzzle of `text` and solves them on `threads` cores (0 = all).
///
/// # Errors
/// A text that does not parse (the error names line and character), or a thread pool
/// that cannot be created.
pub fn solve_text(
    text: &str,
    solver: &dyn Solver,
    threads: usize,
) -> Result<Vec<Answer>, SolveTextError> {
    let puzzles = parse_puzzles(text).map_err(SolveTextError::Parse)?;
    let grids: Vec<_> = puzzles.iter().map(|p| p.grid).collect();
    let verdicts =
        solve_all(solver, &grids, threads).map_err(|e| SolveTextError::Threads(e.to_string()))?;
    Ok(puzzles
        .into_iter()
        .zip(verdicts)
        .map(|(puzzle, verdict)| Answer::new(puzzle, verdict))
        .collect())
}

/// Solves one puzzle on the calling thread (for a server answering one request,
/// where a thread pool per puzzle would cost more than the solve).
pub fn solve_puzzle(puzzle: Puzzle, solver: &dyn Solver) -> Answer {
    let verdict = solver.verdict(&puzzle.grid);
    Answer::new(puzzle, verdict)
}

impl Answer {
    /// The answer for a puzzle and its verdict, with the reasons when there is no solution.
    fn new(puzzle: Puzzle, verdict: Verdict) -> Answer {
        let reasons = if verdict == Verdict::None {
            explain_no_solution(&puzzle.grid)
        } else {
            Vec::new()
        };
        Answer {
            puzzle,
            verdict,
            reasons,
        }
    }
}

/// One solver's speed on one puzzle text, by tdoku's protocol
/// (see [`snapsolve_sudoku::bench`]): shuffled, warmed up, one core, each solve
/// counting solutions up to 2 and keeping them (the verdict).
///
/// # Errors
/// A text that does not parse.
pub fn bench_text(
    text: &str,
    solver: &dyn Solver,
    config: &BenchConfig,
) -> Result<(usize, BenchResult), ParseError> {
    let puzzles = parse_puzzles(text)?;
    let grids: Vec<_> = puzzles.iter().map(|p| p.grid).collect();
    let grids = shuffled(&grids, config.seed);
    let result = measure(&grids, config, |grid| solver.verdict(grid));
    Ok((grids.len(), result))
}
