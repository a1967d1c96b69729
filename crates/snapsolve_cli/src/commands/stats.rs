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
    /// Distribution of the number of SETs among N random cards (exact for N ≤ 12).
    Deal(DealArgs),
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

/// Arguments of `set stats deal`.
#[derive(Debug, Args)]
pub struct DealArgs {
    /// Number of cards dealt from a full deck (0..=81).
    #[arg(long, short = 'n', default_value_t = 12)]
    cards: usize,
    /// Estimate from this many random deals instead of counting exactly
    /// (the default for more than 12 cards is 1,000,000).
    #[arg(long, short = 's')]
    samples: Option<u64>,
    /// Seed of the random deals (same seed, same answer, whatever the thread count).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    output: OutputArgs,
}

/// Samples used for more than 12 cards when `--samples` is not given.
const DEFAULT_SAMPLES: u64 = 1_000_000;

/// Runs a statistics subcommand.
pub fn run(command: StatsCommand) -> CliResult {
    match command {
        StatsCommand::Caps(args) => caps(&args),
        StatsCommand::Deal(args) => deal(&args),
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

fn deal(args: &DealArgs) -> CliResult {
    if args.cards > 81 {
        return Err(CliError::usage(format!(
            "--cards {}: a deck holds 81 cards",
            args.cards
        )));
    }
    let samples = match args.samples {
        Some(samples) => Some(samples),
        None if args.cards > stats::deal::EXACT_MAX_CARDS => Some(DEFAULT_SAMPLES),
        None => None,
    };
    let start = Instant::now();
    let distribution = match samples {
        Some(samples) => {
            let bar = progress_bar("dealing");
            let result = stats::sample_deals(args.cards, samples, args.seed, &report_to(&bar));
            bar.finish_and_clear();
            result
        }
        None => {
            let bar = progress_bar("counting deals");
            let result = stats::exact_deal(args.cards, &report_to(&bar));
            bar.finish_and_clear();
            result
        }
    }
    .map_err(CliError::usage)?;
    let seconds = start.elapsed().as_secs_f64();
    let bins = deal_bins(&distribution);
    let (mean, variance) = stats::exact_moments(args.cards);
    let ratio = |r: num_rational::Ratio<i128>| *r.numer() as f64 / *r.denom() as f64;
    if let Some(path) = &args.output.plot {
        draw_bar_chart(path, &deal_chart(&distribution, &bins))?;
    }
    if args.output.json {
        let mut value = json!({
            "cards": args.cards,
            "exact": distribution.exact,
            "distribution": bins.iter().map(DealBin::json).collect::<Vec<_>>(),
            "mean": distribution.mean(),
            "variance": distribution.variance(),
            "closed_form": {
                "mean": ratio(mean),
                "mean_fraction": mean.to_string(),
                "variance": ratio(variance),
                "variance_fraction": variance.to_string(),
            },
            "seconds": seconds,
        });
        if let Some(samples) = samples {
            value["samples"] = json!(samples);
            value["seed"] = json!(args.seed);
            value["mean_ci95"] = json!(mean_interval(&distribution));
        } else {
            value["total"] = json!(to_u64(distribution.total())?);
        }
        print_json(&value);
        return Ok(());
    }
    match samples {
        None => println!(
            "SETs among {} cards dealt from a full deck: exact counts over all {} deals",
            args.cards,
            group_digits(distribution.total())
        ),
        Some(samples) => println!(
            "SETs among {} cards dealt from a full deck: {} random deals (seed {}), 95% intervals",
            args.cards,
            group_digits(samples.into()),
            args.seed
        ),
    }
    for bin in &bins {
        let detail = match (bin.count, bin.ci95) {
            (Some(count), _) => format!("{:>22}", group_digits(count)),
            (None, Some((lo, hi))) => format!("[{:.5}, {:.5}]", lo, hi),
            (None, None) => String::new(),
        };
        println!(
            "{:>4} SETs  {:>9.5}%  {detail}",
            bin.sets,
            100.0 * bin.probability
        );
    }
    let (mean_lo, mean_hi) = mean_interval(&distribution);
    println!(
        "mean {:.6}{}  (closed form C(n,3)/79 = {} = {:.6})",
        distribution.mean(),
        if distribution.exact {
            String::new()
        } else {
            format!(" [{mean_lo:.6}, {mean_hi:.6}]")
        },
        mean,
        ratio(mean)
    );
    println!(
        "variance {:.6}  (closed form {} = {:.6})",
        distribution.variance(),
        variance,
        ratio(variance)
    );
    println!("({seconds:.1} s)");
    Ok(())
}

/// One bar of the deal distribution.
struct DealBin {
    sets: usize,
    count: Option<u128>,
    probability: f64,
    ci95: Option<(f64, f64)>,
}

impl DealBin {
    fn json(&self) -> serde_json::Value {
        let mut value = json!({"sets": self.sets, "probability": self.probability});
        if let Some(count) = self.count {
            value["count"] = json!(u64::try_from(count).unwrap_or(u64::MAX));
        }
        if let Some(ci) = self.ci95 {
            value["ci95"] = json!([ci.0, ci.1]);
        }
        value
    }
}

fn deal_bins(distribution: &stats::DealDistribution) -> Vec<DealBin> {
    let total = distribution.total() as u64;
    distribution
        .trimmed()
        .iter()
        .enumerate()
        .map(|(sets, &count)| DealBin {
            sets,
            count: distribution.exact.then_some(count),
            probability: distribution.probability(sets),
            ci95: (!distribution.exact).then(|| stats::wilson_interval(count as u64, total)),
        })
        .collect()
}

/// 95% interval of the mean number of SETs (zero width when exact).
fn mean_interval(distribution: &stats::DealDistribution) -> (f64, f64) {
    let mean = distribution.mean();
    if distribution.exact {
        return (mean, mean);
    }
    let half = 1.959_964 * (distribution.variance() / distribution.total() as f64).sqrt();
    (mean - half, mean + half)
}

fn deal_chart(distribution: &stats::DealDistribution, bins: &[DealBin]) -> BarChart {
    let how = if distribution.exact {
        "exact".to_string()
    } else {
        format!("{} random deals", group_digits(distribution.total()))
    };
    BarChart {
        title: format!("SETs among {} random cards ({how})", distribution.cards),
        x_label: "number of SETs".into(),
        y_label: "probability".into(),
        categories: bins.iter().map(|b| b.sets.to_string()).collect(),
        series: vec![Series {
            name: String::new(),
            values: bins.iter().map(|b| b.probability).collect(),
            intervals: (!distribution.exact).then(|| bins.iter().filter_map(|b| b.ci95).collect()),
        }],
        log_y: false,
    }
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
