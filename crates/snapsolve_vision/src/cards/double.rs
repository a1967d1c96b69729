//! Two cards that read as one: cut a double card back into its halves.
//!
//! Cards that overlap, or touch along a long side so tightly that eroding the
//! mask does not part them, give one outline. Its quadrilateral is still
//! convex and well filled, so nothing upstream rejects it, but it is shaped
//! like no card: about twice a card's area, and squarer (two cards side by
//! side are `2 x 1/1.56 = 1.28` long over wide against a card's 1.56). Such a
//! quadrilateral is cut across its long sides where the paper is darkest:
//! the seam between two cards (a shadow line, an edge, a sliver of table)
//! is darker than the paper on either side of it.

use image::{GrayImage, Luma};

use crate::contours::outer_contours;
use crate::quad::{Point2, Quad, distance, fit_quad, lerp};

/// Area of a double, as a multiple of the typical card's.
const DOUBLE_AREA: (f32, f32) = (1.6, 2.6);
/// A double is at least this much squarer than the typical card (two cards
/// touching: 1.28 / 1.56 = 0.82; a gap of a quarter card between them: 0.92).
const SQUARER: f32 = 0.95;
/// Cuts are tried this far along the long sides (the middle, give or take an overlap).
const CUT_RANGE: (f32, f32) = (0.38, 0.62);
/// The darkness profile covers this much of the long sides (a seam that is a
/// band of table may reach beyond the cut range), in steps of 1%.
const PROFILE_RANGE: (f32, f32) = (0.3, 0.7);
const PROFILE_STEP: f32 = 0.01;
const PROFILE_STEPS: usize = 40;
/// The seam must be this much darker than the paper beside it...
const SEAM_CONTRAST: f32 = 0.94;
/// ...along this share of its length.
const SEAM_SHARE: f32 = 0.7;
/// The share of the cut at an end that must be as dark as the seam (a
/// card's margin, where no symbol reaches).
const END_SHARE: f32 = 0.3;
/// A seam at least this many profile steps wide is a band of table between
/// the cards; each card is then fitted again on its own.
const BAND_STEPS: usize = 3;
/// Each half must be a card: area and aspect relative to the typical card's.
/// (Halving one large card gives halves of aspect 1.28 / 1.56 = 0.82: outside.)
const HALF_AREA: (f32, f32) = (0.6, 1.4);
const HALF_ASPECT: (f32, f32) = (0.85, 1.18);

/// The two cards of a double, each in portrait order, or `None` when `quad`
/// looks like one card (or no clear seam divides it).
pub(super) fn split_double(
    white: &GrayImage,
    quad: &Quad,
    card_area: f32,
    card_aspect: f32,
) -> Option<[Quad; 2]> {
    let relative = quad.area() / card_area;
    if !(DOUBLE_AREA.0..=DOUBLE_AREA.1).contains(&relative) || quad.aspect() > SQUARER * card_aspect
    {
        return None;
    }
    // Portrait order: 0→1 and 2→3 are the short sides, 0→3 and 1→2 the long ones.
    let c = quad.portrait().corners;
    let cut = |t: f32| (lerp(c[0], c[3], t), lerp(c[1], c[2], t));
    let darkness = |t: f32| {
        let (a, b) = cut(t);
        whiteness_along(white, a, b, SEAM_SHARE)
    };
    // The darkness profile across the long sides, in steps of PROFILE_STEP.
    let profile: Vec<(f32, f32)> = (0..=PROFILE_STEPS)
        .map(|s| {
            let t = PROFILE_RANGE.0 + PROFILE_STEP * s as f32;
            (t, darkness(t))
        })
        .collect();
    let (best, &(_, seam)) = profile
        .iter()
        .enumerate()
        .filter(|(_, (t, _))| (CUT_RANGE.0..=CUT_RANGE.1).contains(t))
        .min_by(|a, b| a.1.1.total_cmp(&b.1.1))?;
    let paper = (darkness(0.25) + darkness(0.75)) / 2.0;
    if seam > SEAM_CONTRAST * paper || !dark_to_an_end(white, cut(profile[best].0), paper) {
        return None;
    }
    // The seam may be a band (a gap bridged by something bright): each card
    // ends where its side of the band starts.
    let level = (seam + paper) / 2.0;
    let dark = |i: &usize| profile[*i].1 < level;
    let first = (0..best).rev().take_while(dark).last().unwrap_or(best);
    let last = (best + 1..profile.len())
        .take_while(dark)
        .last()
        .unwrap_or(best);
    let (top_left, top_right) = cut(profile[first].0);
    let (bottom_left, bottom_right) = cut(profile[last].0);
    let halves = [
        Quad {
            corners: [c[0], c[1], top_right, top_left],
        },
        Quad {
            corners: [bottom_left, bottom_right, c[2], c[3]],
        },
    ]
    .map(|q| q.portrait());
    let card_like = |q: &Quad| {
        let (area, aspect) = (q.area() / card_area, q.aspect() / card_aspect);
        (HALF_AREA.0..=HALF_AREA.1).contains(&area)
            && (HALF_ASPECT.0..=HALF_ASPECT.1).contains(&aspect)
    };
    if !halves.iter().all(card_like) {
        return None;
    }
    // One straight cut cannot follow two cards turned a little against each
    // other across a band of table: fit each card again to its own paper, a
    // little beyond the cut (half the band) to catch its turned corners. (Cards
    // that overlap show only a faint seam, and the straight cut is what fits.)
    if last - first < BAND_STEPS {
        return Some(halves);
    }
    let band = distance(cut(profile[first].0).0, cut(profile[last].0).0);
    let grow = 1.0 + band / 2.0;
    Some(halves.map(|half| {
        refit(white, &half, level, grow)
            .filter(card_like)
            .unwrap_or(half)
    }))
}

/// The card inside `half`: the outline of the paper (whiter than `level`)
/// within `half` grown by `grow` pixels, as a quadrilateral in portrait order.
fn refit(white: &GrayImage, half: &Quad, level: f32, grow: f32) -> Option<Quad> {
    let region = half.expanded(grow);
    let (x0, y0, x1, y1) = region.corners.iter().fold(
        (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
        |(x0, y0, x1, y1), p| (x0.min(p[0]), y0.min(p[1]), x1.max(p[0]), y1.max(p[1])),
    );
    let clamp = |v: f32, limit: u32| v.clamp(0.0, limit as f32) as u32;
    let (x0, y0) = (
        clamp(x0.floor(), white.width()),
        clamp(y0.floor(), white.height()),
    );
    let (x1, y1) = (
        clamp(x1.ceil(), white.width()),
        clamp(y1.ceil(), white.height()),
    );
    if x1 <= x0 + 2 || y1 <= y0 + 2 {
        return None;
    }
    let mut mask = GrayImage::new(x1 - x0, y1 - y0);
    for (x, y, m) in mask.enumerate_pixels_mut() {
        let (px, py) = (x0 + x, y0 + y);
        let inside = region.contains([px as f32 + 0.5, py as f32 + 0.5]);
        if inside && f32::from(white.get_pixel(px, py).0[0]) > level {
            *m = Luma([255]);
        }
    }
    let outline = outer_contours(&mask)
        .into_iter()
        .max_by_key(|points| points.len())?;
    let quad = fit_quad(&outline)?;
    Some(
        quad.map(|p| [p[0] + x0 as f32, p[1] + y0 as f32])
            .portrait(),
    )
}

/// Whether the cut `a → b` is dark at an end too, in the cards' blank
/// margins: a seam between two cards reaches a side (cards laid side by
/// side: both; two cards touching at a corner: the other end), where the one
/// wide symbol of a large card (a near card on a steep table, twice the size
/// of the far ones) darkens only the middle of a line through it.
fn dark_to_an_end(white: &GrayImage, (a, b): (Point2, Point2), paper: f32) -> bool {
    [(a, lerp(a, b, END_SHARE)), (lerp(a, b, 1.0 - END_SHARE), b)]
        .into_iter()
        .any(|(from, to)| whiteness_along(white, from, to, SEAM_SHARE) <= SEAM_CONTRAST * paper)
}

/// How white the segment `a → b` is along most of its length: the level that
/// `share` of its samples stay at or below (each sample the darkest of
/// the 3x3 around a point of the middle 80%: the ends touch the table, and a
/// one-pixel seam that the cut crosses at a slant still shows on every
/// sample). A seam is dark from end to end; a card's symbols darken only part
/// of a line across it, so they do not pass for one.
pub(super) fn whiteness_along(white: &GrayImage, a: Point2, b: Point2, share: f32) -> f32 {
    const SAMPLES: usize = 32;
    let (w, h) = (white.width(), white.height());
    if w < 3 || h < 3 {
        return 0.0;
    }
    let mut samples: Vec<u8> = (0..SAMPLES)
        .map(|i| {
            let p = lerp(a, b, 0.1 + 0.8 * i as f32 / (SAMPLES - 1) as f32);
            let x = (p[0].max(0.0) as u32).clamp(1, w - 2);
            let y = (p[1].max(0.0) as u32).clamp(1, h - 2);
            (y - 1..=y + 1)
                .flat_map(|y| (x - 1..=x + 1).map(move |x| (x, y)))
                .map(|(x, y)| white.get_pixel(x, y).0[0])
                .min()
                .unwrap_or(0)
        })
        .collect();
    samples.sort_unstable();
    f32::from(samples[(share * (SAMPLES - 1) as f32) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dark table with white paper in `[x0, x1) x [y0, y1)`.
    fn table_with(papers: &[(u32, u32, u32, u32)]) -> GrayImage {
        let mut image = GrayImage::from_pixel(400, 400, Luma([30]));
        for &(x0, y0, x1, y1) in papers {
            for y in y0..y1 {
                for x in x0..x1 {
                    image.put_pixel(x, y, Luma([220]));
                }
            }
        }
        image
    }

    /// `white` with dark ink over `xs` x `ys` (a symbol, or a seam).
    fn inked(
        mut white: GrayImage,
        xs: std::ops::Range<u32>,
        ys: std::ops::Range<u32>,
    ) -> GrayImage {
        for y in ys {
            for x in xs.clone() {
                white.put_pixel(x, y, Luma([40]));
            }
        }
        white
    }

    fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Quad {
        Quad {
            corners: [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        }
    }

    // Cards 100 x 156: two side by side with a 2-pixel seam make a 202 x 156 blob.
    const CARD_AREA: f32 = 100.0 * 156.0;
    const CARD_ASPECT: f32 = 1.56;

    #[test]
    fn two_cards_side_by_side_are_cut_at_the_seam() {
        let white = table_with(&[(50, 50, 150, 206), (152, 50, 252, 206)]);
        let double = rect(50.0, 50.0, 252.0, 206.0);
        let [a, b] = split_double(&white, &double, CARD_AREA, CARD_ASPECT).expect("split");
        for half in [a, b] {
            assert!((half.area() / CARD_AREA - 1.0).abs() < 0.05, "{half:?}");
        }
        let seam_x = a
            .corners
            .iter()
            .map(|p| p[0])
            .fold(f32::MAX, f32::min)
            .max(b.corners.iter().map(|p| p[0]).fold(f32::MAX, f32::min));
        assert!((seam_x - 151.0).abs() <= 4.0, "cut at {seam_x}");
    }

    #[test]
    fn one_large_card_is_left_alone() {
        // A near card: twice the area, but shaped like a card and no seam.
        let white = table_with(&[(50, 50, 191, 270)]);
        let near = rect(50.0, 50.0, 191.0, 270.0);
        assert!(split_double(&white, &near, CARD_AREA, CARD_ASPECT).is_none());
        // A square-ish blob of plain paper (no seam) is not cut either.
        let white = table_with(&[(50, 50, 252, 206)]);
        let blob = rect(50.0, 50.0, 252.0, 206.0);
        assert!(split_double(&white, &blob, CARD_AREA, CARD_ASPECT).is_none());
    }

    #[test]
    fn a_symbol_across_the_middle_is_no_seam() {
        // Double-shaped paper with a dark symbol on the middle line covering
        // half of it (a card seen squarer than the rest): not two cards.
        let white = inked(table_with(&[(50, 50, 252, 206)]), 140..162, 90..168);
        let blob = rect(50.0, 50.0, 252.0, 206.0);
        assert!(split_double(&white, &blob, CARD_AREA, CARD_ASPECT).is_none());
    }

    #[test]
    fn a_wide_symbol_across_the_middle_is_no_seam() {
        // One symbol across 70% of the middle line, the margins blank (the
        // one symbol of a near card on a steep table): dark along most of
        // the line, but at neither end.
        let white = inked(table_with(&[(50, 50, 252, 206)]), 140..162, 73..183);
        let blob = rect(50.0, 50.0, 252.0, 206.0);
        assert!(split_double(&white, &blob, CARD_AREA, CARD_ASPECT).is_none());
        // A seam along the whole line still cuts, as does one that reaches
        // one end only (two cards touching at a corner).
        for (from, to) in [(50, 206), (50, 150)] {
            let white = inked(table_with(&[(50, 50, 252, 206)]), 150..153, from..to);
            assert!(
                split_double(&white, &blob, CARD_AREA, CARD_ASPECT).is_some(),
                "seam over {from}..{to}"
            );
        }
    }
}
