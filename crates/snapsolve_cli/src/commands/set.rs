//! `snapsolve set …`: SETs among card names.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use serde_json::json;
use snapsolve::json::card_names;
use snapsolve::set::{ModelFormat, write_model};
use snapsolve_set::check::{Agreement, check};
use snapsolve_set::finders::SetFinder;
use snapsolve_set::hint::{HintLevel, hint, max_disjoint_sets};
use snapsolve_set::{Card, Layout, Triple};

use crate::error::{CliError, CliResult};
use crate::input::{print_json, read_stdin, read_text_file};
use crate::output::outln;

/// A 12-card table used when no cards are given at an interactive terminal.
const EXAMPLE_TABLE: &str = "1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle \
     1-green-solid-squiggle 2-purple-open-oval 3-red-striped-diamond \
     2-red-open-squiggle 1-purple-striped-diamond 3-green-solid-oval \
     1-red-striped-squiggle 3-green-open-diamond 2-purple-solid-oval";

/// SET subcommands.
#[derive(Debug, Subcommand)]
pub enum SetCommand {
    /// Read a photo of a table: find every card, name it, find every SET.
    Photo(super::set_photo::PhotoArgs),
    /// Name pictures of single cards.
    Card(super::set_photo::CardArgs),
    /// Find every SET among cards named like `2-red-striped-oval`.
    Solve(SolveArgs),
    /// Say whether three cards form a SET, and which attribute breaks the rule if not.
    Check(CheckArgs),
    /// Reveal one card of a SET, then two, then the whole SET.
    Hint(HintArgs),
    /// Exact and simulated statistics: caps, random deals, whole games.
    #[command(subcommand)]
    Stats(super::stats::StatsCommand),
}

/// Where the cards come from.
#[derive(Debug, Args)]
pub struct CardsInput {
    /// Cards as NUMBER-COLOR-SHADING-SHAPE, e.g. 2-red-striped-oval. Without any,
    /// cards are read from --file or standard input (one per line or separated by spaces).
    cards: Vec<String>,
    /// Read cards from this file instead.
    #[arg(long, short = 'f', conflicts_with = "cards")]
    file: Option<PathBuf>,
}

impl CardsInput {
    fn layout(&self) -> CliResult<Layout> {
        let text = if !self.cards.is_empty() {
            self.cards.join("\n")
        } else if let Some(path) = &self.file {
            read_text_file(path)?
        } else if std::io::stdin().is_terminal() {
            eprintln!("(no cards given: using a built-in example table; pass cards or --file)");
            EXAMPLE_TABLE.to_string()
        } else {
            read_stdin()?
        };
        Layout::parse(&text).map_err(CliError::usage)
    }
}

/// Arguments of `set solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    input: CardsInput,
    /// Which method finds the SETs: brute, pairs, group, fast (the quickest),
    /// sat (a SAT solver, seed 004's encoding) or ilp (a 0-1 integer program, seed 001's model).
    #[arg(long, short = 'e', default_value = snapsolve::set::DEFAULT_ENGINE)]
    engine: String,
    /// Print only how many SETs there are.
    #[arg(long)]
    count: bool,
    /// Also give the largest number of SETs that can be taken without sharing a card.
    #[arg(long)]
    disjoint: bool,
    /// Print JSON: {"cards": [...], "sets": [[i,j,k], ...]} with indices into cards.
    #[arg(long)]
    json: bool,
    /// Also write the solver model of the cards: `dimacs` (the SAT engine's CNF) or
    /// `lp` (the ILP engine's program, CPLEX LP format). With FILE `-` the model goes
    /// to standard output instead of the answer, ready to pipe into a solver.
    #[arg(long, num_args = 2, value_names = ["FORMAT", "FILE"])]
    export: Option<Vec<String>>,
}

/// Arguments of `set check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Exactly three cards.
    #[arg(num_args = 3, required = true)]
    cards: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// How much a hint reveals.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Level {
    /// One card of a SET.
    #[value(name = "1")]
    One,
    /// Two cards of the same SET.
    #[value(name = "2")]
    Two,
    /// The whole SET.
    #[value(name = "3")]
    Three,
}

/// Arguments of `set hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    #[command(flatten)]
    input: CardsInput,
    /// 1: one card of a SET, 2: two cards, 3: the whole SET.
    #[arg(long, short = 'l', default_value = "1")]
    level: Level,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs a SET subcommand.
pub fn run(command: SetCommand) -> CliResult {
    match command {
        SetCommand::Photo(args) => super::set_photo::photo(&args),
        SetCommand::Card(args) => super::set_photo::card(&args),
        SetCommand::Solve(args) => solve(&args),
        SetCommand::Check(args) => check_cards(&args),
        SetCommand::Hint(args) => give_hint(&args),
        SetCommand::Stats(command) => super::stats::run(command),
    }
}

fn solve(args: &SolveArgs) -> CliResult {
    let layout = args.input.layout()?;
    if let Some(export) = &args.export {
        let to_stdout = export_model(&layout, export)?;
        if to_stdout {
            return Ok(());
        }
    }
    let engine = snapsolve::set::engine(&args.engine).ok_or_else(|| {
        let names: Vec<_> = snapsolve::set::engines().iter().map(|e| e.name()).collect();
        CliError::usage(format!(
            "unknown engine {:?}; choose one of {}",
            args.engine,
            names.join(", ")
        ))
    })?;
    let sets = engine.find_sets(&layout).map_err(CliError::failed)?;
    let disjoint = args.disjoint.then(|| max_disjoint_sets(&layout));
    if args.json {
        print_json(&snapsolve::json::set_solve(
            &layout,
            &sets,
            engine,
            disjoint.as_deref(),
        ));
        return Ok(());
    }
    if args.count {
        outln!("{}", sets.len());
    } else {
        print_sets(&layout, &sets, engine);
    }
    if let Some(disjoint) = disjoint {
        outln!(
            "At most {} SET{} can be taken without sharing a card:",
            disjoint.len(),
            plural(disjoint.len())
        );
        for set in &disjoint {
            outln!("  {}", describe(&layout, *set));
        }
    }
    Ok(())
}

/// Writes the model named by `--export FORMAT FILE`; true when it went to standard output.
fn export_model(layout: &Layout, export: &[String]) -> CliResult<bool> {
    let [format_name, file] = export else {
        return Err(CliError::usage("--export takes a FORMAT and a FILE"));
    };
    let format = ModelFormat::from_name(format_name).ok_or_else(|| {
        let names: Vec<_> = ModelFormat::ALL.iter().map(|(n, _)| *n).collect();
        CliError::usage(format!(
            "unknown model format {format_name:?}; choose one of {}",
            names.join(", ")
        ))
    })?;
    if file == "-" {
        let mut stdout = std::io::stdout().lock();
        return match write_model(layout, format, &mut stdout) {
            // A reader that stops early (`| head`) is not a failure.
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(CliError::failed(format!("cannot write the model: {e}")))
            }
            _ => Ok(true),
        };
    }
    let create = std::fs::File::create(file)
        .map_err(|e| CliError::usage(format!("cannot create {file}: {e}")))?;
    let mut writer = std::io::BufWriter::new(create);
    write_model(layout, format, &mut writer)
        .map_err(|e| CliError::failed(format!("cannot write {file}: {e}")))?;
    eprintln!(
        "wrote the {format_name} model of {} cards to {file}",
        layout.len()
    );
    Ok(false)
}

fn print_sets(layout: &Layout, sets: &[Triple], engine: &dyn SetFinder) {
    let solved_by = engine
        .solver()
        .map(|solver| format!(", solved by {solver}"))
        .unwrap_or_default();
    outln!(
        "{} card{}, {} SET{} (engine {}{solved_by})",
        layout.len(),
        plural(layout.len()),
        sets.len(),
        plural(sets.len()),
        engine.name(),
    );
    for (n, set) in sets.iter().enumerate() {
        outln!("{:>4}. {}", n + 1, describe(layout, *set));
    }
}

fn describe(layout: &Layout, set: Triple) -> String {
    let cards = layout.triple_cards(set);
    format!(
        "{}, {}, {}  (cards {}, {}, {})",
        cards[0],
        cards[1],
        cards[2],
        set[0] + 1,
        set[1] + 1,
        set[2] + 1
    )
}

fn check_cards(args: &CheckArgs) -> CliResult {
    let parsed = args
        .cards
        .iter()
        .map(|c| c.parse::<Card>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::usage)?;
    let cards: [Card; 3] = parsed
        .try_into()
        .map_err(|_| CliError::usage("give exactly three cards"))?;
    let verdict = check(cards);
    if args.json {
        let attributes: Vec<_> = verdict
            .attributes
            .iter()
            .map(|(attribute, agreement)| {
                let names = attribute.value_names();
                let (kind, odd) = match agreement {
                    Agreement::AllSame => ("all_same", None),
                    Agreement::AllDifferent => ("all_different", None),
                    Agreement::TwoAndOne { odd } => ("two_and_one", Some(*odd)),
                };
                json!({
                    "attribute": attribute.name(),
                    "values": cards.map(|c| names[c.value(*attribute) as usize]),
                    "agreement": kind,
                    "odd_card": odd,
                })
            })
            .collect();
        print_json(&json!({
            "cards": card_names(&cards),
            "is_set": verdict.is_set(),
            "attributes": attributes,
        }));
    } else {
        outln!("{verdict}");
    }
    Ok(())
}

fn give_hint(args: &HintArgs) -> CliResult {
    let layout = args.input.layout()?;
    let level = match args.level {
        Level::One => HintLevel::OneCard,
        Level::Two => HintLevel::TwoCards,
        Level::Three => HintLevel::WholeSet,
    };
    let found = hint(&layout, level);
    if args.json {
        print_json(&json!({
            "cards": card_names(layout.cards()),
            "level": level as u8,
            "hint": found.as_ref().map(|h| &h.positions),
            "sets_on_table": found.as_ref().map_or(0, |h| h.sets_on_table),
        }));
        return Ok(());
    }
    match found {
        None => outln!(
            "No SET among these {} cards: deal three more.",
            layout.len()
        ),
        Some(h) => {
            let named: Vec<String> = h
                .positions
                .iter()
                .map(|&p| format!("{} (card {})", layout.cards()[p], p + 1))
                .collect();
            let lead = match level {
                HintLevel::OneCard => "This card is part of a SET",
                HintLevel::TwoCards => "These two cards are in the same SET",
                HintLevel::WholeSet => "Here is a SET",
            };
            outln!("{lead}: {}", named.join(", "));
            outln!(
                "({} SET{} on the table in all.)",
                h.sets_on_table,
                plural(h.sets_on_table)
            );
        }
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
