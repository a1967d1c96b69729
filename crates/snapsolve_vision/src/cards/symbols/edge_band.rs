//! A card's own shaded edge, told from foreign ink on its paper.
//!
//! A card photographed on a pale wall or desk often shows its cut edge as a
//! dark line along one side (its thickness seen at a slant, its shadow, a
//! side fitted a few pixels onto the backdrop). The card laid around its
//! symbols then holds that line just inside its rim, and the test that a
//! card's paper is blank but for its symbols refused it (photographed-cards
//! tables 546 and 567, lone cards on pale walls, read with this; 650 holds
//! other ink, 798 and 818 are not read either way: docs/evaluation.md,
//! sessions 46-47). Along **one** side only: the grid lines by a
//! sudoku cell's sides run along two or more of them, and a band excused on
//! every side read two cells of a filled-in grid as cards
//! (docs/evaluation.md, session 45). And not a line that runs on beyond
//! both ends of the side: a grid line by a cell's one side does (wichtounet
//! `mixed/image1087`: two cells of red digits read as cards without this),
//! a card's edge stops at its rounded corners. And along a long side only:
//! a card laid around its symbols is placed surely across them (their
//! length sets its width) but less so along the stack (an end symbol
//! missed, a stack squashed by a steep view), and the line along a short
//! side of a card so misplaced is the next symbol's tip or the card's own
//! end (photographed-cards table 580 and steep-angle table 451 read cards
//! of three symbols as two and one with short sides too).

use image::GrayImage;

use super::blobs::Symbol;
use super::{INK_DEPTH, MIDDLE, Point2, dot, paper_pixels, sub};
use crate::Quad;

/// Depth of the band along a side, as a share of the card's extent across
/// that side (from it to the side opposite).
const BAND: f32 = 0.15;
/// Pieces each side is cut into along its length...
const PIECES: usize = 20;
/// ...and the share of them its band's ink must reach for the ink to be a
/// line along the side, not a blot beside it.
const LEAST_RUN: f32 = 0.5;
/// How far beyond each end of the side its line is followed, as a share of
/// the side's length, at how many points, within how many pixels either
/// side of it; and the share of those points that must be ink for the line
/// to run on there.
const BEYOND: f32 = 0.25;
const BEYOND_POINTS: usize = 12;
const LINE_SLACK: i32 = 2;
const RUNS_ON: f32 = 0.6;

/// The foreign ink pixels (of `ink` inside `inner`, outside `group`'s
/// symbols: [`paper_pixels`]) that lie in the band along the one long side
/// of `quad` where they run along most of it; 0 where along none they do.
pub(super) fn shaded_edge_ink(
    ink: &GrayImage,
    quad: &Quad,
    inner: &Quad,
    group: &[Symbol],
) -> usize {
    let sides: Vec<SideFrame> = (0..4)
        .filter_map(|k| SideFrame::of(quad, k))
        .filter(SideFrame::is_long)
        .collect();
    let mut depths: Vec<Vec<f32>> = vec![Vec::new(); sides.len()];
    let mut pieces = vec![[false; PIECES]; sides.len()];
    for (p, _) in paper_pixels(ink, inner, group).filter(|&(_, inked)| inked) {
        for (k, side) in sides.iter().enumerate() {
            if let Some((piece, depth)) = side.piece_in_band(p) {
                depths[k].push(depth);
                pieces[k][piece] = true;
            }
        }
    }
    let runs_along = |k: usize| {
        pieces[k].iter().filter(|&&seen| seen).count() as f32 >= LEAST_RUN * PIECES as f32
    };
    let Some(k) = (0..sides.len())
        .filter(|&k| runs_along(k))
        .max_by_key(|&k| depths[k].len())
    else {
        return 0;
    };
    let mut line = std::mem::take(&mut depths[k]);
    let middle = line.len() / 2;
    let depth_of_line = *line.select_nth_unstable_by(middle, f32::total_cmp).1;
    let is_ink = |x: i32, y: i32| {
        x >= 0
            && y >= 0
            && (x as u32) < ink.width()
            && (y as u32) < ink.height()
            && ink.get_pixel(x as u32, y as u32)[0] < MIDDLE - INK_DEPTH
    };
    if sides[k].runs_on_beyond_both_ends(depth_of_line, is_ink) {
        return 0;
    }
    line.len()
}

/// One side of a card: where it starts, its direction and length, its
/// inward normal, and how far the side opposite lies.
struct SideFrame {
    from: Point2,
    along: Point2,
    length: f32,
    inward: Point2,
    across: f32,
}

impl SideFrame {
    /// Side `k` of `quad` (from corner `k` to the next); `None` if it has
    /// no length.
    fn of(quad: &Quad, k: usize) -> Option<SideFrame> {
        let (from, to) = (quad.corners[k], quad.corners[(k + 1) % 4]);
        let d = sub(to, from);
        let length = d[0].hypot(d[1]);
        if length < 1.0 {
            return None;
        }
        let along = [d[0] / length, d[1] / length];
        let normal = [-along[1], along[0]];
        let towards_centre = dot(sub(quad.centre(), from), normal);
        let inward = if towards_centre >= 0.0 {
            normal
        } else {
            [-normal[0], -normal[1]]
        };
        Some(SideFrame {
            from,
            along,
            length,
            inward,
            across: 2.0 * towards_centre.abs(),
        })
    }

    /// Whether the side is one of the card's long sides.
    fn is_long(&self) -> bool {
        self.length >= self.across
    }

    /// Which piece along the side `p` lies beside, and how far in, where it
    /// lies in the side's band.
    fn piece_in_band(&self, p: Point2) -> Option<(usize, f32)> {
        let d = sub(p, self.from);
        let depth = dot(d, self.inward);
        let t = dot(d, self.along) / self.length;
        let in_band = (0.0..BAND * self.across).contains(&depth) && (0.0..1.0).contains(&t);
        in_band.then(|| (((t * PIECES as f32) as usize).min(PIECES - 1), depth))
    }

    /// Whether the line `depth` pixels in from the side, followed beyond
    /// both of its ends ([`BEYOND`]), is ink there ([`RUNS_ON`]).
    fn runs_on_beyond_both_ends(&self, depth: f32, is_ink: impl Fn(i32, i32) -> bool) -> bool {
        let runs_on = |sign: f32, start: f32| {
            let inked = (0..BEYOND_POINTS)
                .filter(|&i| {
                    let t = start + sign * BEYOND * (i as f32 + 0.5) / BEYOND_POINTS as f32;
                    let at = t * self.length;
                    (-LINE_SLACK..=LINE_SLACK).any(|off| {
                        let d = depth + off as f32;
                        let x = self.from[0] + at * self.along[0] + d * self.inward[0];
                        let y = self.from[1] + at * self.along[1] + d * self.inward[1];
                        is_ink(x.floor() as i32, y.floor() as i32)
                    })
                })
                .count();
            inked as f32 >= RUNS_ON * BEYOND_POINTS as f32
        };
        runs_on(1.0, 1.0) && runs_on(-1.0, 0.0)
    }
}
