//! `snapsolve train set-detector`: reproduce the SET card detector's weights from scratch.

use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use snapsolve::train::set_detector::{DetectorProgress, DetectorTraining, train_set_detector};

use crate::error::{CliError, CliResult};
use crate::input::print_json;

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
    let bar = ProgressBar::new(0);
    let mut stage = "";
    let report = train_set_detector(&spec, &mut |p| {
        let (name, done, total, message) = match p {
            DetectorProgress::Rendering(d, t) => ("rendering tables", d, t, String::new()),
            DetectorProgress::Step(r, t) => {
                ("training", r.step + 1, t, format!("loss {:.4}", r.loss))
            }
        };
        if name != stage {
            stage = name;
            bar.reset();
            bar.set_length(total as u64);
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{name:>16} [{{bar:30}}] {{pos}}/{{len}} {{msg}} ({{elapsed}}, eta {{eta}})"
                ))
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
        }
        bar.set_position(done as u64);
        bar.set_message(message);
        if !bar.is_hidden() {
            return;
        }
        // Without a terminal the bar is hidden: log every tenth instead.
        if total >= 10 && done % (total / 10) == 0 {
            eprintln!(
                "{name}: {done}/{total} ({:.0} s)",
                bar.elapsed().as_secs_f64()
            );
        }
    })
    .map_err(CliError::failed)?;
    bar.finish_and_clear();
    let [paper, core] = report.validation_agreement;
    if args.json {
        print_json(&json!({
            "weights": report.out.display().to_string(),
            "final_loss": report.final_loss,
            "validation_pixels_right": {"paper": paper, "core": core},
        }));
    } else {
        println!(
            "weights written to {} (final loss {:.4}); validation tables: {:.2}% of paper pixels and {:.2}% of core pixels right",
            report.out.display(),
            report.final_loss,
            100.0 * paper,
            100.0 * core
        );
    }
    Ok(())
}
