//! The subcommands, one module per puzzle family.

mod set;
mod stats;

use clap::Subcommand;

use crate::error::CliResult;

/// What snapsolve can do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// SET: find SETs among card names, check three cards, get a hint.
    #[command(subcommand)]
    Set(set::SetCommand),
}

/// Runs one subcommand.
pub fn run(command: Command) -> CliResult {
    match command {
        Command::Set(command) => set::run(command),
    }
}
