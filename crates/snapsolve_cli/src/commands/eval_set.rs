//! `snapsolve eval set-photos` and `set-cards`: the SET reader against labelled photos and crops.

use std::path::{Path, PathBuf};

use clap::Args;
use serde_json::json;
use snapsolve::distort::{CropSpoiler, Distortion};
use snapsolve::set_photo::draw_answer;
use snapsolve::set_photo::eval::{
    AttributeConfusion, PhotoRead, PhotoScores, PhotoSpoil, Scores, evaluate_crops,
    evaluate_photos_shown, parse_crop_labels, parse_photo_labels,
};
use snapsolve::train::card_negatives::card_network_trained_on;
use snapsolve_set::Attribute;

use super::eval_stress::create_pictures_folder;
use super::set_photo::classifier;
use crate::error::{CliError, CliResult};
use crate::input::{print_json, read_text_file};
use crate::output::outln;

/// Arguments shared by the SET evaluations.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The labels files (`photos.jsonl`, `more_photos.jsonl`, ... or `crops.csv`).
    #[arg(required = true)]
    labels: Vec<PathBuf>,
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
    /// Photos only: spoil every photo before reading it, to see how the
    /// reader copes: a warm or cold light, dark, small, turned, jpeg, and a
    /// phone video's hard ends: bright (over-exposed), defocused, shaken,
    /// tiny (400 pixels across), grainy (a dim room's noise), tilted (seen at
    /// a slant, far cards smaller), long-lens (seen steeply through a phone's
    /// zoom camera, cards about square).
    #[arg(long, value_name = "NAME", value_parser = distortion_name)]
    distort: Option<Distortion>,
    /// Photos only: read each photo's file cut after this share of its bytes
    /// (0.6: the first 60%), as a half-copied upload. Cards read that are
    /// not on the table are then `found + false - right`; cards the missing
    /// part cuts count as partial.
    #[arg(long, value_name = "SHARE", value_parser = share_of_bytes)]
    cut_at: Option<f32>,
    /// Crops only: spoil each view `set card` reads of a picture (the whole
    /// picture and the card cut out of it) as a moving phone's video would
    /// (motion-blur, defocus, low-res, washed-out) before naming it.
    #[arg(long, value_name = "NAME", value_parser = spoiler_name)]
    spoil: Option<CropSpoiler>,
    /// Photos only: write each photo not read fully right, with the answer
    /// drawn on it (as it was read: spoilt, if it was), into this folder, its
    /// score in its name (`set03-right-10-of-12-missed-1-false-0.jpg`).
    #[arg(long, value_name = "DIR")]
    pictures: Option<PathBuf>,
}

fn spoiler_name(name: &str) -> Result<CropSpoiler, String> {
    CropSpoiler::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = CropSpoiler::ALL.iter().map(|d| d.name()).collect();
        format!("no spoiler {name:?}; there are {}", names.join(", "))
    })
}

fn share_of_bytes(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(share) if (0.0..=1.0).contains(&share) => Ok(share),
        _ => Err(format!(
            "{text:?} is not a share of the file between 0 and 1 (0.6: its first 60%)"
        )),
    }
}

pub(super) fn distortion_name(name: &str) -> Result<Distortion, String> {
    Distortion::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = Distortion::ALL.iter().map(|d| d.name()).collect();
        format!("no distortion {name:?}; there are {}", names.join(", "))
    })
}

/// Runs the photo evaluation (`photos`) or the crop one.
pub fn run(args: &EvalArgs, photos: bool) -> CliResult {
    let classifier = classifier(&args.classifier)?;
    let keep = |image: &str| args.filter.as_deref().is_none_or(|f| image.contains(f));
    let mut texts = Vec::with_capacity(args.labels.len());
    for path in &args.labels {
        texts.push(read_text_file(path)?);
    }
    let scores = if photos {
        let mut labels = Vec::new();
        for text in &texts {
            labels.extend(parse_photo_labels(text).map_err(CliError::usage)?);
        }
        if args.spoil.is_some() {
            return Err(CliError::usage("--spoil applies to crops, not photos"));
        }
        labels.retain(|l| keep(&l.image));
        let listed = labels.len();
        // Card-free photos the card network learnt "not a card" from say nothing.
        labels.retain(|l| !card_network_trained_on(&l.image));
        if labels.len() < listed {
            eprintln!(
                "skipped {} card-free photos the card network trained on (the sudoku photos outside the held-out split)",
                listed - labels.len()
            );
        }
        let spoil = PhotoSpoil {
            distortion: args.distort,
            cut_at: args.cut_at,
        };
        create_pictures_folder(args.pictures.as_ref())?;
        let mut write_error = None;
        let scores = evaluate_photos_shown(
            &labels,
            &args.root,
            classifier.as_ref(),
            spoil,
            &mut |read| {
                let Some(dir) = &args.pictures else { return };
                if read.score.tables_right == 1 || write_error.is_some() {
                    return;
                }
                write_error = write_picture(dir, &read).err();
            },
        );
        if let Some(e) = write_error {
            return Err(CliError::failed(e));
        }
        scores
    } else {
        if args.distort.is_some() || args.cut_at.is_some() || args.pictures.is_some() {
            return Err(CliError::usage(
                "--distort, --cut-at and --pictures apply to photos, not crops",
            ));
        }
        let mut labels = Vec::new();
        for text in &texts {
            labels.extend(parse_crop_labels(text).map_err(CliError::usage)?);
        }
        labels.retain(|l| keep(&l.image));
        PhotoScores {
            decks: evaluate_crops(&labels, &args.root, classifier.as_ref(), args.spoil),
            sources: Scores::new(),
        }
    };
    if args.json {
        print_json(&json!({
            "decks": scores_json(&scores.decks),
            "sources": scores_json(&scores.sources),
        }));
    } else {
        print_scores(&scores, photos, classifier.name());
    }
    Ok(())
}

/// Writes one photo with its answer drawn, named after its file and score.
fn write_picture(dir: &Path, read: &PhotoRead) -> Result<(), String> {
    let mut picture = read.photo.image.clone();
    draw_answer(&mut picture, read.reading, 8);
    let stem = Path::new(&read.label.image)
        .with_extension("")
        .to_string_lossy()
        .replace(['/', '\\'], "-");
    let s = read.score;
    let name = format!(
        "{stem}-right-{}-of-{}-missed-{}-false-{}.jpg",
        s.right, s.cards, s.missed, s.false_cards
    );
    let path = dir.join(name);
    picture
        .save(&path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn scores_json(scores: &Scores) -> serde_json::Value {
    json!(scores.iter().map(|(group, s)| (group.clone(), json!({
        "items": s.items, "cards": s.cards, "found": s.found, "missed": s.missed,
        "false_cards": s.false_cards, "partial": s.partial, "card_accuracy": s.card_accuracy(),
        "attribute_accuracy": {"number": s.attribute_accuracy(0), "color": s.attribute_accuracy(1),
            "shading": s.attribute_accuracy(2), "shape": s.attribute_accuracy(3)},
        "confusion": confusion_json(&s.confusion),
        "tables_right": s.tables_right, "median_ms": s.median_millis(), "failures": s.failures,
        "not_fully_right": s.imperfect,
    }))).collect::<serde_json::Map<_, _>>())
}

/// `{"shape": {"squiggle": {"diamond": 2, ...}, ...}, ...}`: true value, then read value.
pub(super) fn confusion_json(confusion: &AttributeConfusion) -> serde_json::Value {
    let attribute_json = |(a, attribute): (usize, &Attribute)| {
        let names = attribute.value_names();
        let row = |t: usize| {
            let cells = (0..3).map(|r| (names[r].to_string(), json!(confusion.counts[a][t][r])));
            (
                names[t].to_string(),
                json!(cells.collect::<serde_json::Map<_, _>>()),
            )
        };
        let rows = (0..3).map(row).collect::<serde_json::Map<_, _>>();
        (attribute.name().to_string(), json!(rows))
    };
    json!(
        Attribute::ALL
            .iter()
            .enumerate()
            .map(attribute_json)
            .collect::<serde_json::Map<_, _>>()
    )
}

fn print_scores(scores: &PhotoScores, photos: bool, classifier: &str) {
    outln!("classifier: {classifier}");
    let what = if photos { "photos" } else { "crops" };
    for (deck, s) in &scores.decks {
        outln!("{deck}: {} {what}, {} cards", s.items, s.cards);
        if photos {
            outln!(
                "  found {}  missed {}  false cards {}  partial {}",
                s.found,
                s.missed,
                s.false_cards,
                s.partial
            );
        }
        if s.cards == 0 {
            outln!("  no cards to read: every card read is a false card");
        } else {
            outln!(
                "  cards right      {:>6.2}% ({}/{})",
                100.0 * s.card_accuracy(),
                s.right,
                s.cards
            );
            for (i, name) in ["number", "color", "shading", "shape"].iter().enumerate() {
                outln!("  {name:<16} {:>6.2}%", 100.0 * s.attribute_accuracy(i));
            }
        }
        if photos {
            outln!("  tables all right {}/{}", s.tables_right, s.items);
        }
        outln!(
            "  median ms per {} {:.1}",
            if photos { "photo" } else { "crop" },
            s.median_millis()
        );
        print_confusion(&s.confusion);
        for failure in &s.failures {
            outln!("  failed: {failure}");
        }
        for photo in &s.imperfect {
            outln!("  not fully right: {photo}");
        }
    }
    if !scores.sources.is_empty() {
        outln!("per source:");
        outln!(
            "  {:<44} {:>6} {:>6} {:>8} {:>6} {:>6} {:>7}",
            "source (deck)",
            "photos",
            "cards",
            "right",
            "missed",
            "false",
            "tables"
        );
        for (source, s) in &scores.sources {
            outln!(
                "  {source:<44} {:>6} {:>6} {:>7.2}% {:>6} {:>6} {:>3}/{:<3}",
                s.items,
                s.cards,
                100.0 * s.card_accuracy(),
                s.missed,
                s.false_cards,
                s.tables_right,
                s.items
            );
        }
    }
}

/// The mistakes per attribute, as "true → read: count", largest first.
pub(super) fn print_confusion(confusion: &AttributeConfusion) {
    let mistakes: Vec<String> = confusion
        .mistakes()
        .into_iter()
        .map(|(attribute, t, r, count)| {
            let names = attribute.value_names();
            format!("{} {}→{}: {count}", attribute.name(), names[t], names[r])
        })
        .collect();
    if mistakes.is_empty() {
        outln!("  attribute mistakes: none");
    } else {
        outln!("  attribute mistakes (true→read): {}", mistakes.join(", "));
    }
}
