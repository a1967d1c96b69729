//! Shrinking photos by whole factors, fast enough to run on every frame.
//!
//! Card finding needs about a megapixel, not twelve; a box average over
//! `factor x factor` blocks is one pass over the photo and, unlike point
//! sampling, keeps thin card edges and averages away sensor noise.

use image::{Rgb, RgbImage};

/// The whole factor that brings the longer side of `width x height` down to at
/// most `target` pixels (1 when it already fits).
pub fn shrink_factor(width: u32, height: u32, target: u32) -> u32 {
    width.max(height).div_ceil(target.max(1)).max(1)
}

/// Averages `factor x factor` blocks; a partial block at the right or bottom
/// edge is dropped, so pixel `(x, y)` covers `[x f, (x+1) f) x [y f, (y+1) f)`.
pub fn shrink_by(image: &RgbImage, factor: u32) -> RgbImage {
    if factor <= 1 {
        return image.clone();
    }
    let (width, height) = (image.width() / factor, image.height() / factor);
    let mut out = RgbImage::new(width, height);
    let stride = image.width() as usize * 3;
    let raw = image.as_raw();
    let f = factor as usize;
    let area = (f * f) as u32;
    // One row of block sums at a time: reading the source row by row keeps the
    // access sequential (the column-by-column alternative was twice as slow).
    let mut sums = vec![0u32; width as usize * 3];
    for by in 0..height as usize {
        sums.iter_mut().for_each(|s| *s = 0);
        for row in raw[by * f * stride..].chunks_exact(stride).take(f) {
            for (bx, block) in row.chunks_exact(f * 3).take(width as usize).enumerate() {
                let s = &mut sums[bx * 3..bx * 3 + 3];
                for px in block.chunks_exact(3) {
                    s[0] += u32::from(px[0]);
                    s[1] += u32::from(px[1]);
                    s[2] += u32::from(px[2]);
                }
            }
        }
        for bx in 0..width as usize {
            let s = &sums[bx * 3..bx * 3 + 3];
            out.put_pixel(
                bx as u32,
                by as u32,
                Rgb([
                    (s[0] / area) as u8,
                    (s[1] / area) as u8,
                    (s[2] / area) as u8,
                ]),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_brings_the_long_side_under_the_target() {
        assert_eq!(shrink_factor(4032, 3024, 1000), 5);
        assert_eq!(shrink_factor(960, 720, 1000), 1);
        assert_eq!(shrink_factor(0, 0, 1000), 1);
    }

    #[test]
    fn blocks_are_averaged() {
        let mut image = RgbImage::new(5, 4);
        image.put_pixel(0, 0, Rgb([200, 100, 40]));
        image.put_pixel(1, 1, Rgb([200, 100, 40]));
        let small = shrink_by(&image, 2);
        assert_eq!(small.dimensions(), (2, 2));
        assert_eq!(small.get_pixel(0, 0).0, [100, 50, 20]);
        assert_eq!(small.get_pixel(1, 1).0, [0, 0, 0]);
    }
}
