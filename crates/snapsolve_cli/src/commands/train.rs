//! `snapsolve train ...`: reproduce the committed network weights from scratch.

use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use snapsolve::sudoku_photo::train::{Config, DigitTraining, Progress, train_digits};

use crate::error::{CliError, CliResult};
use crate::output::outln;

/// Which network to train.
#[derive(Debug, Subcommand)]
pub enum TrainCommand {
    /// The sudoku cell reader (empty or 1-9), from the training photos of the
    /// shared data set, digits rendered from fonts and real handwritten digits
    /// laid into rendered grids. Uses one core.
    Digits {
        /// The shared data folder (default: $SNAPSOLVE_DATA or ../shared/data).
        #[arg(long)]
        data: Option<PathBuf>,
        /// Where to write the weights.
        #[arg(long, default_value = "models/sudoku_digits.safetensors")]
        out: PathBuf,
        /// Optimiser steps (batches of 128 cells; the committed weights took
        /// 16,000, about 75 minutes on one core).
        #[arg(long, default_value_t = 16000)]
        steps: usize,
        /// Jittered copies of each training photo's cells.
        #[arg(long, default_value_t = 3)]
        jitters: usize,
        /// Sudoku photos rendered from system fonts and real handwritten digits
        /// (0 = real photos only).
        #[arg(long, default_value_t = 2400)]
        rendered: usize,
        /// Seed of everything random.
        #[arg(long, default_value_t = 6)]
        seed: u64,
        /// The network's size (the committed weights: deeper).
        #[arg(long, value_enum, default_value_t = DigitNetSize::Deeper)]
        net: DigitNetSize,
        /// Do not bend and slant half the cells each time they are drawn (by
        /// default they are: another hand's version of the same strokes).
        #[arg(long)]
        no_warp: bool,
        /// Do not soil a quarter of the cells each time they are drawn (by
        /// default they are: a dark photo's mottle, print showing through,
        /// smudges, a shadow's edge; dirt on an empty cell is no digit).
        #[arg(long)]
        no_soil: bool,
        /// Accepted for the commands of sessions 13-15 (`--warp` is the
        /// default since session 16).
        #[arg(long, hide = true, conflicts_with = "no_warp")]
        warp: bool,
        /// Accepted for the session-15 command (`--soil` is the default since
        /// session 16).
        #[arg(long, hide = true, conflicts_with = "no_soil")]
        soil: bool,
    },
    /// The SET card network, from rendered cards of both editions plus real
    /// crops split by source photo. Uses one core.
    SetCards(super::train_set_cards::SetCardsArgs),
    /// The SET card detector (where cards lie, even white on white or edge
    /// to edge), from rendered tables only. Uses one core.
    SetDetector(super::train_set_detector::SetDetectorArgs),
}

/// Shapes of the digit network (`snapsolve_nn::digits::Config`).
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum DigitNetSize {
    /// Two convolutions of 12 and 24 channels, 96 hidden units (the
    /// default until session 15).
    Small,
    /// Convolutions of 16, 32 and 64 channels, 128 hidden units (the
    /// default, and the committed weights' network).
    Deeper,
}

impl DigitNetSize {
    fn config(self) -> Config {
        match self {
            DigitNetSize::Small => Config::small(),
            DigitNetSize::Deeper => Config::deeper(),
        }
    }
}

/// Runs a training command.
pub fn run(command: TrainCommand) -> CliResult {
    match command {
        TrainCommand::SetCards(args) => super::train_set_cards::run(args),
        TrainCommand::SetDetector(args) => super::train_set_detector::run(args),
        TrainCommand::Digits {
            data,
            out,
            steps,
            jitters,
            rendered,
            seed,
            net,
            no_warp,
            no_soil,
            warp: _,
            soil: _,
        } => {
            let data_dir = data
                .or_else(snapsolve::data::shared_data_dir)
                .ok_or_else(|| {
                    CliError::usage("no data folder: pass --data or set SNAPSOLVE_DATA")
                })?;
            let job = DigitTraining {
                data_dir,
                out: out.clone(),
                steps,
                jitters,
                rendered_photos: rendered,
                seed,
                net: net.config(),
                warp: !no_warp,
                soil: !no_soil,
            };
            let bar = ProgressBar::new(steps as u64);
            if let Ok(style) = ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len} (eta {eta})",
            ) {
                bar.set_style(style);
            }
            // indicatif drops println on a hidden bar (output not a terminal): logs still want the lines.
            let say = |line: String| {
                if bar.is_hidden() {
                    eprintln!("{line}");
                } else {
                    bar.println(line);
                }
            };
            let summary = train_digits(&job, |p| match p {
                Progress::Preparing(what) => say(what.to_string()),
                Progress::Step(r) => {
                    bar.set_position(r.step as u64 + 1);
                    bar.set_message(format!("loss {:.3}", r.loss));
                }
                Progress::Validation(step, v) => say(format!(
                    "step {step:>6}: validation photo cells {:.2}% (their handwriting {:.2}%), kept-back written digits {:.2}%",
                    100.0 * v.photo_cells,
                    100.0 * v.photo_handwriting,
                    100.0 * v.written_cells
                )),
            })
            .map_err(CliError::failed)?;
            bar.finish_and_clear();
            let [hand, other, rendered] = summary.pool_sizes;
            outln!(
                "trained {steps} steps on {hand} handwritten + {other} other cells from {} photos ({} skipped) and {rendered} cells from {} rendered photos; validation photo cells {:.2}% of {} (handwriting {:.2}%), kept-back written digits {:.2}% of {} cells; weights in {}",
                summary.photos_used,
                summary.photos_skipped,
                summary.rendered_used,
                100.0 * summary.validation.photo_cells,
                summary.validation_cells,
                100.0 * summary.validation.photo_handwriting,
                100.0 * summary.validation.written_cells,
                summary.validation_written_cells,
                out.display()
            );
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Train {
        #[command(subcommand)]
        command: TrainCommand,
    }

    /// The network and the two augmentations a `train` command line asks for.
    fn recipe(args: &[&str]) -> Result<(DigitNetSize, bool, bool), clap::Error> {
        let line = ["train", "digits"].iter().chain(args);
        match Train::try_parse_from(line)?.command {
            TrainCommand::Digits {
                net,
                no_warp,
                no_soil,
                ..
            } => Ok((net, !no_warp, !no_soil)),
            other => panic!("not the digits command: {other:?}"),
        }
    }

    #[test]
    fn the_defaults_are_the_committed_weights_recipe() {
        let plain = recipe(&[]).expect("parses");
        assert!(matches!(plain, (DigitNetSize::Deeper, true, true)));
        let session15 = recipe(&["--net", "deeper", "--warp", "--soil"]).expect("parses");
        assert!(matches!(session15, (DigitNetSize::Deeper, true, true)));
        let old = recipe(&["--net", "small", "--no-warp", "--no-soil"]).expect("parses");
        assert!(matches!(old, (DigitNetSize::Small, false, false)));
        assert!(recipe(&["--warp", "--no-warp"]).is_err());
        assert!(recipe(&["--soil", "--no-soil"]).is_err());
    }
}
