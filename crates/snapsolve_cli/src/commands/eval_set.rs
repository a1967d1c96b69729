//! `snapsolve eval set-photos` and `set-cards`: the SET reader against labelled photos and crops.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use snapsolve::set_photo::distort::Distortion;
use snapsolve::set_photo::eval::{
    Scores, evaluate_crops, evaluate_photos, parse_crop_labels, parse_photo_labels,
};

use super::set_photo::classifier;
use crate::error::{CliError, CliResult};
use crate::input::{print_json, read_text_file};

/// Arguments shared by the SET evaluations.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The labels file.
    labels: PathBuf,
    /// Folder the image paths in the labels are relative to.
    #[arg(long)]
    root: PathBuf,
    /// Only rows whose image path contains this text (e.g. a held-out folder).
    #[arg(long)]
    filter: Option<String>,
    /// Which classifier names the cards.
    #[arg(long, default_value = snapsolve::set_photo::DEFAULT_CLASSIFIER)]
    classifier: String,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Photos only: spoil every photo before reading it (warm, cold, dark,
    /// small, turned, jpeg), to see how the reader copes.
    #[arg(long, value_name = "NAME", value_parser = distortion_name)]
    distort: Option<Distortion>,
}

fn distortion_name(name: &str) -> Result<Distortion, String> {
    Distortion::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = Distortion::ALL.iter().map(|d| d.name()).collect();
        format!("no distortion {name:?}; there are {}", names.join(", "))
    })
}

/// Runs the photo evaluation (`photos`) or the crop one.
pub fn run(args: &EvalArgs, photos: bool) -> CliResult {
    let classifier = classifier(&args.classifier)?;
    let text = read_text_file(&args.labels)?;
    let keep = |image: &str| args.filter.as_deref().is_none_or(|f| image.contains(f));
    let scores = if photos {
        let mut labels = parse_photo_labels(&text).map_err(CliError::usage)?;
        labels.retain(|l| keep(&l.image));
        evaluate_photos(&labels, &args.root, classifier.as_ref(), args.distort)
    } else {
        if args.distort.is_some() {
            return Err(CliError::usage("--distort applies to photos, not crops"));
        }
        let mut labels = parse_crop_labels(&text).map_err(CliError::usage)?;
        labels.retain(|l| keep(&l.image));
        evaluate_crops(&labels, &args.root, classifier.as_ref())
    };
    if args.json {
        print_json(&scores_json(&scores));
    } else {
        print_scores(&scores, photos, classifier.name());
    }
    Ok(())
}

fn scores_json(scores: &Scores) -> serde_json::Value {
    json!(scores.iter().map(|(deck, s)| (deck.clone(), json!({
        "items": s.items, "cards": s.cards, "found": s.found, "missed": s.missed,
        "false_cards": s.false_cards, "card_accuracy": s.card_accuracy(),
        "attribute_accuracy": {"number": s.attribute_accuracy(0), "color": s.attribute_accuracy(1),
            "shading": s.attribute_accuracy(2), "shape": s.attribute_accuracy(3)},
        "tables_right": s.tables_right, "median_ms": s.median_millis(), "failures": s.failures,
    }))).collect::<serde_json::Map<_, _>>())
}

fn print_scores(scores: &Scores, photos: bool, classifier: &str) {
    println!("classifier: {classifier}");
    for (deck, s) in scores {
        let what = if photos { "photos" } else { "crops" };
        println!("{deck}: {} {what}, {} cards", s.items, s.cards);
        if photos {
            println!(
                "  found {}  missed {}  false cards {}",
                s.found, s.missed, s.false_cards
            );
        }
        println!(
            "  cards right      {:>6.2}% ({}/{})",
            100.0 * s.card_accuracy(),
            s.right,
            s.cards
        );
        for (i, name) in ["number", "color", "shading", "shape"].iter().enumerate() {
            println!("  {name:<16} {:>6.2}%", 100.0 * s.attribute_accuracy(i));
        }
        if photos {
            println!("  tables all right {}/{}", s.tables_right, s.items);
        }
        println!(
            "  median ms per {} {:.1}",
            if photos { "photo" } else { "crop" },
            s.median_millis()
        );
        for failure in &s.failures {
            println!("  failed: {failure}");
        }
    }
}
