//! `snapsolve eval set-stress`: the SET reader on rendered tables under named
//! hard conditions, one line per condition.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use snapsolve::set_photo::draw_answer;
use snapsolve::set_photo::stress::{
    Condition, StressScore, draw_truth_and_outlines, run_condition,
};
use snapsolve::set_photo::table::Finders;

use super::eval_set::{confusion_json, print_confusion};
use super::set_photo::classifier;
use crate::error::{CliError, CliResult};
use crate::input::print_json;
use crate::output::outln;

/// Options of `snapsolve eval set-stress`.
#[derive(Debug, Args)]
pub struct StressArgs {
    /// Tables rendered per condition (both deck editions in turn).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=500))]
    tables: u16,
    /// First table to render. Tables 0-5 (0-23 of the one-card conditions)
    /// are the suite the tests hold floors on; try changes on later ones (say
    /// `--first 400 --tables 48`) so that the suite stays a fair check of them.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=10_000))]
    first: u16,
    /// Only this condition. on-printed-pages, pages-no-cards, textured-tables,
    /// textures-no-cards and photographed-cards lay the table on photographed
    /// pages of the shared data folder, on GIMP's photographed patterns
    /// (Debian's gimp-data) or on Debian's wallpapers, the last with real cards
    /// cut from the shared data's table photos, and are skipped without them.
    #[arg(long, value_name = "NAME", value_parser = condition_names())]
    only: Option<Condition>,
    /// Which classifier names the cards.
    #[arg(long, default_value = snapsolve::set_photo::DEFAULT_CLASSIFIER)]
    classifier: String,
    /// Add the cards the learned detector sees and the threshold finder missed.
    #[arg(long)]
    detector: bool,
    /// Write every table with the answer drawn on it into this folder, to look at: where each
    /// card truly lies is outlined in magenta, each card read in black. A table not read
    /// fully right has its score in its name (`steep-angle-7-right-9-of-12-false-1.jpg`).
    #[arg(long, value_name = "DIR")]
    pictures: Option<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Parses `--only`: the names come from the conditions themselves, so that
/// `--help` lists every one.
fn condition_names() -> impl clap::builder::TypedValueParser<Value = Condition> {
    named(Condition::ALL.map(Condition::name), Condition::by_name)
}

/// A parser of `names` (which `--help` lists) into what `by_name` gives.
pub(super) fn named<T: Clone + Send + Sync + 'static>(
    names: impl IntoIterator<Item = &'static str>,
    by_name: fn(&str) -> Option<T>,
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(names)
        .try_map(move |name| by_name(&name).ok_or(format!("no condition {name:?}")))
}

/// Creates the folder pictures are written into, if one was asked for.
pub(super) fn create_pictures_folder(dir: Option<&PathBuf>) -> CliResult {
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::usage(format!("cannot create {}: {e}", dir.display())))?;
    }
    Ok(())
}

/// Runs the stress suite.
pub fn run(args: &StressArgs) -> CliResult {
    let classifier = classifier(&args.classifier)?;
    create_pictures_folder(args.pictures.as_ref())?;
    let conditions: Vec<Condition> = match args.only {
        Some(c) => vec![c],
        None => Condition::ALL.to_vec(),
    };
    let finders = if args.detector {
        Finders::WithDetector
    } else {
        Finders::Threshold
    };
    let (mut rows, mut skipped) = (Vec::new(), Vec::new());
    for condition in conditions {
        if let Some(why) = condition.missing_input() {
            if args.only.is_some() {
                return Err(CliError::failed(format!(
                    "cannot render {}: {why}",
                    condition.name()
                )));
            }
            eprintln!("{} skipped: {why}", condition.name());
            skipped.push(json!({"condition": condition.name(), "skipped": why}));
            continue;
        }
        let mut write_error = None;
        let score = run_condition(
            condition,
            usize::from(args.first)..usize::from(args.first) + usize::from(args.tables),
            classifier.as_ref(),
            finders,
            &mut |i, table, reading, score| {
                let Some(dir) = &args.pictures else { return };
                let mut picture = table.image.clone();
                draw_answer(&mut picture, reading, 8);
                draw_truth_and_outlines(&mut picture, table, reading);
                let path = dir.join(picture_name(condition, i, score));
                if let Err(e) = picture.save(&path) {
                    write_error = Some(format!("cannot write {}: {e}", path.display()));
                }
            },
        );
        if let Some(e) = write_error {
            return Err(CliError::failed(e));
        }
        if !args.json {
            print_row(condition, &score);
            if score.found > 0 {
                print_confusion(&score.confusion);
            }
        }
        rows.push((condition, score));
    }
    if args.json {
        print_json(&json!(
            rows.iter()
                .map(|(c, s)| json!({
                    "condition": c.name(), "tables": s.tables, "cards": s.cards, "found": s.found,
                    "right": s.right, "named": s.named, "misplaced": s.misplaced, "false_cards": s.false_cards, "tables_right": s.tables_right,
                    "card_accuracy": s.card_accuracy(), "confusion": confusion_json(&s.confusion),
                }))
                .chain(skipped)
                .collect::<Vec<_>>()
        ));
    }
    Ok(())
}

/// `condition-index.jpg`, with the score in the name where the table was not read fully right.
fn picture_name(condition: Condition, index: usize, score: &StressScore) -> String {
    let name = format!("{}-{index}", condition.name());
    if score.tables_right == score.tables {
        return format!("{name}.jpg");
    }
    let mut name = format!("{name}-right-{}-of-{}", score.right, score.cards);
    if score.misplaced > 0 {
        name += &format!("-misplaced-{}", score.misplaced);
    }
    if score.false_cards > 0 {
        name += &format!("-false-{}", score.false_cards);
    }
    name + ".jpg"
}

fn print_row(condition: Condition, s: &StressScore) {
    outln!(
        "{:<24} {:>3} tables {:>4} cards: found {:>4}, right {:>4} ({:6.2}%), named {:>4}, misplaced {:>3}, false {:>3}, tables all right {}/{}",
        condition.name(),
        s.tables,
        s.cards,
        s.found,
        s.right,
        100.0 * s.card_accuracy(),
        s.named,
        s.misplaced,
        s.false_cards,
        s.tables_right,
        s.tables
    );
}
