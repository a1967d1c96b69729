//! `snapsolve train set-cards`: reproduce the SET card network's weights from scratch.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use snapsolve::train::set_cards::{
    SetCardsTraining, TrainProgress, TrainingReport, train_set_cards,
};

use crate::error::{CliError, CliResult};
use crate::input::print_json;
use crate::output::outln;
use crate::progress::StageBar;

/// Options of `snapsolve train set-cards`; the defaults reproduce the committed weights.
#[derive(Debug, Args)]
pub struct SetCardsArgs {
    /// The shared data folder holding set/crops.csv (default: $SNAPSOLVE_DATA or ../shared/data).
    #[arg(long)]
    data: Option<PathBuf>,
    /// Where to write the weights.
    #[arg(long, default_value = "models/set_cards.safetensors")]
    out: PathBuf,
    /// Optimiser steps.
    #[arg(long)]
    steps: Option<usize>,
    /// Rendered crops in the synthetic pool.
    #[arg(long)]
    synthetic: Option<usize>,
    /// Rendered crops that are not a card (paper, playing cards, half cards…).
    #[arg(long)]
    lookalikes: Option<usize>,
    /// Rendered tables whose cards are cut out where the card finder outlines them, to
    /// learn from too (default 0: 800 read real photos worse, docs/evaluation.md)
    #[arg(long)]
    tables: Option<usize>,
    /// Rendered tables with clutter and no card, whose outlines the card finder gives
    /// are learnt as not a card (default 1500)
    #[arg(long)]
    clutter_tables: Option<usize>,
    /// Share of rendered cards and clutter tables laid on real photographs (GIMP's
    /// photographed wood, stone, leather and cloth, from Debian's gimp-data, and the
    /// shared sudoku photos of the training part) instead of drawn surfaces, 0 to 1
    /// (default 0: 0.3 read the photos as the committed weights do, docs/evaluation.md)
    #[arg(long, value_name = "SHARE", value_parser = share)]
    real_backdrops: Option<f64>,
    /// Share of rendered cards whose stripes are printed faintly, as on worn cards or
    /// cards far away, 0 to 1 (default 0: 0.3 named real cards no better, docs/evaluation.md)
    #[arg(long, value_name = "SHARE", value_parser = share)]
    faded_stripes: Option<f64>,
    /// Random seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
}

/// A share from 0 to 1.
fn share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{text:?} is not a share from 0 to 1")),
    }
}

/// Runs `snapsolve train set-cards`.
pub fn run(args: SetCardsArgs) -> CliResult {
    let data = match args.data {
        Some(dir) => dir,
        None => snapsolve::data::shared_data_dir().ok_or_else(|| {
            CliError::usage("no shared data folder: pass --data DIR or set SNAPSOLVE_DATA")
        })?,
    };
    let mut spec = SetCardsTraining::reference(data, args.out);
    spec.steps = args.steps.unwrap_or(spec.steps);
    spec.synthetic = args.synthetic.unwrap_or(spec.synthetic).max(1);
    spec.lookalikes = args.lookalikes.unwrap_or(spec.lookalikes);
    spec.tables = args.tables.unwrap_or(spec.tables);
    spec.clutter_tables = args.clutter_tables.unwrap_or(spec.clutter_tables);
    spec.real_backdrops = args.real_backdrops.unwrap_or(spec.real_backdrops);
    spec.faded_stripes = args.faded_stripes.unwrap_or(spec.faded_stripes);
    spec.seed = args.seed.unwrap_or(spec.seed);
    let mut bar = StageBar::new();
    let report = train_set_cards(&spec, &mut |p| match p {
        TrainProgress::Loading(d, t) => bar.update("reading crops", d, t, ""),
        TrainProgress::Rendering(d, t) => bar.update("rendering cards", d, t, ""),
        TrainProgress::CardFree(d, t) => bar.update("card-free photos", d, t, ""),
        TrainProgress::Lookalikes(d, t) => bar.update("rendering others", d, t, ""),
        TrainProgress::Tables(d, t) => bar.update("cutting cards from tables", d, t, ""),
        TrainProgress::ClutterTables(d, t) => bar.update("cutting clutter tables", d, t, ""),
        TrainProgress::Step(r, t) => {
            bar.update("training", r.step + 1, t, &format!("loss {:.3}", r.loss))
        }
    })
    .map_err(CliError::failed)?;
    bar.finish();
    if args.json {
        print_json(&report_json(&report));
    } else {
        print_report(&report);
    }
    Ok(())
}

fn report_json(report: &TrainingReport) -> serde_json::Value {
    let scores = |s: &[(String, snapsolve::train::set_cards::Score)]| {
        s.iter()
            .map(|(edition, s)| {
                json!({"deck": edition, "crops": s.crops, "all_right": s.all_right, "accuracy": s.accuracy(),
                       "taken_for_cards": s.taken_for_cards,
                       "attribute_right": {"number": s.attribute_right[0], "color": s.attribute_right[1],
                                           "shading": s.attribute_right[2], "shape": s.attribute_right[3]}})
            })
            .collect::<Vec<_>>()
    };
    json!({
        "weights": report.out.display().to_string(),
        "final_loss": report.final_loss,
        "split": report.split.iter().map(|s| json!({"source": s.source,
            "train": {"crops": s.train.0, "photos": s.train.1},
            "validation": {"crops": s.validation.0, "photos": s.validation.1},
            "held_out": {"crops": s.held_out.0, "photos": s.held_out.1}})).collect::<Vec<_>>(),
        "validation": scores(&report.validation),
        "held_out": scores(&report.held_out),
        "train": scores(&report.train),
        "negatives": {"real": report.negatives.0, "rendered": report.negatives.1,
                      "clutter_tables": report.negatives.2},
        "rendered_cards": {"whole": report.rendered.0, "from_tables": report.rendered.1},
        "card_free_validation": {"crops": report.card_free_validation.0,
                                 "taken_for_cards": report.card_free_validation.1},
    })
}

fn print_report(report: &TrainingReport) {
    outln!(
        "weights written to {} (final loss {:.4})",
        report.out.display(),
        report.final_loss
    );
    outln!("split by source photo:");
    for s in &report.split {
        outln!(
            "  {:<11} train {:>5} crops from {:>3} photos, validation {:>4} crops from {:>3} photos, held out {:>4} crops from {:>3} photos",
            s.source,
            s.train.0,
            s.train.1,
            s.validation.0,
            s.validation.1,
            s.held_out.0,
            s.held_out.1
        );
    }
    for (title, scores) in [
        ("validation (recipe choices)", &report.validation),
        ("held out (never trained on)", &report.held_out),
        ("training crops (fit check)", &report.train),
    ] {
        outln!("{title}:");
        for (deck, s) in scores.iter() {
            let pct = |n: usize| 100.0 * n as f64 / s.crops.max(1) as f64;
            outln!(
                "  {deck:<16} {:>5} crops: all four right {:6.2}%  number {:6.2}%  color {:6.2}%  shading {:6.2}%  shape {:6.2}%  taken for cards {:6.2}%",
                s.crops,
                100.0 * s.accuracy(),
                pct(s.attribute_right[0]),
                pct(s.attribute_right[1]),
                pct(s.attribute_right[2]),
                pct(s.attribute_right[3]),
                pct(s.taken_for_cards)
            );
        }
    }
    let (crops, taken) = report.card_free_validation;
    outln!(
        "not a card: trained on {} real card-free crops, {} rendered ones and {} outlined on clutter tables; validation card-free crops taken for cards: {taken} of {crops}",
        report.negatives.0,
        report.negatives.1,
        report.negatives.2
    );
    outln!(
        "rendered cards: {} cut whole, {} cut from tables where the finder outlines them",
        report.rendered.0,
        report.rendered.1
    );
}
