//! Side by side: snapsolve's four SET finders against seed 003's three Python functions.
//!
//! One command (`bench/set_vs_python.sh`, or
//! `cargo run --release -p snapsolve_set --example set_vs_python -- [--layouts N]`):
//! takes the first N (default 10) of the benchmark's seeded layouts at 12, 15, 18
//! and 21 cards (the same ones `benches/finders.rs` uses), times every Rust engine
//! on each, writes the layouts and their SETs to a temporary JSON file, runs
//! `bench/python/run_seed003.py` on it (seed 003's functions as written there,
//! each answer checked against ours before timing), and prints per-layout times,
//! per-size medians and ratios. Needs `python3` with numpy (`$PYTHON` overrides).
//!
//! Rust times: median over 31 timings of a batch of calls on one layout (batch
//! sized to ≥ 20 µs). Python times: median of 5 `timeit` repeats, each ≥ 20 ms.

#[path = "../tests/support/layouts.rs"]
mod layouts;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use snapsolve_set::Layout;
use snapsolve_set::finders::{SetFinder, all_finders};

/// Seed and sizes of the benchmark layouts (as in `benches/finders.rs`).
const SEED: u64 = 2026;
const BENCH_LAYOUTS: usize = 1000;
const SIZES: [usize; 4] = [12, 15, 18, 21];
const PYTHON_FUNCTIONS: [&str; 3] = ["find_sets", "find_sets2", "find_sets3"];

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("set_vs_python: {message}");
            ExitCode::FAILURE
        }
    }
}

struct Row {
    n: usize,
    sets: usize,
    /// Seconds per call, Rust engines in `all_finders()` order.
    rust: Vec<f64>,
    /// Seconds per call, seed 003's functions in `PYTHON_FUNCTIONS` order.
    python: Vec<f64>,
}

fn run() -> Result<(), String> {
    let per_size = parse_args()?;
    let layouts: Vec<Layout> = SIZES
        .iter()
        .flat_map(|&n| {
            let mut all = layouts::seeded_layouts(SEED, n, BENCH_LAYOUTS);
            all.truncate(per_size);
            all
        })
        .collect();
    let finders = all_finders();
    eprintln!(
        "timing {} layouts with {} Rust engines…",
        layouts.len(),
        finders.len()
    );
    let mut rows: Vec<Row> = layouts
        .iter()
        .map(|layout| Row {
            n: layout.len(),
            sets: finders[0].find_sets(layout).map_or(0, |s| s.len()),
            rust: finders.iter().map(|f| time_rust(*f, layout)).collect(),
            python: Vec::new(),
        })
        .collect();
    let python = run_python(&layouts, finders[0])?;
    for (index, row) in rows.iter_mut().enumerate() {
        for function in PYTHON_FUNCTIONS {
            let seconds = python
                .get(&(index, function.to_string()))
                .ok_or_else(|| format!("no Python time for layout {index} {function}"))?;
            row.python.push(*seconds);
        }
    }
    let names: Vec<&str> = finders.iter().map(|f| f.name()).collect();
    print!("{}", render(&rows, &names));
    Ok(())
}

fn parse_args() -> Result<usize, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(10),
        [flag, n] if flag == "--layouts" => match n.parse::<usize>() {
            Ok(n) if (1..=BENCH_LAYOUTS).contains(&n) => Ok(n),
            _ => Err(format!("--layouts takes 1..={BENCH_LAYOUTS}, got {n:?}")),
        },
        _ => Err("usage: set_vs_python [--layouts N]".to_string()),
    }
}

/// Median seconds per call of `finder` on `layout`.
fn time_rust(finder: &dyn SetFinder, layout: &Layout) -> f64 {
    let call = || std::hint::black_box(finder.find_sets(std::hint::black_box(layout)));
    let mut batch = 1usize;
    loop {
        let start = Instant::now();
        for _ in 0..batch {
            let _ = call();
        }
        if start.elapsed().as_secs_f64() >= 20e-6 || batch >= 1 << 20 {
            break;
        }
        batch *= 2;
    }
    let mut samples: Vec<f64> = (0..31)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                let _ = call();
            }
            start.elapsed().as_secs_f64() / batch as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// Runs seed 003's functions on the layouts; `(layout index, function) -> seconds per call`.
fn run_python(
    layouts: &[Layout],
    reference: &dyn SetFinder,
) -> Result<BTreeMap<(usize, String), f64>, String> {
    let mut json = String::from("{\"layouts\": [\n");
    for (index, layout) in layouts.iter().enumerate() {
        let cards: Vec<String> = layout
            .cards()
            .iter()
            .map(|c| format!("{:?}", c.values()))
            .collect();
        let sets = reference.find_sets(layout).map_err(|e| e.to_string())?;
        let sets: Vec<String> = sets.iter().map(|s| format!("{s:?}")).collect();
        let comma = if index + 1 < layouts.len() { "," } else { "" };
        let _ = writeln!(
            json,
            "  {{\"cards\": [{}], \"sets\": [{}]}}{comma}",
            cards.join(", "),
            sets.join(", ")
        );
    }
    json.push_str("]}\n");
    let file = std::env::temp_dir().join(format!(
        "snapsolve-set-vs-python-{}.json",
        std::process::id()
    ));
    std::fs::write(&file, json).map_err(|e| format!("cannot write {}: {e}", file.display()))?;

    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bench/python/run_seed003.py");
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    eprintln!(
        "running seed 003's Python ({python} {}) (under a minute)…",
        script.display()
    );
    let output = Command::new(&python)
        .arg(&script)
        .arg(&file)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"));
    let _ = std::fs::remove_file(&file);
    let output = output?;
    if !output.status.success() {
        return Err(format!(
            "{python} {} failed ({}); it needs numpy (pip install numpy)",
            script.display(),
            output.status
        ));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut times = BTreeMap::new();
    for line in stdout.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let [index, function, seconds, _calls] = fields.as_slice() {
            let index: usize = index.parse().map_err(|_| format!("bad line {line:?}"))?;
            let seconds: f64 = seconds.parse().map_err(|_| format!("bad line {line:?}"))?;
            times.insert((index, function.to_string()), seconds);
        }
    }
    Ok(times)
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

fn human(seconds: f64) -> String {
    match seconds {
        s if s >= 1e-3 => format!("{:.2} ms", s * 1e3),
        s if s >= 1e-6 => format!("{:.2} µs", s * 1e6),
        s => format!("{:.1} ns", s * 1e9),
    }
}

fn ratio(slow: f64, fast: f64) -> String {
    let r = slow / fast;
    if r >= 100.0 {
        format!("{r:.0}x")
    } else {
        format!("{r:.1}x")
    }
}

/// Per-layout table, then per-size medians. Ratios pair each seed function with
/// the Rust engine of the same method (find_sets ↔ brute, find_sets2 ↔ pairs,
/// find_sets3 ↔ group) and the seed's fastest with the default engine.
fn render(rows: &[Row], names: &[&str]) -> String {
    let mut out = String::new();
    let header = |out: &mut String, first: &str| {
        let _ = write!(out, "{first:>9} {:>4} ", "SETs");
        for f in PYTHON_FUNCTIONS {
            let _ = write!(out, "{:>11} ", format!("py {f}"));
        }
        for n in names {
            let _ = write!(out, "{:>10} ", format!("rs {n}"));
        }
        let _ = writeln!(
            out,
            "{:>9} {:>9} {:>9} {:>12}",
            "fs/brute", "fs2/pairs", "fs3/group", "best-py/fast"
        );
    };
    let line = |out: &mut String, label: String, sets: String, python: &[f64], rust: &[f64]| {
        let _ = write!(out, "{label:>9} {sets:>4} ");
        for &t in python {
            let _ = write!(out, "{:>11} ", human(t));
        }
        for &t in rust {
            let _ = write!(out, "{:>10} ", human(t));
        }
        let best_python = python.iter().copied().fold(f64::INFINITY, f64::min);
        let fast = rust[rust.len() - 1];
        let _ = writeln!(
            out,
            "{:>9} {:>9} {:>9} {:>12}",
            ratio(python[0], rust[0]),
            ratio(python[1], rust[1]),
            ratio(python[2], rust[2]),
            ratio(best_python, fast)
        );
    };
    let _ = writeln!(out, "Per layout (median time per call):");
    header(&mut out, "cards #");
    let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
    for row in rows {
        let k = seen.entry(row.n).or_insert(0);
        line(
            &mut out,
            format!("{} #{}", row.n, k),
            row.sets.to_string(),
            &row.python,
            &row.rust,
        );
        *k += 1;
    }
    let _ = writeln!(out, "\nMedians per size (ratios of the medians):");
    header(&mut out, "cards");
    for &n in &SIZES {
        let of_size: Vec<&Row> = rows.iter().filter(|r| r.n == n).collect();
        if of_size.is_empty() {
            continue;
        }
        let column = |pick: &dyn Fn(&Row) -> f64| median(of_size.iter().map(|r| pick(r)).collect());
        let python: Vec<f64> = (0..PYTHON_FUNCTIONS.len())
            .map(|i| column(&|r| r.python[i]))
            .collect();
        let rust: Vec<f64> = (0..names.len()).map(|i| column(&|r| r.rust[i])).collect();
        let sets = column(&|r| r.sets as f64);
        line(
            &mut out,
            n.to_string(),
            format!("{sets:.0}"),
            &python,
            &rust,
        );
    }
    out
}
