//! `snapsolve train digits`: the training examples for the digit network and the
//! training run that writes its weights.
//!
//! Examples come from two places, both cut by the code that reads photos (grid
//! finder, then `sample_cells`), so training sees what inference sees:
//! - cells of the training photos of the shared data set, several times with the
//!   lattice jittered (the network learns to tolerate a slightly misplaced cell);
//! - cells of sudoku photos rendered by `snapsolve_synth::sudoku`: printed givens
//!   from 38 system fonts, cells filled in with handwriting fonts or with real
//!   handwritten digits (the shared MNIST digits, [`super::handwriting`]) laid
//!   into the cells, perspective, light, blur, noise, JPEG.
//!
//! Batches are drawn from three pools with fixed shares (handwritten digits of
//! the real photos, the other real cells, rendered cells), so the scarce real
//! handwriting weighs as much as it needs to. Held-out photos ([`Split::HeldOut`])
//! are never read.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarMap;
use image::GrayImage;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
/// The network's shape ([`DigitTraining::net`]).
pub use snapsolve_nn::digits::Config;
use snapsolve_nn::digits::{CLASSES, DigitNet};
use snapsolve_nn::seeded::seeded_var_builder;
use snapsolve_nn::train_stream::{StepReport, TrainConfig, train_loop};
use snapsolve_synth::sudoku::{
    DigitFonts, PhotoStyle, load_system_fonts, random_spec, render_sudoku,
};
use snapsolve_vision::grid::lattice::fit_lattice;
use snapsolve_vision::grid::{
    CELL_INPUT_SIDE, Greys, Lattice, Quad, darkest_channel, find_grid, quad_area, sample_cells,
};
use snapsolve_vision::{Limits, read_image};

use super::handwriting::read_written_digits;
use super::labels::{LabelledPhoto, PhotoKind, Split, mislabelled, read_labels, split_of};

/// Values per cell.
const CELL_LEN: usize = CELL_INPUT_SIDE * CELL_INPUT_SIDE;
/// Examples per step.
const BATCH: usize = 128;
/// Shares of each batch: real handwritten digits, other real cells, rendered cells.
const POOL_SHARES: [f64; 3] = [0.35, 0.25, 0.4];
/// Validation accuracy is reported every this many steps.
const REPORT_EVERY: usize = 1000;
/// Pages rendered to train on cycle through these `(printed, handwritten)`
/// shares of cells ([`random_spec`]): printed puzzles, puzzles filled in by
/// hand, grids of handwriting only.
const TRAIN_PAGES: [(f64, f64); 3] = [(0.35, 0.0), (0.35, 1.0), (0.0, 0.7)];
/// Pages rendered with the written digits kept back, to validate on: filled-in
/// puzzles and grids of handwriting only.
const VALIDATION_PAGES: [(f64, f64); 2] = [(0.35, 1.0), (0.0, 0.7)];
/// How many validation pages are rendered.
const VALIDATION_PAGE_COUNT: usize = 100;

/// What to train on and how long.
#[derive(Clone, Debug)]
pub struct DigitTraining {
    /// The shared data folder (holding `sudoku/photos.jsonl`).
    pub data_dir: PathBuf,
    /// Where the weights go (safetensors).
    pub out: PathBuf,
    /// Optimiser steps of [`BATCH`] examples.
    pub steps: usize,
    /// Jittered copies of each training photo's cells (besides the exact one).
    pub jitters: usize,
    /// Sudoku photos rendered from fonts (0 = real photos only).
    pub rendered_photos: usize,
    /// Seed of everything random.
    pub seed: u64,
    /// The network's shape.
    pub net: Config,
    /// Warp half the examples ([`Warp`]) besides the other distortions.
    pub warp: bool,
    /// Soil a share of the examples ([`soil_cell`]): the mottle of a dark
    /// photo, print showing through, smudges, a shadow's edge.
    pub soil: bool,
}

/// Cells with their classes (0 = empty, 1-9).
#[derive(Clone, Debug, Default)]
pub struct CellSet {
    /// `CELL_LEN` values per cell.
    pub inputs: Vec<f32>,
    /// The class of each cell.
    pub labels: Vec<u32>,
}

impl CellSet {
    /// Number of cells.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    fn push(&mut self, cell: &[f32], label: u8) {
        self.inputs.extend_from_slice(cell);
        self.labels.push(u32::from(label));
    }

    fn cell(&self, i: usize) -> &[f32] {
        &self.inputs[i * CELL_LEN..(i + 1) * CELL_LEN]
    }
}

/// What a training run will read, and how it went.
#[derive(Clone, Debug, Default)]
pub struct TrainingSummary {
    /// Real photos whose cells were used.
    pub photos_used: usize,
    /// Real photos skipped (unreadable, or no grid even inside the labelled corners).
    pub photos_skipped: usize,
    /// Rendered photos whose cells were used.
    pub rendered_used: usize,
    /// Cells in each pool: real handwritten digits, other real cells, rendered.
    pub pool_sizes: [usize; 3],
    /// Cells of the validation photos.
    pub validation_cells: usize,
    /// Cells of the pages rendered with the written digits kept back.
    pub validation_written_cells: usize,
    /// Validation accuracies after the last step.
    pub validation: Validation,
}

/// Accuracies on what training never fits.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Validation {
    /// Every cell of the validation photos.
    pub photo_cells: f32,
    /// Their handwritten digits (of mixed and handwritten photos).
    pub photo_handwriting: f32,
    /// Cells of pages rendered with the written digits kept back.
    pub written_cells: f32,
}

/// Progress reports during training.
pub enum Progress<'a> {
    /// Examples are being prepared.
    Preparing(&'a str),
    /// One optimiser step is done.
    Step(&'a StepReport),
    /// Validation accuracies after `step` steps.
    Validation(usize, Validation),
}

/// The lattice used to cut a training photo: the one the finder finds, unless
/// the labelled corners say it found something else (then the lattice fitted
/// inside the labelled corners).
fn training_lattice(gray: &GrayImage, label: Option<Quad>) -> Option<Lattice> {
    let found = find_grid(gray);
    let Some(label) = label else {
        return found.map(|f| f.lattice);
    };
    let cell = quad_area(&label).sqrt() / 9.0;
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
    fit_lattice(gray, &label, Greys::AsTheyAre)
        .map(|f| f.lattice)
        .or_else(|| Lattice::even(&label))
}

/// The lattice with every crossing moved by up to `amount` cells at random.
fn jittered(lattice: &Lattice, amount: f32, rng: &mut impl Rng) -> Lattice {
    let p = &lattice.points;
    let cell = ((p[0][9].0 - p[0][0].0).hypot(p[0][9].1 - p[0][0].1)) / 9.0;
    let mut offset = || rng.random_range(-0.5..0.5f32) * amount * cell;
    let shift = (offset(), offset());
    let mut out = lattice.clone();
    for row in out.points.iter_mut() {
        for q in row.iter_mut() {
            q.0 += shift.0 + offset();
            q.1 += shift.1 + offset();
        }
    }
    out
}

/// How the cells of one photo are cut for training.
#[derive(Clone, Copy, Debug)]
enum Cuts {
    /// The exact lattice and this many jittered by up to 12% of a cell.
    ExactAnd(usize),
    /// One lattice jittered by up to 10% of a cell (cells shifted against
    /// their lines, stroke ends of the lines inside).
    JitteredOnce,
}

/// Cuts the cells of one photo as `cuts` says and hands each to
/// `keep(cell, digit)`; `false` when no grid could be cut.
fn cut_cells(
    gray: &GrayImage,
    label: Option<Quad>,
    digits: &[u8; 81],
    cuts: Cuts,
    rng: &mut impl Rng,
    mut keep: impl FnMut(&[f32], u8),
) -> bool {
    let Some(lattice) = training_lattice(gray, label) else {
        return false;
    };
    let lattices = match cuts {
        Cuts::ExactAnd(jitters) => {
            let mut all = vec![lattice.clone()];
            all.extend((0..jitters).map(|_| jittered(&lattice, 0.12, rng)));
            all
        }
        Cuts::JitteredOnce => vec![jittered(&lattice, 0.1, rng)],
    };
    for l in &lattices {
        let cells = sample_cells(gray, l);
        for (i, &d) in digits.iter().enumerate() {
            keep(cells.cell(i), d);
        }
    }
    true
}

/// Cells of the labelled photos in `split`, in two pools: digits of handwritten
/// and mixed photos, and every other cell. Returns the pools and the number of
/// photos used and skipped.
pub fn photo_cells(
    data_dir: &Path,
    photos: &[LabelledPhoto],
    split: Split,
    jitters: usize,
    rng: &mut impl Rng,
) -> ([CellSet; 2], usize, usize) {
    assert_ne!(
        split,
        Split::HeldOut,
        "held-out photos are never trained on"
    );
    let mut pools = [CellSet::default(), CellSet::default()];
    let (mut used, mut skipped) = (0, 0);
    let in_split =
        |p: &&LabelledPhoto| split_of(&p.image) == split && mislabelled(&p.image).is_none();
    for photo in photos.iter().filter(in_split) {
        let (Ok(rgb), Some(digits)) = (
            read_image(&data_dir.join(&photo.image), Limits::default()),
            photo.digits(),
        ) else {
            skipped += 1;
            continue;
        };
        let hand = photo.kind != PhotoKind::Printed;
        let gray = darkest_channel(&rgb);
        let cuts = Cuts::ExactAnd(jitters);
        let cut = cut_cells(&gray, photo.quad(), &digits, cuts, rng, |cell, d| {
            pools[usize::from(!(hand && d != 0))].push(cell, d);
        });
        if cut {
            used += 1;
        } else {
            skipped += 1;
        }
    }
    (pools, used, skipped)
}

/// Cells of `count` rendered sudoku photos, their specs cycling through `pages`
/// (`(printed, handwritten)` shares of cells). Returns the cells and the number
/// of photos whose grid could be cut.
pub fn rendered_cells(
    fonts: &DigitFonts,
    pages: &[(f64, f64)],
    count: usize,
    seed: u64,
) -> (CellSet, usize) {
    let mut cells = CellSet::default();
    let mut used = 0;
    for i in 0..count {
        let mut rng = StdRng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let (printed, handwritten) = pages[i % pages.len()];
        let spec = random_spec(printed, handwritten, &mut rng);
        let size = [(640, 480), (800, 600), (1024, 768)][rng.random_range(0..3)];
        let photo = render_sudoku(&spec, fonts, PhotoStyle::training(), size, &mut rng);
        let gray = darkest_channel(&photo.image);
        let label = photo.corners.map(|[x, y]| (x, y));
        // Every other page is cut a little off its lines, as the finder may cut real photos.
        let cuts = if i % 2 == 0 {
            Cuts::ExactAnd(0)
        } else {
            Cuts::JitteredOnce
        };
        if cut_cells(
            &gray,
            Some(label),
            &photo.digits,
            cuts,
            &mut rng,
            |cell, d| cells.push(cell, d),
        ) {
            used += 1;
        }
    }
    (cells, used)
}

/// Share of examples also warped ([`Warp`]) when [`DigitTraining::warp`] is set.
const WARP_SHARE: f64 = 0.5;
/// Largest slant of a warp: pixels sideways per pixel down.
const WARP_SLANT: f32 = 0.15;
/// Largest move of a warp's control points, in pixels.
const WARP_BEND: f32 = 1.5;

/// A smooth distortion of a cell: slanted about its middle row and bent by
/// 3x3 control points (corners, edge middles, centre) each moved a little,
/// bilinear between them. Another hand's version of the same strokes: the
/// writers of new photos slant and curve differently from the few the
/// training photos and MNIST hold.
struct Warp {
    slant: f32,
    bend: [[(f32, f32); 3]; 3],
}

impl Warp {
    fn random(rng: &mut impl Rng) -> Warp {
        let mut bend = [[(0.0, 0.0); 3]; 3];
        for point in bend.iter_mut().flatten() {
            *point = (
                rng.random_range(-WARP_BEND..WARP_BEND),
                rng.random_range(-WARP_BEND..WARP_BEND),
            );
        }
        Warp {
            slant: rng.random_range(-WARP_SLANT..WARP_SLANT),
            bend,
        }
    }

    /// Where output pixel `(x, y)` of a `side`-pixel cell reads its source.
    fn source(&self, x: f32, y: f32, side: f32) -> (f32, f32) {
        let to_grid = 2.0 / (side - 1.0);
        let (u, v) = (x * to_grid, y * to_grid);
        let (i, j) = ((u as usize).min(1), (v as usize).min(1));
        let (fu, fv) = (u - i as f32, v - j as f32);
        let lerp =
            |a: (f32, f32), b: (f32, f32), t: f32| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        let top = lerp(self.bend[j][i], self.bend[j][i + 1], fu);
        let bottom = lerp(self.bend[j + 1][i], self.bend[j + 1][i + 1], fu);
        let (bx, by) = lerp(top, bottom, fv);
        let middle = (side - 1.0) / 2.0;
        (x + self.slant * (y - middle) + bx, y + by)
    }
}

/// Fresh distortions for each use of an example: a shift of up to two pixels,
/// when `warp` half the time a [`Warp`], strokes sometimes thickened or
/// thinned, ink strength scaled, a little noise.
pub fn augment_cell(cell: &mut [f32], warp: bool, rng: &mut impl Rng) {
    let side = CELL_INPUT_SIDE as i32;
    let dx = rng.random_range(-2..=2);
    let dy = rng.random_range(-2..=2);
    let gain = rng.random_range(0.7..1.2f32);
    let noise = rng.random_range(0.0..0.05f32);
    let stroke = rng.random_range(0..8); // 0: thicker, 1: thinner, else as is
    // Drawn only when asked, so runs without warps repeat the earlier ones.
    let warp = (warp && rng.random_bool(WARP_SHARE)).then(|| Warp::random(rng));
    let source = cell.to_vec();
    let at = |x: i32, y: i32| {
        if (0..side).contains(&x) && (0..side).contains(&y) {
            source[(y * side + x) as usize]
        } else {
            0.0
        }
    };
    // Bilinear read between pixels (paper outside the cell).
    let at_between = |x: f32, y: f32| {
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let (x0, y0) = (x0 as i32, y0 as i32);
        let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
        let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
        top * (1.0 - fy) + bottom * fy
    };
    let read = |x: i32, y: i32| match &warp {
        Some(w) => {
            let (sx, sy) = w.source(x as f32, y as f32, side as f32);
            at_between(sx, sy)
        }
        None => at(x, y),
    };
    for y in 0..side {
        for x in 0..side {
            let (sx, sy) = (x - dx, y - dy);
            let mut v = read(sx, sy);
            if stroke < 2 {
                let around = [
                    read(sx - 1, sy),
                    read(sx + 1, sy),
                    read(sx, sy - 1),
                    read(sx, sy + 1),
                ];
                v = if stroke == 0 {
                    around.iter().fold(v, |m, &a| m.max(0.8 * a))
                } else {
                    around.iter().fold(v, |m, &a| m.min(a.max(0.3 * v)))
                };
            }
            let n = rng.random_range(-1.0..1.0f32) * noise;
            cell[(y * side + x) as usize] = (v * gain + n).clamp(0.0, 1.0);
        }
    }
}

/// Share of examples soiled ([`soil_cell`]) when [`DigitTraining::soil`] is set.
const SOIL_SHARE: f64 = 0.25;

/// Soils a cell the way paper and camera soil real ones, so that dirt on an
/// empty cell is no digit: the network otherwise meets such dirt almost only
/// on the few training photos that have it, and reads noisy empty printed
/// cells (a dark photo's mottle, newsprint's show-through) as digits. One of:
/// - the mottle of a dark, noisy photo: each cell's paper level is its 80%
///   quantile ([`sample_cells`]), so noise leaves faint ink over most of it;
/// - print from the other side of the page: another cell's digit mirrored,
///   blurred, faint, anywhere in the cell;
/// - one to three smudges, soft blobs of any shape;
/// - the edge of a shadow, ink rising across the cell.
///
/// Every class is soiled alike, so dirt says nothing of the class.
fn soil_cell(cell: &mut [f32], pools: &[&CellSet; 3], rng: &mut impl Rng) {
    let side = CELL_INPUT_SIDE;
    let mut dirt = vec![0.0f32; CELL_LEN];
    match rng.random_range(0..4) {
        0 => mottle(&mut dirt, rng),
        1 => show_through(&mut dirt, pools, rng),
        2 => {
            for _ in 0..rng.random_range(1..=3) {
                let (cx, cy) = (
                    rng.random_range(0.0..side as f32),
                    rng.random_range(0.0..side as f32),
                );
                let (sx, sy) = (rng.random_range(1.5..5.0f32), rng.random_range(1.5..5.0f32));
                let strength = rng.random_range(0.15..0.5f32);
                for (i, d) in dirt.iter_mut().enumerate() {
                    let (x, y) = ((i % side) as f32, (i / side) as f32);
                    let r = ((x - cx) / sx).powi(2) + ((y - cy) / sy).powi(2);
                    *d = d.max(strength * (-0.5 * r).exp());
                }
            }
        }
        _ => {
            let angle = rng.random_range(0.0..std::f32::consts::TAU);
            let (dx, dy) = (angle.cos(), angle.sin());
            let middle = (side as f32 - 1.0) / 2.0;
            let start = rng.random_range(-0.5..0.5f32) * side as f32;
            let rise = rng.random_range(0.1..0.4f32) / (0.5 * side as f32);
            for (i, d) in dirt.iter_mut().enumerate() {
                let (x, y) = ((i % side) as f32 - middle, (i / side) as f32 - middle);
                *d = ((x * dx + y * dy - start) * rise).clamp(0.0, 0.4);
            }
        }
    }
    for (v, d) in cell.iter_mut().zip(&dirt) {
        *v = (*v + d).clamp(0.0, 1.0);
    }
}

/// The mottle of a dark, noisy photo: smooth noise (random values on a
/// coarse grid, bilinear between them) and some fine noise, above the level
/// of its lightest fifth (the cell's paper level, as [`sample_cells`] sets it).
fn mottle(dirt: &mut [f32], rng: &mut impl Rng) {
    let side = CELL_INPUT_SIDE;
    let knots = rng.random_range(4..=9usize);
    let coarse: Vec<f32> = (0..knots * knots)
        .map(|_| rng.random_range(-1.0..1.0f32))
        .collect();
    let fine = rng.random_range(0.0..0.5f32);
    let strength = rng.random_range(0.08..0.5f32);
    let scale = (knots - 1) as f32 / (side - 1) as f32;
    for (i, d) in dirt.iter_mut().enumerate() {
        let (u, v) = ((i % side) as f32 * scale, (i / side) as f32 * scale);
        let (i0, j0) = ((u as usize).min(knots - 2), (v as usize).min(knots - 2));
        let (fu, fv) = (u - i0 as f32, v - j0 as f32);
        let at = |i: usize, j: usize| coarse[j * knots + i];
        let top = at(i0, j0) * (1.0 - fu) + at(i0 + 1, j0) * fu;
        let bottom = at(i0, j0 + 1) * (1.0 - fu) + at(i0 + 1, j0 + 1) * fu;
        let smooth = top * (1.0 - fv) + bottom * fv;
        *d = strength * (smooth + fine * rng.random_range(-1.0..1.0f32));
    }
    let mut sorted = dirt.to_vec();
    sorted.sort_by(f32::total_cmp);
    let paper = sorted[sorted.len() / 5];
    dirt.iter_mut().for_each(|d| *d = (*d - paper).max(0.0));
}

/// Print showing through from the other side of the page: a digit of another
/// cell (none if none is found in a few draws), mirrored, blurred three
/// times, faint, moved anywhere in the cell.
fn show_through(dirt: &mut [f32], pools: &[&CellSet; 3], rng: &mut impl Rng) {
    let side = CELL_INPUT_SIDE as i32;
    let mut source = None;
    for _ in 0..8 {
        let set = pools[rng.random_range(1..3)];
        if set.is_empty() {
            continue;
        }
        let i = rng.random_range(0..set.len());
        // Not 1 or 8: mirrored, they are still themselves, and a faint one is a pencil digit.
        if ![0, 1, 8].contains(&set.labels[i]) {
            source = Some(set.cell(i));
            break;
        }
    }
    let Some(source) = source else {
        return;
    };
    let (dx, dy) = (rng.random_range(-8..=8), rng.random_range(-8..=8));
    let mut moved = vec![0.0f32; CELL_LEN];
    for y in 0..side {
        for x in 0..side {
            let (sx, sy) = (side - 1 - (x - dx), y - dy);
            if (0..side).contains(&sx) && (0..side).contains(&sy) {
                moved[(y * side + x) as usize] = source[(sy * side + sx) as usize];
            }
        }
    }
    for _ in 0..3 {
        let before = moved.clone();
        for y in 0..side {
            for x in 0..side {
                let mut sum = 0.0;
                for (yy, xx) in
                    (y - 1..=y + 1).flat_map(|yy| (x - 1..=x + 1).map(move |xx| (yy, xx)))
                {
                    if (0..side).contains(&xx) && (0..side).contains(&yy) {
                        sum += before[(yy * side + xx) as usize];
                    }
                }
                moved[(y * side + x) as usize] = sum / 9.0;
            }
        }
    }
    let strength = rng.random_range(0.12..0.4f32);
    let peak = moved.iter().fold(0.0f32, |m, &v| m.max(v)).max(1e-3);
    for (d, m) in dirt.iter_mut().zip(&moved) {
        *d = strength * m / peak;
    }
}

/// A batch drawn from the pools by [`POOL_SHARES`] (empty pools give their share
/// to the others), augmented.
fn draw_batch(
    pools: &[&CellSet; 3],
    warp: bool,
    soil: bool,
    rng: &mut Pcg64Mcg,
) -> candle_core::Result<(Tensor, Tensor)> {
    let weights: Vec<f64> = pools
        .iter()
        .zip(POOL_SHARES)
        .map(|(p, s)| if p.is_empty() { 0.0 } else { s })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut inputs = Vec::with_capacity(BATCH * CELL_LEN);
    let mut labels = Vec::with_capacity(BATCH);
    for _ in 0..BATCH {
        let mut pick = rng.random_range(0.0..total);
        let mut pool = 0;
        while pick >= weights[pool] && pool < 2 {
            pick -= weights[pool];
            pool += 1;
        }
        let set = pools[pool];
        let i = rng.random_range(0..set.len());
        let start = inputs.len();
        inputs.extend_from_slice(set.cell(i));
        augment_cell(&mut inputs[start..], warp, rng);
        // Drawn only when asked, so runs without soiling repeat the earlier ones.
        if soil && rng.random_bool(SOIL_SHARE) {
            soil_cell(&mut inputs[start..], pools, rng);
        }
        labels.push(set.labels[i]);
    }
    Ok((
        Tensor::from_vec(
            inputs,
            (BATCH, 1, CELL_INPUT_SIDE, CELL_INPUT_SIDE),
            &Device::Cpu,
        )?,
        Tensor::from_vec(labels, BATCH, &Device::Cpu)?,
    ))
}

/// Share of `cells` the network classifies right (read as photos are read,
/// through [`DigitNet::fast`]).
pub fn accuracy(net: &DigitNet, cells: &CellSet) -> candle_core::Result<f32> {
    if cells.is_empty() {
        return Ok(0.0);
    }
    let fast = net.fast()?;
    let mut right = 0;
    for (chunk, labels) in cells
        .inputs
        .chunks(512 * CELL_LEN)
        .zip(cells.labels.chunks(512))
    {
        let probabilities = fast.probabilities(chunk);
        right += probabilities
            .chunks_exact(CLASSES)
            .zip(labels)
            .filter(|(p, label)| argmax(p) == **label as usize)
            .count();
    }
    Ok(right as f32 / cells.len() as f32)
}

/// Index of the largest value.
fn argmax(values: &[f32]) -> usize {
    (0..values.len())
        .max_by(|&a, &b| values[a].total_cmp(&values[b]))
        .unwrap_or(0)
}

/// What training validates on: the validation photos' cells (handwritten
/// digits apart) and pages rendered with the written digits kept back.
struct ValidationCells {
    photo_handwriting: CellSet,
    photo_other: CellSet,
    written: CellSet,
}

impl ValidationCells {
    fn score(&self, net: &DigitNet) -> candle_core::Result<Validation> {
        let (hand, other) = (
            accuracy(net, &self.photo_handwriting)?,
            accuracy(net, &self.photo_other)?,
        );
        let (n_hand, n_other) = (
            self.photo_handwriting.len() as f32,
            self.photo_other.len() as f32,
        );
        Ok(Validation {
            photo_cells: (hand * n_hand + other * n_other) / (n_hand + n_other).max(1.0),
            photo_handwriting: hand,
            written_cells: accuracy(net, &self.written)?,
        })
    }
}

/// Runs the whole training and saves the weights; `progress` hears how it goes.
pub fn train_digits(
    job: &DigitTraining,
    mut progress: impl FnMut(Progress),
) -> Result<TrainingSummary, String> {
    let fonts = if job.rendered_photos > 0 {
        Some(load_system_fonts()?)
    } else {
        None
    };
    let written = read_written_digits(&job.data_dir)?;
    let labels = read_labels(&job.data_dir.join("sudoku/photos.jsonl"))?;
    let mut rng = Pcg64Mcg::seed_from_u64(job.seed);
    progress(Progress::Preparing("cutting the training photos"));
    let ([hand, other], used, skipped) =
        photo_cells(&job.data_dir, &labels, Split::Train, job.jitters, &mut rng);
    let ([v_hand, v_other], used_v, skipped_v) =
        photo_cells(&job.data_dir, &labels, Split::Validation, 0, &mut rng);
    let (rendered, rendered_used, v_written) = match fonts {
        Some(fonts) => {
            progress(Progress::Preparing("rendering sudoku photos"));
            let training = DigitFonts {
                written: written.train,
                ..fonts.clone()
            };
            let (cells, used) =
                rendered_cells(&training, &TRAIN_PAGES, job.rendered_photos, job.seed);
            // Kept-back digits only: no handwriting font, so every handwritten cell is real writing.
            let validating = DigitFonts {
                handwriting: Vec::new(),
                written: written.validation,
                ..fonts
            };
            let (v_cells, _) = rendered_cells(
                &validating,
                &VALIDATION_PAGES,
                VALIDATION_PAGE_COUNT,
                !job.seed,
            );
            (cells, used, v_cells)
        }
        None => (CellSet::default(), 0, CellSet::default()),
    };
    if hand.is_empty() && other.is_empty() && rendered.is_empty() {
        return Err("no training examples (is the data folder right?)".into());
    }
    let validation = ValidationCells {
        photo_handwriting: v_hand,
        photo_other: v_other,
        written: v_written,
    };
    // Initial weights and dropout masks come from the seed too (candle's own
    // generator is not seeded), so one command repeats bit for bit on one thread.
    let vars = VarMap::new();
    let vb = seeded_var_builder(&vars, job.seed, DType::F32, &Device::Cpu);
    let mut dropout_rng = Pcg64Mcg::seed_from_u64(!job.seed);
    let net = DigitNet::new(&job.net, vb).map_err(|e| e.to_string())?;
    let config = TrainConfig {
        steps: job.steps,
        learning_rate: 3e-3,
        warmup_steps: 200,
        weight_decay: 1e-4,
    };
    let pools = [&hand, &other, &rendered];
    train_loop(
        &vars,
        &config,
        |_| draw_batch(&pools, job.warp, job.soil, &mut rng),
        |(xs, ys)| candle_nn::loss::cross_entropy(&net.forward_train(xs, &mut dropout_rng)?, ys),
        |report| {
            progress(Progress::Step(report));
            let done = report.step + 1;
            if done % REPORT_EVERY == 0
                && done < job.steps
                && let Ok(v) = validation.score(&net)
            {
                progress(Progress::Validation(done, v));
            }
        },
    )
    .map_err(|e| e.to_string())?;
    let scores = validation.score(&net).map_err(|e| e.to_string())?;
    progress(Progress::Validation(job.steps, scores));
    vars.save(&job.out)
        .map_err(|e| format!("cannot write {}: {e}", job.out.display()))?;
    Ok(TrainingSummary {
        photos_used: used + used_v,
        photos_skipped: skipped + skipped_v,
        rendered_used,
        pool_sizes: [hand.len(), other.len(), rendered.len()],
        validation_cells: validation.photo_handwriting.len() + validation.photo_other.len(),
        validation_written_cells: validation.written.len(),
        validation: scores,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_still_warp_reads_each_pixel_in_place_and_a_bent_one_moves_it_a_little() {
        let still = Warp {
            slant: 0.0,
            bend: [[(0.0, 0.0); 3]; 3],
        };
        assert_eq!(still.source(5.0, 20.0, 28.0), (5.0, 20.0));
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        for _ in 0..50 {
            let warp = Warp::random(&mut rng);
            for (x, y) in [(0.0, 0.0), (13.5, 13.5), (27.0, 3.0), (9.0, 27.0)] {
                let (sx, sy) = warp.source(x, y, 28.0);
                let reach = WARP_BEND + WARP_SLANT * 13.5;
                assert!((sx - x).abs() <= reach && (sy - y).abs() <= WARP_BEND);
            }
        }
    }

    #[test]
    fn soiling_inks_an_empty_cell_faintly_and_keeps_a_digit() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let mut digits = CellSet::default();
        let mut bar = vec![0.0; CELL_LEN];
        bar[6 * CELL_INPUT_SIDE + 13..22 * CELL_INPUT_SIDE + 13]
            .iter_mut()
            .step_by(CELL_INPUT_SIDE)
            .for_each(|v| *v = 1.0);
        digits.push(&bar, 7);
        let pools = [&digits, &digits, &digits];
        for _ in 0..40 {
            let mut blank = vec![0.0; CELL_LEN];
            soil_cell(&mut blank, &pools, &mut rng);
            assert!(blank.iter().all(|&v| (0.0..=1.0).contains(&v)));
            let mean = blank.iter().sum::<f32>() / CELL_LEN as f32;
            assert!(mean > 0.0 && mean < 0.5, "faint dirt, mean ink {mean}");
            let mut one = bar.clone();
            soil_cell(&mut one, &pools, &mut rng);
            assert!((6..22).all(|y| one[y * CELL_INPUT_SIDE + 13] == 1.0));
        }
    }

    #[test]
    fn augmenting_keeps_ink_values_and_a_blank_cell_near_blank() {
        let mut rng = Pcg64Mcg::seed_from_u64(2);
        for _ in 0..20 {
            let mut blank = vec![0.0; CELL_LEN];
            augment_cell(&mut blank, true, &mut rng);
            assert!(blank.iter().all(|&v| (0.0..=0.05).contains(&v)));
            let mut bar = vec![0.0; CELL_LEN];
            bar[13 * CELL_INPUT_SIDE..14 * CELL_INPUT_SIDE].fill(1.0);
            augment_cell(&mut bar, true, &mut rng);
            assert!(bar.iter().all(|&v| (0.0..=1.0).contains(&v)));
            assert!(bar.iter().sum::<f32>() > 10.0, "the stroke survives");
        }
    }
}
