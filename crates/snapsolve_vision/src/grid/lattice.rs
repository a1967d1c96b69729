//! The 10 x 10 line lattice inside a rough grid outline.
//!
//! The outline is warped to a square of 9 x [`CELL`] pixels plus a margin. In that
//! square each of the 20 lines is searched strip by strip (nine strips per line,
//! within a third of a cell of where a flat grid would put it); the strip positions
//! found are fitted with a quadratic curve per line (outliers dropped), so a page
//! that bends or a line that is faint, dotted or hidden under a digit in a few
//! strips still gets a position everywhere. Crossings of the curves, mapped back
//! through the warp, are the cells' corners in the photo.

use crate::adaptive::adaptive_threshold;
use crate::linear::least_squares;
use image::GrayImage;
use imageproc::geometric_transformations::Projection;

use super::comb::comb_quad;
use super::sample::GreySampler;
use super::shift::{line_strength, outer_shift};
use super::{FoundGrid, Point, Quad};

/// Side of one cell in the rough warp, in pixels.
pub const CELL: usize = 24;
/// Margin around the grid in the rough warp: room for the outer lines to move.
pub const MARGIN: usize = CELL / 2;
/// Side of the rough warp.
pub const SIDE: usize = 9 * CELL + 2 * MARGIN;
/// Share of inner-line samples that must be found for a shape to count as a grid.
pub const MIN_LINE_SCORE: f32 = 0.45;

/// The 10 x 10 crossings of the grid lines, row of lines by column of lines.
#[derive(Clone, Debug)]
pub struct Lattice {
    /// `points[i][j]`: crossing of horizontal line `i` and vertical line `j`, photo pixels.
    pub points: [[Point; 10]; 10],
}

impl Lattice {
    /// Corners of cell (`row`, `col`): top-left, top-right, bottom-right, bottom-left.
    pub fn cell_quad(&self, row: usize, col: usize) -> Quad {
        let p = &self.points;
        [
            p[row][col],
            p[row][col + 1],
            p[row + 1][col + 1],
            p[row + 1][col],
        ]
    }

    /// The outer corners.
    pub fn corners(&self) -> Quad {
        self.cell_quad_span(0, 0, 9)
    }

    fn cell_quad_span(&self, row: usize, col: usize, span: usize) -> Quad {
        let p = &self.points;
        [
            p[row][col],
            p[row][col + span],
            p[row + span][col + span],
            p[row + span][col],
        ]
    }

    /// The outer corners of the lattice moved by `rows` lines down and `cols`
    /// lines right (each -1, 0 or 1), the line beyond an end extrapolated one
    /// spacing from the last two.
    pub fn shifted_corners(&self, rows: i32, cols: i32) -> Quad {
        let p = &self.points;
        let beyond = |a: Point, b: Point| (2.0 * a.0 - b.0, 2.0 * a.1 - b.1);
        let in_row = |i: usize, j: i32| match j {
            -1 => beyond(p[i][0], p[i][1]),
            10 => beyond(p[i][9], p[i][8]),
            j => p[i][j.clamp(0, 9) as usize],
        };
        let at = |i: i32, j: i32| match i {
            -1 => beyond(in_row(0, j), in_row(1, j)),
            10 => beyond(in_row(9, j), in_row(8, j)),
            i => in_row(i.clamp(0, 9) as usize, j),
        };
        [
            at(rows, cols),
            at(rows, 9 + cols),
            at(9 + rows, 9 + cols),
            at(9 + rows, cols),
        ]
    }

    /// A flat lattice: the outline divided evenly (used when no line can be seen).
    pub fn even(quad: &Quad) -> Option<Lattice> {
        let to_photo = square_to_quad(quad, 9.0, 0.0)?;
        let mut points = [[(0.0, 0.0); 10]; 10];
        for (i, row) in points.iter_mut().enumerate() {
            for (j, p) in row.iter_mut().enumerate() {
                *p = to_photo * (j as f32, i as f32);
            }
        }
        Some(Lattice { points })
    }
}

/// The projection from a square of `side` (offset by `margin`) to the quadrilateral.
fn square_to_quad(quad: &Quad, side: f32, margin: f32) -> Option<Projection> {
    let square = [
        (margin, margin),
        (margin + side, margin),
        (margin + side, margin + side),
        (margin, margin + side),
    ];
    Projection::from_control_points(square, *quad)
}

/// Warps the photo inside `quad` to the rough square; returns it with the
/// projection from square pixels to photo pixels.
pub fn rough_warp(gray: &GrayImage, quad: &Quad) -> Option<(GrayImage, Projection)> {
    framed_warp(gray, quad, MARGIN)
}

/// The rough warp with `margin` pixels around the grid's 9 x [`CELL`]
/// (its side `9 * CELL + 2 * margin`).
pub(super) fn framed_warp(
    gray: &GrayImage,
    quad: &Quad,
    margin: usize,
) -> Option<(GrayImage, Projection)> {
    let side = 9 * CELL + 2 * margin;
    let to_photo = square_to_quad(quad, (9 * CELL) as f32, margin as f32)?;
    let sampler = GreySampler::new(gray);
    let mut raw = vec![0u8; side * side];
    // One row of positions at a time, read four at once (see `sample`).
    let (mut xs, mut ys, mut greys) = (vec![0.0f32; side], vec![0.0f32; side], vec![0.0f32; side]);
    for (y, out_row) in raw.chunks_exact_mut(side).enumerate() {
        for (x, (px, py)) in xs.iter_mut().zip(ys.iter_mut()).enumerate() {
            (*px, *py) = to_photo * (x as f32, y as f32);
        }
        sampler.row(&xs, &ys, &mut greys);
        for (o, &v) in out_row.iter_mut().zip(&greys) {
            // `v` is 0..=255: adding a half and truncating rounds it without
            // libm's `round` (a call on baseline x86-64), as in `comb_span`.
            *o = (v + 0.5) as u8;
        }
    }
    let out = GrayImage::from_raw(side as u32, side as u32, raw)
        .unwrap_or_else(|| unreachable!("one byte per pixel"));
    Some((out, to_photo))
}

/// Dark-line pixels of the rough warp in `greys`, as a row-major boolean map.
pub(super) fn dark_pixels(warped: &GrayImage, greys: Greys) -> Vec<bool> {
    match greys {
        Greys::AsTheyAre => line_pixels(warped),
        Greys::Stretched => line_pixels(&stretched(warped)),
    }
}

/// The 10 x 10 crossings, in a rough warp with `margin`, of the horizontal
/// lines `y = row(i, x)` and the vertical lines `x = col(j, y)`, by
/// fixed-point iteration (both nearly straight, so three rounds converge).
pub(super) fn crossings(
    row: &dyn Fn(usize, f32) -> f32,
    col: &dyn Fn(usize, f32) -> f32,
    margin: usize,
) -> [[Point; 10]; 10] {
    let mut points = [[(0.0f32, 0.0f32); 10]; 10];
    for (i, line) in points.iter_mut().enumerate() {
        for (j, p) in line.iter_mut().enumerate() {
            let mut x = (margin + j * CELL) as f32;
            let mut y = (margin + i * CELL) as f32;
            for _ in 0..3 {
                y = row(i, x);
                x = col(j, y);
            }
            *p = (x, y);
        }
    }
    points
}

/// Dark-line pixels of the rough warp as a row-major boolean map.
fn line_pixels(warped: &GrayImage) -> Vec<bool> {
    let mask = adaptive_threshold(warped, (CELL / 2) as u32, 6);
    mask.as_raw().iter().map(|&v| v == 0).collect()
}

/// Which greys the lines are looked for in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Greys {
    /// The photo's greys.
    AsTheyAre,
    /// Each rough warp's greys stretched so its darkest 1% and brightest 1%
    /// span 0-255: under a dim lamp thin lines step less than the
    /// threshold's 6 levels from the paper.
    Stretched,
}

/// The warp's greys stretched so its darkest 1% and brightest 1% span 0-255.
fn stretched(warped: &GrayImage) -> GrayImage {
    let mut histogram = [0usize; 256];
    for &v in warped.as_raw() {
        histogram[usize::from(v)] += 1;
    }
    let n = warped.as_raw().len();
    let level_at = |share: f64| {
        let mut seen = 0;
        for (level, &count) in histogram.iter().enumerate() {
            seen += count;
            if seen as f64 >= share * n as f64 {
                return level as f32;
            }
        }
        255.0
    };
    let (low, high) = (level_at(0.01), level_at(0.99));
    let scale = 255.0 / (high - low).max(1.0);
    let mut out = warped.clone();
    for v in out.iter_mut() {
        *v = ((f32::from(*v) - low) * scale).clamp(0.0, 255.0) as u8;
    }
    out
}

/// One line's position in each of the nine strips across it (`None` where not seen).
///
/// `horizontal`: the line runs along x and its position is a y.
fn strip_positions(dark: &[bool], line: usize, horizontal: bool) -> [Option<f32>; 9] {
    let expected = (MARGIN + line * CELL) as i32;
    let reach = (CELL / 3) as i32;
    let mut found = [None; 9];
    for (strip, slot) in found.iter_mut().enumerate() {
        let start = MARGIN + strip * CELL;
        let count_at = |pos: i32| -> f32 {
            if pos < 0 || pos >= SIDE as i32 {
                return 0.0;
            }
            let pos = pos as usize;
            (start..start + CELL)
                .filter(|&t| {
                    let idx = if horizontal {
                        pos * SIDE + t
                    } else {
                        t * SIDE + pos
                    };
                    dark[idx]
                })
                .count() as f32
        };
        let counts: Vec<(i32, f32)> = (expected - reach..=expected + reach)
            .map(|p| (p, count_at(p)))
            .collect();
        let Some(&(peak, best)) = counts.iter().max_by(|a, b| a.1.total_cmp(&b.1)) else {
            continue;
        };
        // A line crosses most of the strip; a digit's stroke does not.
        if best < 0.6 * CELL as f32 {
            continue;
        }
        // Centre of the run of rows around the peak that are nearly as full (thick lines).
        let (mut sum, mut weight) = (0.0, 0.0);
        for &(p, c) in &counts {
            if (p - peak).abs() <= 4 && c >= 0.6 * best {
                sum += p as f32 * c;
                weight += c;
            }
        }
        *slot = Some(sum / weight);
    }
    found
}

/// Least-squares quadratic `pos = a + b t + c t^2` through the strip samples, with
/// one round of outlier removal; falls back to a straight line, then to `None`.
fn fit_curve(samples: &[(f32, f32)]) -> Option<[f32; 3]> {
    let fit = |pts: &[(f32, f32)]| -> Option<[f32; 3]> {
        if pts.len() >= 5 {
            fit_poly(pts, 3)
        } else if pts.len() >= 2 {
            fit_poly(pts, 2)
        } else {
            None
        }
    };
    let first = fit(samples)?;
    let kept: Vec<(f32, f32)> = samples
        .iter()
        .copied()
        .filter(|&(t, v)| (eval(&first, t) - v).abs() <= CELL as f32 / 8.0)
        .collect();
    if kept.len() == samples.len() {
        return Some(first);
    }
    fit(&kept)
}

/// The quadratic `c` at `t`.
pub(crate) fn eval(c: &[f32; 3], t: f32) -> f32 {
    c[0] + c[1] * t + c[2] * t * t
}

/// Least squares for a polynomial with `terms` coefficients (2 or 3), in f64,
/// with the abscissa centred and scaled so the normal equations stay well posed.
fn fit_poly(pts: &[(f32, f32)], terms: usize) -> Option<[f32; 3]> {
    let centre = SIDE as f64 / 2.0;
    let scale = SIDE as f64 / 2.0;
    let rows = pts.iter().map(|&(t, v)| {
        let s = (f64::from(t) - centre) / scale;
        ([1.0, s, s * s], f64::from(v))
    });
    let sol = least_squares(rows, terms)?;
    // Back from the scaled abscissa s = (t - centre) / scale to t.
    let (a, b, c) = (sol[0], sol[1] / scale, sol[2] / (scale * scale));
    Some([
        (a - b * centre + c * centre * centre) as f32,
        (b - 2.0 * c * centre) as f32,
        c as f32,
    ])
}

/// Curves for the ten lines of one direction and how many strips of the inner
/// lines and of the two outer lines were seen.
fn fit_lines(dark: &[bool], horizontal: bool) -> ([[f32; 3]; 10], usize, usize) {
    let mut curves = [[0.0f32; 3]; 10];
    let (mut seen_inner, mut seen_outer) = (0, 0);
    for (line, curve) in curves.iter_mut().enumerate() {
        let found = strip_positions(dark, line, horizontal);
        let samples: Vec<(f32, f32)> = found
            .iter()
            .enumerate()
            .filter_map(|(s, p)| p.map(|v| ((MARGIN + s * CELL + CELL / 2) as f32, v)))
            .collect();
        if (1..9).contains(&line) {
            seen_inner += samples.len();
        } else {
            seen_outer += samples.len();
        }
        let flat = [(MARGIN + line * CELL) as f32, 0.0, 0.0];
        *curve = fit_curve(&samples).unwrap_or(flat);
        // A fit that wandered off (too few or wild samples) is worse than flat.
        let mid = eval(curve, (SIDE / 2) as f32);
        if (mid - flat[0]).abs() > CELL as f32 / 2.0 || curve[2].abs() > 0.01 {
            *curve = flat;
        }
    }
    (curves, seen_inner, seen_outer)
}

/// How far beside a line (rough-warp pixels) the paper is looked at.
const BESIDE: f32 = 4.0;

/// Share of dark pixels just beside the fitted lines ([`BESIDE`] pixels either
/// side, away from the crossings). Printed grid lines have paper on both sides;
/// wood grain, cloth or a photo of cards that a lattice was forced onto does not.
fn beside_dark(dark: &[bool], curves: &[[f32; 3]; 10], horizontal: bool) -> f32 {
    framed_beside_dark(dark, &|k, t| eval(&curves[k], t), horizontal, MARGIN)
}

/// [`beside_dark`] for the ten lines `line(k, t)` of a rough warp with
/// `margin` pixels around the grid.
pub(super) fn framed_beside_dark(
    dark: &[bool],
    line: &dyn Fn(usize, f32) -> f32,
    horizontal: bool,
    margin: usize,
) -> f32 {
    let side = 9 * CELL + 2 * margin;
    let (mut dark_count, mut total) = (0usize, 0usize);
    for k in 0..10 {
        for t in margin..margin + 9 * CELL {
            // Skip the crossings, where the other direction's line is.
            let along = (t - margin) % CELL;
            if !(4..=CELL - 4).contains(&along) {
                continue;
            }
            let centre = line(k, t as f32);
            for offset in [-BESIDE, BESIDE] {
                let pos = (centre + offset).round();
                if pos < 0.0 || pos >= side as f32 {
                    continue;
                }
                let pos = pos as usize;
                let idx = if horizontal {
                    pos * side + t
                } else {
                    t * side + pos
                };
                total += 1;
                dark_count += usize::from(dark[idx]);
            }
        }
    }
    dark_count as f32 / total.max(1) as f32
}

/// Fits the lattice inside a rough outline, then follows what the fit says of
/// the outline:
/// - when the lattice sits a cell off the grid ([`super::shift`]: a drop
///   shadow's edge taken for the first line), the lattice is fitted again one
///   cell over;
/// - when the lines cover clearly less than the outline (a shadow or margin
///   taken in, [`super::comb`]), it is fitted again inside the span they cover.
///
/// A refitted lattice is kept when its twenty lines are stronger lines on
/// average (the line score cannot choose: shifted by a cell, eight inner lines
/// still lie on real lines) without finding clearly fewer inner lines. Finally
/// the outline is refined once when the outer lines are found away from it.
pub fn fit_lattice(gray: &GrayImage, quad: &Quad, greys: Greys) -> Option<FoundGrid> {
    let (mut first, mut refit) = fit_once(gray, quad, greys)?;
    for _ in 0..MAX_REFITS {
        let Some(next) = refit else { break };
        let (Refit::Shifted(outline) | Refit::Inside(outline)) = next;
        let Some((fitted, then)) = fit_once(gray, &outline, greys) else {
            break;
        };
        let better = match next {
            Refit::Shifted(_) => {
                fitted.evidence(gray) > first.evidence(gray)
                    && fitted.found.line_score >= first.found.line_score - LINE_SCORE_SLACK
            }
            Refit::Inside(_) => fitted.found.line_score > first.found.line_score,
        };
        if !better {
            break;
        }
        first = fitted;
        refit = then;
    }
    let first = first.found;
    let moved = first
        .corners
        .iter()
        .zip(quad.iter())
        .map(|(a, b)| (a.0 - b.0).hypot(a.1 - b.1))
        .fold(0.0f32, f32::max);
    let cell_px = (super::quad_area(quad)).sqrt() / 9.0;
    if moved > cell_px / 6.0
        && let Some((second, _)) = fit_once(gray, &first.corners, greys)
        && second.found.line_score >= first.line_score
    {
        return Some(second.found);
    }
    Some(first)
}

/// At most this many outlines are fitted after the first (a shift by a cell
/// in each direction, then a tighter span).
const MAX_REFITS: usize = 3;
/// How much lower the line score of a refitted lattice may be (a lattice moved
/// by a cell finds about as many inner lines as the one it replaces).
const LINE_SCORE_SLACK: f32 = 0.1;

/// Another outline worth fitting, found while fitting one.
#[derive(Clone, Copy, Debug)]
enum Refit {
    /// The lattice one cell over in one or both directions.
    Shifted(Quad),
    /// The span the lines cover, clearly inside the outline.
    Inside(Quad),
}

/// A fitted lattice with its curves in the rough warp.
struct Fit {
    found: FoundGrid,
    rows: [[f32; 3]; 10],
    cols: [[f32; 3]; 10],
    to_photo: Projection,
}

impl Fit {
    /// Mean strength of the twenty fitted lines ([`lattice_evidence`]), grey
    /// levels; measured only when two fits are compared.
    fn evidence(&self, gray: &GrayImage) -> f32 {
        lattice_evidence(gray, &self.to_photo, &self.rows, &self.cols)
    }
}

/// Mean strength of the twenty fitted lines: a lattice that put a line on a
/// shadow's edge or between two lines scores less than one on every line.
fn lattice_evidence(
    gray: &GrayImage,
    to_photo: &Projection,
    rows: &[[f32; 3]; 10],
    cols: &[[f32; 3]; 10],
) -> f32 {
    let sum: f32 = [(rows, true), (cols, false)]
        .iter()
        .flat_map(|&(curves, horizontal)| {
            curves
                .iter()
                .map(move |c| line_strength(gray, to_photo, |t| eval(c, t), horizontal))
        })
        .sum();
    sum / 20.0
}

/// The lattice fitted inside `quad`, and the outline worth fitting next, if any.
fn fit_once(gray: &GrayImage, quad: &Quad, greys: Greys) -> Option<(Fit, Option<Refit>)> {
    let (warped, to_photo) = rough_warp(gray, quad)?;
    let dark = dark_pixels(&warped, greys);
    let (rows, seen_h, outer_h) = fit_lines(&dark, true);
    let (cols, seen_v, outer_v) = fit_lines(&dark, false);
    let points = crossings(&|i, x| eval(&rows[i], x), &|j, y| eval(&cols[j], y), MARGIN)
        .map(|row| row.map(|p| to_photo * p));
    let lattice = Lattice { points };
    let line_score = (seen_h + seen_v) as f32 / (2 * 8 * 9) as f32;
    let outer_line_score = (outer_h + outer_v) as f32 / (2 * 2 * 9) as f32;
    let beside_ink = (beside_dark(&dark, &rows, true) + beside_dark(&dark, &cols, false)) / 2.0;
    let shift = (
        outer_shift(gray, &to_photo, &rows, true),
        outer_shift(gray, &to_photo, &cols, false),
    );
    let refit = if shift != (0, 0) {
        Some(Refit::Shifted(lattice.shifted_corners(shift.0, shift.1)))
    } else {
        comb_quad(&warped, &to_photo).map(Refit::Inside)
    };
    let found = FoundGrid {
        corners: lattice.corners(),
        lattice,
        line_score,
        outer_line_score,
        beside_ink,
    };
    Some((
        Fit {
            found,
            rows,
            cols,
            to_photo,
        },
        refit,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifted_corners_extrapolate_one_cell_beyond_the_lattice() {
        let quad = [(0.0, 0.0), (90.0, 0.0), (90.0, 90.0), (0.0, 90.0)];
        let lattice = Lattice::even(&quad).expect("a lattice");
        let moved = lattice.shifted_corners(1, -1);
        let want = [(-10.0, 10.0), (80.0, 10.0), (80.0, 100.0), (-10.0, 100.0)];
        for (got, want) in moved.iter().zip(want) {
            assert!(
                (got.0 - want.0).abs() < 1e-3 && (got.1 - want.1).abs() < 1e-3,
                "{got:?}"
            );
        }
        assert_eq!(lattice.shifted_corners(0, 0), lattice.corners());
    }
}
