//! `snapsolve sudoku …`: solve, count, hint, bench.

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use serde_json::json;
use snapsolve::json::candidate_digits;
use snapsolve::sudoku::{
    Answer, DEFAULT_SOLVER, bench_text, solve_text, solve_text_with, solver, solvers,
};
use snapsolve_sudoku::bench::BenchConfig;
use snapsolve_sudoku::hints::{Hint, hint};
use snapsolve_sudoku::{Grid, Solver, Verdict, cell_name};

use crate::error::{CliError, CliResult};
use crate::input::{print_json, read_stdin, read_text_file};
use crate::output::{out, outln};

/// Sudoku subcommands.
#[derive(Debug, Subcommand)]
pub enum SudokuCommand {
    /// Solve puzzles (81 characters, '.' or '0' for empty) and say if the solution is unique.
    Solve(SolveArgs),
    /// The next logical step for a puzzle, with its reason, and every cell's candidates.
    Hint(HintArgs),
    /// Puzzles per second on one core (tdoku's protocol: shuffled, warm-up, uniqueness checked).
    Bench(BenchArgs),
    /// Read a sudoku from a photo, solve it, and optionally draw the answer into it.
    Photo(super::sudoku_photo::PhotoArgs),
}

/// Where puzzles come from.
#[derive(Debug, Args)]
pub struct PuzzleInput {
    /// A puzzle of 81 characters, or `-` for standard input. Without it, --file or
    /// standard input is read (one puzzle per line, or 9-line blocks).
    puzzle: Option<String>,
    /// Read puzzles from this file.
    #[arg(long, short = 'f', conflicts_with = "puzzle")]
    file: Option<PathBuf>,
}

impl PuzzleInput {
    fn text(&self) -> CliResult<String> {
        match (&self.puzzle, &self.file) {
            (Some(p), _) if p == "-" => read_stdin(),
            (Some(p), _) => Ok(p.clone()),
            (None, Some(path)) => read_text_file(path),
            (None, None) if std::io::stdin().is_terminal() => Err(CliError::usage(
                "give a puzzle (81 characters), --file FILE, or pipe puzzles on standard input",
            )),
            (None, None) => read_stdin(),
        }
    }
}

/// Arguments of `sudoku solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    input: PuzzleInput,
    /// Count the solutions (up to --limit) instead of stopping at two.
    #[arg(long)]
    count: bool,
    /// Highest count for --count.
    #[arg(long, default_value_t = 1000, requires = "count")]
    limit: usize,
    /// One JSON object per puzzle and line: {"puzzle", "status", "solution", ...}.
    #[arg(long)]
    json: bool,
    /// Cores to spread a file over (default: all).
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// Which solver: fast, or backtrack (seed 002's plain backtracking).
    #[arg(long, default_value = DEFAULT_SOLVER)]
    solver: String,
}

/// Arguments of `sudoku hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// A puzzle of 81 characters, or `-` for standard input.
    puzzle: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Arguments of `sudoku bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Timed seconds per solver and file.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Solvers to measure (default: all).
    #[arg(long)]
    solver: Vec<String>,
    /// Print JSON, one object per file and solver.
    #[arg(long)]
    json: bool,
}

/// Runs a sudoku subcommand.
pub fn run(command: SudokuCommand) -> CliResult {
    match command {
        SudokuCommand::Solve(args) => solve(&args),
        SudokuCommand::Hint(args) => give_hint(&args),
        SudokuCommand::Bench(args) => bench(&args),
        SudokuCommand::Photo(args) => super::sudoku_photo::run(args),
    }
}

fn pick_solver(name: &str) -> CliResult<&'static dyn Solver> {
    solver(name).ok_or_else(|| {
        let names: Vec<_> = solvers().iter().map(|s| s.name()).collect();
        CliError::usage(format!(
            "unknown solver {name:?}; choose one of {}",
            names.join(", ")
        ))
    })
}

fn solve(args: &SolveArgs) -> CliResult {
    let solver = pick_solver(&args.solver)?;
    let text = args.input.text()?;
    let threads = args.threads.unwrap_or(0);
    let count = |answer: &Answer| {
        args.count
            .then(|| solver.count_solutions(&answer.puzzle.grid, args.limit))
    };
    if args.json {
        return write_json_lines(&text, solver, threads, count);
    }
    let start = Instant::now();
    let answers = solve_text(&text, solver, threads).map_err(CliError::usage)?;
    let elapsed = start.elapsed();
    if answers.is_empty() {
        return Err(no_puzzle());
    }
    for answer in &answers {
        print_answer(answer, count(answer), args.limit, answers.len() > 1);
    }
    if answers.len() > 1 {
        print_summary(&answers, elapsed);
    }
    Ok(())
}

fn no_puzzle() -> CliError {
    CliError::usage("no puzzle in the input")
}

/// One JSON answer per line (`snapsolve::json::sudoku_answer`), gathered in a buffer
/// written out every 64 KiB, the answers taken a chunk at a time: standard output is
/// line-buffered, and a write per puzzle made the kernel a fifth of the process on a
/// file of easy puzzles. A reader that stops early (`| head`) ends the output quietly.
fn write_json_lines(
    text: &str,
    solver: &dyn Solver,
    threads: usize,
    count: impl Fn(&Answer) -> Option<usize>,
) -> CliResult {
    const CHUNK: usize = 1 << 16;
    let mut stdout = std::io::stdout().lock();
    let mut buffer = Vec::with_capacity(CHUNK + 1024);
    let mut written = Ok(());
    let puzzles = solve_text_with(text, solver, threads, |answers| {
        for answer in answers.iter() {
            snapsolve::json::write_sudoku_answer(&mut buffer, answer, count(answer));
            buffer.push(b'\n');
            if buffer.len() >= CHUNK {
                written = stdout.write_all(&buffer);
                buffer.clear();
                if written.is_err() {
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    })
    .map_err(CliError::usage)?;
    if puzzles == 0 {
        return Err(no_puzzle());
    }
    match written
        .and_then(|()| stdout.write_all(&buffer))
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(CliError::failed(format!("cannot write the answers: {e}")))
        }
        _ => Ok(()),
    }
}

fn print_answer(answer: &Answer, count: Option<usize>, limit: usize, many: bool) {
    let puzzle = &answer.puzzle;
    let what = match &answer.verdict {
        Verdict::Unique(_) => "one solution".to_string(),
        Verdict::Multiple(..) => "several solutions (two shown)".to_string(),
        Verdict::None => "no solution".to_string(),
    };
    let name = puzzle
        .name
        .as_deref()
        .map(|n| format!("{n}, "))
        .unwrap_or_default();
    if many {
        outln!("{name}line {}: {what}", puzzle.line);
    } else {
        outln!("{what}");
    }
    match &answer.verdict {
        Verdict::None => {
            for reason in &answer.reasons {
                outln!("  {reason}");
            }
            out!("{}", puzzle.grid.to_pretty());
        }
        Verdict::Unique(solution) => print_side_by_side(&puzzle.grid, &[solution]),
        Verdict::Multiple(a, b) => print_side_by_side(&puzzle.grid, &[a, b]),
    }
    if let Some(count) = count {
        if count >= limit {
            outln!("at least {count} solutions (counting stopped at --limit {limit})");
        } else {
            outln!("{count} solution{}", if count == 1 { "" } else { "s" });
        }
    }
}

/// The puzzle and its solutions next to each other.
fn print_side_by_side(puzzle: &Grid, solutions: &[&Grid]) {
    let pictures: Vec<String> = std::iter::once(puzzle)
        .chain(solutions.iter().copied())
        .map(Grid::to_pretty)
        .collect();
    let lines: Vec<Vec<&str>> = pictures.iter().map(|p| p.lines().collect()).collect();
    for row in 0..lines[0].len() {
        let parts: Vec<&str> = lines.iter().map(|l| l[row]).collect();
        outln!("{}", parts.join("   "));
    }
}

fn print_summary(answers: &[Answer], elapsed: Duration) {
    let count = |status: &str| {
        answers
            .iter()
            .filter(|a| a.verdict.status() == status)
            .count()
    };
    outln!(
        "{} puzzles: {} with one solution, {} with several, {} with none ({:.3} s)",
        answers.len(),
        count("unique"),
        count("multiple"),
        count("none"),
        elapsed.as_secs_f64()
    );
}

fn give_hint(args: &HintArgs) -> CliResult {
    let text = if args.puzzle == "-" {
        read_stdin()?
    } else {
        args.puzzle.clone()
    };
    let grid: Grid = text.parse().map_err(CliError::usage)?;
    let found = hint(&grid, pick_solver(DEFAULT_SOLVER)?).map_err(CliError::failed)?;
    let candidates = snapsolve_sudoku::diagnose::basic_candidates(&grid);
    if args.json {
        print_json(&snapsolve::json::sudoku_hint(&grid, &found, &candidates));
        return Ok(());
    }
    match found {
        Hint::Solved => outln!("The grid is already full and correct."),
        Hint::FromSolution { cell, digit } => outln!(
            "No simple technique applies here. From the solution: {} is {digit}.",
            cell_name(cell)
        ),
        Hint::Steps(steps) => {
            let (last, before) = steps
                .split_last()
                .ok_or_else(|| CliError::failed("empty hint"))?;
            if !before.is_empty() {
                outln!("First remove some candidates:");
                for step in before {
                    outln!("  - {step}");
                }
            }
            if let Some((cell, digit)) = last.place {
                outln!("Next: {digit} at {}.", cell_name(cell));
            }
            outln!("Why: {last}");
        }
    }
    outln!("\nCandidates of every empty cell (before this step):");
    print_candidates(&grid, &candidates);
    Ok(())
}

/// A 9x9 table: a given digit, or the candidates of an empty cell.
fn print_candidates(grid: &Grid, candidates: &[u16; 81]) {
    for row in 0..9 {
        if row % 3 == 0 && row > 0 {
            outln!("{}", "-".repeat(9 * 10 + 4));
        }
        let mut line = String::new();
        for col in 0..9 {
            if col % 3 == 0 && col > 0 {
                line.push_str("| ");
            }
            let cell = row * 9 + col;
            let text = match grid.get(cell) {
                0 => candidate_digits(candidates[cell]),
                d => format!("[{d}]"),
            };
            line.push_str(&format!("{text:<10}"));
        }
        outln!("{}", line.trim_end());
    }
}

fn bench(args: &BenchArgs) -> CliResult {
    if !(args.seconds > 0.0 && args.seconds <= 3600.0) {
        return Err(CliError::usage(
            "--seconds must be above 0 and at most 3600",
        ));
    }
    let chosen: Vec<&dyn Solver> = if args.solver.is_empty() {
        solvers().to_vec()
    } else {
        args.solver
            .iter()
            .map(|n| pick_solver(n))
            .collect::<CliResult<_>>()?
    };
    let config = BenchConfig {
        budget: Duration::from_secs_f64(args.seconds),
        ..BenchConfig::default()
    };
    if !args.json {
        outln!(
            "one core, each solve counts solutions up to 2, puzzles shuffled, {:.1} s per solver and file",
            args.seconds
        );
        outln!(
            "{:<40} {:>8} {:>10} {:>14} {:>12}",
            "file",
            "puzzles",
            "solver",
            "puzzles/s",
            "us/puzzle"
        );
    }
    for path in &args.files {
        let text = read_text_file(path)?;
        for solver in &chosen {
            let (puzzles, result) = bench_text(&text, *solver, &config)
                .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?;
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            if args.json {
                print_json(&json!({
                    "file": path.display().to_string(),
                    "puzzles": puzzles,
                    "solver": solver.name(),
                    "solved": result.solved,
                    "seconds": result.seconds,
                    "puzzles_per_second": result.rate(),
                    "complete_pass": result.complete_pass,
                }));
            } else {
                let note = if result.complete_pass {
                    ""
                } else {
                    "  (shuffled sample: budget ended before one pass)"
                };
                outln!(
                    "{name:<40} {puzzles:>8} {:>10} {:>14.0} {:>12.2}{note}",
                    solver.name(),
                    result.rate(),
                    result.micros_per_puzzle()
                );
            }
        }
    }
    Ok(())
}
