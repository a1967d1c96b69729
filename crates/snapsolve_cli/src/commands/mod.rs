//! The subcommands, one module per puzzle family.

mod set;
mod stats;
mod sudoku;

use clap::Subcommand;

use crate::error::CliResult;

/// What snapsolve can do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// SET: find SETs among card names, check three cards, get a hint.
    #[command(subcommand)]
    Set(set::SetCommand),
    /// Sudoku: solve and count solutions, get a hint, measure the solvers.
    #[command(subcommand)]
    Sudoku(sudoku::SudokuCommand),
}

/// Runs one subcommand.
pub fn run(command: Command) -> CliResult {
    match command {
        Command::Set(command) => set::run(command),
        Command::Sudoku(command) => sudoku::run(command),
    }
}
