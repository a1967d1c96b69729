//! Blobs inside another blob's outline.
//!
//! Paper inside an open symbol (a hollow oval, diamond or squiggle) is a blob
//! of its own in the mask, lying in a hole of its card's blob, and it can be
//! shaped like a small card. While the card itself is found it is simply too
//! small to pass; but where the cards touch and form one blob that no pass
//! reads as a card, those insides would be the only card-shaped things left.

use imageproc::point::Point;

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
