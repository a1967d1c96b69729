//! How sharply a quadrilateral's sides part paper from table.
//!
//! The threshold levels can disagree about a card. At one level the card and
//! a bright patch of table (a light spot) or bright clutter beside it form one
//! blob whose quadrilateral still passes for a card; at another level the card
//! stands alone. The card's own outline is the one along which whiteness drops
//! from paper to table on all four sides, for nearly their whole length: a
//! quadrilateral that took in something beside the card runs, along part of a
//! side, through table on both sides of it, or through the bright patch.

use image::GrayImage;

use crate::quad::{Point2, Quad};

/// Samples along the middle of each side (the rounded corners are left out).
const SAMPLES: usize = 24;
const SIDE_RANGE: (f32, f32) = (0.1, 0.9);
/// How far inside and outside each side the whiteness is read, as a share of
/// the shorter side (at least `MIN_OFFSET` pixels): past the blur of the edge.
const OFFSET: f32 = 0.04;
const MIN_OFFSET: f32 = 1.5;
/// A side's contrast is that of its `WEAKEST + 1`-th weakest sample: the
/// whole side must be an edge (a blemish may spoil one sample).
const WEAKEST: usize = 1;

/// The edge contrast of `quad` in the whiteness image: for each side, the
/// whiteness just inside minus just outside, nearly its weakest sample
/// ([`WEAKEST`]); then the weakest side. Paper on table gives tens of levels; a side that
/// runs partly through the table or a bright patch gives few or none.
pub(super) fn edge_contrast(white: &GrayImage, quad: &Quad) -> f32 {
    let centre = quad.centre();
    let shorter = quad.shortest_side();
    let offset = (OFFSET * shorter).max(MIN_OFFSET);
    (0..4)
        .map(|i| {
            let (a, b) = (quad.corners[i], quad.corners[(i + 1) % 4]);
            side_contrast(white, a, b, centre, offset)
        })
        .fold(f32::MAX, f32::min)
}

/// The contrast across the side `a → b` (inside is the side of `centre`).
fn side_contrast(white: &GrayImage, a: Point2, b: Point2, centre: Point2, offset: f32) -> f32 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let length = (dx * dx + dy * dy).sqrt();
    if length < f32::EPSILON {
        return 0.0;
    }
    let mut normal = [-dy / length, dx / length];
    let middle = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    if (centre[0] - middle[0]) * normal[0] + (centre[1] - middle[1]) * normal[1] < 0.0 {
        normal = [-normal[0], -normal[1]];
    }
    let mut contrasts: Vec<i16> = (0..SAMPLES)
        .map(|k| {
            let t = SIDE_RANGE.0 + (SIDE_RANGE.1 - SIDE_RANGE.0) * k as f32 / (SAMPLES - 1) as f32;
            let p = [a[0] + dx * t, a[1] + dy * t];
            let at = |sign: f32| {
                whiteness_at(
                    white,
                    [
                        p[0] + sign * offset * normal[0],
                        p[1] + sign * offset * normal[1],
                    ],
                )
            };
            at(1.0) - at(-1.0)
        })
        .collect();
    contrasts.sort_unstable();
    f32::from(contrasts[WEAKEST])
}

/// The whiteness of the pixel under `p` (the nearest one inside the image).
fn whiteness_at(white: &GrayImage, p: Point2) -> i16 {
    let (w, h) = (white.width(), white.height());
    if w == 0 || h == 0 {
        return 0;
    }
    let x = (p[0].max(0.0) as u32).min(w - 1);
    let y = (p[1].max(0.0) as u32).min(h - 1);
    i16::from(white.get_pixel(x, y).0[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    fn rect(x0: f32, y0: f32, x1: f32, y1: f32) -> Quad {
        Quad {
            corners: [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
        }
    }

    /// A dark table (30) with a card (220) in `[50, 150) x [50, 206)` and a
    /// patch of `patch` whiteness below it, narrower than the card.
    fn card_and_patch(patch: u8) -> GrayImage {
        GrayImage::from_fn(300, 320, |x, y| {
            let card = (50..150).contains(&x) && (50..206).contains(&y);
            let below = (70..130).contains(&x) && (206..246).contains(&y);
            Luma([if card {
                220
            } else if below {
                patch
            } else {
                30
            }])
        })
    }

    #[test]
    fn the_card_alone_has_sharper_edges_than_the_card_with_what_lies_beside_it() {
        // The patch touches the card's bottom side, so that side's contrast
        // is the card's minus the patch's; the outline around both crosses
        // table on both sides where the narrower patch ends.
        for patch in [30, 140, 180] {
            let white = card_and_patch(patch);
            let card = edge_contrast(&white, &rect(50.0, 50.0, 150.0, 206.0));
            let with_patch = edge_contrast(&white, &rect(50.0, 50.0, 150.0, 246.0));
            assert!(card >= f32::from(220 - patch) - 1.0, "card {card}");
            assert!(with_patch <= 1.0, "card and patch {with_patch}");
        }
    }

    #[test]
    fn a_quadrilateral_inside_the_card_has_little_contrast() {
        let white = card_and_patch(30);
        let shrunk = edge_contrast(&white, &rect(60.0, 62.0, 140.0, 194.0));
        assert!(shrunk < 60.0, "{shrunk}");
        // Corners in either order around the quadrilateral.
        let card = rect(50.0, 50.0, 150.0, 206.0);
        let reversed = Quad {
            corners: [
                card.corners[3],
                card.corners[2],
                card.corners[1],
                card.corners[0],
            ],
        };
        assert_eq!(
            edge_contrast(&white, &card),
            edge_contrast(&white, &reversed)
        );
    }
}
