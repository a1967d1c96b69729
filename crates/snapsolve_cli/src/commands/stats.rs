//! `snapsolve set stats …`: exact counts and simulations of SET statistics.
//!
//! The numbers come from `snapsolve_set::stats`; this file turns arguments
//! into calls, shows progress bars on stderr, and prints text, JSON or plots.

mod plot;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use snapsolve_set::stats::{self, CapTable};

use crate::error::{CliError, CliResult};
use crate::input::print_json;
use plot::{BarChart, Series, draw_bar_chart};

/// Table sizes whose chance of holding no SET the caps report spells out.
const REPORTED_TABLE_SIZES: [usize; 5] = [12, 15, 16, 17, 18];

/// Statistics subcommands.
#[derive(Debug, Subcommand)]
pub enum StatsCommand {
    /// Exact number of SET-free sets of k cards (caps), k = 0..21, and the chance of no SET.
    Caps(CapsArgs),
}

/// Options every statistics command shares.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Draw the histogram to this file (.png or .svg).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

/// Arguments of `set stats caps`.
#[derive(Debug, Args)]
pub struct CapsArgs {
    #[command(flatten)]
    output: OutputArgs,
}

/// Runs a statistics subcommand.
pub fn run(command: StatsCommand) -> CliResult {
    match command {
        StatsCommand::Caps(args) => caps(&args),
    }
}

/// A progress bar on stderr (hidden when stderr is not a terminal) and the
/// callback the library reports to.
fn progress_bar(what: &str) -> ProgressBar {
    let bar = ProgressBar::new(0);
    let style = ProgressStyle::with_template(
        "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} (eta {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar
}

fn report_to(bar: &ProgressBar) -> impl Fn(u64, u64) + Sync + '_ {
    move |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    }
}

fn caps(args: &CapsArgs) -> CliResult {
    let start = Instant::now();
    let bar = progress_bar("counting caps");
    let table = stats::count_caps(&report_to(&bar));
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    if let Some(path) = &args.output.plot {
        draw_bar_chart(path, &caps_chart(&table))?;
    }
    if args.output.json {
        print_json(&caps_json(&table, seconds)?);
        return Ok(());
    }
    println!("SET-free sets of k cards (caps) among the 81, exact, by size:");
    println!(
        "{:>3}  {:>22}  {:>26}  {:>14}",
        "k", "caps", "all k-card sets", "P(no SET)"
    );
    for (k, count) in table.iter() {
        let chance = table.no_set_chance(k);
        println!(
            "{k:>3}  {:>22}  {:>26}  {:>14.6e}",
            group_digits(count),
            group_digits(chance.subsets),
            chance.probability()
        );
    }
    println!();
    println!("Chance that n cards dealt from a full deck hold no SET:");
    for n in REPORTED_TABLE_SIZES {
        let chance = table.no_set_chance(n);
        println!(
            "  {n} cards: {} / {} = 1 in {:.1}  (a SET is there {:.6}% of the time)",
            chance.numerator,
            chance.denominator,
            chance.one_in(),
            100.0 * (1.0 - chance.probability())
        );
    }
    println!("({seconds:.1} s)");
    Ok(())
}

fn caps_json(table: &CapTable, seconds: f64) -> CliResult<serde_json::Value> {
    let caps: Vec<_> = table
        .iter()
        .map(|(k, count)| Ok(json!({"k": k, "count": to_u64(count)?})))
        .collect::<CliResult<_>>()?;
    let no_set: Vec<_> = REPORTED_TABLE_SIZES
        .iter()
        .map(|&n| {
            let c = table.no_set_chance(n);
            Ok(json!({
                "cards": n,
                "caps": to_u64(c.caps)?,
                "subsets": to_u64(c.subsets)?,
                "fraction": [to_u64(c.numerator)?, to_u64(c.denominator)?],
                "probability": c.probability(),
                "one_in": c.one_in(),
                "p_some_set": 1.0 - c.probability(),
            }))
        })
        .collect::<CliResult<_>>()?;
    Ok(
        json!({"caps": caps, "no_set": no_set, "method": "affine frames (exact)", "seconds": seconds}),
    )
}

fn caps_chart(table: &CapTable) -> BarChart {
    let (categories, values): (Vec<_>, Vec<_>) = table
        .iter()
        .map(|(k, count)| (k.to_string(), count as f64))
        .unzip();
    BarChart {
        title: "SET-free sets of k cards (caps), exact".into(),
        x_label: "k (cards)".into(),
        y_label: "number of caps (log scale)".into(),
        categories,
        series: vec![Series {
            name: String::new(),
            values,
            intervals: None,
        }],
        log_y: true,
    }
}

/// Exact integers go to JSON as numbers; every count here fits in 64 bits.
fn to_u64(value: u128) -> CliResult<u64> {
    u64::try_from(value)
        .map_err(|_| CliError::failed(format!("{value} does not fit in JSON's 64-bit integers")))
}

/// `1234567` → `1,234,567`.
fn group_digits(value: u128) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_by_thousands() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(2_284_535_476_080), "2,284,535,476,080");
    }
}
