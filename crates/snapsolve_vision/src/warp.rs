//! Perspective warps: cutting a quadrilateral out of a photo as an upright rectangle.

use image::RgbImage;
use imageproc::geometric_transformations::Projection;

use crate::quad::Quad;

/// Warps the inside of `quad` (corners in portrait order: top-left, top-right,
/// bottom-right, bottom-left) to a `width x height` image.
///
/// The warp samples at twice the output size and averages 2x2 blocks, so a
/// card that covers many more pixels in the photo than in the crop does not
/// alias (stripes and stipples would otherwise turn into moiré).
/// `None` when the corners are degenerate (three in a line).
///
/// Bilinear sampling with the border replicated, computed exactly as
/// imageproc's `warp_into` followed by a 2x2 box average would (same
/// projection arithmetic, same truncations), so crops are bit-identical to
/// that path, which the classifiers were tuned on. The generic `warp_into`
/// spent ~7 ms per crop (per-pixel border checks through a generic pixel
/// type); this loop samples the supersampled grid and averages each 2x2 block
/// in the same pass, with no intermediate image.
pub fn warp_quad(image: &RgbImage, quad: &Quad, width: u32, height: u32) -> Option<RgbImage> {
    let (w2, h2) = ((2 * width) as f32, (2 * height) as f32);
    let to = [(0.0, 0.0), (w2, 0.0), (w2, h2), (0.0, h2)];
    let from = quad.corners.map(|p| (p[0], p[1]));
    // Output (supersampled) pixel -> photo position.
    let back = Projection::from_control_points(from, to)?.invert();
    let mut out = RgbImage::new(width, height);
    if image.width() == 0 || image.height() == 0 {
        return Some(out);
    }
    let source = Source::new(image);
    for (y, row) in out.chunks_exact_mut(3 * width as usize).enumerate() {
        for (x, px) in row.chunks_exact_mut(3).enumerate() {
            let mut sum = [0u32; 3];
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (sx, sy) = back * ((2 * x + dx) as f32, (2 * y + dy) as f32);
                let sample = source.bilinear(sx, sy);
                for c in 0..3 {
                    sum[c] += u32::from(sample[c]);
                }
            }
            for c in 0..3 {
                px[c] = (sum[c] / 4) as u8;
            }
        }
    }
    Some(out)
}

/// An RGB photo read with bilinear interpolation and the border replicated.
struct Source<'a> {
    raw: &'a [u8],
    width: i64,
    height: i64,
}

impl<'a> Source<'a> {
    fn new(image: &'a RgbImage) -> Source<'a> {
        Source {
            raw: image.as_raw(),
            width: i64::from(image.width()),
            height: i64::from(image.height()),
        }
    }

    /// The pixel at `(x, y)` with coordinates outside the image moved to its edge.
    #[inline(always)]
    fn at(&self, x: i64, y: i64) -> [u8; 3] {
        let x = x.clamp(0, self.width - 1);
        let y = y.clamp(0, self.height - 1);
        let i = 3 * (y * self.width + x) as usize;
        [self.raw[i], self.raw[i + 1], self.raw[i + 2]]
    }

    /// imageproc's `interpolate_bilinear`: blend the top and bottom pairs
    /// horizontally, then the two results vertically, truncating to bytes after each blend.
    #[inline(always)]
    fn bilinear(&self, x: f32, y: f32) -> [u8; 3] {
        // Far outside the photo every sample is an edge pixel; clamping first keeps
        // the float-to-integer conversion in range (NaN converts to 0, also an edge).
        let x = x.clamp(-2.0, self.width as f32 + 1.0);
        let y = y.clamp(-2.0, self.height as f32 + 1.0);
        let (left, top) = (x.floor() as i64, y.floor() as i64);
        let (right_weight, bottom_weight) = (x - left as f32, y - top as f32);
        let inside = left >= 0 && top >= 0 && left + 1 < self.width && top + 1 < self.height;
        let (tl, tr, bl, br) = if inside {
            let i = 3 * (top * self.width + left) as usize;
            let j = i + 3 * self.width as usize;
            let q = |k: usize| [self.raw[k], self.raw[k + 1], self.raw[k + 2]];
            (q(i), q(i + 3), q(j), q(j + 3))
        } else {
            (
                self.at(left, top),
                self.at(left + 1, top),
                self.at(left, top + 1),
                self.at(left + 1, top + 1),
            )
        };
        let blend = |u: u8, v: u8, w: f32| clamp_u8((1.0 - w) * f32::from(u) + w * f32::from(v));
        let mut out = [0u8; 3];
        for c in 0..3 {
            let t = blend(tl[c], tr[c], right_weight);
            let b = blend(bl[c], br[c], right_weight);
            out[c] = blend(t, b, bottom_weight);
        }
        out
    }
}

/// imageproc's `Clamp<f32> for u8`: truncation, saturating at both ends.
#[inline(always)]
fn clamp_u8(v: f32) -> u8 {
    if v < 255.0 {
        if v > 0.0 { v as u8 } else { 0 }
    } else {
        255
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;
    use imageproc::geometric_transformations::{Border, Interpolation, warp_into};
    use rand::{Rng, SeedableRng};

    #[test]
    fn warps_a_rotated_square_back_upright() {
        // Left half red, right half blue, then look at it through a quad that
        // starts at the top-right corner: the crop is the image turned a quarter.
        let mut image = RgbImage::from_pixel(40, 40, Rgb([0, 0, 255]));
        for y in 0..40 {
            for x in 0..20 {
                image.put_pixel(x, y, Rgb([255, 0, 0]));
            }
        }
        let quad = Quad {
            corners: [[40.0, 0.0], [40.0, 40.0], [0.0, 40.0], [0.0, 0.0]],
        };
        let crop = warp_quad(&image, &quad, 10, 10).unwrap();
        assert_eq!(crop.get_pixel(5, 1).0, [0, 0, 255]);
        assert_eq!(crop.get_pixel(5, 8).0, [255, 0, 0]);
    }

    /// The path this warp replaced: imageproc's warp at twice the size, then a 2x2 average.
    fn imageproc_warp(image: &RgbImage, quad: &Quad, width: u32, height: u32) -> RgbImage {
        let (w2, h2) = ((2 * width) as f32, (2 * height) as f32);
        let to = [(0.0, 0.0), (w2, 0.0), (w2, h2), (0.0, h2)];
        let from = quad.corners.map(|p| (p[0], p[1]));
        let projection = Projection::from_control_points(from, to).unwrap();
        let mut big = RgbImage::new(2 * width, 2 * height);
        warp_into(
            image,
            projection,
            Interpolation::Bilinear,
            Border::Replicate,
            &mut big,
        );
        crate::shrink::shrink_by(&big, 2)
    }

    #[test]
    fn matches_imageproc_on_random_images_and_quads() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..30 {
            let (w, h) = (rng.random_range(5..120), rng.random_range(5..120));
            let image = RgbImage::from_fn(w, h, |_, _| Rgb(rng.random()));
            // Corners around the image, some outside it (border replicated).
            let mut corner = |cx: f32, cy: f32| {
                [
                    cx * w as f32 + rng.random_range(-15.0..15.0),
                    cy * h as f32 + rng.random_range(-15.0..15.0),
                ]
            };
            let quad = Quad {
                corners: [
                    corner(0.1, 0.1),
                    corner(0.9, 0.1),
                    corner(0.9, 0.9),
                    corner(0.1, 0.9),
                ],
            };
            let (cw, ch) = (rng.random_range(3..40), rng.random_range(3..40));
            let ours = warp_quad(&image, &quad, cw, ch).unwrap();
            let theirs = imageproc_warp(&image, &quad, cw, ch);
            let worst = ours
                .as_raw()
                .iter()
                .zip(theirs.as_raw())
                .map(|(a, b)| a.abs_diff(*b))
                .max()
                .unwrap();
            assert!(worst <= 2, "differs by {worst} levels");
            assert_eq!(ours, theirs, "bit-identical to imageproc's warp");
        }
    }
}
