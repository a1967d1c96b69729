//! `snapsolve`: solve table-top puzzles from text or photos.
//!
//! This binary only turns arguments into calls of the `snapsolve` library and
//! its answers into text, JSON and pictures; one place ([`main`]) turns errors
//! into messages and exit codes.

mod commands;
mod error;
mod input;
mod output;
mod progress;

use std::process::ExitCode;

use clap::Parser;

use crate::commands::Command;

/// Solve SET tables and sudokus from photos or text, offline, in milliseconds.
#[derive(Debug, Parser)]
#[command(name = "snapsolve", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    match commands::run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("snapsolve: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}
