//! Filling a blob's outline back into a mask, pixel for pixel as imageproc's
//! `draw_polygon_mut` fills it, in time that grows with the outline and
//! the area rather than their product.
//!
//! imageproc tests every edge of the polygon against every row it spans:
//! an outline traced from a threshold has an edge per pixel step, so a
//! card-sized blob of 400 points over 100 rows costs 40,000 tests, and the
//! finder refills blobs when it splits touching cards (`split_blob`,
//! `grown_back`): 7% of reading a frame with no card in it. Here each edge
//! gives its crossings only for the rows it spans, the crossings are sorted
//! by row and then by column, and each row's pairs are filled as imageproc
//! fills them (same rounding, same treatment of vertices and of horizontal
//! edges); then the edges themselves are drawn with imageproc's line, as it
//! draws them.

use image::{GrayImage, Luma};
use imageproc::drawing::draw_line_segment_mut;
use imageproc::point::Point;

/// Fills the polygon `points` (closed implicitly) into `mask` with `value`,
/// as `imageproc::drawing::draw_polygon_mut` does.
pub fn fill_polygon(mask: &mut GrayImage, points: &[Point<i32>], value: u8) {
    let Some(first) = points.first() else {
        return;
    };
    let (width, height) = (mask.width() as i32, mask.height() as i32);
    if width == 0 || height == 0 {
        return;
    }
    let (low, high) = points.iter().fold((i32::MAX, i32::MIN), |(lo, hi), p| {
        (lo.min(p.y), hi.max(p.y))
    });
    let rows = (low.clamp(0, height - 1), high.clamp(0, height - 1));
    let mut closed = points.to_vec();
    if points.last() != Some(first) {
        closed.push(*first);
    }
    let mut crossings = Vec::with_capacity(2 * (rows.1 - rows.0 + 1) as usize);
    for edge in closed.windows(2) {
        edge_crossings(edge[0], edge[1], rows, &mut crossings);
    }
    crossings.sort_unstable();
    for row in crossings.chunk_by(|a, b| a.0 == b.0) {
        let y = row[0].0 as u32;
        for pair in row.chunks_exact(2) {
            let from = pair[0].1.min(width);
            let to = pair[1].1.min(width - 1);
            if from < width && to >= 0 {
                for x in from.max(0)..=to.max(0) {
                    mask.put_pixel(x as u32, y, Luma([value]));
                }
            }
        }
    }
    for edge in closed.windows(2) {
        let (a, b) = (edge[0], edge[1]);
        draw_line_segment_mut(
            mask,
            (a.x as f32, a.y as f32),
            (b.x as f32, b.y as f32),
            Luma([value]),
        );
    }
}

/// The `(row, column)` crossings of the edge `p0 → p1` with the rows
/// `rows.0..=rows.1` it spans, by imageproc's rules: a horizontal edge gives
/// both its ends; a row through one end gives that end only where the
/// other lies below it; any other row the rounded crossing.
fn edge_crossings(p0: Point<i32>, p1: Point<i32>, rows: (i32, i32), out: &mut Vec<(i32, i32)>) {
    let from = p0.y.min(p1.y).max(rows.0);
    let to = p0.y.max(p1.y).min(rows.1);
    for y in from..=to {
        if p0.y == p1.y {
            out.push((y, p0.x));
            out.push((y, p1.x));
        } else if p0.y == y || p1.y == y {
            if p1.y > y {
                out.push((y, p0.x));
            }
            if p0.y > y {
                out.push((y, p1.x));
            }
        } else {
            let fraction = (y - p0.y) as f32 / (p1.y - p0.y) as f32;
            let crossing = p0.x as f32 + fraction * (p1.x - p0.x) as f32;
            out.push((y, crossing.round() as i32));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contours::outer_contours;
    use imageproc::drawing::draw_polygon_mut;
    use rand::{Rng, SeedableRng};

    /// Random blobs' traced outlines (what the finder fills), and random
    /// polygons partly off the canvas, fill exactly as imageproc fills them.
    #[test]
    fn fills_pixel_for_pixel_as_imageproc() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(36);
        for _ in 0..60 {
            let blobs = GrayImage::from_fn(60, 50, |x, y| {
                let (dx, dy) = (x as f32 - 30.0, y as f32 - 25.0);
                let r = 12.0 + 8.0 * (3.0 * dy.atan2(dx)).sin();
                Luma([if dx.hypot(dy) < r || rng.random_bool(0.15) {
                    255
                } else {
                    0
                }])
            });
            for outline in outer_contours(&blobs) {
                let (mut ours, mut theirs) = (GrayImage::new(60, 50), GrayImage::new(60, 50));
                fill_polygon(&mut ours, &outline, 255);
                if outline.first() != outline.last() || outline.len() == 1 {
                    draw_polygon_mut(&mut theirs, &outline, Luma([255]));
                    assert_eq!(ours, theirs, "{outline:?}");
                }
            }
        }
        for _ in 0..300 {
            let n = rng.random_range(3..9);
            let polygon: Vec<Point<i32>> = (0..n)
                .map(|_| Point::new(rng.random_range(-10..50), rng.random_range(-10..40)))
                .collect();
            if polygon.first() == polygon.last() {
                continue;
            }
            let (mut ours, mut theirs) = (GrayImage::new(40, 30), GrayImage::new(40, 30));
            fill_polygon(&mut ours, &polygon, 200);
            draw_polygon_mut(&mut theirs, &polygon, Luma([200]));
            assert_eq!(ours, theirs, "{polygon:?}");
        }
    }
}
