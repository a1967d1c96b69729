//! Cutting the 81 cells out of the photo as small squares of ink values.
//!
//! Each cell is resampled straight from the full-resolution photo through its own
//! four lattice corners (no second resampling of a warped copy), averaging several
//! samples per output pixel when the cell is large, then turned into ink:
//! `(paper - grey) / (paper - darkest)`, clamped to 0..1, with the paper level
//! taken per cell (shadows) and the darkest level per grid (so an empty cell stays
//! near 0 instead of having its noise stretched into strokes).

use image::GrayImage;

use super::Lattice;
use super::sample::GreySampler;

/// Side of the square each cell is resampled to (the digit network's input).
pub const CELL_INPUT_SIDE: usize = 28;
/// Share of the cell cut off on each side, so most of the grid line stays out.
pub const INSET: f32 = 0.06;
/// Paper and ink must differ by at least this many grey levels to be stretched.
const MIN_CONTRAST: f32 = 48.0;

/// Ink values of the 81 cells, row by row, each `CELL_INPUT_SIDE`² values in 0..1.
#[derive(Clone, Debug)]
pub struct CellInk {
    /// `81 * CELL_INPUT_SIDE * CELL_INPUT_SIDE` values, cell after cell, row-major.
    pub values: Vec<f32>,
}

impl CellInk {
    /// The values of one cell (0..81).
    pub fn cell(&self, index: usize) -> &[f32] {
        let n = CELL_INPUT_SIDE * CELL_INPUT_SIDE;
        &self.values[index * n..(index + 1) * n]
    }
}

/// Greys of one cell, resampled through its four corners.
///
/// Each output pixel averages `sub x sub` reads at the points
/// [`bilinear_point`] gives. Hot (up to 16 reads a pixel, 81 cells): the
/// points are computed as that function does, but with what depends only on
/// `u` (the cell's top and bottom edge points and their difference) taken once
/// per sample column instead of once per read, and the reads go a row of
/// sample points at a time to [`GreySampler::row`]. Same floats, same order of
/// summing, so the same greys as the read-by-read first version:
///
/// ```text
///   samples[sy][x * sub + sx]: sample row sy of output row y, sample column
///   sx of output pixel x; pixel (x, y) sums sy = 0.., then sx = 0..
/// ```
fn cell_greys(sampler: &GreySampler, lattice: &Lattice, row: usize, col: usize) -> Vec<f32> {
    let q = lattice.cell_quad(row, col);
    let side = CELL_INPUT_SIDE;
    let width_px = (q[1].0 - q[0].0).hypot(q[1].1 - q[0].1);
    let height_px = (q[3].0 - q[0].0).hypot(q[3].1 - q[0].1);
    let per_pixel = width_px.max(height_px) * (1.0 - 2.0 * INSET) / side as f32;
    let sub = (per_pixel.ceil() as usize).clamp(1, 4);
    let span = 1.0 - 2.0 * INSET;
    // Share of the cell (0..1) of sample column or row `i` = pixel * sub + sample.
    let share = |i: usize| {
        INSET + span * ((i / sub) as f32 + ((i % sub) as f32 + 0.5) / sub as f32) / side as f32
    };
    let columns = side * sub;
    let (mut top, mut diff) = (Vec::with_capacity(columns), Vec::with_capacity(columns));
    for c in 0..columns {
        let (t, b) = edge_points(&q, share(c));
        top.push(t);
        diff.push((b.0 - t.0, b.1 - t.1));
    }
    let (mut xs, mut ys) = (vec![0.0f32; columns], vec![0.0f32; columns]);
    let mut samples = vec![0.0f32; sub * columns];
    let mut out = Vec::with_capacity(side * side);
    for y in 0..side {
        for (sy, reads) in samples.chunks_exact_mut(columns).enumerate() {
            let v = share(y * sub + sy);
            for (((px, py), t), d) in xs.iter_mut().zip(ys.iter_mut()).zip(&top).zip(&diff) {
                *px = t.0 + d.0 * v;
                *py = t.1 + d.1 * v;
            }
            sampler.row(&xs, &ys, reads);
        }
        for x in 0..side {
            let mut sum = 0.0;
            for reads in samples.chunks_exact(columns) {
                for &r in &reads[x * sub..(x + 1) * sub] {
                    sum += r;
                }
            }
            out.push(sum / (sub * sub) as f32);
        }
    }
    out
}

/// The point at (`u`, `v`) in 0..1 inside a quadrilateral, by bilinear interpolation.
pub(crate) fn bilinear_point(q: &[(f32, f32); 4], u: f32, v: f32) -> (f32, f32) {
    let (top, bottom) = edge_points(q, u);
    (
        top.0 + (bottom.0 - top.0) * v,
        top.1 + (bottom.1 - top.1) * v,
    )
}

/// The points at `u` in 0..1 along a quadrilateral's top and bottom edges.
fn edge_points(q: &[(f32, f32); 4], u: f32) -> ((f32, f32), (f32, f32)) {
    let top = (
        q[0].0 + (q[1].0 - q[0].0) * u,
        q[0].1 + (q[1].1 - q[0].1) * u,
    );
    let bottom = (
        q[3].0 + (q[2].0 - q[3].0) * u,
        q[3].1 + (q[2].1 - q[3].1) * u,
    );
    (top, bottom)
}

/// The value below which `share` of the values lie: the element a sort would
/// put at that rank, found by selection (linear time; a full sort of every
/// cell and of the whole grid's 63,504 values was a fifth of the cutting).
fn quantile(values: &[f32], share: f32) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    let mut copy = values.to_vec();
    let at = ((copy.len() as f32 - 1.0) * share).round() as usize;
    *copy.select_nth_unstable_by(at, f32::total_cmp).1
}

/// The 81 cells of a grid as ink squares ready for the digit network.
pub fn sample_cells(gray: &GrayImage, lattice: &Lattice) -> CellInk {
    let sampler = GreySampler::new(gray);
    let greys: Vec<Vec<f32>> = (0..81)
        .map(|i| cell_greys(&sampler, lattice, i / 9, i % 9))
        .collect();
    let all: Vec<f32> = greys.iter().flatten().copied().collect();
    let darkest = quantile(&all, 0.01);
    let mut values = Vec::with_capacity(all.len());
    for cell in &greys {
        let paper = quantile(cell, 0.8);
        let range = (paper - darkest).max(MIN_CONTRAST);
        values.extend(cell.iter().map(|&g| ((paper - g) / range).clamp(0.0, 1.0)));
    }
    CellInk { values }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_is_the_sorted_value_at_its_rank() {
        let values: Vec<f32> = (0..1001).map(|i| ((i * 7919) % 1001) as f32).collect();
        let mut sorted = values.clone();
        sorted.sort_by(f32::total_cmp);
        for share in [0.0, 0.01, 0.5, 0.8, 1.0] {
            let at = ((sorted.len() as f32 - 1.0) * share).round() as usize;
            assert_eq!(quantile(&values, share), sorted[at]);
        }
        assert_eq!(quantile(&[], 0.5), 0.0);
    }
}
