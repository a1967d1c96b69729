//! Adaptive (local mean) threshold: imageproc's `adaptive_threshold`, the
//! same pixels out, for about a third of the instructions.
//!
//! The sudoku grid finder thresholds its shrunken photo once and every rough
//! warp it fits (six or more a frame); imageproc's version reads its integral
//! image through `get_pixel` with bounds checks and clamps every window edge
//! on every pixel: 44 M instructions, 11% of a sudoku frame's at the start of
//! issue 14 (16 M here). Here the integral image is a plain buffer with a
//! zero row and column in front,
//!
//! ```text
//!   integral[(y + 1) * (w + 1) + (x + 1)] = sum of pixels [0..=x] x [0..=y]
//!   integral[0 * (w + 1) + ..] = integral[.. * (w + 1) + 0] = 0
//! ```
//!
//! and each row's window rows are found once per row.

use image::GrayImage;

/// White (255) where a pixel is at least the mean of the `(2 r + 1)²` window
/// around it (cut at the image's edges) minus `delta`, black (0) elsewhere;
/// the mean is the window's sum divided by its pixel count, rounding down.
/// Exactly imageproc's `adaptive_threshold(image, block_radius, delta)`.
///
/// # Panics
/// When `block_radius` is 0 (as imageproc does).
pub fn adaptive_threshold(image: &GrayImage, block_radius: u32, delta: i32) -> GrayImage {
    assert!(block_radius > 0, "the window needs a radius");
    let (w, h) = (image.width() as usize, image.height() as usize);
    let pixels = &image.as_raw()[..w * h];
    let stride = w + 1;
    let mut integral = vec![0u32; stride * (h + 1)];
    for y in 0..h {
        let (above, this) = integral[y * stride..(y + 2) * stride].split_at_mut(stride);
        let mut row_sum = 0u32;
        for ((out, &up), &p) in this[1..].iter_mut().zip(&above[1..]).zip(&pixels[y * w..]) {
            // Wrapping, as imageproc's u32 sums do in release builds; a
            // window's sum is exact whenever it fits in 32 bits.
            row_sum = row_sum.wrapping_add(u32::from(p));
            *out = up.wrapping_add(row_sum);
        }
    }
    let r = block_radius as usize;
    let mut out = vec![0u8; w * h];
    for y in 0..h {
        let (y_low, y_high) = (y.saturating_sub(r), (y + r).min(h - 1));
        let top = &integral[y_low * stride..(y_low + 1) * stride];
        let bottom = &integral[(y_high + 1) * stride..(y_high + 2) * stride];
        let rows = (y_high - y_low + 1) as u32;
        let row = &pixels[y * w..(y + 1) * w];
        let out_row = &mut out[y * w..(y + 1) * w];
        let white = |p: u8, sum: u32, count: u32| i32::from(p) >= (sum / count) as i32 - delta;
        let sum_between = |x_low: usize, x_high: usize| {
            bottom[x_high + 1]
                .wrapping_add(top[x_low])
                .wrapping_sub(top[x_high + 1])
                .wrapping_sub(bottom[x_low])
        };
        // Windows cut by the left or right edge: each works out its own.
        let inner = if w > 2 * r { r..w - r } else { 0..0 };
        for x in (0..inner.start).chain(inner.end..w) {
            let (x_low, x_high) = (x.saturating_sub(r), (x + r).min(w - 1));
            let count = rows * (x_high - x_low + 1) as u32;
            if white(row[x], sum_between(x_low, x_high), count) {
                out_row[x] = 255;
            }
        }
        // Whole windows: x_low = x - r, x_high = x + r, one pixel count,
        // the four corners read through shifted slices (no bounds checks).
        if inner.is_empty() {
            continue;
        }
        let count = rows * (2 * r + 1) as u32;
        let n = inner.len();
        let corners = bottom[2 * r + 1..]
            .iter()
            .zip(&top[..n])
            .zip(&top[2 * r + 1..])
            .zip(&bottom[..n]);
        for ((o, &p), (((&br, &tl), &tr), &bl)) in out_row[inner.clone()]
            .iter_mut()
            .zip(&row[inner])
            .zip(corners)
        {
            let sum = br.wrapping_add(tl).wrapping_sub(tr).wrapping_sub(bl);
            if white(p, sum, count) {
                *o = 255;
            }
        }
    }
    GrayImage::from_raw(w as u32, h as u32, out).unwrap_or_else(|| unreachable!("one byte a pixel"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn gives_imageprocs_pixels() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        for (w, h) in [(1, 1), (1, 9), (7, 1), (5, 3), (61, 47), (240, 240)] {
            // Smooth areas and noise, so both sides of the rule are met.
            let image = GrayImage::from_fn(w, h, |x, y| {
                let base = ((x * 7 + y * 3) % 200) as i32;
                image::Luma([(base + rng.random_range(-20..=20)).clamp(0, 255) as u8])
            });
            for (radius, delta) in [(1, 0), (3, 4), (8, 4), (12, 6), (300, -3)] {
                let ours = adaptive_threshold(&image, radius, delta);
                let theirs = imageproc::contrast::adaptive_threshold(&image, radius, delta);
                assert_eq!(ours, theirs, "{w}x{h}, radius {radius}, delta {delta}");
            }
        }
    }
}
