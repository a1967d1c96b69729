//! `snapsolve train set-detector`: the SET card detector
//! (`snapsolve_nn::set_detector`) from rendered tables only.
//!
//! Each scene is a `snapsolve_synth` table drawn at 512x384 under random
//! conditions (0 to 21 cards filling 25-90% of the frame, touching or apart,
//! turned, seen up to 60 degrees off vertical, on cloth, wood, weaves, white
//! desks and light wood, with card shadows, lookalikes and clutter, in any
//! light) and shrunk to the detector's 256x192 input, as a photo is. Targets
//! are drawn from the true corners at the output's half resolution: card
//! paper, and each card's core (the card shrunk to half about its centre).
//! The stress suite's tables come from other seeds (`set_photo::stress`).

use std::collections::HashMap;
use std::path::PathBuf;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarMap;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use snapsolve_nn::seeded::seeded_var_builder;
use snapsolve_nn::set_detector::{DetectorInference, SetDetector, detector_loss, pixel_agreement};
use snapsolve_nn::train_stream::{StepReport, TrainConfig, train_loop};
use snapsolve_synth::{Edition, Lighting, Surface, Table, TableSpec, render_table};

use snapsolve_vision::Quad;
use snapsolve_vision::cards::cores::quads_from_cores;

use super::set_cards::TrainError;
use crate::set_photo::detector::{
    CORE_GROW, CORE_LEVEL, CORE_SHRINK, DETECTOR_HEIGHT, DETECTOR_WIDTH, core_map,
};
use crate::set_photo::example::seeded_cards;
use crate::set_photo::network::standardise;
use crate::set_photo::stress::{card_width, corner_error};

/// Scenes are drawn this many times larger than the detector's input, then shrunk.
const RENDER_SCALE: u32 = 2;
/// Weight of positive pixels in the loss. 2 was tried first: the blobs of
/// the core map came out nearly card-sized and ran together on white tables.
const POSITIVE_WEIGHT: f64 = 1.0;

/// What to train and where to put it.
#[derive(Clone, Debug)]
pub struct DetectorTraining {
    /// Where the safetensors weights are written.
    pub out: PathBuf,
    /// Optimiser steps.
    pub steps: usize,
    /// Scenes per step.
    pub batch_size: usize,
    /// Rendered scenes in the pool the batches draw from (mirrored at random).
    pub scenes: usize,
    /// Rendered scenes kept apart to validate.
    pub validation_scenes: usize,
    /// Seed of every random choice.
    pub seed: u64,
}

impl DetectorTraining {
    /// The recipe that made the committed weights.
    pub fn reference(out: PathBuf) -> DetectorTraining {
        DetectorTraining {
            out,
            steps: 2000,
            batch_size: 8,
            scenes: 2400,
            validation_scenes: 100,
            seed: 4004,
        }
    }
}

/// Progress of a training run.
#[derive(Clone, Debug)]
pub enum DetectorProgress {
    /// Scenes rendered so far, of the total.
    Rendering(usize, usize),
    /// One optimiser step done, of the total.
    Step(StepReport, usize),
}

/// What a training run did.
#[derive(Clone, Debug)]
pub struct DetectorReport {
    /// Mean loss over the last 100 steps.
    pub final_loss: f32,
    /// Share of validation pixels right, for paper and for cores.
    pub validation_agreement: [f32; 2],
    /// Factor growing a core blob's rectangle to its card (median over the
    /// validation tables), stored with the weights as `decode.core_grow`.
    pub core_grow: f32,
    /// Validation cards with a core blob centred on them, of all.
    pub validation_cards: (usize, usize),
    /// Median corner error of those outlines, in card widths.
    pub validation_corner_error: f32,
    /// Weights written.
    pub out: PathBuf,
}

/// One rendered scene at the detector's input size with its targets.
struct Scene {
    /// Interleaved RGB, `DETECTOR_WIDTH x DETECTOR_HEIGHT`.
    pixels: Vec<u8>,
    /// Paper then core masks (0/1) at half the input's resolution.
    targets: Vec<f32>,
    /// True card corners in the masks' pixels.
    cards: Vec<[[f32; 2]; 4]>,
}

/// Trains the detector from scratch and writes its weights to `spec.out`.
pub fn train_set_detector(
    spec: &DetectorTraining,
    progress: &mut dyn FnMut(DetectorProgress),
) -> Result<DetectorReport, TrainError> {
    let total = spec.scenes + spec.validation_scenes;
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let mut scenes = Vec::with_capacity(total);
    for i in 0..total {
        scenes.push(random_scene(&mut rng));
        progress(DetectorProgress::Rendering(i + 1, total));
    }
    let validation = scenes.split_off(spec.scenes);
    let device = Device::Cpu;
    let varmap = VarMap::new();
    let net = SetDetector::new(seeded_var_builder(&varmap, spec.seed, DType::F32, &device))?;
    let config = TrainConfig {
        steps: spec.steps,
        learning_rate: 3e-3,
        warmup_steps: 50,
        weight_decay: 1e-4,
    };
    let losses = train_loop(
        &varmap,
        &config,
        |_| batch(&scenes, spec.batch_size, &mut rng),
        |(x, y)| detector_loss(&net.forward(x)?, y, POSITIVE_WEIGHT),
        |report| progress(DetectorProgress::Step(*report, spec.steps)),
    )?;
    let (x, y) = tensors(&validation)?;
    let agreement = pixel_agreement(&net.forward(&x)?, &y)?.to_vec1::<f32>()?;
    let inference = net.to_inference()?;
    // The net runs once over the validation tables; growing a blob's
    // rectangle is scaling it about its centre.
    let blobs = blobs_on_cards(&inference, &validation);
    let core_grow = calibrate_grow(&blobs);
    let (validation_cards, validation_corner_error) =
        outline_quality(&blobs, &validation, core_grow);
    save_with_grow(&varmap, core_grow, &spec.out)?;
    let tail = &losses[losses.len().saturating_sub(100)..];
    Ok(DetectorReport {
        final_loss: tail.iter().sum::<f32>() / tail.len().max(1) as f32,
        validation_agreement: [agreement[0], agreement[1]],
        core_grow,
        validation_cards,
        validation_corner_error,
        out: spec.out.clone(),
    })
}

/// Every core blob of every scene (ungrown) with the true card its centre lies in.
fn blobs_on_cards<'a>(
    net: &DetectorInference,
    scenes: &'a [Scene],
) -> Vec<(Quad, &'a [[f32; 2]; 4])> {
    let mut out = Vec::new();
    for scene in scenes {
        let map = core_map(net, &scene.pixels, DETECTOR_WIDTH, DETECTOR_HEIGHT);
        for blob in quads_from_cores(&map, CORE_LEVEL, 1.0) {
            let on = |c: &&[[f32; 2]; 4]| Quad { corners: **c }.contains(blob.centre());
            if let Some(card) = scene.cards.iter().find(on) {
                out.push((blob, card));
            }
        }
    }
    out
}

/// The median of sqrt(card area / blob area) over the blobs on cards.
fn calibrate_grow(blobs: &[(Quad, &[[f32; 2]; 4])]) -> f32 {
    let mut ratios: Vec<f32> = blobs
        .iter()
        .map(|(blob, card)| (Quad { corners: **card }.area() / blob.area().max(1e-3)).sqrt())
        .collect();
    ratios.sort_by(f32::total_cmp);
    ratios
        .get(ratios.len() / 2)
        .copied()
        .unwrap_or(1.0 / CORE_SHRINK)
}

/// Cards with a blob on them (of all) and the median corner error of the
/// blobs grown by `grow`, in card widths.
fn outline_quality(
    blobs: &[(Quad, &[[f32; 2]; 4])],
    scenes: &[Scene],
    grow: f32,
) -> ((usize, usize), f32) {
    let mut errors: Vec<f32> = blobs
        .iter()
        .map(|(blob, card)| {
            let [cx, cy] = blob.centre();
            let grown = blob.map(|[x, y]| [cx + (x - cx) * grow, cy + (y - cy) * grow]);
            corner_error(&grown.corners, card) / card_width(card).max(1e-3)
        })
        .collect();
    errors.sort_by(f32::total_cmp);
    let cards = scenes.iter().map(|s| s.cards.len()).sum();
    let median = errors.get(errors.len() / 2).copied().unwrap_or(f32::NAN);
    ((blobs.len(), cards), median)
}

/// The weights and the grow factor in one safetensors file.
fn save_with_grow(varmap: &VarMap, grow: f32, out: &std::path::Path) -> Result<(), TrainError> {
    let vars = varmap
        .data()
        .lock()
        .map_err(|_| TrainError::Data("the weights were poisoned by a panic".into()))?;
    let mut tensors: HashMap<String, Tensor> = vars
        .iter()
        .map(|(name, var)| (name.clone(), var.as_tensor().clone()))
        .collect();
    tensors.insert(CORE_GROW.to_string(), Tensor::new(&[grow], &Device::Cpu)?);
    candle_core::safetensors::save(&tensors, out)?;
    Ok(())
}

/// Side of the square windows training batches are cut from: the network is
/// fully convolutional, and a window costs a third of a whole scene.
const WINDOW: usize = 128;

/// `size` random windows of random scenes, each mirrored left-right at random.
fn batch(scenes: &[Scene], size: usize, rng: &mut StdRng) -> candle_core::Result<(Tensor, Tensor)> {
    let (w, h) = (DETECTOR_WIDTH, DETECTOR_HEIGHT);
    let mut x = Vec::with_capacity(size * 3 * WINDOW * WINDOW);
    let mut y = Vec::with_capacity(size * 2 * WINDOW * WINDOW / 4);
    for _ in 0..size {
        let scene = &scenes[rng.random_range(0..scenes.len().max(1))];
        // Even offsets, so the window's targets start on a target pixel.
        let left = 2 * rng.random_range(0..=(w - WINDOW) / 2);
        let top = 2 * rng.random_range(0..=(h - WINDOW) / 2);
        let mirror = rng.random_bool(0.5);
        let planes = standardise(&scene.pixels, w, h);
        push_window(&mut x, &planes, (w, h), (left, top), WINDOW, mirror);
        push_window(
            &mut y,
            &scene.targets,
            (w / 2, h / 2),
            (left / 2, top / 2),
            WINDOW / 2,
            mirror,
        );
    }
    Ok((
        Tensor::from_vec(x, (size, 3, WINDOW, WINDOW), &Device::Cpu)?,
        Tensor::from_vec(y, (size, 2, WINDOW / 2, WINDOW / 2), &Device::Cpu)?,
    ))
}

/// Appends the `side` x `side` window at `(left, top)` of every plane of
/// `planes` (each `size.0` x `size.1`), each row reversed when `mirror`.
fn push_window(
    out: &mut Vec<f32>,
    planes: &[f32],
    (width, height): (usize, usize),
    (left, top): (usize, usize),
    side: usize,
    mirror: bool,
) {
    for plane in planes.chunks_exact(width * height) {
        for row in plane.chunks_exact(width).skip(top).take(side) {
            let row = &row[left..left + side];
            if mirror {
                out.extend(row.iter().rev());
            } else {
                out.extend_from_slice(row);
            }
        }
    }
}

/// Inputs `(n, 3, H, W)` and targets `(n, 2, H/2, W/2)` of whole scenes.
fn tensors(scenes: &[Scene]) -> candle_core::Result<(Tensor, Tensor)> {
    let (w, h) = (DETECTOR_WIDTH, DETECTOR_HEIGHT);
    let mut x = Vec::with_capacity(scenes.len() * 3 * w * h);
    let mut y = Vec::with_capacity(scenes.len() * w * h / 2);
    for scene in scenes {
        x.extend(standardise(&scene.pixels, w, h));
        y.extend_from_slice(&scene.targets);
    }
    let n = scenes.len();
    Ok((
        Tensor::from_vec(x, (n, 3, h, w), &Device::Cpu)?,
        Tensor::from_vec(y, (n, 2, h / 2, w / 2), &Device::Cpu)?,
    ))
}

/// A random table, rendered large, shrunk to the detector's input, with its targets.
fn random_scene(rng: &mut StdRng) -> Scene {
    let spec = random_spec(rng);
    let table = render_table(&spec);
    let small = snapsolve_vision::resample::resize_triangle(
        &table.image,
        DETECTOR_WIDTH as u32,
        DETECTOR_HEIGHT as u32,
    );
    let scale = 1.0 / (2 * RENDER_SCALE) as f32;
    Scene {
        pixels: small.into_raw(),
        targets: targets(&table, scale),
        cards: table
            .cards
            .iter()
            .map(|c| c.corners.map(|[x, y]| [x * scale, y * scale]))
            .collect(),
    }
}

/// Random conditions, wider than any one photo source.
pub(super) fn random_spec(rng: &mut StdRng) -> TableSpec {
    let cards = if rng.random_bool(0.06) {
        0
    } else {
        rng.random_range(1..=21usize)
    };
    let seed = rng.random();
    let edition = Edition::ALL[rng.random_range(0..2)];
    let mut spec = TableSpec::new(seeded_cards(cards, seed), edition, seed);
    spec.width = RENDER_SCALE * DETECTOR_WIDTH as u32;
    spec.height = RENDER_SCALE * DETECTOR_HEIGHT as u32;
    let columns_max = cards.clamp(1, 7);
    spec.columns = rng.random_range(columns_max.div_ceil(2).max(1)..=columns_max);
    spec.gap = if rng.random_bool(0.25) {
        rng.random_range(0.0..0.06)
    } else {
        rng.random_range(0.06..0.6)
    };
    spec.max_card_turn = rng.random_range(0.0..0.6);
    spec.clutter = rng.random_range(0..4);
    spec.surface = match rng.random_range(0..10) {
        0..6 => Surface::Random,
        6..8 => Surface::White,
        _ => Surface::LightWood,
    };
    spec.lighting = if rng.random_bool(0.15) {
        Lighting::DimWarm
    } else {
        Lighting::Random
    };
    spec.card_shadows = rng.random_bool(0.6);
    spec.distractors = rng.random_range(0..4);
    spec.fill = rng.random_range(0.25..0.9);
    if rng.random_bool(0.4) {
        spec.view_tilt = rng.random_range(0.0..60f32.to_radians());
    }
    spec
}

/// Paper and core masks at `scale` times the table's pixels (0/1, paper
/// plane then core plane, `DETECTOR_WIDTH / 2` wide).
fn targets(table: &Table, scale: f32) -> Vec<f32> {
    let (tw, th) = (DETECTOR_WIDTH / 2, DETECTOR_HEIGHT / 2);
    let mut out = vec![0.0f32; 2 * tw * th];
    for placed in &table.cards {
        let quad = placed.corners.map(|[x, y]| [x * scale, y * scale]);
        let core = shrink(&quad, CORE_SHRINK);
        for (plane, q) in [(0, &quad), (1, &core)] {
            fill_quad(&mut out[plane * tw * th..][..tw * th], tw, th, q);
        }
    }
    out
}

/// The quadrilateral shrunk by `factor` about its centroid.
fn shrink(quad: &[[f32; 2]; 4], factor: f32) -> [[f32; 2]; 4] {
    let cx = quad.iter().map(|p| p[0]).sum::<f32>() / 4.0;
    let cy = quad.iter().map(|p| p[1]).sum::<f32>() / 4.0;
    quad.map(|[x, y]| [cx + (x - cx) * factor, cy + (y - cy) * factor])
}

/// Sets to 1 every pixel whose centre lies inside the convex quadrilateral.
fn fill_quad(plane: &mut [f32], width: usize, height: usize, quad: &[[f32; 2]; 4]) {
    // The pixels the quadrilateral spans along one axis, within `0..limit`.
    let span = |axis: usize, limit: usize| {
        let low = quad.iter().map(|p| p[axis]).fold(f32::INFINITY, f32::min);
        let high = quad.iter().map(|p| p[axis]).fold(0.0f32, f32::max);
        (low.max(0.0) as usize, (high.ceil() as usize).min(limit))
    };
    let ((min_x, max_x), (min_y, max_y)) = (span(0, width), span(1, height));
    let quad = Quad { corners: *quad };
    for y in min_y..max_y {
        for x in min_x..max_x {
            if quad.contains([x as f32 + 0.5, y as f32 + 0.5]) {
                plane[y * width + x] = 1.0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_mark_paper_around_each_core() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut spec = random_spec(&mut rng);
        spec.cards = seeded_cards(4, 3);
        spec.view_tilt = 0.0;
        let table = render_table(&spec);
        let t = targets(&table, 0.25);
        let plane = t.len() / 2;
        let paper: f32 = t[..plane].iter().sum();
        let core: f32 = t[plane..].iter().sum();
        assert!(
            core > 0.0 && paper > 3.0 * core,
            "paper {paper}, core {core}"
        );
        // Every core pixel is paper.
        assert!((0..plane).all(|i| t[plane + i] <= t[i]));
    }

    #[test]
    fn inside_works_for_both_windings() {
        let q = [[0.0, 0.0], [4.0, 0.0], [4.0, 6.0], [0.0, 6.0]];
        let r = [q[3], q[2], q[1], q[0]];
        for quad in [q, r] {
            assert!(Quad { corners: quad }.contains([2.0, 3.0]));
            assert!(!Quad { corners: quad }.contains([5.0, 3.0]));
        }
    }
}
