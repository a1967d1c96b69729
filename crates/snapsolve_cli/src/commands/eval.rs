//! `snapsolve eval ...`: accuracy and speed on labelled photos.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;
use snapsolve::distort::Distortion;
use snapsolve::sudoku_photo::eval::{
    Confusion, EvalPhotos, PRECISE_CORNER_CELLS, PhotoResult, evaluate_photo, selected, summarize,
};
use snapsolve::sudoku_photo::{DigitReader, mislabelled, read_labels};

use crate::error::{CliError, CliResult};
use crate::output::outln;

/// What to evaluate.
#[derive(Debug, Subcommand)]
pub enum EvalCommand {
    /// SET photos: read every photo of a photos.jsonl and compare with its card multiset.
    SetPhotos(super::eval_set::EvalArgs),
    /// SET crops: name every crop of a crops.csv as `set card` names a picture
    /// of one card, and compare with its label.
    SetCards(super::eval_set::EvalArgs),
    /// SET tables rendered under hard conditions (white on white, clutter,
    /// a steep angle, dim warm light…): cards found and right, false cards.
    SetStress(super::eval_stress::StressArgs),
    /// Sudoku pages rendered under hard conditions (a page that curls or folds,
    /// a steep angle, dim light): grids found, cells and grids read right.
    SudokuStress(super::eval_sudoku_stress::SudokuStressArgs),
    /// Sudoku photos: grids found, cell accuracy, grids exactly right and
    /// milliseconds per photo, per kind. Photos the model was trained on are skipped.
    SudokuPhotos(SudokuPhotosArgs),
}

/// `snapsolve eval sudoku-photos`.
#[derive(Args, Debug)]
pub struct SudokuPhotosArgs {
    /// The labels file (one JSON object per line, as `sudoku/photos.jsonl`).
    labels: PathBuf,
    /// The folder the labels' image paths are relative to.
    #[arg(long)]
    root: PathBuf,
    /// Weights to use instead of the committed ones; given more than once,
    /// the networks' probabilities are averaged.
    #[arg(long)]
    weights: Vec<PathBuf>,
    /// Read the validation photos instead (a training-time check, not a result).
    #[arg(long, conflicts_with = "train")]
    validation: bool,
    /// Read the training photos instead (for tuning grid finding, never a result).
    #[arg(long)]
    train: bool,
    /// Spoil every photo before reading it, to see how the reader copes
    /// with what the labelled photos do not show: warm, cold, dark,
    /// small, turned, jpeg, bright, defocused, shaken, tiny, grainy,
    /// tilted, long-lens (as `eval set-photos --distort`). Corners are
    /// then not compared.
    #[arg(long, value_name = "NAME", value_parser = super::eval_set::distortion_name)]
    distort: Option<Distortion>,
    /// List every photo read wrong.
    #[arg(long)]
    verbose: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs an evaluation.
pub fn run(command: EvalCommand) -> CliResult {
    let args = match command {
        EvalCommand::SetPhotos(args) => return super::eval_set::run(&args, true),
        EvalCommand::SetCards(args) => return super::eval_set::run(&args, false),
        EvalCommand::SetStress(args) => return super::eval_stress::run(&args),
        EvalCommand::SudokuStress(args) => return super::eval_sudoku_stress::run(&args),
        EvalCommand::SudokuPhotos(args) => args,
    };
    let SudokuPhotosArgs {
        labels,
        root,
        weights,
        validation,
        train,
        distort,
        verbose,
        json,
    } = args;
    let photos = read_labels(&labels).map_err(CliError::usage)?;
    let reader = if weights.is_empty() {
        DigitReader::embedded()
    } else {
        let mut files = Vec::with_capacity(weights.len());
        for path in &weights {
            files
                .push(std::fs::read(path).map_err(|e| {
                    CliError::usage(format!("cannot read {}: {e}", path.display()))
                })?);
        }
        DigitReader::ensemble(&files.iter().map(Vec::as_slice).collect::<Vec<_>>())
    }
    .map_err(CliError::failed)?;
    let which = match (validation, train) {
        (true, _) => EvalPhotos::Validation,
        (_, true) => EvalPhotos::Train,
        _ => EvalPhotos::Untrained,
    };
    let chosen = selected(&photos, which);
    let mislabelled: Vec<(&str, &str)> = photos
        .iter()
        .filter_map(|p| mislabelled(&p.image).map(|why| (p.image.as_str(), why)))
        .collect();
    let skipped = photos.len() - chosen.len() - mislabelled.len();
    let results: Vec<_> = chosen
        .iter()
        .map(|p| evaluate_photo(&root, p, &reader, distort))
        .collect();
    let summary = summarize(&results);
    if json {
        let kinds: Vec<_> = summary
            .iter()
            .map(|(kind, s)| {
                json!({"kind": kind.name(), "photos": s.photos, "grids_found": s.grids_found,
                    "cell_accuracy": s.cell_accuracy(), "grids_right": s.grids_right,
                    "median_ms": s.median_millis(), "with_corners": s.with_corners,
                    "corners_precise": s.corners_precise, "confusion": s.confusion.counts})
            })
            .collect();
        outln!(
            "{}",
            json!({ "skipped_trained_on": skipped, "distortion": distort.map(Distortion::name), "kinds": kinds,
                "left_out_mislabelled": mislabelled.iter().map(|(image, why)| json!({"image": image, "why": why})).collect::<Vec<_>>() })
        );
        return Ok(());
    }
    if verbose {
        let imprecise = |r: &&PhotoResult| r.corner_error.is_some_and(|e| e > PRECISE_CORNER_CELLS);
        for r in results
            .iter()
            .filter(|r| r.cells_right < 81 || imprecise(r))
        {
            let corners = r
                .corner_error
                .map(|e| format!(", corners off by {e:.2} cell"))
                .unwrap_or_default();
            let found = if r.found { "" } else { " (no grid found)" };
            outln!(
                "{} {}: {} of 81 cells right{found}{corners}, read {}",
                r.kind.name(),
                r.image,
                r.cells_right,
                r.read
            );
        }
    }
    outln!("{} photos read, {skipped} skipped", chosen.len());
    if let Some(distortion) = distort {
        outln!(
            "every photo spoilt first: {} (corners not compared)",
            distortion.name()
        );
    }
    for (image, why) in &mislabelled {
        outln!("left out {image}: its label describes another page ({why})");
    }
    outln!(
        "kind         photos  grids found  corners <= {PRECISE_CORNER_CELLS} cell  cell accuracy  grids right     median ms"
    );
    for (kind, s) in &summary {
        let corners = if s.with_corners == 0 {
            "-".to_string()
        } else {
            format!("{} of {}", s.corners_precise, s.with_corners)
        };
        outln!(
            "{:<12} {:>6}  {:>11}  {:>19}  {:>12.2}%  {:>4} ({:>5.1}%)  {:>9.1}",
            kind.name(),
            s.photos,
            s.grids_found,
            corners,
            100.0 * s.cell_accuracy(),
            s.grids_right,
            100.0 * s.grids_right as f64 / s.photos.max(1) as f64,
            s.median_millis()
        );
    }
    for (kind, s) in &summary {
        print_confusion(kind.name(), &s.confusion);
    }
    Ok(())
}

/// The confusion table of one kind and its largest mistakes.
fn print_confusion(kind: &str, confusion: &Confusion) {
    let name = |class: usize| {
        if class == 0 {
            ".".to_string()
        } else {
            class.to_string()
        }
    };
    outln!("\n{kind}: cells by label (rows) and reading (columns), . = empty");
    let header: String = (0..10).map(|c| format!("{:>6}", name(c))).collect();
    outln!("     {header}");
    for (truth, row) in confusion.counts.iter().enumerate() {
        let cells: String = row.iter().map(|n| format!("{n:>6}")).collect();
        outln!("{:>4} {cells}", name(truth));
    }
    outln!("{}", largest_mistakes(confusion));
}

/// The eight largest mistakes of a confusion table, as one line.
pub(super) fn largest_mistakes(confusion: &Confusion) -> String {
    let mistakes = confusion.mistakes();
    if mistakes.is_empty() {
        return "no mistakes".into();
    }
    let listed: Vec<String> = mistakes
        .iter()
        .take(8)
        .map(|&(t, r, n)| {
            let word = |c: u8| match c {
                0 => "empty".to_string(),
                d => d.to_string(),
            };
            format!("{} read as {} ({n})", word(t), word(r))
        })
        .collect();
    format!("largest mistakes: {}", listed.join(", "))
}
