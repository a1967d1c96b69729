//! Whether a cell's ink holds a stroke long enough to be a digit: an empty cell
//! the network reads as a digit is most often a dot, a speck on a faint
//! show-through, or a grid line's edge, none of which reaches across the
//! middle of the cell as every written or printed digit does.
//!
//! The cell's ink (28 x 28, 0..1, see `snapsolve_vision::grid::sample_cells`) is
//! cut at half its own strength (so faint pencil strokes count as fully as
//! dark ones), after the grid-line remnants along its edges are wiped; what
//! is left of the ink that reaches the middle is measured.

use snapsolve_vision::grid::CELL_INPUT_SIDE;

use super::CellProbabilities;

const SIDE: usize = CELL_INPUT_SIDE;
/// Ink counts at this share of the cell's strength (its darkest 3x3 mean)...
const STROKE_SHARE: f32 = 0.5;
/// ...and never below this ink value (paper noise of an empty cell).
const STROKE_FLOOR: f32 = 0.1;
/// Only rows and columns this close to the edge can be a grid line's remnant.
const LINE_BAND: usize = 8;
/// A row or column inked along more than this many of its pixels is a grid
/// line's remnant (no digit spans that far that near the cell's edge).
const LINE_PIXELS: usize = 16;
/// The middle of the cell: ink must reach into `MIDDLE..SIDE - MIDDLE` on both
/// axes to count (a neighbour's stroke poking in stays out).
const MIDDLE: usize = 4;
/// No digit's ink spans fewer pixels than this (of the digits read right, the
/// shortest on the training photos spans 8, on 300 rendered pages 7).
pub const MIN_DIGIT_SPAN: usize = 7;
/// Ink of fewer pixels than this is no digit unless the network is sure:
/// where it still gives empty [`SMALL_INK_EMPTY`] or more, the cell is empty.
pub const MIN_DIGIT_PIXELS: usize = 12;
/// See [`MIN_DIGIT_PIXELS`].
pub const SMALL_INK_EMPTY: f32 = 0.1;
/// A cell found empty keeps its digits' order for the rules, but together
/// they weigh this share of empty's probability.
const BLANK_DIGIT_SHARE: f32 = 0.1;

/// The ink of a cell that reaches its middle, grid-line remnants wiped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MiddleInk {
    /// Inked pixels.
    pub pixels: usize,
    /// The longer side of their bounding box, in pixels.
    pub span: usize,
}

/// A cell read as a digit whose ink is under this share of the page's
/// typical digit ink ([`typical_strength`])...
pub const FAINT_SHARE: f32 = 0.3;
/// ...is empty where the network gives empty this much or more: print or
/// writing showing through from the back of a thin page, an erased digit.
pub const FAINT_EMPTY: f32 = 0.1;
/// The page's typical digit ink is only measured over this many cells read
/// as digits or more.
const MIN_DIGITS_FOR_TYPICAL: usize = 5;

/// The largest 3x3 mean of the cell's ink, away from its outer 3 pixels.
///
/// Run for every cell read as a digit (up to 81 a photo, twice each): the
/// 3x3 sums are taken as sums of three horizontal 3-sums, each computed once
/// (`across[y * SIDE + x]` = `ink[y][x - 1..=x + 1]`, for x in 1..SIDE - 1),
/// a third of the additions of summing each window afresh.
pub fn strength(ink: &[f32]) -> f32 {
    let mut across = vec![0.0f32; SIDE * SIDE];
    for y in 2..SIDE - 2 {
        for x in 3..SIDE - 3 {
            let at = y * SIDE + x;
            across[at] = ink[at - 1] + ink[at] + ink[at + 1];
        }
    }
    let mut best = 0.0f32;
    for y in 3..SIDE - 3 {
        for x in 3..SIDE - 3 {
            let at = y * SIDE + x;
            best = best.max(across[at - SIDE] + across[at] + across[at + SIDE]);
        }
    }
    best / 9.0
}

/// The level ink must pass to count.
fn stroke_level(ink: &[f32]) -> f32 {
    (STROKE_SHARE * strength(ink)).max(STROKE_FLOOR)
}

/// The cell with every row and column near an edge that is inked along most
/// of its length set to paper.
fn without_line_remnants(ink: &[f32]) -> Vec<f32> {
    let level = stroke_level(ink);
    let mut out = ink.to_vec();
    let near_edge = (0..LINE_BAND).chain(SIDE - LINE_BAND..SIDE);
    for i in near_edge {
        let row = (0..SIDE).filter(|&x| ink[i * SIDE + x] > level).count();
        let column = (0..SIDE).filter(|&y| ink[y * SIDE + i] > level).count();
        if row > LINE_PIXELS {
            out[i * SIDE..(i + 1) * SIDE].fill(0.0);
        }
        if column > LINE_PIXELS {
            (0..SIDE).for_each(|y| out[y * SIDE + i] = 0.0);
        }
    }
    out
}

/// Measures the ink of one cell that reaches its middle: the 8-connected
/// pieces of ink (at half the cell's strength, grid-line remnants wiped) of
/// which at least one pixel lies in the middle.
pub fn middle_ink(ink: &[f32]) -> MiddleInk {
    let cleaned = without_line_remnants(ink);
    let level = stroke_level(&cleaned);
    let inked: Vec<bool> = cleaned.iter().map(|&v| v > level).collect();
    let mut seen = vec![false; SIDE * SIDE];
    let (mut pixels, mut low, mut high) = (0, (SIDE, SIDE), (0, 0));
    let mut stack = Vec::new();
    for start in 0..SIDE * SIDE {
        if !inked[start] || seen[start] {
            continue;
        }
        // One piece, by a depth-first fill.
        let mut piece = Vec::new();
        seen[start] = true;
        stack.push(start);
        while let Some(at) = stack.pop() {
            piece.push(at);
            let (y, x) = (at / SIDE, at % SIDE);
            for yy in y.saturating_sub(1)..=(y + 1).min(SIDE - 1) {
                for xx in x.saturating_sub(1)..=(x + 1).min(SIDE - 1) {
                    let next = yy * SIDE + xx;
                    if inked[next] && !seen[next] {
                        seen[next] = true;
                        stack.push(next);
                    }
                }
            }
        }
        let middle = MIDDLE..SIDE - MIDDLE;
        if !piece
            .iter()
            .any(|&p| middle.contains(&(p / SIDE)) && middle.contains(&(p % SIDE)))
        {
            continue;
        }
        pixels += piece.len();
        for &p in &piece {
            let (y, x) = (p / SIDE, p % SIDE);
            low = (low.0.min(y), low.1.min(x));
            high = (high.0.max(y), high.1.max(x));
        }
    }
    let span = if pixels == 0 {
        0
    } else {
        (high.0 - low.0 + 1).max(high.1 - low.1 + 1)
    };
    MiddleInk { pixels, span }
}

/// Whether a cell with this ink and these probabilities is empty whatever
/// digit the network likes best: its ink spans too little for any digit, or
/// is too little and the network itself gives empty some weight.
pub fn too_little_for_a_digit(ink: MiddleInk, p: &CellProbabilities) -> bool {
    ink.span < MIN_DIGIT_SPAN || (ink.pixels < MIN_DIGIT_PIXELS && p[0] >= SMALL_INK_EMPTY)
}

/// The typical strength ([`strength`]) of a page's digits: the median over
/// the cells read as digits, `None` when they are fewer than 5.
pub fn typical_strength(mut read_as_digits: Vec<f32>) -> Option<f32> {
    if read_as_digits.len() < MIN_DIGITS_FOR_TYPICAL {
        return None;
    }
    read_as_digits.sort_by(f32::total_cmp);
    Some(read_as_digits[read_as_digits.len() / 2])
}

/// Whether a cell of this strength, read with these probabilities, is too
/// faint beside its page's digits (`typical`, see [`typical_strength`]) to
/// be one: under [`FAINT_SHARE`] of their ink, with empty at
/// [`FAINT_EMPTY`] or more. On thin pages the back's writing shows through,
/// mirrored and faint, and the network can take it for a digit; on the
/// training and validation photos no digit read right is fainter than 0.27
/// of its page's typical ink (in handwriting; 0.32 filled in, 0.5 printed).
pub fn too_faint_for_the_page(strength: f32, typical: f32, p: &CellProbabilities) -> bool {
    strength < FAINT_SHARE * typical && p[0] >= FAINT_EMPTY
}

/// The probabilities of a cell found empty: the digits keep their order (for
/// the rules) but together weigh [`BLANK_DIGIT_SHARE`] of empty.
pub fn as_empty(p: &CellProbabilities) -> CellProbabilities {
    let digits: f32 = p[1..].iter().sum();
    let empty = p[0].max(1e-6);
    let scale = (BLANK_DIGIT_SHARE * empty / digits.max(1e-12)).min(1.0);
    let mut out = *p;
    out[1..].iter_mut().for_each(|q| *q *= scale);
    let total: f32 = out.iter().sum();
    out.iter_mut().for_each(|q| *q /= total);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A paper cell (faint noise) with ink drawn on it.
    fn cell(strokes: &[(usize, usize, f32)]) -> Vec<f32> {
        let mut ink: Vec<f32> = (0..SIDE * SIDE)
            .map(|i| 0.02 * ((i * 7919) % 5) as f32)
            .collect();
        for &(y, x, v) in strokes {
            ink[y * SIDE + x] = v;
        }
        ink
    }

    fn vertical(x: usize, ys: std::ops::Range<usize>, v: f32) -> Vec<(usize, usize, f32)> {
        ys.flat_map(|y| [(y, x, v), (y, x + 1, v)]).collect()
    }

    #[test]
    fn a_faint_thin_one_is_a_digit() {
        // A pencil 1, 12 pixels tall, two wide, at a third of the grid's darkest ink.
        let ink = middle_ink(&cell(&vertical(13, 8..20, 0.3)));
        assert_eq!(
            ink,
            MiddleInk {
                pixels: 24,
                span: 12
            }
        );
        let sure = [0.01, 0.9, 0.0, 0.0, 0.0, 0.0, 0.0, 0.09, 0.0, 0.0];
        assert!(!too_little_for_a_digit(ink, &sure));
    }

    #[test]
    fn a_dot_is_no_digit_however_sure_the_network_is() {
        let dot = [(13, 13, 0.8), (13, 14, 0.8), (14, 13, 0.8), (14, 14, 0.7)];
        let ink = middle_ink(&cell(&dot));
        assert_eq!(ink, MiddleInk { pixels: 4, span: 2 });
        let sure = [0.01, 0.0, 0.99, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        assert!(too_little_for_a_digit(ink, &sure));
    }

    #[test]
    fn a_grid_line_at_the_edge_is_wiped_but_a_digit_beside_it_stays() {
        let mut strokes = vertical(1, 0..SIDE, 1.0);
        let line_only = middle_ink(&cell(&strokes));
        assert_eq!(line_only.pixels, 0);
        strokes.extend(vertical(13, 7..21, 0.9));
        assert_eq!(middle_ink(&cell(&strokes)).span, 14);
    }

    #[test]
    fn a_short_scrap_is_empty_only_when_the_network_has_doubts() {
        // Ten pixels spanning ten: long enough, but little ink.
        let scrap: Vec<_> = (9..19).map(|y| (y, 14, 0.9)).collect();
        let ink = middle_ink(&cell(&scrap));
        assert_eq!(
            ink,
            MiddleInk {
                pixels: 10,
                span: 10
            }
        );
        let doubtful = [0.2, 0.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.05, 0.0, 0.0];
        let sure = [0.02, 0.93, 0.0, 0.0, 0.0, 0.0, 0.0, 0.05, 0.0, 0.0];
        assert!(too_little_for_a_digit(ink, &doubtful));
        assert!(!too_little_for_a_digit(ink, &sure));
    }

    #[test]
    fn faint_ink_on_a_page_of_dark_digits_is_empty_when_the_network_doubts() {
        assert_eq!(typical_strength(vec![0.9, 0.8, 1.0, 0.7]), None);
        let typical = typical_strength(vec![0.9, 0.8, 1.0, 0.7, 0.85]).expect("five digits");
        assert_eq!(typical, 0.85);
        let doubtful = [0.2, 0.0, 0.0, 0.75, 0.0, 0.0, 0.0, 0.0, 0.05, 0.0];
        let sure = [0.02, 0.0, 0.0, 0.93, 0.0, 0.0, 0.0, 0.0, 0.05, 0.0];
        assert!(too_faint_for_the_page(0.2, typical, &doubtful));
        assert!(!too_faint_for_the_page(0.2, typical, &sure));
        assert!(!too_faint_for_the_page(0.3, typical, &doubtful));
        // On a page of dark pen digits, a pencil 1 at a third of their ink
        // stays a digit; writing showing through at a sixth is empty.
        let pen = strength(&cell(&vertical(13, 8..20, 0.9)));
        let typical = typical_strength(vec![pen; 9]).expect("nine digits");
        let pencil = strength(&cell(&vertical(13, 8..20, 0.3)));
        assert!(!too_faint_for_the_page(pencil, typical, &doubtful));
        let show_through = strength(&cell(&vertical(13, 8..20, 0.15)));
        assert!(too_faint_for_the_page(show_through, typical, &doubtful));
    }

    #[test]
    fn an_emptied_cell_reads_empty_and_keeps_its_digits_order() {
        let p = [0.001, 0.0, 0.7, 0.0, 0.2, 0.0, 0.0, 0.099, 0.0, 0.0];
        let q = as_empty(&p);
        assert_eq!(super::super::most_likely(&q), 0);
        assert!((q.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(q[2] > q[4] && q[4] > q[7]);
        assert!((q[1..].iter().sum::<f32>() / q[0] - BLANK_DIGIT_SHARE).abs() < 1e-3);
    }
}
