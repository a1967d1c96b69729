//! `snapsolve eval sudoku-stress`: the sudoku reader on rendered pages under
//! named hard conditions, one line per condition.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use snapsolve::sudoku_photo::DigitReader;
use snapsolve::sudoku_photo::stress::{
    PageCondition, StressScore, draw_page_reading, run_page_condition, stress_fonts,
};

use super::eval_stress::{create_pictures_folder, named};
use crate::error::{CliError, CliResult};
use crate::input::print_json;
use crate::output::outln;

/// Options of `snapsolve eval sudoku-stress`.
#[derive(Debug, Args)]
pub struct SudokuStressArgs {
    /// Pages rendered per condition (printed puzzles and puzzles filled in by hand in turn).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pages: u16,
    /// First page to render. Pages 0-23 are the suite the tests hold floors on;
    /// try changes on later ones (say `--first 400 --pages 100`) so that the
    /// suite stays a fair check of them.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=50_000))]
    first: u16,
    /// Only this condition.
    #[arg(long, value_name = "NAME", value_parser = named(PageCondition::ALL.map(PageCondition::name), PageCondition::by_name))]
    only: Option<PageCondition>,
    /// Write every page read wrong into this folder, to look at: the true grid
    /// outlined in magenta, the lattice read as blue crosses, each cell read
    /// wrong with its reading in red (`curled-page-7-cells-75.jpg`).
    #[arg(long, value_name = "DIR")]
    pictures: Option<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs the stress suite.
pub fn run(args: &SudokuStressArgs) -> CliResult {
    let reader = DigitReader::embedded().map_err(CliError::failed)?;
    let fonts = stress_fonts().map_err(CliError::failed)?;
    create_pictures_folder(args.pictures.as_ref())?;
    let conditions = match args.only {
        Some(c) => vec![c],
        None => PageCondition::ALL.to_vec(),
    };
    let first = u64::from(args.first);
    let pages = first..first + u64::from(args.pages);
    let mut rows = Vec::new();
    for condition in conditions {
        let mut write_error = None;
        let score = run_page_condition(
            condition,
            pages.clone(),
            &fonts,
            &reader,
            |i, page, answer| {
                let Some(dir) = &args.pictures else { return };
                let right = match &answer.digits {
                    Some(d) => d
                        .iter()
                        .zip(&page.photo.digits)
                        .filter(|(a, b)| a == b)
                        .count(),
                    None => 0,
                };
                if right == 81 {
                    return;
                }
                let path = dir.join(format!("{}-{i}-cells-{right}.jpg", condition.name()));
                if let Err(e) = draw_page_reading(page, answer).save(&path) {
                    write_error = Some(format!("cannot write {}: {e}", path.display()));
                }
            },
        )
        .map_err(CliError::failed)?;
        if let Some(e) = write_error {
            return Err(CliError::failed(e));
        }
        if !args.json {
            print_row(condition, &score);
        }
        rows.push((condition, score));
    }
    if args.json {
        print_json(&json!(
            rows.iter()
                .map(|(c, s)| json!({
                    "condition": c.name(), "pages": s.pages, "grids_found": s.found,
                    "cells_right": s.cells_right, "cell_accuracy": s.cell_accuracy(),
                    "grids_right": s.grids_right, "puzzles": s.puzzles, "solved": s.solved,
                    "confusion": s.confusion.counts,
                }))
                .collect::<Vec<_>>()
        ));
    }
    Ok(())
}

fn print_row(condition: PageCondition, s: &StressScore) {
    outln!(
        "{:<12} {:>4} pages: grids found {:>4}, cells right {:>6.2}%, grids right {:>4}, puzzles solved {}/{}",
        condition.name(),
        s.pages,
        s.found,
        100.0 * s.cell_accuracy(),
        s.grids_right,
        s.solved,
        s.puzzles
    );
    outln!(
        "             {}",
        super::eval::largest_mistakes(&s.confusion)
    );
}
