//! Runs tdoku's protocol (see `snapsolve_sudoku::bench`) on each puzzle file for
//! snapsolve's fast solver, the registry crate `sudoku` and the plain backtracking
//! solver, `--runs` times, and prints medians and ratios as a Markdown table.
//!
//! ```sh
//! cd bench/sudoku_comparator && cargo run --release -- --runs 5 FILE...
//! ```

use std::process::ExitCode;
use std::time::Duration;

use snapsolve_sudoku::bench::{BenchConfig, measure, median, shuffled};
use snapsolve_sudoku::{BacktrackSolver, FastSolver, Grid, Solver, check_solution, parse_puzzles};
use sudoku::Sudoku;

struct Options {
    runs: usize,
    /// `--once fast|crate`: solve each puzzle once with one solver, untimed, unchecked
    /// (for counting instructions under `valgrind --tool=callgrind`).
    once: Option<String>,
    config: BenchConfig,
    backtrack_budget: Duration,
    /// How many of the runs also measure the backtracker (it can spend minutes on
    /// one 17-clue puzzle).
    backtrack_runs: usize,
    files: Vec<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        runs: 5,
        once: None,
        config: BenchConfig::default(),
        backtrack_budget: Duration::from_secs(3),
        backtrack_runs: usize::MAX,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> Result<f64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match arg.as_str() {
            "--runs" => options.runs = value("--runs")? as usize,
            "--once" => options.once = args.next(),
            "--backtrack-runs" => options.backtrack_runs = value("--backtrack-runs")? as usize,
            "--seconds" => options.config.budget = Duration::from_secs_f64(value("--seconds")?),
            "--warmup" => options.config.warmup = Duration::from_secs_f64(value("--warmup")?),
            "--backtrack-seconds" => {
                options.backtrack_budget = Duration::from_secs_f64(value("--backtrack-seconds")?)
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}")),
            _ => options.files.push(arg),
        }
    }
    if options.files.is_empty() || options.runs == 0 {
        return Err("usage: sudoku_comparator [--runs N] [--once fast|crate] [--seconds S] [--warmup S] [--backtrack-seconds S] [--backtrack-runs N] FILE...".into());
    }
    Ok(options)
}

/// Answers of all three solvers agree with the rules and with each other: checked
/// once, outside the timed part.
fn check_answers(grids: &[Grid], sudokus: &[Sudoku]) -> Result<(), String> {
    for (grid, sudoku) in grids.iter().zip(sudokus) {
        let ours = FastSolver.solutions(grid, 2);
        let theirs = sudoku.solution();
        match (ours.as_slice(), theirs) {
            ([solution], Some(other)) => {
                check_solution(grid, solution).map_err(|e| format!("{grid}: {e}"))?;
                if solution.to_line() != other.to_str_line().to_string() {
                    return Err(format!("{grid}: solvers disagree"));
                }
            }
            _ => return Err(format!("{grid}: expected one solution from both solvers")),
        }
    }
    Ok(())
}

/// Each puzzle once by the fast solver (solution with uniqueness).
#[inline(never)]
fn once_fast(grids: &[Grid]) -> usize {
    grids
        .iter()
        .filter(|g| FastSolver.verdict(g).solution().is_some())
        .count()
}

/// Each puzzle once by the `sudoku` crate (solution with uniqueness).
#[inline(never)]
fn once_crate(sudokus: &[Sudoku]) -> usize {
    sudokus
        .iter()
        .map(|s| usize::from(s.solution().is_some()))
        .sum()
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    println!(
        "| file | puzzles | snapsolve fast (puzzles/s) | `sudoku` crate (puzzles/s) | fast / crate | per-run ratios (median) | backtrack (puzzles/s) |"
    );
    println!("|---|---:|---:|---:|---:|---|---:|");
    for file in &options.files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("cannot read {file}: {e}");
                return ExitCode::from(1);
            }
        };
        let puzzles = match parse_puzzles(&text) {
            Ok(puzzles) => puzzles,
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::from(1);
            }
        };
        let grids: Vec<Grid> = puzzles.iter().map(|p| p.grid).collect();
        let grids = shuffled(&grids, options.config.seed);
        let sudokus: Vec<Sudoku> = match grids
            .iter()
            .map(|g| Sudoku::from_str_line(&g.to_line()))
            .collect::<Result<_, _>>()
        {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{file}: the sudoku crate cannot read a puzzle: {e}");
                return ExitCode::from(1);
            }
        };
        match options.once.as_deref() {
            Some("fast") => {
                eprintln!("{file}: {} solutions", once_fast(&grids));
                continue;
            }
            Some("crate") => {
                eprintln!("{file}: {} solutions", once_crate(&sudokus));
                continue;
            }
            Some(other) => {
                eprintln!("--once takes fast or crate, not {other}");
                return ExitCode::from(2);
            }
            None => {}
        }
        if let Err(e) = check_answers(&grids, &sudokus) {
            eprintln!("{file}: {e}");
            return ExitCode::from(1);
        }
        let backtrack_config = BenchConfig {
            budget: options.backtrack_budget,
            ..options.config
        };
        let (mut fast, mut crate_rates, mut back) = (Vec::new(), Vec::new(), Vec::new());
        let mut back_complete = true;
        for run in 0..options.runs {
            fast.push(measure(&grids, &options.config, |g| FastSolver.verdict(g)).rate());
            crate_rates.push(measure(&sudokus, &options.config, |s| s.solution()).rate());
            if run < options.backtrack_runs {
                let b = measure(&grids, &backtrack_config, |g| BacktrackSolver.verdict(g));
                back_complete &= b.complete_pass;
                back.push(b.rate());
            }
            eprintln!(
                "{file}: fast {:.0}/s, crate {:.0}/s, backtrack {:.3}/s",
                fast.last().copied().unwrap_or(0.0),
                crate_rates.last().copied().unwrap_or(0.0),
                back.last().copied().unwrap_or(0.0)
            );
        }
        // Ratios of the same run (both solvers under the same load), then their median.
        let mut ratios: Vec<f64> = fast.iter().zip(&crate_rates).map(|(f, c)| f / c).collect();
        let ratio_list: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
        let ratio_median = median(&mut ratios);
        let (f, c, b) = (
            median(&mut fast),
            median(&mut crate_rates),
            median(&mut back),
        );
        let name = std::path::Path::new(file)
            .file_name()
            .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
        let backtrack = match (back.is_empty(), back_complete) {
            (true, _) => "not measured".to_string(),
            (false, true) => format!("{b:.3}"),
            (false, false) => format!("{b:.3} (sample)"),
        };
        println!(
            "| {name} | {} | {f:.0} | {c:.0} | {:.2}x | {} ({ratio_median:.2}x) | {backtrack} |",
            grids.len(),
            f / c,
            ratio_list.join(", "),
        );
    }
    ExitCode::SUCCESS
}
