//! Sudoku answers from text: parse, solve (spread over cores), and say why a puzzle
//! has no solution.

use std::ops::ControlFlow;

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
    let mut all = Vec::new();
    solve_text_with(text, solver, threads, |answers| {
        all.append(answers);
        ControlFlow::Continue(())
    })?;
    Ok(all)
}

/// How many answers [`solve_text_with`] hands over at a time.
pub const ANSWERS_AT_ONCE: usize = 1024;

/// As [`solve_text`], but the answers go to `each` in input order, up to
/// [`ANSWERS_AT_ONCE`] at a time in one reused vector (what `each` leaves in it is
/// dropped), until it says `Break`. For writers of long files: their answers are
/// never all in memory at once, which on serg's 10,000 puzzles saved a third of
/// the command line's page faults (a few MB of fresh pages).
///
/// Returns how many puzzles the text holds.
///
/// # Errors
/// As [`solve_text`].
pub fn solve_text_with(
    text: &str,
    solver: &dyn Solver,
    threads: usize,
    mut each: impl FnMut(&mut Vec<Answer>) -> ControlFlow<()>,
) -> Result<usize, SolveTextError> {
    let puzzles = parse_puzzles(text).map_err(SolveTextError::Parse)?;
    let grids: Vec<_> = puzzles.iter().map(|p| p.grid).collect();
    let verdicts =
        solve_all(solver, &grids, threads).map_err(|e| SolveTextError::Threads(e.to_string()))?;
    let count = puzzles.len();
    let mut answers = Vec::with_capacity(ANSWERS_AT_ONCE.min(count));
    let mut pairs = puzzles.into_iter().zip(verdicts);
    loop {
        answers.clear();
        answers.extend(
            pairs
                .by_ref()
                .take(ANSWERS_AT_ONCE)
                .map(|(puzzle, verdict)| Answer::new(puzzle, verdict)),
        );
        if answers.is_empty() || each(&mut answers).is_break() {
            return Ok(count);
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// 2,500 puzzles, one a line, every tenth with clashing givens.
    fn text() -> String {
        let unique =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let clash = format!("44{}", &unique[2..]);
        (0..2500)
            .map(|i| if i % 10 == 3 { clash.clone() } else { unique.to_string() } + "\n")
            .collect()
    }

    #[test]
    fn answers_come_in_order_a_chunk_at_a_time() {
        let text = text();
        let mut sizes = Vec::new();
        let mut lines = Vec::new();
        let puzzles = solve_text_with(&text, &FastSolver, 2, |answers| {
            sizes.push(answers.len());
            lines.extend(answers.iter().map(|a| (a.puzzle.line, a.verdict.status())));
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(puzzles, 2500);
        assert_eq!(
            sizes,
            [ANSWERS_AT_ONCE, ANSWERS_AT_ONCE, 2500 - 2 * ANSWERS_AT_ONCE]
        );
        for (i, &(line, status)) in lines.iter().enumerate() {
            assert_eq!(line, i + 1);
            assert_eq!(status, if i % 10 == 3 { "none" } else { "unique" });
        }
        let all = solve_text(&text, &FastSolver, 1).unwrap();
        assert_eq!(all.len(), 2500);
        assert!(all.iter().zip(&lines).all(|(a, l)| a.puzzle.line == l.0));
    }

    #[test]
    fn a_break_stops_the_answers() {
        let mut calls = 0;
        let puzzles = solve_text_with(&text(), &FastSolver, 1, |_| {
            calls += 1;
            ControlFlow::Break(())
        })
        .unwrap();
        assert_eq!((puzzles, calls), (2500, 1));
    }
}
