//! Moving a rough card outline (a detector's, accurate to a few percent of a
//! card) onto the card's edges: each side slides along its normal, then
//! each of its ends moves on its own (perspective tilts the sides), to where
//! the brightness changes most across it; corners are where the moved sides meet.
//!
//! Edge strength is the size of the mean, over points along the middle of the
//! side, of the difference between the grey level just inside and just
//! outside: a card's edge keeps one sign all along (paper brighter than a dark
//! table, or darker than a white desk, or a thin shadow line), where the
//! edges of the symbols inside change sign and cover only part of a side.

use image::{GrayImage, RgbImage};

use crate::quad::{Quad, lines_meet};
use crate::shrink::{shrink_by, shrink_factor};

/// Longer side of the grey copy outlines are settled on (the card finder's working size).
const SETTLE_SIDE: u32 = 1000;

/// A photo's grey copy of about a megapixel, made once, to settle outlines on
/// (shrinking a 12 MP photo costs more than settling a dozen outlines).
pub struct EdgeCopy {
    grey: GrayImage,
    scale: f32,
}

impl EdgeCopy {
    /// The grey copy of `image`.
    pub fn of(image: &RgbImage) -> EdgeCopy {
        let factor = shrink_factor(image.width(), image.height(), SETTLE_SIDE);
        EdgeCopy {
            grey: image::imageops::grayscale(&shrink_by(image, factor)),
            scale: factor as f32,
        }
    }

    /// Each of `quads` (in the photo's pixels) moved onto the card edges
    /// nearest it ([`refine_to_edges`]), each side moving up to `reach` of the
    /// outline's shorter side.
    pub fn settle(&self, quads: &[Quad], reach: f32) -> Vec<Quad> {
        let scale = self.scale;
        quads
            .iter()
            .map(|quad| {
                let small = quad.map(|[x, y]| [x / scale, y / scale]);
                refine_to_edges(&self.grey, &small, (reach * small.shortest_side()).max(1.0))
                    .map(|[x, y]| [x * scale, y * scale])
            })
            .collect()
    }
}

/// Each of `quads` (in `image`'s pixels) settled on the card edges nearest it
/// ([`EdgeCopy::settle`] on a copy made for them).
pub fn settle_on_edges(image: &RgbImage, quads: &[Quad], reach: f32) -> Vec<Quad> {
    if quads.is_empty() {
        return Vec::new();
    }
    EdgeCopy::of(image).settle(quads, reach)
}

/// Points sampled along each side.
const SAMPLES: usize = 24;
/// Share of each side's length left out at both ends (rounded corners, neighbours).
const END_MARGIN: f32 = 0.15;

/// `quad` with its sides moved to the strongest edges within `reach` pixels
/// (sliding) and `reach / 3` (tilting), in `grey`'s pixels. A side that finds
/// no edge at all stays where it was.
pub fn refine_to_edges(grey: &GrayImage, quad: &Quad, reach: f32) -> Quad {
    let centre = quad.centre();
    let lines: Vec<Line> = (0..4)
        .map(|i| {
            let side = Line {
                a: quad.corners[i],
                b: quad.corners[(i + 1) % 4],
            };
            side.settle(grey, centre, reach)
        })
        .collect();
    let mut corners = quad.corners;
    for i in 0..4 {
        let (prev, next) = (&lines[(i + 3) % 4], &lines[i]);
        if let Some(p) = lines_meet(prev.a, prev.b, next.a, next.b) {
            corners[i] = p;
        }
    }
    let refined = Quad { corners };
    // A refinement that turned the outline inside out or moved a corner
    // further than the reach allows is no refinement.
    let moved = refined
        .corners
        .iter()
        .zip(&quad.corners)
        .map(|(a, b)| (a[0] - b[0]).hypot(a[1] - b[1]))
        .fold(0.0f32, f32::max);
    if refined.is_convex() && moved <= 2.0 * reach {
        refined
    } else {
        *quad
    }
}

/// A side of the outline, from `a` to `b`.
#[derive(Clone, Copy, Debug)]
struct Line {
    a: [f32; 2],
    b: [f32; 2],
}

impl Line {
    /// Unit normal pointing away from `centre`.
    fn outward(&self, centre: [f32; 2]) -> [f32; 2] {
        let (dx, dy) = (self.b[0] - self.a[0], self.b[1] - self.a[1]);
        let len = dx.hypot(dy).max(1e-6);
        let n = [dy / len, -dx / len];
        let mid = [(self.a[0] + self.b[0]) / 2.0, (self.a[1] + self.b[1]) / 2.0];
        let away = (mid[0] - centre[0]) * n[0] + (mid[1] - centre[1]) * n[1];
        if away >= 0.0 { n } else { [-n[0], -n[1]] }
    }

    /// The line with its ends moved by `da` and `db` along `normal`.
    fn shifted(&self, normal: [f32; 2], da: f32, db: f32) -> Line {
        Line {
            a: [self.a[0] + normal[0] * da, self.a[1] + normal[1] * da],
            b: [self.b[0] + normal[0] * db, self.b[1] + normal[1] * db],
        }
    }

    /// Slide within `reach`, then tilt each end within `reach / 3`, keeping the best edge.
    fn settle(&self, grey: &GrayImage, centre: [f32; 2], reach: f32) -> Line {
        let n = self.outward(centre);
        let steps = reach.ceil() as i32;
        let best = |candidates: &mut dyn Iterator<Item = Line>| {
            candidates
                .map(|l| (edge_strength(grey, &l, n), l))
                .max_by(|x, y| x.0.total_cmp(&y.0))
        };
        let Some((strength, slid)) =
            best(&mut (-steps..=steps).map(|d| self.shifted(n, d as f32, d as f32)))
        else {
            return *self;
        };
        if strength <= 0.0 {
            return *self;
        }
        let tilt = (reach / 3.0).ceil() as i32;
        let tilts = (-tilt..=tilt).flat_map(|da| (-tilt..=tilt).map(move |db| (da, db)));
        best(&mut tilts.map(|(da, db)| slid.shifted(n, da as f32, db as f32)))
            .map_or(slid, |(_, l)| l)
    }
}

/// Size of the mean of (inside - outside) grey levels 1.5 pixels either side
/// of the line, over its middle; 0 when the line leaves the picture.
fn edge_strength(grey: &GrayImage, line: &Line, outward: [f32; 2]) -> f32 {
    let mut sum = 0.0;
    for k in 0..SAMPLES {
        let t = END_MARGIN + (1.0 - 2.0 * END_MARGIN) * (k as f32 + 0.5) / SAMPLES as f32;
        let p = [
            line.a[0] + t * (line.b[0] - line.a[0]),
            line.a[1] + t * (line.b[1] - line.a[1]),
        ];
        let at = |s: f32| grey_at(grey, p[0] + s * outward[0], p[1] + s * outward[1]);
        match (at(-1.5), at(1.5)) {
            (Some(inside), Some(outside)) => sum += inside - outside,
            _ => return 0.0,
        }
    }
    (sum / SAMPLES as f32).abs()
}

/// Bilinear grey level at `(x, y)`, `None` outside the picture.
fn grey_at(grey: &GrayImage, x: f32, y: f32) -> Option<f32> {
    let (w, h) = (grey.width() as f32, grey.height() as f32);
    if x < 0.0 || y < 0.0 || x > w - 1.0 || y > h - 1.0 {
        return None;
    }
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (x1, y1) = (
        (x0 + 1).min(grey.width() - 1),
        (y0 + 1).min(grey.height() - 1),
    );
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let v = |x, y| f32::from(grey.get_pixel(x, y)[0]);
    let top = v(x0, y0) * (1.0 - fx) + v(x1, y0) * fx;
    let bottom = v(x0, y1) * (1.0 - fx) + v(x1, y1) * fx;
    Some(top * (1.0 - fy) + bottom * fy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outlines_settle_in_the_photos_pixels_when_it_is_shrunk_to_look() {
        // A 2400 x 1200 photo is looked at a third of its size; the outline
        // comes back in the photo's pixels, on the card, within two shrunken pixels
        // (it started 12-17 photo pixels off).
        let card = [
            [900.0, 300.0],
            [1200.0, 300.0],
            [1200.0, 768.0],
            [900.0, 768.0],
        ];
        let image = RgbImage::from_fn(2400, 1200, |x, y| {
            let on = (900..1200).contains(&x) && (300..768).contains(&y);
            image::Rgb(if on { [230; 3] } else { [60; 3] })
        });
        let rough = Quad {
            corners: [
                [914.0, 288.0],
                [1217.0, 285.0],
                [1212.0, 756.0],
                [916.0, 753.0],
            ],
        };
        let settled = settle_on_edges(&image, &[rough], 0.15)[0];
        for (p, t) in settled.corners.iter().zip(card) {
            assert!(
                (p[0] - t[0]).abs() <= 6.0 && (p[1] - t[1]).abs() <= 6.0,
                "{settled:?}"
            );
        }
    }

    #[test]
    fn a_rough_outline_settles_on_the_card() {
        // A pale card (200) on a slightly paler desk (210) with a dark
        // one-pixel shadow line along its right and bottom edges.
        let mut grey = GrayImage::from_pixel(200, 200, image::Luma([210]));
        for y in 50..140 {
            for x in 60..120 {
                grey.put_pixel(x, y, image::Luma([200]));
            }
        }
        for y in 50..141 {
            grey.put_pixel(120, y, image::Luma([150]));
        }
        for x in 60..121 {
            grey.put_pixel(x, 140, image::Luma([150]));
        }
        // Borders of the card are otherwise marked by the paler desk outside.
        let rough = Quad {
            corners: [[55.0, 46.0], [124.0, 53.0], [117.0, 144.0], [63.0, 137.0]],
        };
        let refined = refine_to_edges(&grey, &rough, 8.0);
        let truth = [[60.0, 50.0], [120.0, 50.0], [120.0, 140.0], [60.0, 140.0]];
        for (p, t) in refined.corners.iter().zip(truth) {
            assert!(
                (p[0] - t[0]).abs() <= 2.5 && (p[1] - t[1]).abs() <= 2.5,
                "{refined:?}"
            );
        }
    }
}
