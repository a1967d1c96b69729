//! Shrinking photos by whole factors, fast enough to run on every frame.
//!
//! Card finding needs about a megapixel, not twelve; a box average over
//! `factor x factor` blocks is one pass over the photo and, unlike point
//! sampling, keeps thin card edges and averages away sensor noise. The sudoku
//! grid finder shrinks its grey photo the same way (one channel).

use image::{ImageBuffer, Pixel};

/// The whole factor that brings the longer side of `width x height` down to at
/// most `target` pixels (1 when it already fits).
pub fn shrink_factor(width: u32, height: u32, target: u32) -> u32 {
    width.max(height).div_ceil(target.max(1)).max(1)
}

/// Averages `factor x factor` blocks; a partial block at the right or bottom
/// edge is dropped, so pixel `(x, y)` covers `[x f, (x+1) f) x [y f, (y+1) f)`.
/// Each channel's sum is divided by `f²`, rounding down. Works for any 8-bit
/// pixel: colour photos for the card finder, greys for the sudoku grid finder.
/// A side shorter than the factor (a sliver of a picture, 1 x 3000) has no
/// whole block: the copy is then black, with that side 1, so the finders
/// still get pixels to look at and find nothing.
pub fn shrink_by<P: Pixel<Subpixel = u8>>(
    image: &ImageBuffer<P, Vec<u8>>,
    factor: u32,
) -> ImageBuffer<P, Vec<u8>> {
    if factor <= 1 {
        return image.clone();
    }
    // The common factors get a copy of the loop with `F` known, so the block
    // loops unroll (2 and 3 are the card finder's and the crops' factors, 2
    // the sudoku grid finder's for a 960-pixel frame).
    match (P::CHANNEL_COUNT, factor) {
        (1, 2) => shrink_fixed::<P, 1, 2>(image),
        (1, 3) => shrink_fixed::<P, 1, 3>(image),
        (3, 2) => shrink_fixed::<P, 3, 2>(image),
        (3, 3) => shrink_fixed::<P, 3, 3>(image),
        (3, 4) => shrink_fixed::<P, 3, 4>(image),
        (3, 5) => shrink_fixed::<P, 3, 5>(image),
        (c, f) => shrink_any(image, usize::from(c), f as usize),
    }
}

fn shrink_fixed<P: Pixel<Subpixel = u8>, const C: usize, const F: usize>(
    image: &ImageBuffer<P, Vec<u8>>,
) -> ImageBuffer<P, Vec<u8>> {
    shrink_any(image, C, F)
}

/// One row of block sums at a time: reading the source row by row keeps the
/// access sequential (the column-by-column alternative was twice as slow),
/// and the output is written through its raw buffer, not `put_pixel`.
/// `c` is the channel count, `f` the factor.
#[inline(always)]
fn shrink_any<P: Pixel<Subpixel = u8>>(
    image: &ImageBuffer<P, Vec<u8>>,
    c: usize,
    f: usize,
) -> ImageBuffer<P, Vec<u8>> {
    let (width, height) = (image.width() as usize / f, image.height() as usize / f);
    if width == 0 || height == 0 {
        return ImageBuffer::new(width.max(1) as u32, height.max(1) as u32);
    }
    let stride = image.width() as usize * c;
    let raw = image.as_raw();
    let area = (f * f) as u32;
    let mut out = vec![0u8; width * height * c];
    let mut sums = vec![0u32; width * c];
    for (by, out_row) in out.chunks_exact_mut(width * c).enumerate() {
        sums.fill(0);
        for row in raw[by * f * stride..].chunks_exact(stride).take(f) {
            for (s, block) in sums.chunks_exact_mut(c).zip(row.chunks_exact(f * c)) {
                for px in block.chunks_exact(c) {
                    for (sum, &v) in s.iter_mut().zip(px) {
                        *sum += u32::from(v);
                    }
                }
            }
        }
        for (o, s) in out_row.iter_mut().zip(&sums) {
            *o = (s / area) as u8;
        }
    }
    ImageBuffer::from_raw(width as u32, height as u32, out)
        .unwrap_or_else(|| unreachable!("`c` bytes per pixel"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{GrayImage, Luma, Rgb, RgbImage};

    #[test]
    fn a_side_shorter_than_the_factor_gives_a_black_sliver() {
        let thin = RgbImage::from_pixel(1, 3000, Rgb([250, 250, 250]));
        let small = shrink_by(&thin, 3);
        assert_eq!(small.dimensions(), (1, 1000));
        assert!(small.pixels().all(|p| p.0 == [0, 0, 0]));
        let flat = GrayImage::from_pixel(3000, 2, Luma([9]));
        assert_eq!(shrink_by(&flat, 5).dimensions(), (600, 1));
    }

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

    #[test]
    fn every_factor_gives_the_plain_block_average() {
        let image = RgbImage::from_fn(23, 17, |x, y| {
            Rgb([(x * 37 + y * 11) as u8, (x * y) as u8, (255 - x * 7) as u8])
        });
        for f in 1..8u32 {
            let small = shrink_by(&image, f);
            assert_eq!(small.dimensions(), (23 / f, 17 / f));
            for (x, y, p) in small.enumerate_pixels() {
                for c in 0..3 {
                    let sum: u32 = (0..f * f)
                        .map(|i| u32::from(image.get_pixel(x * f + i % f, y * f + i / f).0[c]))
                        .sum();
                    assert_eq!(u32::from(p.0[c]), sum / (f * f), "factor {f} at {x},{y}");
                }
            }
        }
    }

    #[test]
    fn greys_shrink_like_one_channel_of_colour() {
        let grey = GrayImage::from_fn(23, 17, |x, y| Luma([(x * 37 + y * 11) as u8]));
        let colour = RgbImage::from_fn(23, 17, |x, y| {
            let v = grey.get_pixel(x, y).0[0];
            Rgb([v, v, v])
        });
        for f in 1..8u32 {
            let (small, small_colour) = (shrink_by(&grey, f), shrink_by(&colour, f));
            assert_eq!(small.dimensions(), small_colour.dimensions());
            for (p, q) in small.pixels().zip(small_colour.pixels()) {
                assert_eq!(p.0[0], q.0[0], "factor {f}");
            }
        }
    }
}
