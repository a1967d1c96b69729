//! `snapsolve sudoku ...`.

use clap::Subcommand;

use super::sudoku_photo;
use crate::error::CliResult;

/// Sudoku commands.
#[derive(Debug, Subcommand)]
pub enum SudokuCommand {
    /// Read a sudoku from a photo, solve it, and optionally draw the answer into it.
    Photo(sudoku_photo::PhotoArgs),
}

/// Runs a sudoku command.
pub fn run(command: SudokuCommand) -> CliResult {
    match command {
        SudokuCommand::Photo(args) => sudoku_photo::run(args),
    }
}
