//! The subcommands, one module per puzzle family.

mod set;
mod train;
mod stats;

use clap::Subcommand;

use crate::error::CliResult;

/// What snapsolve can do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// SET: find SETs among card names, check three cards, get a hint.
    #[command(subcommand)]
    Set(set::SetCommand),
    /// Train a network from scratch (reproduces the committed weights).
    #[command(subcommand)]
    Train(train::TrainCommand),
}

/// Runs one subcommand.
pub fn run(command: Command) -> CliResult {
    match command {
        Command::Set(command) => set::run(command),
        Command::Train(command) => train::run(command),
    }
}
