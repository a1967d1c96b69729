//! `snapsolve train digits`: the training examples for the digit network and the
//! training run that writes its weights.
//!
//! Examples come from two places: cells cut from the training photos of the shared
//! data set (with the grid found by the same code that reads photos, several times
//! with the lattice jittered, so the network learns to tolerate a slightly
//! misplaced cell), and digits rendered by `snapsolve_synth` from many fonts with
//! camera-like distortions. Held-out photos ([`Split::HeldOut`]) are never read.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device};
use candle_nn::{VarBuilder, VarMap};
use image::GrayImage;
use snapsolve_nn::digits::{Config, DigitNet};
use snapsolve_nn::train::{EpochReport, Examples, SplitMix, TrainConfig, train_classifier};
use snapsolve_vision::grid::lattice::fit_lattice;
use snapsolve_vision::grid::{CELL_INPUT_SIDE, Lattice, darkest_channel, find_grid, sample_cells};
use snapsolve_vision::{Limits, read_image};

use super::labels::{LabelledPhoto, Split, read_labels, split_of};

/// What to train on and how long.
#[derive(Clone, Debug)]
pub struct DigitTraining {
    /// The shared data folder (holding `sudoku/photos.jsonl`).
    pub data_dir: PathBuf,
    /// Where the weights go (safetensors).
    pub out: PathBuf,
    /// Passes over the examples.
    pub epochs: usize,
    /// Jittered copies of each training photo's cells (besides the exact one).
    pub jitters: usize,
    /// Rendered examples per class (0 = photos only).
    pub rendered_per_class: usize,
    /// Seed of everything random.
    pub seed: u64,
}

/// How a training run went.
#[derive(Clone, Debug)]
pub struct TrainingSummary {
    /// Photos whose cells were used, and photos skipped (no grid found).
    pub photos_used: usize,
    /// Photos skipped because no grid was found.
    pub photos_skipped: usize,
    /// Training and validation examples.
    pub train_examples: usize,
    /// Validation examples (cells of the validation photos).
    pub validation_examples: usize,
    /// One report per epoch.
    pub epochs: Vec<EpochReport>,
}

/// The lattice used to cut a training photo: the one found, unless the label's
/// corners say it found the wrong thing (then the lattice fitted inside the
/// labelled corners).
fn training_lattice(gray: &GrayImage, photo: &LabelledPhoto) -> Option<Lattice> {
    let found = find_grid(gray);
    let Some(label) = photo.quad() else {
        return found.map(|f| f.lattice);
    };
    let cell = snapsolve_vision::grid::quad_area(&label).sqrt() / 9.0;
    if let Some(f) = &found {
        let worst = f
            .corners
            .iter()
            .zip(label.iter())
            .map(|(a, b)| (a.0 - b.0).hypot(a.1 - b.1))
            .fold(0.0f32, f32::max);
        if worst < cell / 2.0 {
            return found.map(|f| f.lattice);
        }
    }
    fit_lattice(gray, &label)
        .map(|f| f.lattice)
        .or_else(|| Lattice::even(&label))
}

/// The lattice with every crossing moved by up to `amount` cells at random.
fn jittered(lattice: &Lattice, amount: f32, rng: &mut SplitMix) -> Lattice {
    let p = &lattice.points;
    let cell = ((p[0][9].0 - p[0][0].0).hypot(p[0][9].1 - p[0][0].1)) / 9.0;
    let shift = (
        (rng.unit() - 0.5) * amount * cell,
        (rng.unit() - 0.5) * amount * cell,
    );
    let mut out = lattice.clone();
    for row in out.points.iter_mut() {
        for q in row.iter_mut() {
            q.0 += shift.0 + (rng.unit() - 0.5) * amount * cell;
            q.1 += shift.1 + (rng.unit() - 0.5) * amount * cell;
        }
    }
    out
}

/// Cells of the labelled photos in `split`, as examples; returns them with the
/// number of photos used and skipped.
pub fn photo_examples(
    data_dir: &Path,
    photos: &[LabelledPhoto],
    split: Split,
    jitters: usize,
    rng: &mut SplitMix,
) -> (Examples, usize, usize) {
    let mut examples = Examples::new(&[1, CELL_INPUT_SIDE, CELL_INPUT_SIDE]);
    let (mut used, mut skipped) = (0, 0);
    for photo in photos.iter().filter(|p| split_of(&p.image) == split) {
        assert_ne!(
            split,
            Split::HeldOut,
            "held-out photos are never trained on"
        );
        let (Ok(rgb), Some(digits)) = (
            read_image(&data_dir.join(&photo.image), Limits::default()),
            photo.digits(),
        ) else {
            skipped += 1;
            continue;
        };
        let gray = darkest_channel(&rgb);
        let Some(lattice) = training_lattice(&gray, photo) else {
            skipped += 1;
            continue;
        };
        used += 1;
        let mut lattices = vec![lattice.clone()];
        lattices.extend((0..jitters).map(|_| jittered(&lattice, 0.12, rng)));
        for l in &lattices {
            let cells = sample_cells(&gray, l);
            for (i, &d) in digits.iter().enumerate() {
                examples.push(cells.cell(i), u32::from(d));
            }
        }
    }
    (examples, used, skipped)
}

/// Fresh distortions for each use of an example: a shift of up to two pixels,
/// ink strength scaled, a little noise.
pub fn augment_cell(cell: &mut [f32], rng: &mut SplitMix) {
    let side = CELL_INPUT_SIDE as i32;
    let dx = rng.below(5) as i32 - 2;
    let dy = rng.below(5) as i32 - 2;
    let gain = 0.7 + 0.5 * rng.unit();
    let noise = 0.05 * rng.unit();
    let source = cell.to_vec();
    for y in 0..side {
        for x in 0..side {
            let (sx, sy) = (x - dx, y - dy);
            let v = if (0..side).contains(&sx) && (0..side).contains(&sy) {
                source[(sy * side + sx) as usize]
            } else {
                0.0
            };
            let n = (rng.unit() - 0.5) * 2.0 * noise;
            cell[(y * side + x) as usize] = (v * gain + n).clamp(0.0, 1.0);
        }
    }
}

/// Runs the whole training and saves the weights; `on_epoch` hears each epoch.
pub fn train_digits(
    job: &DigitTraining,
    extra: Option<Examples>,
    on_epoch: impl FnMut(&EpochReport),
) -> Result<TrainingSummary, String> {
    let labels = read_labels(&job.data_dir.join("sudoku/photos.jsonl"))?;
    let mut rng = SplitMix(job.seed);
    let (mut train_set, used, skipped) =
        photo_examples(&job.data_dir, &labels, Split::Train, job.jitters, &mut rng);
    let (validation, used_v, skipped_v) =
        photo_examples(&job.data_dir, &labels, Split::Validation, 0, &mut rng);
    if let Some(extra) = extra {
        train_set.inputs.extend_from_slice(&extra.inputs);
        train_set.labels.extend_from_slice(&extra.labels);
    }
    if train_set.is_empty() {
        return Err("no training examples (is the data folder right?)".into());
    }
    let vars = VarMap::new();
    let vb = VarBuilder::from_varmap(&vars, DType::F32, &Device::Cpu);
    let net = DigitNet::new(&Config::small(), vb).map_err(|e| e.to_string())?;
    let config = TrainConfig {
        epochs: job.epochs,
        batch_size: 128,
        learning_rate: 3e-3,
        weight_decay: 1e-4,
        seed: job.seed,
    };
    let epochs = train_classifier(
        &vars,
        |xs, train| net.forward_t(xs, train),
        &train_set,
        &validation,
        &config,
        augment_cell,
        on_epoch,
    )
    .map_err(|e| e.to_string())?;
    vars.save(&job.out)
        .map_err(|e| format!("cannot write {}: {e}", job.out.display()))?;
    Ok(TrainingSummary {
        photos_used: used + used_v,
        photos_skipped: skipped + skipped_v,
        train_examples: train_set.len(),
        validation_examples: validation.len(),
        epochs,
    })
}
