//! `snapsolve sudoku photo IMAGE`: read, solve and draw a photographed sudoku.

use std::path::{Path, PathBuf};

use snapsolve::images::{Limits, read_photo};
use snapsolve::sudoku_photo::{DigitReader, digits_text, draw_answer, solve_photo};
use snapsolve_sudoku::cell_names;

use crate::error::{CliError, CliResult};
use crate::input::print_json;
use crate::output::outln;

/// Arguments of `sudoku photo`.
#[derive(Debug, clap::Args)]
pub struct PhotoArgs {
    /// The photo (JPEG, PNG or WebP).
    pub image: PathBuf,
    /// Print JSON: corners, digits, solution, status, whether the reading is a
    /// valid sudoku (and why not), doubtful cells.
    #[arg(long)]
    pub json: bool,
    /// Write the photo with the missing digits drawn in (PNG or JPEG by
    /// extension); where the reading has no single solution, the doubtful
    /// cells are outlined in amber instead, to check by eye.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Runs `sudoku photo`.
pub fn run(args: PhotoArgs) -> CliResult {
    let photo = read_photo(&args.image, Limits::default())
        .map_err(|e| CliError::usage(format!("{}: {e}", args.image.display())))?;
    for warning in &photo.warnings {
        eprintln!("warning: {}: {warning}", args.image.display());
    }
    let photo = photo.image;
    let reader = DigitReader::embedded().map_err(CliError::failed)?;
    let answer = solve_photo(&photo, &reader).map_err(CliError::failed)?;
    if let Some(out) = &args.out {
        save(&draw_answer(&photo, &answer), out)?;
    }
    let digits = answer.digits.as_ref().map(digits_text);
    let solution = answer.solution.as_ref().map(digits_text);
    if args.json {
        print_json(&snapsolve::json::sudoku_photo(&answer));
        return Ok(());
    }
    match (digits, solution) {
        (None, _) => outln!("no sudoku grid found in {}", args.image.display()),
        (Some(d), s) => {
            outln!("read:     {d}");
            outln!("status:   {}", answer.status);
            if !answer.not_a_sudoku.is_empty() {
                outln!(
                    "no valid sudoku fits what was read ({}); the digits above are the most likely reading",
                    answer.not_a_sudoku.join("; ")
                );
            }
            if let Some(s) = s {
                outln!("solution: {s}");
            }
            if !answer.changed.is_empty() {
                outln!("changed by the rules: {}", cell_names(&answer.changed, " "));
            }
            if !answer.doubtful.is_empty() {
                outln!("doubtful: {}", cell_names(&answer.doubtful, " "));
            }
        }
    }
    Ok(())
}

fn save(image: &image::RgbImage, path: &Path) -> CliResult {
    image
        .save(path)
        .map_err(|e| CliError::failed(format!("cannot write {}: {e}", path.display())))
}
