//! `snapsolve train ...`: reproduce the committed network weights from scratch.

use std::path::PathBuf;

use clap::Subcommand;
use snapsolve::sudoku_photo::train::{DigitTraining, train_digits};

use crate::error::{CliError, CliResult};

/// Which network to train.
#[derive(Debug, Subcommand)]
pub enum TrainCommand {
    /// The sudoku cell reader (empty or 1-9), from the training photos of the
    /// shared data set and digits rendered from fonts. Uses one core.
    Digits {
        /// The shared data folder (default: $SNAPSOLVE_DATA or ../shared/data).
        #[arg(long)]
        data: Option<PathBuf>,
        /// Where to write the weights.
        #[arg(long, default_value = "models/sudoku_digits.safetensors")]
        out: PathBuf,
        /// Passes over the examples.
        #[arg(long, default_value_t = 12)]
        epochs: usize,
        /// Jittered copies of each training photo's cells.
        #[arg(long, default_value_t = 3)]
        jitters: usize,
        /// Rendered digits per class (0 = photos only).
        #[arg(long, default_value_t = 0)]
        rendered: usize,
        /// Seed of everything random.
        #[arg(long, default_value_t = 6)]
        seed: u64,
    },
    /// The SET card network, from rendered cards of both editions plus real
    /// crops split by source photo. Uses one core.
    SetCards(super::train_set_cards::SetCardsArgs),
}

/// Runs a training command.
pub fn run(command: TrainCommand) -> CliResult {
    match command {
        TrainCommand::SetCards(args) => super::train_set_cards::run(args),
        TrainCommand::Digits {
            data,
            out,
            epochs,
            jitters,
            rendered,
            seed,
        } => {
            let data_dir = data
                .or_else(snapsolve::data::shared_data_dir)
                .ok_or_else(|| {
                    CliError::usage("no data folder: pass --data or set SNAPSOLVE_DATA")
                })?;
            let job = DigitTraining {
                data_dir,
                out: out.clone(),
                epochs,
                jitters,
                rendered_per_class: rendered,
                seed,
            };
            let start = std::time::Instant::now();
            let summary = train_digits(&job, None, |r| {
                eprintln!(
                    "epoch {:>3}  loss {:.4}  validation accuracy {}  ({:.0} s)",
                    r.epoch,
                    r.train_loss,
                    r.validation_accuracy
                        .map_or("-".to_string(), |a| format!("{:.4}", a)),
                    start.elapsed().as_secs_f64()
                );
            })
            .map_err(CliError::failed)?;
            println!(
                "trained on {} examples ({} validation) from {} photos ({} without a grid); weights in {}",
                summary.train_examples,
                summary.validation_examples,
                summary.photos_used,
                summary.photos_skipped,
                out.display()
            );
            Ok(())
        }
    }
}
