//! Whether a fitted lattice sits a cell off the grid: its first line on the
//! edge of a grey drop shadow printed beside the grid and the grid's last line
//! left outside, or the other way round.
//!
//! The lattice fit cannot tell by itself: shifted by one cell, eight of its
//! inner lines still lie on real lines. What tells is the *outer* lines: a
//! printed line is darker than the paper on both sides, a shadow's edge has
//! paper on one side only. So the strength of the two outer lines is compared
//! with that of the lines one spacing beyond them (extrapolated from the
//! fitted curves, followed through the photo so curved pages stay in step);
//! when the line beyond one end is clearly a line and stronger than the outer
//! line at the other end, the lattice moves one cell that way.

use image::GrayImage;
use imageproc::geometric_transformations::Projection;

use super::lattice::{CELL, MARGIN, eval};
use super::sample::GreySampler;

/// How far across a line the paper is looked for, rough-warp pixels: beyond the
/// thickest border line, short of the next line.
const PAPER_GAP: f32 = CELL as f32 / 3.0;
/// The line beyond an end must be at least this share of the median inner
/// line's strength to count as a line.
const MIN_BEYOND: f32 = 0.4;
/// ... and this many times stronger than the outer line it would replace.
const STRONGER: f32 = 1.5;

/// Line strength along a position curve `pos(t)` of the rough warp (rows for
/// `horizontal` lines): the mean, over points along it, of how much darker the
/// darkest of three pixels across the line is than the darker of the two paper
/// points [`PAPER_GAP`] away on either side. Sampled from the photo through
/// `to_photo`, so positions outside the rough warp can be measured.
pub fn line_strength(
    gray: &GrayImage,
    to_photo: &Projection,
    pos: impl Fn(f32) -> f32,
    horizontal: bool,
) -> f32 {
    framed_line_strength(gray, to_photo, pos, horizontal, MARGIN)
}

/// [`line_strength`] in a rough warp with `margin` pixels around the grid.
pub fn framed_line_strength(
    gray: &GrayImage,
    to_photo: &Projection,
    pos: impl Fn(f32) -> f32,
    horizontal: bool,
    margin: usize,
) -> f32 {
    let (start, end) = (margin + CELL / 4, margin + 9 * CELL - CELL / 4);
    let ts = (start..end).step_by(2);
    let count = ts.len().max(1) as f32;
    // Five reads a point, gathered first and read as one row (four at a time,
    // see `sample`): across the line at p - 1, p, p + 1, the paper at p -/+ gap.
    let mut xs = Vec::with_capacity(5 * ts.len());
    let mut ys = Vec::with_capacity(5 * ts.len());
    for t in ts {
        let t = t as f32;
        let p = pos(t);
        for q in [p - 1.0, p, p + 1.0, p - PAPER_GAP, p + PAPER_GAP] {
            let (x, y) = if horizontal { (t, q) } else { (q, t) };
            let (px, py) = *to_photo * (x, y);
            xs.push(px);
            ys.push(py);
        }
    }
    let mut greys = vec![0.0f32; xs.len()];
    GreySampler::new(gray).row(&xs, &ys, &mut greys);
    greys
        .chunks_exact(5)
        .map(|g| {
            let line = [g[0], g[1], g[2]].into_iter().fold(f32::MAX, f32::min);
            let paper = g[3].min(g[4]);
            (paper - line).max(0.0)
        })
        .sum::<f32>()
        / count
}

/// By how many lines (-1, 0 or 1) the lattice's lines of one direction should
/// move: `curves` are the ten fitted lines (positions across, as functions of
/// the position along) in the rough warp that `to_photo` takes to the photo.
pub fn outer_shift(
    gray: &GrayImage,
    to_photo: &Projection,
    curves: &[[f32; 3]; 10],
    horizontal: bool,
) -> i32 {
    let line = |k: usize| line_strength(gray, to_photo, |t| eval(&curves[k], t), horizontal);
    let before = line_strength(
        gray,
        to_photo,
        |t| 2.0 * eval(&curves[0], t) - eval(&curves[1], t),
        horizontal,
    );
    let after = line_strength(
        gray,
        to_photo,
        |t| 2.0 * eval(&curves[9], t) - eval(&curves[8], t),
        horizontal,
    );
    let (first, last) = (line(0), line(9));
    let mut inner: Vec<f32> = (1..9).map(line).collect();
    inner.sort_by(f32::total_cmp);
    let typical = inner[inner.len() / 2];
    let beats =
        |beyond: f32, outer: f32| beyond >= MIN_BEYOND * typical && beyond > STRONGER * outer;
    match (beats(after, first), beats(before, last)) {
        (true, false) => 1,
        (false, true) => -1,
        (true, true) if after - first > before - last => 1,
        (true, true) => -1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paper with ten dark lines each way at 70 + 40k (k = 0..9), and a grey
    /// drop shadow left of the grid, from x = 30 to the grid's left line.
    fn sheet() -> GrayImage {
        GrayImage::from_fn(480, 480, |x, y| {
            let on_line = |p: u32| (70..=430).contains(&p) && (p - 70) % 40 < 2;
            let shade = (30..70).contains(&x) && (70..470).contains(&y);
            image::Luma([if on_line(x) || on_line(y) {
                30
            } else if shade {
                150
            } else {
                232
            }])
        })
    }

    /// The rough warp's flat curves (line k at MARGIN + k CELL), mapped to the
    /// photo with its first column at `left` and first row at `top`.
    fn flat_lattice(left: f32, top: f32) -> (Projection, [[f32; 3]; 10]) {
        let (m, span) = (MARGIN as f32, (9 * CELL) as f32);
        let to_photo = Projection::from_control_points(
            [(m, m), (m + span, m), (m + span, m + span), (m, m + span)],
            [
                (left, top),
                (left + 360.0, top),
                (left + 360.0, top + 360.0),
                (left, top + 360.0),
            ],
        )
        .expect("a projection");
        let curves = std::array::from_fn(|k| [(MARGIN + k * CELL) as f32, 0.0, 0.0]);
        (to_photo, curves)
    }

    #[test]
    fn a_lattice_a_cell_left_on_the_shadow_moves_right_and_a_true_one_stays() {
        let gray = sheet();
        // Columns from the shadow's edge (30), one cell left of the grid; rows right.
        let (to_photo, curves) = flat_lattice(30.5, 70.5);
        assert_eq!(outer_shift(&gray, &to_photo, &curves, false), 1);
        assert_eq!(outer_shift(&gray, &to_photo, &curves, true), 0);
        let (to_photo, curves) = flat_lattice(70.5, 70.5);
        assert_eq!(outer_shift(&gray, &to_photo, &curves, false), 0);
        // One cell right of the grid: the last column falls on paper.
        let (to_photo, curves) = flat_lattice(110.5, 70.5);
        assert_eq!(outer_shift(&gray, &to_photo, &curves, false), -1);
    }
}
