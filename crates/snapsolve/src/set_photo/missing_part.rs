//! Cards that the part of a cut file's picture the file lacks cuts
//! ([`Photo::missing`]): taken out of the cards read and reported partial,
//! as cards cut off by the photo's edge are (docs/evaluation.md, session 35).

use image::GrayImage;
use snapsolve_vision::{Photo, Quad};

use super::classify::CardReading;
use super::table::median_area;

/// Points looked at along each side of a card's outline, and as many rows
/// across it, to measure how much of it the missing part covers.
const MISSING_SAMPLES: usize = 16;

/// The share of `quad` over the part of the picture `missing` says the file
/// lacks ([`Photo::missing`]), measured on a grid of points.
fn share_over_missing(quad: &Quad, missing: &GrayImage) -> f32 {
    let [a, b, c, d] = quad.corners;
    let at = |k: usize| (k as f32 + 0.5) / MISSING_SAMPLES as f32;
    let over = (0..MISSING_SAMPLES * MISSING_SAMPLES)
        .filter(|k| {
            // Bilinear in the corners: near enough to the projective map
            // for a grid of looks.
            let (s, t) = (at(k % MISSING_SAMPLES), at(k / MISSING_SAMPLES));
            let point = |i: usize| {
                let top = a[i] + (b[i] - a[i]) * s;
                let bottom = d[i] + (c[i] - d[i]) * s;
                top + (bottom - top) * t
            };
            lacking(missing, point(0), point(1))
        })
        .count();
    over as f32 / (MISSING_SAMPLES * MISSING_SAMPLES) as f32
}

/// Whether the pixel at `(x, y)` is one the file lacks (outside the
/// picture: no).
fn lacking(missing: &GrayImage, x: f32, y: f32) -> bool {
    let (width, height) = missing.dimensions();
    let inside = x >= 0.0 && y >= 0.0 && x < width as f32 && y < height as f32;
    inside && missing.get_pixel(x as u32, y as u32).0[0] != 0
}

/// Whether some of `quad`'s outline lies by the part of the picture the
/// file lacks, within the slack of [`super::table::runs_along_edge`] (points along each
/// side): that side may be where the picture stops, not where the card does.
fn touches_missing(quad: &Quad, missing: &GrayImage) -> bool {
    let margin = (0.005 * missing.width().max(missing.height()) as f32).max(3.0);
    let steps = [-margin, 0.0, margin];
    let by_missing = |x: f32, y: f32| {
        steps
            .iter()
            .any(|dy| steps.iter().any(|dx| lacking(missing, x + dx, y + dy)))
    };
    (0..4).any(|side| {
        let (from, to) = (quad.corners[side], quad.corners[(side + 1) % 4]);
        (0..MISSING_SAMPLES).any(|k| {
            let f = k as f32 / MISSING_SAMPLES as f32;
            by_missing(
                from[0] + (to[0] - from[0]) * f,
                from[1] + (to[1] - from[1]) * f,
            )
        })
    })
}

/// A card's outline over this much of the part a cut file lacks went on
/// into it: the finder fitted a card's shape to what shows.
const OVER_MISSING: f32 = 0.01;

/// A card's outline by the part a cut file lacks and smaller than this share
/// of the cards away from it was cut short by it. Tighter than
/// [`super::table::CUT_OFF_AREA`], whose median counts the cut cards: the 97 shared JPEG
/// table photos cut at 60% of their bytes gave cards along the missing part
/// cut to 0.83-0.86 of the others, read as cards they are not.
const CUT_BY_MISSING_AREA: f32 = 0.9;

/// Takes out of `cards` those the part of the picture the file lacks cuts,
/// as partial outlines: outlines reaching into it (the finder fits a card's
/// shape to what shows, and the network names what it sees: half a card
/// read is a guess), and those by it clearly smaller than the cards away
/// from it ([`CUT_BY_MISSING_AREA`]).
pub(super) fn take_cards_over_missing_part(
    photo: &Photo,
    cards: &mut Vec<(Quad, CardReading)>,
) -> Vec<Quad> {
    let Some(missing) = &photo.missing else {
        return Vec::new();
    };
    let touching: Vec<bool> = cards
        .iter()
        .map(|(quad, _)| touches_missing(quad, missing))
        .collect();
    let away = cards
        .iter()
        .zip(&touching)
        .filter(|(_, touches)| !**touches);
    let reference = median_area(away.map(|((quad, _), _)| quad))
        .or_else(|| median_area(cards.iter().map(|(quad, _)| quad)))
        .unwrap_or(0.0);
    let cut = |quad: &Quad, touches: bool| {
        share_over_missing(quad, missing) > OVER_MISSING
            || (touches && quad.area() < CUT_BY_MISSING_AREA * reference)
    };
    let (over, whole): (Vec<_>, Vec<_>) = std::mem::take(cards)
        .into_iter()
        .zip(touching)
        .partition(|((quad, _), touches)| cut(quad, *touches));
    *cards = whole.into_iter().map(|(card, _)| card).collect();
    over.into_iter().map(|((quad, _), _)| quad).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::RgbImage;

    /// A card `w` wide from its top-left corner `(x, y)`, upright.
    fn card(x: f32, y: f32, w: f32) -> Quad {
        card_between(x, w, y, y + 1.56 * w)
    }

    /// An upright card `w` wide from row `top` to row `bottom`.
    fn card_between(x: f32, w: f32, top: f32, bottom: f32) -> Quad {
        Quad {
            corners: [[x, top], [x + w, top], [x + w, bottom], [x, bottom]],
        }
    }

    #[test]
    fn cards_the_missing_part_of_a_cut_file_cuts_are_partial() {
        // A cut JPEG lacking the picture's lower part, from row 300 down.
        let mut photo = Photo::from_upright(RgbImage::new(900, 500));
        photo.missing = Some(GrayImage::from_fn(900, 500, |_, y| {
            image::Luma([if y >= 300 { 255 } else { 0 }])
        }));
        let reading = CardReading {
            attribute_probabilities: [[1.0, 0.0, 0.0]; 4],
            card_probability: Some(1.0),
        };
        let whole_above = card(20.0, 20.0, 100.0);
        // A card's shape fitted to what shows, reaching into the missing part.
        let reaching_in = card(160.0, 200.0, 100.0);
        // Cut short where the picture stops: along it, a fifth short.
        let cut_short = card_between(300.0, 100.0, 299.0 - 0.8 * 156.0, 299.0);
        // Whole, its lower side just above where the picture stops.
        let whole_along = card_between(440.0, 100.0, 298.0 - 156.0, 298.0);
        // Turned and cut short: one corner where the picture stops.
        let tilted_cut = Quad {
            corners: [
                [600.0, 160.0],
                [700.0, 170.0],
                [690.0, 299.0],
                [590.0, 265.0],
            ],
        };
        let quads = [whole_above, reaching_in, cut_short, whole_along, tilted_cut];
        let mut cards: Vec<(Quad, CardReading)> = quads
            .into_iter()
            .map(|quad| (quad, reading.clone()))
            .collect();
        let partial = take_cards_over_missing_part(&photo, &mut cards);
        assert_eq!(partial, vec![reaching_in, cut_short, tilted_cut]);
        let kept: Vec<Quad> = cards.into_iter().map(|(quad, _)| quad).collect();
        assert_eq!(kept, vec![whole_above, whole_along]);
        // A whole file has no missing part: nothing is taken.
        photo.missing = None;
        let mut cards = vec![(reaching_in, reading)];
        assert!(take_cards_over_missing_part(&photo, &mut cards).is_empty());
        assert_eq!(cards.len(), 1);
    }
}
