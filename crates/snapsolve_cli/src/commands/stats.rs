//! `snapsolve set stats …`: exact counts and simulations of SET statistics.
//!
//! The numbers come from `snapsolve_set::stats`; this file turns arguments
//! into calls, shows progress bars on stderr, and prints text, JSON or plots.

mod plot;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use snapsolve_set::stats::{self, CapTable, GameStats, Pick, RatioSums};

use crate::error::{CliError, CliResult};
use crate::input::print_json;
use crate::output::outln;
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
    /// Simulate whole games: how often the table has no SET, cards left at the end.
    Game(GameArgs),
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

/// Which SET the simulated players take.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum PickArg {
    /// Uniformly at random among the SETs on the table.
    Random,
    /// The first SET in table order.
    First,
}

/// Arguments of `set stats game`.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// Number of games to play.
    #[arg(long, short = 'g', default_value_t = 1_000_000)]
    games: u64,
    /// Which SET is taken when there are several.
    #[arg(long, value_enum, default_value = "random")]
    pick: PickArg,
    /// Seed (same seed, same answer, whatever the thread count).
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
        StatsCommand::Game(args) => game(&args),
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
    outln!("SET-free sets of k cards (caps) among the 81, exact, by size:");
    outln!(
        "{:>3}  {:>22}  {:>26}  {:>14}",
        "k",
        "caps",
        "all k-card sets",
        "P(no SET)"
    );
    for (k, count) in table.iter() {
        let chance = table.no_set_chance(k);
        outln!(
            "{k:>3}  {:>22}  {:>26}  {:>14.6e}",
            group_digits(count),
            group_digits(chance.subsets),
            chance.probability()
        );
    }
    outln!();
    outln!("Chance that n cards dealt from a full deck hold no SET:");
    for n in REPORTED_TABLE_SIZES {
        let chance = table.no_set_chance(n);
        outln!(
            "  {n} cards: {} / {} = 1 in {:.1}  (a SET is there {:.6}% of the time)",
            chance.numerator,
            chance.denominator,
            chance.one_in(),
            100.0 * (1.0 - chance.probability())
        );
    }
    outln!("({seconds:.1} s)");
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
        None => outln!(
            "SETs among {} cards dealt from a full deck: exact counts over all {} deals",
            args.cards,
            group_digits(distribution.total())
        ),
        Some(samples) => outln!(
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
        outln!(
            "{:>4} SETs  {:>9.5}%  {detail}",
            bin.sets,
            100.0 * bin.probability
        );
    }
    let (mean_lo, mean_hi) = mean_interval(&distribution);
    outln!(
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
    outln!(
        "variance {:.6}  (closed form {} = {:.6})",
        distribution.variance(),
        variance,
        ratio(variance)
    );
    outln!("({seconds:.1} s)");
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

/// What the game statistics count as a position.
const POSITIONS_COUNTED: &str = "every table in which players look for a SET: after the deck is \
     empty too, and each game's final table (no SET, empty deck) included; seed 003's histogram \
     leaves that final table out (see before_end)";

fn game(args: &GameArgs) -> CliResult {
    if args.games == 0 {
        return Err(CliError::usage("--games must be at least 1"));
    }
    let pick = match args.pick {
        PickArg::Random => Pick::Random,
        PickArg::First => Pick::First,
    };
    let start = Instant::now();
    let bar = progress_bar("playing");
    let stats = stats::simulate_games(args.games, pick, args.seed, &report_to(&bar));
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let pick_name = match pick {
        Pick::Random => "random",
        Pick::First => "first",
    };
    if let Some(path) = &args.output.plot {
        draw_bar_chart(path, &game_chart(&stats, pick_name))?;
    }
    if args.output.json {
        print_json(&game_json(&stats, pick_name, args.seed, seconds));
        return Ok(());
    }
    outln!(
        "{} games, pick {pick_name}, seed {} ({seconds:.1} s). Positions: {POSITIONS_COUNTED}.",
        group_digits(stats.games.into()),
        args.seed
    );
    outln!("No SET on the table, with 95% intervals (games as independent units):");
    let line = |label: &str, sums: &RatioSums| {
        let (lo, hi) = sums.ci95();
        let (lo, hi) = (lo.max(0.0), hi.min(1.0));
        outln!(
            "  {label:<34} {:>8.4}%  [{:.4}, {:.4}]  of {:>12} positions  (1 in {:.1})",
            100.0 * sums.ratio(),
            100.0 * lo,
            100.0 * hi,
            group_digits(sums.trials.into()),
            1.0 / sums.ratio()
        );
    };
    for t in [12, 15, 18] {
        line(&format!("at {t} cards"), &stats.no_set_by_size[t]);
    }
    line("at any position", &stats.no_set_all);
    line(
        "any position but the final (seed 003)",
        &stats.no_set_before_end,
    );
    outln!("No SET at 12 cards by cards left in the deck:");
    for (deck, count, no_set) in by_deck(&stats, 12) {
        let (lo, hi) = stats::wilson_interval(no_set, count);
        outln!(
            "  deck {deck:>2}: {:>7.3}%  [{:.3}, {:.3}]  of {}",
            100.0 * no_set as f64 / count as f64,
            100.0 * lo,
            100.0 * hi,
            count
        );
    }
    let (mean, (lo, hi)) = (stats.mean_sets_at_12.ratio(), stats.mean_sets_at_12.ci95());
    outln!("SETs at 12-card positions: mean {mean:.4} [{lo:.4}, {hi:.4}]");
    let total12 = stats.positions_with(12) as f64;
    for (s, &n) in trimmed(&stats.sets_at_12).iter().enumerate() {
        outln!("  {s:>2} SETs: {:>8.4}%", 100.0 * n as f64 / total12);
    }
    let (mean, (lo, hi)) = stats.cards_left_mean();
    outln!("Cards left at the end: mean {mean:.4} [{lo:.4}, {hi:.4}]");
    for (t, &n) in stats.cards_left.iter().enumerate().filter(|(_, n)| **n > 0) {
        outln!(
            "  {t:>2} cards: {:>8.4}% of games",
            100.0 * n as f64 / stats.games as f64
        );
    }
    outln!("Games in which the table grew to:");
    for t in [15, 18, 21] {
        let n = stats.games_reaching(t);
        let (lo, hi) = stats::wilson_interval(n, stats.games);
        outln!(
            "  {t} cards: {:>8.4}% [{:.4}, {:.4}]  ({} positions with {t} cards)",
            100.0 * n as f64 / stats.games as f64,
            100.0 * lo,
            100.0 * hi,
            stats.positions_with(t)
        );
    }
    Ok(())
}

/// `(cards in the deck, positions, positions without a SET)` for tables of `t` cards.
fn by_deck(stats: &GameStats, t: usize) -> Vec<(usize, u64, u64)> {
    (0..stats.positions[t].len())
        .rev()
        .filter(|&d| stats.positions[t][d] > 0)
        .map(|d| (3 * d, stats.positions[t][d], stats.no_set[t][d]))
        .collect()
}

fn trimmed(counts: &[u64]) -> &[u64] {
    let len = counts.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
    &counts[..len]
}

fn ratio_json(sums: &RatioSums) -> serde_json::Value {
    let (lo, hi) = sums.ci95();
    json!({
        "count": sums.trials,
        "no_set": sums.hits,
        "p_no_set": sums.ratio(),
        "ci95": [lo.max(0.0), hi.min(1.0)],
    })
}

fn game_json(stats: &GameStats, pick: &str, seed: u64, seconds: f64) -> serde_json::Value {
    let mut positions = serde_json::Map::new();
    for t in (0..=stats::game::MAX_TABLE).filter(|&t| stats.positions_with(t) > 0) {
        positions.insert(t.to_string(), ratio_json(&stats.no_set_by_size[t]));
    }
    for t in [12, 15, 18] {
        positions
            .entry(t.to_string())
            .or_insert_with(|| ratio_json(&stats.no_set_by_size[t]));
    }
    positions.insert("all".into(), ratio_json(&stats.no_set_all));
    positions.insert("before_end".into(), ratio_json(&stats.no_set_before_end));
    let by_deck_json = |t: usize| {
        by_deck(stats, t)
            .into_iter()
            .map(|(deck, count, no_set)| {
                let (lo, hi) = stats::wilson_interval(no_set, count);
                json!({"deck": deck, "count": count, "no_set": no_set,
                       "p_no_set": no_set as f64 / count as f64, "ci95": [lo, hi]})
            })
            .collect::<Vec<_>>()
    };
    let total12 = stats.positions_with(12) as f64;
    let sets12: Vec<_> = trimmed(&stats.sets_at_12)
        .iter()
        .enumerate()
        .map(|(s, &n)| json!({"sets": s, "count": n, "probability": n as f64 / total12}))
        .collect();
    let all_positions = stats.no_set_all.trials as f64;
    let sets_all: Vec<_> = trimmed(&stats.sets_all)
        .iter()
        .enumerate()
        .map(|(s, &n)| json!({"sets": s, "count": n, "probability": n as f64 / all_positions}))
        .collect();
    let (left_mean, (left_lo, left_hi)) = stats.cards_left_mean();
    let left: serde_json::Map<_, _> = stats
        .cards_left
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(t, &n)| (t.to_string(), json!(n as f64 / stats.games as f64)))
        .collect();
    let reached: serde_json::Map<_, _> = [15, 18, 21]
        .into_iter()
        .map(|t| {
            let n = stats.games_reaching(t);
            let (lo, hi) = stats::wilson_interval(n, stats.games);
            (
                t.to_string(),
                json!({"games": n, "share": n as f64 / stats.games as f64,
                                   "ci95": [lo, hi], "positions": stats.positions_with(t)}),
            )
        })
        .collect();
    let (mean12, (lo12, hi12)) = (stats.mean_sets_at_12.ratio(), stats.mean_sets_at_12.ci95());
    json!({
        "games": stats.games,
        "pick": pick,
        "seed": seed,
        "positions_counted": POSITIONS_COUNTED,
        "positions": positions,
        "by_deck": {"12": by_deck_json(12), "15": by_deck_json(15)},
        "sets_at_12": {"mean": mean12, "ci95": [lo12, hi12], "distribution": sets12},
        "sets_all_positions": sets_all,
        "cards_left": {"mean": left_mean, "ci95": [left_lo, left_hi], "distribution": left},
        "table_reached": reached,
        "sets_taken": stats.sets_taken,
        "seconds": seconds,
    })
}

fn game_chart(stats: &GameStats, pick: &str) -> BarChart {
    let at12 = trimmed(&stats.sets_at_12);
    let mut before_end = stats.sets_all.clone();
    before_end[0] -= stats.games; // each game's final table: no SET
    let before_end = trimmed(&before_end);
    let bins = at12.len().max(before_end.len());
    let shares = |counts: &[u64]| {
        let total: u64 = counts.iter().sum();
        (0..bins)
            .map(|s| counts.get(s).copied().unwrap_or(0) as f64 / total as f64)
            .collect()
    };
    BarChart {
        title: format!(
            "SETs on the table during {} games ({pick} pick)",
            group_digits(stats.games.into())
        ),
        x_label: "number of SETs on the table".into(),
        y_label: "share of positions".into(),
        categories: (0..bins).map(|s| s.to_string()).collect(),
        series: vec![
            Series {
                name: "12-card positions".into(),
                values: shares(at12),
                intervals: None,
            },
            Series {
                name: "all positions but the final (as seed 003)".into(),
                values: shares(before_end),
                intervals: None,
            },
        ],
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
