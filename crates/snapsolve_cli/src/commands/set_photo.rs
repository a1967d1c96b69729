//! `snapsolve set photo` and `snapsolve set card`: reading cards from pictures.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;
use snapsolve::images::{Limits, Photo, read_image};
use snapsolve::set_photo::example::{EXAMPLE_SEED, example_photo};
use snapsolve::set_photo::table::{
    CutBy, Finders, NO_COLOUR, TableReading, holds_no_colour, read_table_photo, read_table_with,
};
use snapsolve::set_photo::{
    CLASSIFIERS, CardClassifier, DEFAULT_CLASSIFIER, classifier_by_name, draw_answer,
    name_card_picture,
};

use crate::error::{CliError, CliResult};
use crate::input::print_json;
use crate::output::outln;

/// Arguments of `set photo`.
#[derive(Debug, Args)]
pub struct PhotoArgs {
    /// A photo of the table (JPEG, PNG or WebP); without one, a built-in
    /// rendered table of 12 cards is read (made on the fly, always the same).
    image: Option<PathBuf>,
    /// Print JSON: {"image": {"width", "height"}, "cards": [{"card", "corners", "confidence"}], "sets": [[i,j,k]]};
    /// corners are in the pixels of the image as stored in the file.
    #[arg(long)]
    json: bool,
    /// Write the upright photo with the SETs drawn on it (PNG or JPEG by extension;
    /// JPEGs over 4000 pixels a side are drawn at the reduced size they are read at).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Draw at most this many SETs.
    #[arg(long, default_value_t = 8)]
    max_sets: usize,
    /// Which classifier names the cards.
    #[arg(long, default_value = DEFAULT_CLASSIFIER)]
    classifier: String,
    /// Also look for cards with the learned detector (experimental: better on
    /// white tables and cards edge to edge in rendered tests, but it can take
    /// printed paper for a card).
    #[arg(long)]
    detector: bool,
}

/// Arguments of `set card`.
#[derive(Debug, Args)]
pub struct CardArgs {
    /// Pictures of single cards: cut tightly or loosely (table, or parts of
    /// the neighbouring cards, round the card in the middle), a scan, a
    /// card's picture from the web.
    #[arg(required = true)]
    images: Vec<PathBuf>,
    /// Print a JSON array of {"card", "confidence"}, one per picture in order.
    #[arg(long)]
    json: bool,
    /// Which classifier names the cards.
    #[arg(long, default_value = DEFAULT_CLASSIFIER)]
    classifier: String,
}

/// The classifier named on the command line.
pub fn classifier(name: &str) -> CliResult<Box<dyn CardClassifier>> {
    classifier_by_name(name).ok_or_else(|| {
        CliError::usage(format!(
            "unknown classifier {name:?}; choose one of: {}",
            CLASSIFIERS.join(", ")
        ))
    })
}

/// `set photo`.
pub fn photo(args: &PhotoArgs) -> CliResult {
    let classifier = classifier(&args.classifier)?;
    let (photo, name) = match &args.image {
        Some(path) => (
            read_table_photo(path, Limits::default())
                .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?,
            path.display().to_string(),
        ),
        None => {
            eprintln!(
                "no IMAGE given: reading a built-in rendered table of 12 cards (seed {EXAMPLE_SEED})"
            );
            (example_photo(), "built-in table".to_string())
        }
    };
    for warning in &photo.warnings {
        eprintln!("warning: {name}: {warning}");
    }
    let finders = if args.detector {
        Finders::WithDetector
    } else {
        Finders::Threshold
    };
    let reading = read_table_with(&photo, classifier.as_ref(), finders);
    if let Some(out) = &args.out {
        write_answer(&photo, &reading, args.max_sets, out)?;
    }
    if args.json {
        print_json(&snapsolve::json::set_photo(&reading));
    } else {
        print_text(&reading, &name, args.max_sets);
    }
    Ok(())
}

fn write_answer(photo: &Photo, reading: &TableReading, max_sets: usize, out: &Path) -> CliResult {
    let mut picture = photo.image.clone();
    draw_answer(&mut picture, reading, max_sets);
    picture
        .save(out)
        .map_err(|e| CliError::failed(format!("cannot write {}: {e}", out.display())))
}

fn print_text(reading: &TableReading, name: &str, max_sets: usize) {
    outln!("{name}: {} cards", reading.cards.len());
    for (i, card) in reading.cards.iter().enumerate() {
        let flag = if reading.unsure.contains(&i) {
            "  (unsure)"
        } else {
            ""
        };
        outln!(
            "  {:>2}. {:<28} {:.2}{flag}",
            i + 1,
            card.card.to_string(),
            card.confidence()
        );
    }
    for group in &reading.duplicates {
        let positions: Vec<String> = group.iter().map(|i| (i + 1).to_string()).collect();
        outln!(
            "  warning: cards {} read as the same card",
            positions.join(", ")
        );
    }
    for (cut_by, by_what) in [
        (CutBy::Edge, "cut off by the edge of the photo"),
        (
            CutBy::MissingPart,
            "partly in the part of the photo that is missing",
        ),
    ] {
        match reading
            .partial
            .iter()
            .filter(|p| p.cut_by == cut_by)
            .count()
        {
            0 => {}
            1 => outln!("  1 card {by_what}: left out"),
            n => outln!("  {n} cards {by_what}: left out"),
        }
    }
    match reading.sets.len() {
        0 => outln!("no SET"),
        n => {
            outln!("{n} SET{}:", if n == 1 { "" } else { "s" });
            for (k, set) in reading.sets.iter().enumerate().take(max_sets) {
                let names: Vec<String> = set
                    .iter()
                    .map(|&i| format!("{}. {}", i + 1, reading.cards[i].card))
                    .collect();
                outln!("  SET {}: {}", k + 1, names.join(" | "));
            }
        }
    }
}

/// `set card`.
pub fn card(args: &CardArgs) -> CliResult {
    let classifier = classifier(&args.classifier)?;
    let mut readings = Vec::with_capacity(args.images.len());
    for path in &args.images {
        let picture = read_image(path, Limits::default())
            .map_err(|e| CliError::usage(format!("{}: {e}", path.display())))?;
        if holds_no_colour(&picture) {
            eprintln!("warning: {}: {NO_COLOUR}", path.display());
        }
        let reading = name_card_picture(&picture, classifier.as_ref()).ok_or_else(|| {
            CliError::failed(format!(
                "{}: the classifier gave no reading",
                path.display()
            ))
        })?;
        readings.push(reading);
    }
    if args.json {
        print_json(&serde_json::Value::Array(
            readings
                .iter()
                .map(|r| json!({"card": r.card().to_string(), "confidence": (f64::from(r.confidence()) * 1000.0).round() / 1000.0}))
                .collect(),
        ));
    } else {
        for (path, r) in args.images.iter().zip(&readings) {
            outln!("{}: {} ({:.2})", path.display(), r.card(), r.confidence());
        }
    }
    Ok(())
}
