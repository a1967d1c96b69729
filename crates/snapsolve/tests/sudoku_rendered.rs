//! End to end on sudoku photos the project renders itself under named hard
//! conditions (`snapsolve eval sudoku-stress`: fixed seeds, DejaVu fonts none
//! of which the digit network trained on): the whole `sudoku photo` path from
//! pixels to the solution, with a floor per condition.

use snapsolve::sudoku_photo::DigitReader;
use snapsolve::sudoku_photo::stress::{
    PageCondition, StressScore, run_page_condition, stress_fonts,
};

/// Pages 0-23 of `condition` (printed puzzles and puzzles filled in by hand in turn).
fn read_suite(condition: PageCondition) -> StressScore {
    let reader = DigitReader::embedded().expect("committed weights");
    let fonts = stress_fonts().expect("embedded fonts");
    let score = run_page_condition(condition, 0..24, &fonts, &reader, |_, _, _| {})
        .expect("the network runs");
    eprintln!("{}: {score:?}", condition.name());
    score
}

/// Floors one page under the figures measured on 2026-11-27 (`snapsolve eval
/// sudoku-stress --pages 24`): grids found at their corners, grids read
/// exactly, printed puzzles solved (of 12).
fn check(condition: PageCondition, found: usize, right: usize, solved: usize) {
    let score = read_suite(condition);
    let name = condition.name();
    assert!(score.found >= found, "{name}: grids found {score:?}");
    assert!(score.grids_right >= right, "{name}: grids right {score:?}");
    assert!(score.solved >= solved, "{name}: puzzles solved {score:?}");
}

#[test]
fn flat_pages_are_read_and_solved() {
    // Measured: 24 found, 24 right, 12 solved.
    check(PageCondition::Flat, 23, 23, 11);
}

#[test]
fn curled_pages_are_read_and_solved() {
    // Measured: 24 found, 24 right, 12 solved.
    check(PageCondition::CurledPage, 23, 23, 11);
}

#[test]
fn folded_pages_are_read_and_solved() {
    // Measured 2026-11-29: 15 found, 15 right, 5 solved (11, 12 and 3 before
    // lines were followed across the fold; cells 78.5% → 82.9%).
    check(PageCondition::FoldedPage, 14, 14, 4);
}

#[test]
fn steep_pages_are_read_and_solved() {
    // Measured: 23 found, 24 right, 12 solved.
    check(PageCondition::Steep, 22, 23, 11);
}

#[test]
fn dim_pages_are_read_and_solved() {
    // Measured: 24 found, 24 right, 12 solved (22, 22 and 11 before lines were
    // also looked for in stretched greys).
    check(PageCondition::Dim, 23, 23, 11);
}
