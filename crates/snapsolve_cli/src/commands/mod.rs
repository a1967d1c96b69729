//! The subcommands, one module per puzzle family.

mod eval;
mod eval_set;
mod eval_stress;
mod eval_sudoku_stress;
mod serve;
mod set;
mod set_photo;
mod stats;
mod sudoku;
mod sudoku_photo;
mod train;
mod train_set_cards;
mod train_set_detector;

use clap::Subcommand;

use crate::error::CliResult;

/// What snapsolve can do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// SET: read a photo of a table, find SETs among named cards, get a hint, statistics.
    #[command(subcommand)]
    Set(set::SetCommand),
    /// Train a network from scratch (reproduces the committed weights).
    #[command(subcommand)]
    Train(train::TrainCommand),
    /// Sudoku: solve and count solutions, get a hint, measure the solvers, read a photo.
    #[command(subcommand)]
    Sudoku(sudoku::SudokuCommand),
    /// Measure the readers' accuracy and speed on labelled photos, crops and rendered tables.
    #[command(subcommand)]
    Eval(eval::EvalCommand),
    /// Serve the camera page: point a phone or webcam at a SET table or a sudoku
    /// and see the answer on the video (http://localhost:8080/ by default).
    Serve(serve::ServeArgs),
}

/// Runs one subcommand.
pub fn run(command: Command) -> CliResult {
    match command {
        Command::Set(command) => set::run(command),
        Command::Train(command) => train::run(command),
        Command::Sudoku(command) => sudoku::run(command),
        Command::Eval(command) => eval::run(command),
        Command::Serve(args) => serve::run(args),
    }
}
