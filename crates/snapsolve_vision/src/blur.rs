//! Blurs of a grey image, imageproc's pixels out for less work: the Gaussian
//! (`gaussian_blur_f32`, a third of the instructions) and the box mean
//! (`box_filter`, [`box_mean`]).
//!
//! The sudoku grid finder blurs its shrunken photo before thresholding it;
//! imageproc's generic separable filter reads every tap through
//! `unsafe_get_pixel` and an accumulator slice (~150 instructions a pixel, 26 M
//! on a sudoku frame; here 8 M). Here each pass runs tap by tap over a whole row
//! of accumulators, so the compiler vectorises across pixels while each
//! pixel still sums its taps in imageproc's order (first tap first, from 0.0,
//! no reassociation) and is clamped to a byte between the passes as there:
//!
//! ```text
//!   horizontal: padded[j] = row[clamp(j - radius)]     (edge pixels repeated)
//!               acc[x] = ((0 + padded[x] k0) + padded[x + 1] k1) + ...
//!   vertical:   acc[x] = ((0 + rows[clamp(y - radius)][x] k0) + ...) + ...
//! ```

use image::GrayImage;

/// imageproc's `gaussian_blur_f32(image, sigma)` for a grey image, pixel for pixel.
///
/// # Panics
/// When `sigma` is not above 0 (as imageproc does).
pub fn gaussian_blur(image: &GrayImage, sigma: f32) -> GrayImage {
    assert!(sigma > 0.0, "sigma must be > 0.0");
    let kernel = gaussian_kernel(sigma);
    let (w, h) = (image.width() as usize, image.height() as usize);
    if w == 0 || h == 0 {
        return image.clone();
    }
    let radius = kernel.len() / 2;
    let pixels = &image.as_raw()[..w * h];
    let mut acc = vec![0.0f32; w];
    let mut padded = vec![0.0f32; w + 2 * radius];
    let mut across = vec![0u8; w * h];
    for (row, out) in pixels.chunks_exact(w).zip(across.chunks_exact_mut(w)) {
        let (left, rest) = padded.split_at_mut(radius);
        let (middle, right) = rest.split_at_mut(w);
        left.fill(f32::from(row[0]));
        right.fill(f32::from(row[w - 1]));
        for (p, &v) in middle.iter_mut().zip(row) {
            *p = f32::from(v);
        }
        acc.fill(0.0);
        for (i, &k) in kernel.iter().enumerate() {
            for (a, &p) in acc.iter_mut().zip(&padded[i..]) {
                *a += p * k;
            }
        }
        clamp_into(&acc, out);
    }
    let mut out = vec![0u8; w * h];
    for (y, out_row) in out.chunks_exact_mut(w).enumerate() {
        acc.fill(0.0);
        for (i, &k) in kernel.iter().enumerate() {
            let from = (y + i).saturating_sub(radius).min(h - 1);
            for (a, &p) in acc.iter_mut().zip(&across[from * w..(from + 1) * w]) {
                *a += f32::from(p) * k;
            }
        }
        clamp_into(&acc, out_row);
    }
    GrayImage::from_raw(w as u32, h as u32, out).unwrap_or_else(|| unreachable!("one byte a pixel"))
}

/// The mean of the `(2 radius + 1)²` square around each pixel, edge pixels
/// repeated beyond the image: imageproc's `box_filter(image, radius,
/// radius)`, pixel for pixel (a row pass then a column pass, each rounding
/// down to a byte).
///
/// The SET finder takes each pixel's whiteness over this mean to find faint
/// symbols; imageproc's column pass walks the image a column at a time
/// through a running-sum buffer and divides each pixel (12% of a webcam
/// frame's time). Here the row pass takes differences of the padded row's
/// running sums, the column pass keeps a whole row of window sums, and both
/// divide by multiplying: 1.1 ms against imageproc's 3.1 on a 960x720
/// image with the finder's radius of 115 (one core, best of 60).
///
/// # Panics
/// When `radius` is 32,500 or more (where the division by multiplying
/// stops being exact; the finder's pictures are a few hundred pixels).
pub fn box_mean(image: &GrayImage, radius: u32) -> GrayImage {
    let (w, h) = (image.width() as usize, image.height() as usize);
    if w == 0 || h == 0 {
        return image.clone();
    }
    let r = radius as usize;
    let divide = WindowDivider::new(2 * radius + 1);
    let pixels = &image.as_raw()[..w * h];
    let mut across = vec![0u8; w * h];
    // Running sums of the padded row: prefix[j] sums padded positions
    // 0..j, so the window of x (padded positions x..=x + 2r) is
    // prefix[x + 2r + 1] - prefix[x].
    let mut prefix = vec![0u32; w + 2 * r + 1];
    let mut sums = vec![0u32; w];
    for (row, out) in pixels.chunks_exact(w).zip(across.chunks_exact_mut(w)) {
        let (first, last) = (u32::from(row[0]), u32::from(row[w - 1]));
        let (left, rest) = prefix[1..].split_at_mut(r);
        let (middle, right) = rest.split_at_mut(w);
        let mut total = 0u32;
        for p in left {
            total += first;
            *p = total;
        }
        for (p, &v) in middle.iter_mut().zip(row) {
            total += u32::from(v);
            *p = total;
        }
        for p in right {
            total += last;
            *p = total;
        }
        for ((s, &high), &low) in sums.iter_mut().zip(&prefix[2 * r + 1..]).zip(&prefix) {
            *s = high - low;
        }
        divide.means(&sums, out);
    }
    let row_at = |j: usize| &across[(j.saturating_sub(r).min(h - 1)) * w..][..w];
    sums.fill(0);
    for j in 0..=2 * r {
        for (s, &p) in sums.iter_mut().zip(row_at(j)) {
            *s += u32::from(p);
        }
    }
    let mut out = vec![0u8; w * h];
    for (y, out_row) in out.chunks_exact_mut(w).enumerate() {
        divide.means(&sums, out_row);
        let (entering, leaving) = (row_at(y + 2 * r + 1), row_at(y));
        for ((s, &a), &b) in sums.iter_mut().zip(entering).zip(leaving) {
            *s = *s + u32::from(a) - u32::from(b);
        }
    }
    GrayImage::from_raw(w as u32, h as u32, out).unwrap_or_else(|| unreachable!("one byte a pixel"))
}

/// Division of a window's sum by its pixel count, rounding down, as a
/// multiplication: `floor(n / k) = (n m) >> 40` with `m = 2^40 / k + 1`,
/// exact while `n k < 2^40` (the error `n / 2^40` stays under `1 / k`),
/// which sums of bytes are for any window under 65,000 pixels a side.
struct WindowDivider {
    multiplier: u64,
}

impl WindowDivider {
    fn new(count: u32) -> WindowDivider {
        assert!(count < 65_000, "a box of {count} pixels a side is too wide");
        WindowDivider {
            multiplier: (1u64 << 40) / u64::from(count) + 1,
        }
    }

    /// Each window sum's mean, into `out`.
    fn means(&self, sums: &[u32], out: &mut [u8]) {
        for (o, &sum) in out.iter_mut().zip(sums) {
            *o = ((u64::from(sum) * self.multiplier) >> 40) as u8;
        }
    }
}

/// imageproc's `Clamp<f32> for u8`: truncation inside 0..255, the ends
/// outside, which is what the saturating `as u8` does, but for NaN (255
/// there, 0 for `as`; blurred bytes are never NaN, kept for the rule).
fn clamp_into(acc: &[f32], out: &mut [u8]) {
    for (o, &x) in out.iter_mut().zip(acc) {
        *o = if x.is_nan() { 255 } else { x as u8 };
    }
}

/// imageproc's (private) `gaussian_kernel_f32`, operation for operation: the
/// density at each whole offset within `ceil(2 sigma)`, divided by their sum.
fn gaussian_kernel(sigma: f32) -> Vec<f32> {
    let pdf = |x: f32| {
        (sigma * (2.0 * std::f32::consts::PI).sqrt()).recip()
            * (-x.powi(2) / (2.0 * sigma.powi(2))).exp()
    };
    let radius = (2.0 * sigma).ceil() as usize;
    let mut kernel = vec![0.0f32; 2 * radius + 1];
    for i in 0..radius + 1 {
        let value = pdf(i as f32);
        kernel[radius + i] = value;
        kernel[radius - i] = value;
    }
    let sum: f32 = kernel.iter().sum();
    kernel.iter_mut().for_each(|x| *x /= sum);
    kernel
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn gives_imageprocs_pixels() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        for (w, h) in [(1, 1), (1, 9), (7, 1), (3, 4), (61, 47), (360, 480)] {
            let image = GrayImage::from_fn(w, h, |x, y| {
                let base = ((x * 7 + y * 3) % 250) as i32;
                image::Luma([(base + rng.random_range(-30..=30)).clamp(0, 255) as u8])
            });
            for sigma in [0.4, 1.0, 1.7, 2.5] {
                let ours = gaussian_blur(&image, sigma);
                let theirs = imageproc::filter::gaussian_blur_f32(&image, sigma);
                assert_eq!(ours, theirs, "{w}x{h}, sigma {sigma}");
            }
        }
    }

    #[test]
    fn box_mean_gives_imageprocs_pixels() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        for (w, h) in [(1, 1), (1, 9), (7, 1), (3, 4), (61, 47), (360, 480)] {
            let image = GrayImage::from_fn(w, h, |_, _| image::Luma([rng.random()]));
            for radius in [0, 1, 2, 5, 17, 40, 300] {
                let ours = box_mean(&image, radius);
                let theirs = imageproc::filter::box_filter(&image, radius, radius);
                assert_eq!(ours, theirs, "{w}x{h}, radius {radius}");
            }
        }
        // All white: the largest sums, where a division by multiplying
        // would first go wrong.
        let white = GrayImage::from_pixel(50, 30, image::Luma([255]));
        for radius in [24, 32_000] {
            assert_eq!(box_mean(&white, radius), white, "radius {radius}");
        }
    }
}
