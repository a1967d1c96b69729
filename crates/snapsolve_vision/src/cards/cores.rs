//! Cards from a map of card *cores* (each card shrunk about its centre, as a
//! detector marks them): every blob of the map is one card; its outline is
//! the blob's oriented rectangle grown back by a factor (the detector's own,
//! measured when it is trained: a blurred map's blobs are larger than the
//! cores it was taught).
//!
//! The rectangle comes from the blob's second moments rather than from its
//! contour: cores are a few pixels across in a map at half the detector's
//! input, too small for corner fitting, and the moments of a filled
//! rectangle give its axes and sides exactly (a side `L` has variance `L²/12`).

use image::GrayImage;
use imageproc::region_labelling::{Connectivity, connected_components};

use crate::quad::Quad;

/// Blobs with fewer pixels than this are noise.
const MIN_PIXELS: u32 = 4;

/// One card outline per blob of `cores` above `level`, in the map's pixels,
/// each the blob's oriented rectangle grown by `grow` about its centre.
pub fn quads_from_cores(cores: &GrayImage, level: u8, grow: f32) -> Vec<Quad> {
    let mask = GrayImage::from_fn(cores.width(), cores.height(), |x, y| {
        image::Luma([u8::from(cores.get_pixel(x, y)[0] > level)])
    });
    let labels = connected_components(&mask, Connectivity::Eight, image::Luma([0u8]));
    let blobs = labels.pixels().map(|p| p[0]).max().unwrap_or(0) as usize;
    let mut moments = vec![Moments::default(); blobs + 1];
    for (x, y, label) in labels.enumerate_pixels() {
        if label[0] > 0 {
            moments[label[0] as usize].add(x as f64 + 0.5, y as f64 + 0.5);
        }
    }
    moments
        .iter()
        .skip(1)
        .filter(|m| m.n >= f64::from(MIN_PIXELS))
        .map(|m| m.rectangle(grow))
        .collect()
}

/// Running sums for a blob's centroid and covariance.
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    n: f64,
    sx: f64,
    sy: f64,
    sxx: f64,
    syy: f64,
    sxy: f64,
}

impl Moments {
    fn add(&mut self, x: f64, y: f64) {
        self.n += 1.0;
        self.sx += x;
        self.sy += y;
        self.sxx += x * x;
        self.syy += y * y;
        self.sxy += x * y;
    }

    /// The rectangle with the blob's centroid, axes and second moments,
    /// grown by `grow` about its centre. A pixel grid adds 1/12 to each
    /// variance (a one-pixel-wide line still has width 1), which is kept.
    fn rectangle(&self, grow: f32) -> Quad {
        let (cx, cy) = (self.sx / self.n, self.sy / self.n);
        let vxx = self.sxx / self.n - cx * cx;
        let vyy = self.syy / self.n - cy * cy;
        let vxy = self.sxy / self.n - cx * cy;
        // Eigen-decomposition of the 2x2 covariance.
        let mean = (vxx + vyy) / 2.0;
        let spread = (((vxx - vyy) / 2.0).powi(2) + vxy * vxy).sqrt();
        let (major, minor) = (mean + spread, (mean - spread).max(0.0));
        let angle = 0.5 * (2.0 * vxy).atan2(vxx - vyy);
        let (ux, uy) = (angle.cos(), angle.sin());
        let half = |variance: f64| (3.0 * variance).sqrt() * f64::from(grow);
        let (a, b) = (half(major), half(minor));
        let corner = |s: f64, t: f64| {
            [
                (cx + s * a * ux - t * b * uy) as f32,
                (cy + s * a * uy + t * b * ux) as f32,
            ]
        };
        Quad {
            corners: [
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            ],
        }
    }
}

/// The detector's cards that the threshold finder missed: those whose centre
/// lies in no found outline and whose outline holds no found centre.
///
/// The finder's outlines follow the paper's own edges and were measured on
/// real photos; the detector learned from rendered tables only, and on real
/// photos its core map may break one card into several blobs. So where both
/// see a card the finder's outline stays, and the detector only adds cards
/// the finder did not see (white on white, in perspective, edge to edge).
pub fn missed_by_finder(found: &[Quad], detected: Vec<Quad>) -> Vec<Quad> {
    detected
        .into_iter()
        .filter(|d| !found.iter().any(|f| f.shares_centre_with(d)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f32, y: f32, w: f32, h: f32) -> Quad {
        Quad {
            corners: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
        }
    }

    #[test]
    fn only_cards_the_finder_missed_are_added() {
        let found = vec![rect(0.0, 0.0, 10.0, 15.0), rect(20.0, 0.0, 22.0, 15.0)];
        let detected = vec![
            rect(1.0, 1.0, 9.0, 14.0),    // the first found card
            rect(20.0, 0.0, 10.0, 15.0),  // a part of the second
            rect(15.0, -5.0, 30.0, 25.0), // around the second
            rect(0.0, 30.0, 10.0, 15.0),  // missed by the finder
        ];
        assert_eq!(
            missed_by_finder(&found, detected.clone()),
            vec![detected[3]]
        );
    }

    #[test]
    fn two_rectangles_give_two_grown_quads_with_their_sides() {
        let mut map = GrayImage::new(60, 40);
        for y in 10..20 {
            for x in 5..11 {
                map.put_pixel(x, y, image::Luma([255]));
            }
            for x in 30..36 {
                map.put_pixel(x, y, image::Luma([255]));
            }
        }
        map.put_pixel(50, 35, image::Luma([255])); // a speck
        let quads = quads_from_cores(&map, 127, 2.0);
        assert_eq!(quads.len(), 2);
        for (quad, cx) in quads.iter().zip([8.0, 33.0]) {
            let c = quad.centre();
            assert!(
                (c[0] - cx).abs() < 0.01 && (c[1] - 15.0).abs() < 0.01,
                "{c:?}"
            );
            let mut sides = quad.side_lengths();
            sides.sort_by(f32::total_cmp);
            // 6 x 10 grown twice: 12 x 20.
            assert!(
                (sides[0] - 12.0).abs() < 0.6 && (sides[3] - 20.0).abs() < 0.6,
                "{sides:?}"
            );
        }
    }
}
