//! Following each grid line strip by strip, at any slant, so that a page
//! folded across the grid (a sheet folded in half and opened again, one half
//! lying on another plane) still gets every cell's own corners.
//!
//! The lattice fit ([`super::lattice`]) looks for each line within a third of a
//! cell of where a flat grid would put it, in strips parallel to the outline,
//! and bends it no more than a quadratic allows: right for a page that bows,
//! wrong past a fold, where the lines turn by 10-30 degrees and run off by up
//! to a cell. Here each line is followed instead: from the strip nearest the
//! middle where it is seen, to each next strip at the place and slant the
//! strips before it point to, searching slants as well as places; the line is
//! then the polyline through the strips it was seen in.
//!
//! A followed line replaces the lattice's only when it strays from it
//! clearly, is in step with its neighbours and is clearly a stronger line (a
//! page that is flat or bows keeps the lattice the digit network learnt its
//! cells from); the whole is done again from the followed lattice, whose
//! outline shows more of the lines beyond the fold, while its lines grow
//! stronger ([`super::find_grid`]).

use image::GrayImage;

use super::FoundGrid;
use super::lattice::{
    CELL, Greys, Lattice, crossings, dark_pixels, framed_beside_dark, framed_warp,
};
use super::shift::framed_line_strength;

/// Margin around the grid in the warp lines are followed in: a cell and a
/// half, room for an outer line beyond a fold to run off the outline (the
/// lattice's corners stay on the true ones, its outer lines are straight
/// between them) by more than a cell.
const MARGIN: usize = 3 * CELL / 2;
/// Side of that warp.
const SIDE: usize = 9 * CELL + 2 * MARGIN;
/// Strips along a line (one a cell).
const STRIPS: usize = 9;
/// How far from the predicted place a line is looked for, rough-warp pixels.
const REACH: i32 = (CELL / 4) as i32;
/// Largest slant searched, across-pixels per along-pixel (about 31 degrees).
const MAX_SLANT: f32 = 0.6;
/// Slants searched either side of the predicted one.
const SLANT_STEPS: i32 = 6;
/// A strip counts as seen when this share of its pixels lie on the line.
const SEEN_SHARE: f32 = 0.6;
/// Strips in a row a line may go unseen before following it stops.
const MAX_UNSEEN: usize = 2;
/// A followed line must stray this far from the lattice's line (rough-warp
/// pixels) to replace it: a fifth of a cell ...
const MIN_MOVE: f32 = CELL as f32 / 5.0;
/// ... and be this much stronger a line.
const STRONGER: f32 = 1.1;
/// How near a line seen in a strip must lie to where the lattice puts it to
/// count for the line score (rough-warp pixels).
const ON_LINE: f32 = 2.0;
/// A followed line must be seen in at least this many of its nine strips to
/// replace the lattice's: one seen in a few strips, run on straight beyond
/// them, has mostly met a digit's strokes beside a faint or dashed line.
const MIN_SEEN: usize = 8;
/// Least and largest gap between neighbouring lines, as a share of the
/// median gap at the same place along them.
const GAP_RATIO: (f32, f32) = (0.75, 1.33);

/// Where a line was seen in one strip: at `along`, the strip's middle, it lies
/// at `across`, running at `slant`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Seen {
    along: f32,
    across: f32,
    slant: f32,
}

/// A line as the polyline through the strips where it was seen; before the
/// first and after the last it runs on straight at their slant.
#[derive(Clone, Debug)]
struct Polyline {
    seen: Vec<Seen>,
}

impl Polyline {
    /// The polyline through `(along, across)` points, in order along it.
    fn through(points: impl Iterator<Item = (f32, f32)>) -> Polyline {
        let mut points: Vec<(f32, f32)> = points.collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let slant = |a: (f32, f32), b: (f32, f32)| (b.1 - a.1) / (b.0 - a.0).max(1e-3);
        let seen = points
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let (a, b) = if i + 1 < points.len() {
                    (p, points[i + 1])
                } else {
                    (points[i.saturating_sub(1)], p)
                };
                Seen {
                    along: p.0,
                    across: p.1,
                    slant: slant(a, b),
                }
            })
            .collect();
        Polyline { seen }
    }

    /// The position across at `t` along.
    fn at(&self, t: f32) -> f32 {
        let (Some(first), Some(last)) = (self.seen.first(), self.seen.last()) else {
            return 0.0;
        };
        if t <= first.along {
            return first.across + first.slant * (t - first.along);
        }
        if t >= last.along {
            return last.across + last.slant * (t - last.along);
        }
        let next = self.seen.partition_point(|s| s.along <= t);
        let (a, b) = (self.seen[next - 1], self.seen[next]);
        let share = (t - a.along) / (b.along - a.along);
        a.across + share * (b.across - a.across)
    }
}

/// A lattice whose lines were followed, with the mean strength of its twenty
/// lines ([`super::shift::line_strength`], grey levels) and what its line
/// scores are counted from when they are asked for ([`Followed::into_grid`]:
/// only the last of several rounds of following needs them).
pub struct Followed {
    /// The lattice through the followed lines.
    pub lattice: Lattice,
    /// Mean strength of its lines.
    pub strength: f32,
    /// The warp's dark-line pixels, and the rows and columns in the warp.
    dark: Vec<bool>,
    lines: [[Polyline; 10]; 2],
}

impl Followed {
    /// The grid of this lattice, its line scores and the ink beside its lines
    /// counted as the lattice fit counts its own.
    pub fn into_grid(self) -> FoundGrid {
        let [rows, cols] = &self.lines;
        let (inner, outer) = [(rows, true), (cols, false)]
            .map(|(lines, horizontal)| strips_on_lines(&self.dark, lines, horizontal))
            .into_iter()
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let beside_ink = [(rows, true), (cols, false)]
            .map(|(lines, horizontal)| {
                framed_beside_dark(&self.dark, &|k, t| lines[k].at(t), horizontal, MARGIN)
            })
            .iter()
            .sum::<f32>()
            / 2.0;
        FoundGrid {
            corners: self.lattice.corners(),
            lattice: self.lattice,
            line_score: inner as f32 / (2 * 8 * STRIPS) as f32,
            outer_line_score: outer as f32 / (2 * 2 * STRIPS) as f32,
            beside_ink,
        }
    }
}

/// `lattice` with its lines followed ([module docs](self)), or `None` when
/// no followed line clearly beats the line it starts from.
pub fn follow_grid(gray: &GrayImage, lattice: &Lattice, greys: Greys) -> Option<Followed> {
    let (warped, to_photo) = framed_warp(gray, &lattice.corners(), MARGIN)?;
    let from_photo = to_photo.invert();
    let dark = dark_pixels(&warped, greys);
    let points = lattice.points.map(|row| row.map(|p| from_photo * p));
    let mut total = 0.0;
    let mut followed_any = false;
    let lines = [true, false].map(|horizontal| {
        let mut lines: [Polyline; 10] = std::array::from_fn(|k| {
            let line = (0..10).map(|j| {
                if horizontal {
                    points[k][j]
                } else {
                    points[j][k]
                }
            });
            Polyline::through(line.map(|(x, y)| if horizontal { (x, y) } else { (y, x) }))
        });
        let (followed, out_of_step) = follow_lines(&dark, &lines, horizontal);
        let strength = |line: &Polyline| {
            framed_line_strength(gray, &to_photo, |t| line.at(t), horizontal, MARGIN)
        };
        for (k, (line, polyline)) in lines.iter_mut().zip(followed).enumerate() {
            let before = strength(line);
            total += before;
            let Some(polyline) = polyline.filter(|p| p.seen.len() >= MIN_SEEN) else {
                continue;
            };
            let strays = crossing_places()
                .map(|t| (polyline.at(t) - line.at(t)).abs())
                .fold(0.0, f32::max);
            if out_of_step[k] || strays < MIN_MOVE {
                continue;
            }
            let after = strength(&polyline);
            if after >= STRONGER * before {
                total += after - before;
                *line = polyline;
                followed_any = true;
            }
        }
        lines
    });
    if !followed_any {
        return None;
    }
    let [rows, cols] = &lines;
    let points = crossings(&|i, x| rows[i].at(x), &|j, y| cols[j].at(y), MARGIN)
        .map(|row| row.map(|p| to_photo * p));
    Some(Followed {
        lattice: Lattice { points },
        strength: total / 20.0,
        dark,
        lines,
    })
}

/// How many strips of the inner and of the two outer lines show a line where
/// `lines` put it (within [`ON_LINE`]): the followed lattice's line scores,
/// counted as the lattice fit counts its own.
fn strips_on_lines(dark: &[bool], lines: &[Polyline; 10], horizontal: bool) -> (usize, usize) {
    let (mut inner, mut outer) = (0, 0);
    for (k, line) in lines.iter().enumerate() {
        let on = (0..STRIPS)
            .filter(|&strip| {
                let t = strip_middle(strip);
                look(
                    dark,
                    strip,
                    line.at(t),
                    slant(&|t| line.at(t), t),
                    horizontal,
                )
                .is_some_and(|seen| (seen.across - line.at(t)).abs() <= ON_LINE)
            })
            .count();
        if (1..9).contains(&k) {
            inner += on;
        } else {
            outer += on;
        }
    }
    (inner, outer)
}

/// The ten lines of one direction followed, and which of them are out of
/// step ([`out_of_step`]): each from where it lies now, then each not seen
/// near there or out of step (a line fitted to the near side of a fold runs
/// off beyond it, or onto the next line) from its neighbours' followed lines.
fn follow_lines(
    dark: &[bool],
    lines: &[Polyline; 10],
    horizontal: bool,
) -> ([Option<Polyline>; 10], [bool; 10]) {
    let mut followed: [Option<Polyline>; 10] =
        std::array::from_fn(|k| follow_line(dark, &|t| lines[k].at(t), horizontal));
    let first_out = out_of_step(&followed, lines);
    for k in 0..10 {
        if followed[k].is_some() && !first_out[k] {
            continue;
        }
        let seen = |i: Option<usize>| {
            let i = i.filter(|&i| i < 10 && !first_out[i])?;
            followed[i].as_ref()
        };
        let guess: Option<Box<dyn Fn(f32) -> f32 + '_>> = match (
            seen(k.checked_sub(2)),
            seen(k.checked_sub(1)),
            seen(Some(k + 1)),
            seen(Some(k + 2)),
        ) {
            (_, Some(a), Some(b), _) => Some(Box::new(move |t| (a.at(t) + b.at(t)) / 2.0)),
            (Some(a), Some(b), None, _) => Some(Box::new(move |t| 2.0 * b.at(t) - a.at(t))),
            (_, None, Some(a), Some(b)) => Some(Box::new(move |t| 2.0 * a.at(t) - b.at(t))),
            _ => None,
        };
        if let Some(again) = guess.and_then(|guess| follow_line(dark, &*guess, horizontal)) {
            followed[k] = Some(again);
        }
    }
    let out = out_of_step(&followed, lines);
    (followed, out)
}

/// Which of ten followed lines are out of step with the others: both gaps
/// to its neighbours (the one gap, for an outer line), at some crossing, far
/// from the typical gap there. A line that jumped onto the next one leaves a
/// gap of nothing on one side and of two cells on the other; an outer line
/// that ran onto the page's edge or a shadow leaves one gap too wide; the
/// neighbours of either keep one even gap. (A line not seen counts where it
/// lies now.)
fn out_of_step(followed: &[Option<Polyline>; 10], lines: &[Polyline; 10]) -> [bool; 10] {
    let mut uneven_gap = [false; 9];
    for t in crossing_places() {
        let at = |k: usize| followed[k].as_ref().unwrap_or(&lines[k]).at(t);
        let gaps: Vec<f32> = (0..9).map(|k| at(k + 1) - at(k)).collect();
        let mut sorted = gaps.clone();
        sorted.sort_by(f32::total_cmp);
        let typical = sorted[4];
        for (uneven, gap) in uneven_gap.iter_mut().zip(gaps) {
            *uneven |= !(GAP_RATIO.0 * typical..=GAP_RATIO.1 * typical).contains(&gap);
        }
    }
    std::array::from_fn(|k| {
        let before = k.checked_sub(1).is_none_or(|g| uneven_gap[g]);
        let after = uneven_gap.get(k).is_none_or(|&u| u);
        before && after
    })
}

/// Where along a line the crossings of a flat lattice lie.
fn crossing_places() -> impl Iterator<Item = f32> {
    (0..=STRIPS).map(|k| (MARGIN + k * CELL) as f32)
}

/// The middle of `strip` along a line, warp pixels.
fn strip_middle(strip: usize) -> f32 {
    (MARGIN + strip * CELL + CELL / 2) as f32
}

/// The slant of the line `pos` at `t` along it.
fn slant(pos: &dyn Fn(f32) -> f32, t: f32) -> f32 {
    (pos(t + 1.0) - pos(t - 1.0)) / 2.0
}

/// One line followed from the middle out, starting from where `guess` puts
/// it; `None` when it is seen in no strip near there.
fn follow_line(dark: &[bool], guess: &dyn Fn(f32) -> f32, horizontal: bool) -> Option<Polyline> {
    // Start where the guess is seen nearest the middle.
    let (first, seen_first) = [4, 3, 5, 2, 6, 1, 7, 0, 8].into_iter().find_map(|strip| {
        let t = strip_middle(strip);
        look(dark, strip, guess(t), slant(guess, t), horizontal).map(|s| (strip, s))
    })?;
    let mut seen = vec![seen_first];
    for step in [1i32, -1] {
        let mut last = seen_first;
        let mut unseen = 0;
        let mut strip = first as i32 + step;
        while (0..STRIPS as i32).contains(&strip) && unseen < MAX_UNSEEN {
            let t = strip_middle(strip as usize);
            let predicted = last.across + last.slant * (t - last.along);
            match look(dark, strip as usize, predicted, last.slant, horizontal) {
                Some(s) => {
                    seen.push(s);
                    last = s;
                    unseen = 0;
                }
                None => unseen += 1,
            }
            strip += step;
        }
    }
    seen.sort_by(|a, b| a.along.total_cmp(&b.along));
    Some(Polyline { seen })
}

/// The line in `strip` near `predicted` (across) at about `slant`: the place
/// and slant whose segment across the strip covers most dark pixels, if it
/// covers at least [`SEEN_SHARE`] of them.
fn look(dark: &[bool], strip: usize, predicted: f32, slant: f32, horizontal: bool) -> Option<Seen> {
    let start = MARGIN + strip * CELL;
    let middle = strip_middle(strip);
    // How far across the segment at `slant` is from its middle, at each
    // pixel of the strip (whole pixels, so each place is an integer).
    let offsets = |slant: f32| -> [i32; CELL] {
        std::array::from_fn(|i| (slant * ((start + i) as f32 - middle)).round() as i32)
    };
    let count = |across: i32, offsets: &[i32; CELL]| -> usize {
        offsets
            .iter()
            .enumerate()
            .filter(|&(i, &off)| {
                let pos = across + off;
                let t = start + i;
                (0..SIDE as i32).contains(&pos) && {
                    let pos = pos as usize;
                    dark[if horizontal {
                        pos * SIDE + t
                    } else {
                        t * SIDE + pos
                    }]
                }
            })
            .count()
    };
    let step = MAX_SLANT / (2 * SLANT_STEPS) as f32;
    let centre = predicted.round() as i32;
    // Best count, its place, slant and offsets; ties go to the place nearer
    // the prediction.
    let mut best: Option<(usize, i32, f32, [i32; CELL])> = None;
    for k in -SLANT_STEPS..=SLANT_STEPS {
        let s = (slant + k as f32 * step).clamp(-MAX_SLANT, MAX_SLANT);
        let offsets = offsets(s);
        for d in -REACH..=REACH {
            let c = count(centre + d, &offsets);
            let nearer = |b: &(usize, i32, f32, [i32; CELL])| {
                c > b.0 || (c == b.0 && d.abs() < (b.1 - centre).abs())
            };
            if best.as_ref().is_none_or(nearer) {
                best = Some((c, centre + d, s, offsets));
            }
        }
    }
    let (c, across, s, offsets) = best?;
    if (c as f32) < SEEN_SHARE * CELL as f32 {
        return None;
    }
    // The middle of a thick line: the places beside the best, at its slant,
    // nearly as full.
    let (mut sum, mut weight) = (0.0, 0.0);
    for d in -4..=4 {
        let w = count(across + d, &offsets) as f32;
        if w >= 0.6 * c as f32 {
            sum += (across + d) as f32 * w;
            weight += w;
        }
    }
    Some(Seen {
        along: middle,
        across: sum / weight,
        slant: s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::lattice::fit_lattice;
    use crate::grid::{Point, followed};

    /// Cell side of the test page, pixels.
    const PX: f32 = 40.0;
    /// Where the test page is folded (x) and the tangent its rows turn by beyond.
    const FOLD: f32 = 60.0 + 4.5 * PX;
    const TURN: f32 = 0.35;

    /// Where the grid point `(u, v)` (flat page pixels from the grid's
    /// top-left corner) lands on the folded page: rows turn up past the fold.
    fn folded((u, v): Point) -> Point {
        let x = 60.0 + u;
        (x, 100.0 + v - TURN * (x - FOLD).max(0.0))
    }

    /// White paper with a grid whose right half is folded up by [`TURN`].
    fn folded_grid() -> GrayImage {
        GrayImage::from_fn(520, 520, |x, y| {
            let x = x as f32 + 0.5;
            let (u, v) = (
                x - 60.0,
                y as f32 + 0.5 - 100.0 + TURN * (x - FOLD).max(0.0),
            );
            let on_line =
                |w: f32| (0.0..=9.0 * PX + 2.0).contains(&w) && (w + 1.5).rem_euclid(PX) < 3.0;
            let inside = |w: f32| (-1.5..=9.0 * PX + 1.5).contains(&w);
            let ink = (on_line(u) && inside(v)) || (on_line(v) && inside(u));
            image::Luma([if ink { 30 } else { 225 }])
        })
    }

    /// Largest distance of the lattice's crossings from the true ones.
    fn worst_crossing(lattice: &Lattice) -> f32 {
        let mut worst = 0.0f32;
        for (i, row) in lattice.points.iter().enumerate() {
            for (j, p) in row.iter().enumerate() {
                let truth = folded((j as f32 * PX, i as f32 * PX));
                worst = worst.max((p.0 - truth.0).hypot(p.1 - truth.1));
            }
        }
        worst
    }

    #[test]
    fn lines_are_followed_across_a_fold() {
        let page = folded_grid();
        let outline = [
            (0.0, 0.0),
            (9.0 * PX, 0.0),
            (9.0 * PX, 9.0 * PX),
            (0.0, 9.0 * PX),
        ]
        .map(folded);
        let fitted = fit_lattice(&page, &outline, Greys::AsTheyAre).expect("a lattice");
        // The quadratic curves cannot turn at the fold: crossings a third of
        // a cell or more off.
        assert!(
            worst_crossing(&fitted.lattice) > PX / 3.0,
            "{}",
            worst_crossing(&fitted.lattice)
        );
        let followed = followed(&page, fitted, Greys::AsTheyAre);
        assert!(
            worst_crossing(&followed.lattice) < PX / 10.0,
            "{}",
            worst_crossing(&followed.lattice)
        );
    }

    #[test]
    fn a_flat_grid_keeps_its_fitted_lattice() {
        let page = GrayImage::from_fn(520, 520, |x, y| {
            let on = |w: f32| (0.0..=9.0 * PX + 2.0).contains(&w) && (w + 1.5).rem_euclid(PX) < 3.0;
            let (u, v) = (x as f32 + 0.5 - 60.0, y as f32 + 0.5 - 60.0);
            let inside = |w: f32| (-1.5..=9.0 * PX + 1.5).contains(&w);
            image::Luma([if (on(u) && inside(v)) || (on(v) && inside(u)) {
                30
            } else {
                225
            }])
        });
        let outline = [(60.0, 60.0), (420.0, 60.0), (420.0, 420.0), (60.0, 420.0)];
        let fitted = fit_lattice(&page, &outline, Greys::AsTheyAre).expect("a lattice");
        assert!(follow_grid(&page, &fitted.lattice, Greys::AsTheyAre).is_none());
    }

    #[test]
    fn a_polyline_runs_on_straight_past_its_ends() {
        let line = Polyline::through([(10.0, 5.0), (20.0, 7.0), (30.0, 5.0)].into_iter());
        assert_eq!(line.at(15.0), 6.0);
        assert_eq!(line.at(25.0), 6.0);
        assert_eq!(line.at(0.0), 3.0);
        assert_eq!(line.at(40.0), 3.0);
    }
}
