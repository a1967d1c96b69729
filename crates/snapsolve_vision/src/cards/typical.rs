//! The typical card of a photo, which every candidate is measured against.
//!
//! On a table seen at an angle, near cards are much larger than far ones (four
//! times the area across a steep photo). For a flat table and a pinhole
//! camera, the inverse depth of a point of the table is an affine function of
//! its position in the picture, and a card's side length goes with the inverse
//! depth; so the square root of a card's area is fitted as `a + b x + c y`
//! over the other whole cards, and each candidate is compared with the size a
//! card would have where it lies. The candidate itself is left out of the fit:
//! two overlapping cards read as one would otherwise pull the plane towards
//! their own double size. Few cards, or cards on one line, fall back to the
//! median card.

#[cfg(test)]
use crate::quad::Point2;
use crate::quad::Quad;

/// A card-shaped quadrilateral, whether its outline runs along the picture's
/// edge, whether it is card-shaped only in space (see `CardFinder::card_quad`),
/// and what eroding its blob did ([`Erosion`]).
pub(super) struct Found {
    pub quad: Quad,
    pub cut: bool,
    pub in_space: bool,
    pub erosion: Erosion,
}

/// What eroding a blob too large for one card did to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Erosion {
    /// Not eroded, or it did not fall apart.
    Whole,
    /// It fell apart into card-shaped parts: two cards that touch, or one
    /// large card (the size a card has where it lies tells).
    FellApart,
    /// One of those parts: a candidate, but never a sample of the size
    /// plane. A near one-symbol card of a steep table splits at its symbol
    /// into two halves the size of far cards; fitted, they pulled the plane
    /// down there until the whole card was refused as two cards (steep
    /// stress table 401). Cards that touch are measured by the cards that
    /// stand alone.
    Part,
}

impl Found {
    /// A quadrilateral card-shaped on the picture, inside it.
    pub fn whole(quad: Quad) -> Found {
        Found {
            quad,
            cut: false,
            in_space: false,
            erosion: Erosion::Whole,
        }
    }
}

/// Area and aspect of a typical whole card in the picture.
#[derive(Clone, Debug)]
pub(super) struct Typical {
    /// The median whole card's area.
    pub area: f32,
    /// The median whole card's aspect.
    pub aspect: f32,
    /// How many whole cards are within a factor of two of the typical area.
    pub support: usize,
    /// Centre and side length (square root of the area) of each whole card
    /// within [`PLANE_SAMPLES`] of the median's area (not an envelope or a speck).
    sides: Vec<[f32; 3]>,
}

/// Fewest whole cards a size plane is fitted to.
const PLANE_CARDS: usize = 5;
/// Cards within this factor of the median card's area are fitted: near and
/// far cards of a steep photo differ by up to 4x, an envelope by 10x or more.
const PLANE_SAMPLES: f32 = 4.0;
/// A card whose side differs from the plane's by more than this factor is not
/// used in the final fit (a mis-cut candidate, a card on a box).
const PLANE_OUTLIER: f32 = 1.3;
/// How far beyond the cards fitted the plane is followed, as a share of their spread.
const PLANE_REACH: f32 = 0.5;
/// The plane's size is kept within this factor of the median card's: it must
/// not extrapolate far beyond the cards it was fitted to.
const PLANE_RANGE: f32 = 2.5;

/// A blob that erosion also splits into parts is one card where it is at
/// most this many times the size a card has there (a near card of a steep
/// table); larger, its parts are the cards.
const FALLS_APART_ONE_CARD: f32 = 1.5;

impl Typical {
    pub fn of(found: &[Found]) -> Option<Typical> {
        // Cards card-shaped on the picture itself set the median card; those
        // card-shaped only in space (the far rows of a steep table, but also
        // the paper inside a long symbol) only help to fit the plane, within
        // reach of the median.
        let whole = || found.iter().filter(|f| is_whole(f));
        let shaped: Vec<&Quad> = whole().filter(|f| !f.in_space).map(|f| &f.quad).collect();
        let area = median(shaped.iter().map(|q| q.area()).collect())?;
        let mut typical = Typical {
            area,
            aspect: median(shaped.iter().map(|q| q.aspect()).collect())?,
            support: 0,
            sides: whole()
                .filter(|f| f.erosion != Erosion::Part)
                .map(|f| &f.quad)
                .filter(|q| (area / PLANE_SAMPLES..=area * PLANE_SAMPLES).contains(&q.area()))
                .map(|q| {
                    let c = q.centre();
                    [c[0], c[1], q.area().sqrt()]
                })
                .collect(),
        };
        typical.support = shaped.iter().filter(|q| typical.fits(q)).count();
        Some(typical)
    }

    /// Whether `quad` is within a factor of two of the size a card has
    /// where it lies: on a steep table near cards are several times the far ones.
    fn fits(&self, quad: &Quad) -> bool {
        let expected = self.area_for(quad);
        (0.5 * expected..=2.0 * expected).contains(&quad.area())
    }

    /// [`Typical::support`] counting also the whole cards of `found` (those
    /// it was measured on) card-shaped only in space: the near and far rows
    /// of a steep table.
    pub fn support_in_space(&self, found: &[Found]) -> usize {
        found
            .iter()
            .filter(|f| is_whole(f) && self.fits(&f.quad))
            .count()
    }

    /// How many times the nearest card's side is the farthest's, by the size
    /// plane over the cards measured (1 where no plane fits): a steep view
    /// of a table makes near cards much larger than far ones.
    pub fn depth_spread(&self) -> f32 {
        let Some([a, b, c]) = side_plane(&self.sides) else {
            return 1.0;
        };
        let predicted = self.sides.iter().map(|s| a + b * s[0] + c * s[1]);
        let (low, high) = predicted.fold((f32::MAX, f32::MIN), |(l, h), v| (l.min(v), h.max(v)));
        if low > 0.0 { high / low } else { 1.0 }
    }

    /// The area a card would have where `quad` lies, measured on the other cards.
    pub fn area_for(&self, quad: &Quad) -> f32 {
        let others: Vec<[f32; 3]> = self
            .sides
            .iter()
            .filter(|s| !quad.contains([s[0], s[1]]))
            .copied()
            .collect();
        let Some([a, b, c]) = side_plane(&others) else {
            return self.area;
        };
        // Not far beyond the cards measured: outside them a plane fitted to a
        // few cards can say anything. (Half their spread: a far row of cards
        // that only the plane can accept lies a row beyond them.)
        let [x, y] = quad.centre();
        let range = |i: usize| {
            let values = others.iter().map(|s| s[i]);
            let low = values.clone().fold(f32::INFINITY, f32::min);
            let high = values.fold(f32::NEG_INFINITY, f32::max);
            let margin = PLANE_REACH * (high - low);
            (low - margin, high + margin)
        };
        let ((x0, x1), (y0, y1)) = (range(0), range(1));
        let side = a + b * x.clamp(x0, x1) + c * y.clamp(y0, y1);
        let median_side = self.area.sqrt();
        let side = side.clamp(
            median_side / PLANE_RANGE.sqrt(),
            median_side * PLANE_RANGE.sqrt(),
        );
        side * side
    }

    /// Whether a candidate's size fits the cards around it. Perspective that
    /// the plane does not catch makes near cards up to ~2x the far ones; a
    /// card cut by the picture's edge must be nearly as large as a whole one
    /// and shaped like one (a sliver of a card outside the frame is not on the
    /// table).
    pub fn accepts(&self, found: &Found, min_relative_area: f32) -> bool {
        let area = found.quad.area();
        let expected = self.area_for(&found.quad);
        if found.erosion == Erosion::FellApart && area > FALLS_APART_ONE_CARD * expected {
            return false;
        }
        let (smallest, shaped) = if found.cut {
            (0.9, (found.quad.aspect() / self.aspect - 1.0).abs() < 0.15)
        } else {
            (min_relative_area, true)
        };
        shaped && area >= smallest * expected && area <= 2.5 * expected
    }
}

/// Whether a candidate is a whole card: not cut by the picture's edge, nor
/// a blob that also fell apart into cards.
fn is_whole(found: &Found) -> bool {
    !found.cut && found.erosion != Erosion::FellApart
}

/// Least-squares plane through the cards' side lengths, fitted twice: the
/// second time without the cards the first fit calls outliers.
fn side_plane(samples: &[[f32; 3]]) -> Option<[f32; 3]> {
    let first = fit_plane(samples)?;
    let agrees = |plane: [f32; 3], [x, y, side]: [f32; 3]| {
        let predicted = plane[0] + plane[1] * x + plane[2] * y;
        predicted > 0.0 && (side / predicted).max(predicted / side) <= PLANE_OUTLIER
    };
    let agree: Vec<[f32; 3]> = samples
        .iter()
        .copied()
        .filter(|&sample| agrees(first, sample))
        .collect();
    let plane = fit_plane(&agree)?;
    // A plane that most cards disagree with describes no table.
    let agreeing = samples
        .iter()
        .filter(|&&sample| agrees(plane, sample))
        .count();
    (agreeing * 4 >= samples.len() * 3).then_some(plane)
}

/// `[a, b, c]` minimising the squared error of `a + b x + c y` against `z`
/// (normal equations, solved by Cramer's rule in f64), or `None` for too few
/// samples or samples on a line.
fn fit_plane(samples: &[[f32; 3]]) -> Option<[f32; 3]> {
    if samples.len() < PLANE_CARDS {
        return None;
    }
    // Centre the positions so that the normal equations stay well conditioned.
    let n = samples.len() as f64;
    let mean = |i: usize| samples.iter().map(|s| f64::from(s[i])).sum::<f64>() / n;
    let (mx, my, mz) = (mean(0), mean(1), mean(2));
    let (mut sxx, mut sxy, mut syy, mut sxz, mut syz) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for s in samples {
        let (x, y, z) = (
            f64::from(s[0]) - mx,
            f64::from(s[1]) - my,
            f64::from(s[2]) - mz,
        );
        sxx += x * x;
        sxy += x * y;
        syy += y * y;
        sxz += x * z;
        syz += y * z;
    }
    let det = sxx * syy - sxy * sxy;
    if det.abs() <= 1e-9 * (sxx * syy).max(1.0) {
        return None;
    }
    let b = (sxz * syy - syz * sxy) / det;
    let c = (syz * sxx - sxz * sxy) / det;
    let a = mz - b * mx - c * my;
    Some([a as f32, b as f32, c as f32])
}

pub(super) fn median(mut values: Vec<f32>) -> Option<f32> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f32::total_cmp);
    Some(values[values.len() / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(centre: Point2, side: f32) -> Found {
        let h = side / 2.0;
        let [x, y] = centre;
        Found {
            quad: Quad {
                corners: [
                    [x - h, y - h],
                    [x + h, y - h],
                    [x + h, y + h],
                    [x - h, y + h],
                ],
            },
            cut: false,
            in_space: false,
            erosion: Erosion::Whole,
        }
    }

    #[test]
    fn a_blob_that_falls_apart_is_one_card_only_at_a_cards_size() {
        let cards: Vec<Found> = (0..6)
            .map(|i| square([100.0 + 150.0 * i as f32, 300.0], 100.0))
            .collect();
        let typical = Typical::of(&cards).expect("cards");
        let mut large = square([400.0, 500.0], 110.0);
        large.erosion = Erosion::FellApart;
        assert!(typical.accepts(&large, 0.5), "1.2 cards: one card");
        let mut pair = square([400.0, 500.0], 140.0);
        pair.erosion = Erosion::FellApart;
        assert!(
            !typical.accepts(&pair, 0.5),
            "2 cards: its parts are the cards"
        );
        pair.erosion = Erosion::Whole;
        assert!(
            typical.accepts(&pair, 0.5),
            "a blob that did not fall apart"
        );
    }

    /// Side length of a card of [`steep_table`] at height `y`: 50 px at the
    /// top, 100 px at the bottom.
    fn side_at(y: f32) -> f32 {
        50.0 + 50.0 * y / 600.0
    }

    /// Six cards of a steep table, far ones small, near ones large.
    fn steep_table() -> Vec<Found> {
        [(100.0, 50.0), (300.0, 60.0), (500.0, 300.0)]
            .into_iter()
            .chain([(150.0, 550.0), (350.0, 560.0), (600.0, 540.0)])
            .map(|(x, y)| square([x, y], side_at(y)))
            .collect()
    }

    #[test]
    fn the_halves_of_a_near_card_do_not_shrink_the_cards_near_them() {
        // Near cards fell apart into two halves the size of far cards.
        let mut found = steep_table();
        let near: Vec<Found> = [250.0, 480.0, 700.0]
            .into_iter()
            .map(|x| {
                let mut card = square([x, 580.0], side_at(580.0));
                card.erosion = Erosion::FellApart;
                card
            })
            .collect();
        for card in &near {
            for dx in [-25.0, 25.0] {
                let mut half = square([card.quad.centre()[0] + dx, 580.0], 55.0);
                half.erosion = Erosion::Part;
                found.push(half);
            }
        }
        found.extend(near);
        let typical = Typical::of(&found).expect("cards");
        for card in found.iter().filter(|f| f.erosion == Erosion::FellApart) {
            assert!(typical.accepts(card, 0.5), "{typical:?}");
        }
    }

    #[test]
    fn far_cards_are_measured_against_far_cards() {
        let mut found = steep_table();
        let typical = Typical::of(&found).expect("cards");
        let far = square([600.0, 40.0], side_at(40.0));
        assert!(
            typical.accepts(&far, 0.5),
            "{typical:?} {}",
            typical.area_for(&far.quad)
        );
        let middle = square([0.0, 300.0], 10.0).quad;
        assert!((typical.area_for(&middle).sqrt() - side_at(300.0)).abs() < 0.5);
        // A speck far away is still too small, and without a plane (too few
        // cards) the median decides.
        assert!(!typical.accepts(&square([600.0, 40.0], 20.0), 0.5));
        found.truncate(3);
        let few = Typical::of(&found).expect("cards");
        assert_eq!(few.area_for(&middle), few.area);
    }

    #[test]
    fn cards_in_one_row_fall_back_to_the_median() {
        let found: Vec<Found> = (0..6)
            .map(|i| square([100.0 * i as f32, 50.0], 60.0))
            .collect();
        let typical = Typical::of(&found).expect("cards");
        assert_eq!(typical.area_for(&square([0.0, 300.0], 10.0).quad), 3600.0);
    }

    #[test]
    fn a_double_card_is_measured_without_itself() {
        // Eight cards of side 60 in a 3x3 layout, and two overlapping cards
        // (twice the area) in the last place.
        let mut found: Vec<Found> = (0..8)
            .map(|i| square([100.0 * (i % 3) as f32, 100.0 * (i / 3) as f32], 60.0))
            .collect();
        found.push(square([200.0, 200.0], 85.0));
        let typical = Typical::of(&found).expect("cards");
        let expected = typical.area_for(&found[8].quad);
        assert!((expected - 3600.0).abs() < 1.0, "{expected}");
    }
}
