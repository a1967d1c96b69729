//! `snapsolve train set-detector`: reproduce the SET card detector's weights from scratch.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use snapsolve::train::set_detector::{DetectorProgress, DetectorTraining, train_set_detector};

use crate::error::{CliError, CliResult};
use crate::input::print_json;
use crate::output::outln;
use crate::progress::StageBar;

/// Options of `snapsolve train set-detector`; the defaults reproduce the committed weights.
#[derive(Debug, Args)]
pub struct SetDetectorArgs {
    /// Where to write the weights.
    #[arg(long, default_value = "models/set_detector.safetensors")]
    out: PathBuf,
    /// Optimiser steps.
    #[arg(long)]
    steps: Option<usize>,
    /// Rendered tables to train on.
    #[arg(long)]
    scenes: Option<usize>,
    /// Random seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// Runs `snapsolve train set-detector`.
pub fn run(args: SetDetectorArgs) -> CliResult {
    let mut spec = DetectorTraining::reference(args.out);
    spec.steps = args.steps.unwrap_or(spec.steps);
    spec.scenes = args.scenes.unwrap_or(spec.scenes).max(1);
    spec.seed = args.seed.unwrap_or(spec.seed);
    let mut bar = StageBar::new();
    let report = train_set_detector(&spec, &mut |p| match p {
        DetectorProgress::Rendering(d, t) => bar.update("rendering tables", d, t, ""),
        DetectorProgress::Step(r, t) => {
            bar.update("training", r.step + 1, t, &format!("loss {:.4}", r.loss))
        }
    })
    .map_err(CliError::failed)?;
    bar.finish();
    let [paper, core] = report.validation_agreement;
    if args.json {
        print_json(&json!({
            "weights": report.out.display().to_string(),
            "final_loss": report.final_loss,
            "validation_pixels_right": {"paper": paper, "core": core},
            "core_grow": report.core_grow,
            "validation_cards": {"detected": report.validation_cards.0, "of": report.validation_cards.1,
                                 "median_corner_error_card_widths": report.validation_corner_error},
        }));
    } else {
        outln!(
            "weights written to {} (final loss {:.4}); validation tables: {:.2}% of paper pixels and {:.2}% of core pixels right",
            report.out.display(),
            report.final_loss,
            100.0 * paper,
            100.0 * core
        );
        outln!(
            "validation tables: {} of {} cards have a core; their outlines (core grown by {:.3}) are off by a median {:.3} card widths at the worst corner",
            report.validation_cards.0,
            report.validation_cards.1,
            report.core_grow,
            report.validation_corner_error
        );
    }
    Ok(())
}
