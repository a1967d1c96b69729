//! Blobs inside another blob's outline.
//!
//! Paper inside an open symbol (a hollow oval, diamond or squiggle) is a blob
//! of its own in the mask, lying in a hole of its card's blob, and it can be
//! shaped like a small card. While the card itself is found it is simply too
//! small to pass; but where the cards touch and form one blob that no pass
//! reads as a card, those insides would be the only card-shaped things left.
//! Where a cloth is as bright as the cards at some level, cloth and cards are
//! one blob too large for a card, and the insides lie in its holes; so may a
//! whole card with a dark edge all round, which shows its symbols in its
//! middle where the inside of a symbol is bare paper ([`bare_paper`]).

use image::GrayImage;
use imageproc::point::Point;

/// The middle of a blob, as a share of its bounding box's width and height,
/// that [`bare_paper`] looks at: a card's symbols lie there, and the rim of
/// an open symbol's paper does not.
const MIDDLE: f32 = 0.6;
/// The paper inside an open symbol holds (almost) no ink; a card's middle
/// holds its symbols (an open one's outline alone covers more than this).
const BARE_INK_SHARE: f32 = 0.03;

/// For each outline (points, area), whether its centroid lies inside a
/// larger outline of the list.
pub(super) fn inside_a_larger_outline(outlines: &[(&[Point<i32>], f32)]) -> Vec<bool> {
    let boxes: Vec<_> = outlines
        .iter()
        .map(|(points, _)| super::bounds(points))
        .collect();
    outlines
        .iter()
        .map(|&(points, area)| {
            let centre = centroid(points);
            outlines
                .iter()
                .zip(&boxes)
                .any(|(&(other, other_area), &bounds)| {
                    other_area > area && within(bounds, centre) && inside_outline(other, centre)
                })
        })
        .collect()
}

/// Whether the outline `points` has its centroid inside one of `blobs`
/// (outlines of blobs too large for a card).
pub(super) fn inside_one_of(points: &[Point<i32>], blobs: &[Vec<Point<i32>>]) -> bool {
    let centre = centroid(points);
    blobs
        .iter()
        .any(|blob| within(super::bounds(blob), centre) && inside_outline(blob, centre))
}

/// Whether the middle of the blob outlined by `points` is bare paper in
/// `image` cut at `level`: next to no pixel at or below the level.
pub(super) fn bare_paper(image: &GrayImage, level: u8, points: &[Point<i32>]) -> bool {
    let (x0, y0, x1, y1) = super::bounds(points);
    let margin = |low: i32, high: i32| ((high - low) as f32 * (1.0 - MIDDLE) / 2.0).round() as i32;
    let (mx, my) = (margin(x0, x1), margin(y0, y1));
    let (mut ink, mut all) = (0usize, 0usize);
    for y in (y0 + my).max(0)..=(y1 - my).min(image.height() as i32 - 1) {
        for x in (x0 + mx).max(0)..=(x1 - mx).min(image.width() as i32 - 1) {
            all += 1;
            ink += usize::from(image.get_pixel(x as u32, y as u32)[0] <= level);
        }
    }
    (ink as f32) < BARE_INK_SHARE * all as f32
}

/// The mean of an outline's points.
fn centroid(points: &[Point<i32>]) -> [f32; 2] {
    let n = points.len().max(1) as f32;
    let (x, y) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), p| (x + p.x as f32, y + p.y as f32));
    [x / n, y / n]
}

/// Whether `p` lies in the box `(x0, y0, x1, y1)`.
fn within((x0, y0, x1, y1): (i32, i32, i32, i32), p: [f32; 2]) -> bool {
    p[0] >= x0 as f32 && p[0] <= x1 as f32 && p[1] >= y0 as f32 && p[1] <= y1 as f32
}

/// Whether `p` lies inside the closed outline (even-odd rule).
fn inside_outline(outline: &[Point<i32>], p: [f32; 2]) -> bool {
    let mut inside = false;
    for (i, a) in outline.iter().enumerate() {
        let b = outline[(i + 1) % outline.len()];
        let (ay, by) = (a.y as f32, b.y as f32);
        if (ay > p[1]) != (by > p[1]) {
            let x = a.x as f32 + (p[1] - ay) / (by - ay) * (b.x - a.x) as f32;
            if p[0] < x {
                inside = !inside;
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: i32, y0: i32, side: i32) -> Vec<Point<i32>> {
        let mut points = Vec::new();
        for i in 0..side {
            points.push(Point::new(x0, y0 + i));
        }
        for i in 0..side {
            points.push(Point::new(x0 + i, y0 + side));
        }
        for i in 0..side {
            points.push(Point::new(x0 + side, y0 + side - i));
        }
        for i in 0..side {
            points.push(Point::new(x0 + side - i, y0));
        }
        points
    }

    #[test]
    fn the_inside_of_a_symbol_is_nested_and_its_card_is_not() {
        let card = square(10, 10, 60);
        let inside_symbol = square(30, 30, 10);
        let next_card = square(80, 10, 60);
        let outlines = [
            (card.as_slice(), 3600.0),
            (inside_symbol.as_slice(), 100.0),
            (next_card.as_slice(), 3600.0),
        ];
        assert_eq!(inside_a_larger_outline(&outlines), [false, true, false]);
    }

    #[test]
    fn inside_by_the_even_odd_rule() {
        let outline = square(0, 0, 10);
        assert!(inside_outline(&outline, [5.0, 5.0]));
        assert!(!inside_outline(&outline, [15.0, 5.0]));
        assert!(!inside_outline(&outline, [5.0, -1.0]));
        assert_eq!(centroid(&outline), [5.0, 5.0]);
    }
}
