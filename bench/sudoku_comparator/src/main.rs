//! Runs tdoku's protocol (see `snapsolve_sudoku::bench`) on each puzzle file for
//! snapsolve's fast solver, the registry crate `sudoku`, tdoku (built from the shared
//! comparator sources by `build.rs`) and, optionally, the plain backtracking solver,
//! `--runs` times, and prints medians, ratios and guesses per puzzle as a Markdown
//! table. Within a run the solvers take turns in `--slices` short slices
//! (`snapsolve_sudoku::bench::measure_interleaved`), so that on a shared machine they
//! see the same load.
//!
//! ```sh
//! cd bench/sudoku_comparator && cargo run --release -- --runs 5 FILE...
//! ```

mod held_out;
mod tdoku;

use std::process::ExitCode;
use std::time::Duration;

use snapsolve_sudoku::bench::{BenchConfig, measure, measure_interleaved, median, shuffled};
use snapsolve_sudoku::{BacktrackSolver, FastSolver, Grid, Solver, check_solution, parse_puzzles};
use sudoku::Sudoku;
use tdoku::TdokuPuzzle;

const USAGE: &str = "usage: sudoku_comparator [--runs N] [--slices N] [--once fast|crate|tdoku] [--seconds S] [--warmup S] [--backtrack-seconds S] [--backtrack-runs N] FILE...\n       sudoku_comparator --held-out DIR   (writes the generated held-out puzzles)";

struct Options {
    runs: usize,
    /// Each run's solvers take turns in this many slices of its budget.
    slices: usize,
    /// `--once fast|crate|tdoku`: solve each puzzle once with one solver (counting to
    /// 2), untimed, unchecked (for counting instructions under callgrind).
    once: Option<String>,
    config: BenchConfig,
    backtrack_budget: Duration,
    /// How many of the runs also measure the backtracker (it can spend minutes on one
    /// 17-clue puzzle); none by default.
    backtrack_runs: usize,
    files: Vec<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        runs: 5,
        slices: 20,
        once: None,
        config: BenchConfig::default(),
        backtrack_budget: Duration::from_secs(3),
        backtrack_runs: 0,
        files: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> Result<f64, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .filter(|v: &f64| v.is_finite() && *v >= 0.0)
                .ok_or_else(|| format!("{name} needs a number"))
        };
        match arg.as_str() {
            "--runs" => options.runs = value("--runs")? as usize,
            "--slices" => options.slices = value("--slices")? as usize,
            "--once" => options.once = args.next(),
            "--backtrack-runs" => options.backtrack_runs = value("--backtrack-runs")? as usize,
            "--seconds" => options.config.budget = Duration::from_secs_f64(value("--seconds")?),
            "--warmup" => options.config.warmup = Duration::from_secs_f64(value("--warmup")?),
            "--backtrack-seconds" => {
                options.backtrack_budget = Duration::from_secs_f64(value("--backtrack-seconds")?)
            }
            _ if arg.starts_with("--") => return Err(format!("unknown option {arg}\n{USAGE}")),
            _ => options.files.push(arg),
        }
    }
    if options.files.is_empty() || options.runs == 0 {
        return Err(USAGE.into());
    }
    Ok(options)
}

/// One file's puzzles, shuffled, in each solver's own form (converted untimed).
struct Puzzles {
    name: String,
    grids: Vec<Grid>,
    sudokus: Vec<Sudoku>,
    tdoku: Vec<TdokuPuzzle>,
}

fn read_puzzles(file: &str, seed: u64) -> Result<Puzzles, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let puzzles = parse_puzzles(&text).map_err(|e| format!("{file}: {e}"))?;
    let grids: Vec<Grid> = puzzles.iter().map(|p| p.grid).collect();
    let grids = shuffled(&grids, seed);
    let sudokus = grids
        .iter()
        .map(|g| Sudoku::from_str_line(&g.to_line()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{file}: the sudoku crate cannot read a puzzle: {e}"))?;
    let tdoku = grids
        .iter()
        .map(|g| TdokuPuzzle::new(&g.to_line()))
        .collect();
    let name = std::path::Path::new(file)
        .file_name()
        .map_or(file.to_string(), |n| n.to_string_lossy().into_owned());
    Ok(Puzzles {
        name,
        grids,
        sudokus,
        tdoku,
    })
}

/// The `sudoku` crate counting to 2 and keeping the first solution. (Its `solution()`
/// answers "not unique" for fewer than 17 clues without solving, which is not counting.)
#[inline]
fn crate_count_to_two(sudoku: &Sudoku) -> (usize, [u8; 81]) {
    let mut first = [[0u8; 81]];
    let count = sudoku.solutions_up_to_buffer(&mut first, 2);
    (count, first[0])
}

/// Guesses per puzzle of ours and tdoku's (counting to 2), after checking, outside the
/// timed part, that all solvers agree on every count and that every solution obeys
/// the rules and the givens.
fn check_answers(p: &Puzzles, with_tdoku: bool) -> Result<(f64, Option<f64>), String> {
    let (mut ours_guesses, mut tdoku_guesses) = (0usize, 0usize);
    for ((grid, sudoku), td) in p.grids.iter().zip(&p.sudokus).zip(&p.tdoku) {
        let ours = FastSolver.solutions(grid, 2);
        for solution in &ours {
            check_solution(grid, solution).map_err(|e| format!("{grid}: {e}"))?;
        }
        let (count, guesses) = FastSolver.count_with_guesses(grid, 2);
        ours_guesses += guesses;
        let (crate_count, crate_first) = crate_count_to_two(sudoku);
        if count != ours.len() || crate_count != count {
            return Err(format!(
                "{grid}: counts disagree: ours {} (listed {}), crate {crate_count}",
                count,
                ours.len()
            ));
        }
        if count == 1 && crate_first.map(|d| d + b'0') != *ours[0].to_line().as_bytes() {
            return Err(format!(
                "{grid}: ours and the crate give different solutions"
            ));
        }
        if with_tdoku {
            let (td_count, guesses, _) = tdoku::solve(td, 2);
            tdoku_guesses += guesses;
            if td_count != count {
                return Err(format!("{grid}: tdoku counts {td_count}, we count {count}"));
            }
            if count == 1 && tdoku::solve(td, 1).2 != *ours[0].to_line().as_bytes() {
                return Err(format!("{grid}: ours and tdoku give different solutions"));
            }
        }
    }
    let n = p.grids.len().max(1) as f64;
    Ok((
        ours_guesses as f64 / n,
        with_tdoku.then(|| tdoku_guesses as f64 / n),
    ))
}

/// Each puzzle once by the fast solver (counting to 2, keeping the solutions).
#[inline(never)]
fn once_fast(grids: &[Grid]) -> usize {
    grids
        .iter()
        .filter(|g| FastSolver.verdict(g).solution().is_some())
        .count()
}

/// Each puzzle once by the `sudoku` crate (counting to 2, keeping a solution).
#[inline(never)]
fn once_crate(sudokus: &[Sudoku]) -> usize {
    sudokus.iter().map(|s| crate_count_to_two(s).0).sum()
}

/// Each puzzle once by tdoku (counting to 2).
#[inline(never)]
fn once_tdoku(puzzles: &[TdokuPuzzle]) -> usize {
    puzzles.iter().map(|p| tdoku::solve(p, 2).0).sum()
}

/// Per-run rates of each solver on one file.
#[derive(Default)]
struct Rates {
    fast: Vec<f64>,
    krate: Vec<f64>,
    tdoku: Vec<f64>,
    backtrack: Vec<f64>,
    backtrack_complete: bool,
}

fn measure_file(p: &Puzzles, options: &Options, with_tdoku: bool) -> Rates {
    let backtrack_config = BenchConfig {
        budget: options.backtrack_budget,
        ..options.config
    };
    let mut rates = Rates {
        backtrack_complete: true,
        ..Rates::default()
    };
    for run in 0..options.runs {
        let mut fast = |i: usize| FastSolver.verdict(&p.grids[i]).solution().is_some() as usize;
        let mut krate = |i: usize| crate_count_to_two(&p.sudokus[i]).0;
        let mut td = |i: usize| tdoku::solve(&p.tdoku[i], 2).0;
        let mut solvers: Vec<&mut dyn FnMut(usize) -> usize> = vec![&mut fast, &mut krate];
        if with_tdoku {
            solvers.push(&mut td);
        }
        let results =
            measure_interleaved(p.grids.len(), &options.config, options.slices, &mut solvers);
        rates.fast.push(results[0].rate());
        rates.krate.push(results[1].rate());
        if let Some(t) = results.get(2) {
            rates.tdoku.push(t.rate());
        }
        if run < options.backtrack_runs {
            let b = measure(&p.grids, &backtrack_config, |g| BacktrackSolver.verdict(g));
            rates.backtrack_complete &= b.complete_pass;
            rates.backtrack.push(b.rate());
        }
        eprintln!(
            "{}: fast {:.0}/s, crate {:.0}/s, tdoku {:.0}/s",
            p.name,
            rates.fast.last().copied().unwrap_or(0.0),
            rates.krate.last().copied().unwrap_or(0.0),
            rates.tdoku.last().copied().unwrap_or(0.0),
        );
    }
    rates
}

fn print_header() {
    println!(
        "| file | puzzles | snapsolve `fast` (puzzles/s) | `sudoku` crate (puzzles/s) | tdoku (puzzles/s) | fast / best other (medians) | per-run fast / best other (median) | guesses/puzzle fast | guesses/puzzle tdoku | `backtrack` (puzzles/s) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|");
}

fn print_row(p: &Puzzles, mut rates: Rates, guesses: (f64, Option<f64>)) {
    let best_other = |run: usize| {
        let t = rates.tdoku.get(run).copied().unwrap_or(0.0);
        rates.krate[run].max(t)
    };
    let mut ratios: Vec<f64> = (0..rates.fast.len())
        .map(|run| rates.fast[run] / best_other(run))
        .collect();
    let ratio_list: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
    let ratio_median = median(&mut ratios);
    let (f, c) = (median(&mut rates.fast), median(&mut rates.krate));
    let t = (!rates.tdoku.is_empty()).then(|| median(&mut rates.tdoku));
    let best = c.max(t.unwrap_or(0.0));
    let backtrack = match (rates.backtrack.is_empty(), rates.backtrack_complete) {
        (true, _) => "not measured".to_string(),
        (false, true) => format!("{:.3}", median(&mut rates.backtrack)),
        (false, false) => format!("{:.3} (sample)", median(&mut rates.backtrack)),
    };
    let not_built = || "not built".to_string();
    println!(
        "| {} | {} | {f:.0} | {c:.0} | {} | {:.2}x | {} ({ratio_median:.2}x) | {:.2} | {} | {backtrack} |",
        p.name,
        p.grids.len(),
        t.map_or_else(not_built, |t| format!("{t:.0}")),
        f / best,
        ratio_list.join(", "),
        guesses.0,
        guesses.1.map_or_else(not_built, |g| format!("{g:.2}")),
    );
}

fn run_once(which: &str, p: &Puzzles, with_tdoku: bool) -> Result<(), String> {
    let solutions = match which {
        "fast" => once_fast(&p.grids),
        "crate" => once_crate(&p.sudokus),
        "tdoku" if with_tdoku => once_tdoku(&p.tdoku),
        "tdoku" => return Err("tdoku is not built".into()),
        other => return Err(format!("--once takes fast, crate or tdoku, not {other}")),
    };
    eprintln!("{}: {solutions} (solutions counted to 2)", p.name);
    Ok(())
}

fn run(options: &Options) -> Result<(), String> {
    let with_tdoku = match tdoku::available() {
        Ok(()) => true,
        Err(why) => {
            eprintln!("{why}; measuring the other solvers only");
            false
        }
    };
    if options.once.is_none() {
        print_header();
    }
    for file in &options.files {
        let puzzles = read_puzzles(file, options.config.seed)?;
        if let Some(which) = &options.once {
            run_once(which, &puzzles, with_tdoku)?;
            continue;
        }
        let guesses = check_answers(&puzzles, with_tdoku).map_err(|e| format!("{file}: {e}"))?;
        let rates = measure_file(&puzzles, options, with_tdoku);
        print_row(&puzzles, rates, guesses);
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, dir] = args.as_slice()
        && flag == "--held-out"
    {
        return match held_out::write(dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("{message}");
                ExitCode::from(1)
            }
        };
    }
    let options = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(1)
        }
    }
}
