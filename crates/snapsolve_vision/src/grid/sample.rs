//! Bilinear reads of a grey image at real positions, one at a time or a row at
//! a time: the grid finder's rough warps, its line strengths and the cell
//! cutter all read the photo this way.
//!
//! Hot: a 720x960 sudoku frame takes about 920,000 reads (81 cells x 784
//! pixels x 9 sub-samples, and six 240 x 240 rough warps); at ~97
//! instructions a read (a call, the clamp, saturating casts, four bounds
//! checks) they were a quarter of the frame. [`GreySampler::row`] reads four
//! positions at once with SSE2, which baseline x86-64 always has (no runtime
//! dispatch), doing the very same float operations in the same order as
//! [`GreySampler::at`], so both give the same bits (tested below); on other
//! targets it is `at` in a loop.
//!
//! Layout: positions come as two slices `xs`, `ys` (structure of arrays), so
//! one 16-byte load takes four of them:
//!
//! ```text
//!   xs: x0 x1 x2 x3 | x4 ...      ys: y0 y1 y2 y3 | y4 ...
//!        one SSE2 lane each            one SSE2 lane each
//! ```
//!
//! The four neighbours' bytes are then gathered lane by lane (SSE2 has no
//! gather and no 32-bit multiply for the row offsets). Tried and lost: reading
//! the four pixels as two pairs from one index in the scalar version (the same
//! readings, 12% more instructions on the sudoku frame); the four neighbours'
//! indices computed in lanes (PMULUDQ for the row offsets) and stored once
//! (215.2 M -> 218.3 M instructions on the frame).

use image::GrayImage;

/// Bilinear reads of one grey image (edges clamped).
#[derive(Clone, Copy, Debug)]
pub struct GreySampler<'a> {
    /// The pixels, exactly `width * height` of them.
    raw: &'a [u8],
    width: usize,
    /// Largest x and y, as floats and as integers.
    max_x: f32,
    max_y: f32,
    last_col: i32,
    last_row: i32,
}

impl<'a> GreySampler<'a> {
    /// A sampler over `gray`.
    ///
    /// # Panics
    /// On an empty image (nothing to read), or one with a side over 2^24
    /// pixels, where the largest coordinate is no longer an exact float (far
    /// beyond what [`crate::decode`] accepts).
    pub fn new(gray: &'a GrayImage) -> GreySampler<'a> {
        let (w, h) = gray.dimensions();
        assert!(w > 0 && h > 0, "bilinear reads need a non-empty image");
        assert!(w <= 1 << 24 && h <= 1 << 24, "image side beyond 2^24");
        let (w, h) = (w as usize, h as usize);
        GreySampler {
            raw: &gray.as_raw()[..w * h],
            width: w,
            max_x: (w - 1) as f32,
            max_y: (h - 1) as f32,
            last_col: (w - 1) as i32,
            last_row: (h - 1) as i32,
        }
    }

    /// Bilinear read at (`x`, `y`), each clamped to the image (NaN reads NaN).
    #[inline(always)]
    pub fn at(&self, x: f32, y: f32) -> f32 {
        let x = x.clamp(0.0, self.max_x);
        let y = y.clamp(0.0, self.max_y);
        // Both are clamped to 0 or more, where truncation is the floor: `floor`
        // itself is a call into libm on baseline x86-64 (no SSE4.1 `roundss`).
        let (x0, y0) = (x as i32, y as i32);
        let (x1, y1) = ((x0 + 1).min(self.last_col), (y0 + 1).min(self.last_row));
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let at = |xx: i32, yy: i32| f32::from(self.raw[yy as usize * self.width + xx as usize]);
        let top = at(x0, y0) * (1.0 - fx) + at(x1, y0) * fx;
        let bottom = at(x0, y1) * (1.0 - fx) + at(x1, y1) * fx;
        top * (1.0 - fy) + bottom * fy
    }

    /// `out[i]` = [`GreySampler::at`]`(xs[i], ys[i])`, bit for bit.
    ///
    /// # Panics
    /// When the three slices differ in length.
    pub fn row(&self, xs: &[f32], ys: &[f32], out: &mut [f32]) {
        assert!(
            xs.len() == out.len() && ys.len() == out.len(),
            "one position per read"
        );
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of baseline x86-64: every x86_64 CPU has it.
        let done = unsafe { self.row_sse2(xs, ys, out) };
        #[cfg(not(target_arch = "x86_64"))]
        let done = 0;
        for ((o, &x), &y) in out[done..].iter_mut().zip(&xs[done..]).zip(&ys[done..]) {
            *o = self.at(x, y);
        }
    }

    /// The reads of [`GreySampler::row`] four at a time; returns how many it
    /// did (the rest, fewer than four, are left to `at`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse2")]
    fn row_sse2(&self, xs: &[f32], ys: &[f32], out: &mut [f32]) -> usize {
        use std::arch::x86_64::*;
        let (zero, one) = (_mm_setzero_ps(), _mm_set1_ps(1.0));
        let (max_x, max_y) = (_mm_set1_ps(self.max_x), _mm_set1_ps(self.max_y));
        let (last_col, last_row) = (_mm_set1_epi32(self.last_col), _mm_set1_epi32(self.last_row));
        let one_i = _mm_set1_epi32(1);
        // `f32::clamp(v, 0, max)`: below 0 gives 0, then above max gives max,
        // NaN stays NaN. MAXPS and MINPS return their second operand when the
        // comparison fails or either is NaN, so `max(0, v)` is `0 > v ? 0 : v`.
        let clamp = |v: __m128, max: __m128| _mm_min_ps(max, _mm_max_ps(zero, v));
        // `v as i32` for v in 0..=max or NaN: CVTTPS2DQ truncates as `as` does,
        // but gives i32::MIN for NaN where `as` gives 0.
        let truncate =
            |v: __m128| _mm_and_si128(_mm_cvttps_epi32(v), _mm_castps_si128(_mm_cmpord_ps(v, v)));
        // `(i + 1).min(last)` for i <= last: one less where i + 1 passes last
        // (a true comparison is -1).
        let next = |i: __m128i, last: __m128i| {
            let n = _mm_add_epi32(i, one_i);
            _mm_add_epi32(n, _mm_cmpgt_epi32(n, last))
        };
        let lanes = |v: __m128i| {
            let mut a = [0i32; 4];
            // SAFETY: `a` is 16 writable bytes; the store is unaligned.
            unsafe { _mm_storeu_si128(a.as_mut_ptr().cast(), v) };
            a
        };
        let floats = |a: [i32; 4]| {
            // SAFETY: `a` is 16 readable bytes; the load is unaligned.
            _mm_cvtepi32_ps(unsafe { _mm_loadu_si128(a.as_ptr().cast()) })
        };
        let chunks = xs
            .chunks_exact(4)
            .zip(ys.chunks_exact(4))
            .zip(out.chunks_exact_mut(4));
        let mut done = 0;
        for ((xc, yc), oc) in chunks {
            // SAFETY: each chunk holds exactly four floats; loads are unaligned.
            let (x, y) = unsafe { (_mm_loadu_ps(xc.as_ptr()), _mm_loadu_ps(yc.as_ptr())) };
            let (x, y) = (clamp(x, max_x), clamp(y, max_y));
            let (x0, y0) = (truncate(x), truncate(y));
            let (x1, y1) = (next(x0, last_col), next(y0, last_row));
            let fx = _mm_sub_ps(x, _mm_cvtepi32_ps(x0));
            let fy = _mm_sub_ps(y, _mm_cvtepi32_ps(y0));
            let (x0, x1, y0, y1) = (lanes(x0), lanes(x1), lanes(y0), lanes(y1));
            let mut p = [[0i32; 4]; 4];
            for lane in 0..4 {
                let (r0, r1) = (
                    y0[lane] as usize * self.width,
                    y1[lane] as usize * self.width,
                );
                let (c0, c1) = (x0[lane] as usize, x1[lane] as usize);
                // SAFETY: after the clamp (NaN truncated to 0) every column is
                // in 0..=last_col and every row in 0..=last_row, both exact as
                // floats (`new` bounds the sides), so each index is at most
                // last_row * width + last_col < raw.len() = width * height.
                let at = |i: usize| i32::from(unsafe { *self.raw.get_unchecked(i) });
                p[0][lane] = at(r0 + c0);
                p[1][lane] = at(r0 + c1);
                p[2][lane] = at(r1 + c0);
                p[3][lane] = at(r1 + c1);
            }
            let [p00, p10, p01, p11] = p.map(floats);
            let ofx = _mm_sub_ps(one, fx);
            let top = _mm_add_ps(_mm_mul_ps(p00, ofx), _mm_mul_ps(p10, fx));
            let bottom = _mm_add_ps(_mm_mul_ps(p01, ofx), _mm_mul_ps(p11, fx));
            let v = _mm_add_ps(_mm_mul_ps(top, _mm_sub_ps(one, fy)), _mm_mul_ps(bottom, fy));
            // SAFETY: `oc` holds exactly four floats; the store is unaligned.
            unsafe { _mm_storeu_ps(oc.as_mut_ptr(), v) };
            done += 4;
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The first version, kept as the reference for the bits.
    fn plain_sample_bilinear(gray: &GrayImage, x: f32, y: f32) -> f32 {
        let (w, h) = (gray.width() as i32, gray.height() as i32);
        let x = x.clamp(0.0, (w - 1) as f32);
        let y = y.clamp(0.0, (h - 1) as f32);
        let (x0, y0) = (x as i32, y as i32);
        let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let raw = gray.as_raw();
        let at = |xx: i32, yy: i32| f32::from(raw[(yy * w + xx) as usize]);
        let top = at(x0, y0) * (1.0 - fx) + at(x1, y0) * fx;
        let bottom = at(x0, y1) * (1.0 - fx) + at(x1, y1) * fx;
        top * (1.0 - fy) + bottom * fy
    }

    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn rows_single_reads_and_the_first_version_agree_bit_for_bit() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        for (w, h) in [(1, 1), (1, 7), (9, 1), (37, 23), (240, 240)] {
            let gray = GrayImage::from_fn(w, h, |_, _| image::Luma([rng.random()]));
            let sampler = GreySampler::new(&gray);
            let special = [
                0.0,
                -0.0,
                -1.5,
                0.5,
                (w - 1) as f32,
                w as f32 + 3.0,
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                (w - 1) as f32 - 1e-3,
            ];
            let mut xs: Vec<f32> = special.to_vec();
            let mut ys: Vec<f32> = special.iter().rev().copied().collect();
            for _ in 0..2001 {
                xs.push(rng.random_range(-3.0..w as f32 + 3.0));
                ys.push(rng.random_range(-3.0..h as f32 + 3.0));
            }
            let mut out = vec![0.0; xs.len()];
            sampler.row(&xs, &ys, &mut out);
            for ((&x, &y), &o) in xs.iter().zip(&ys).zip(&out) {
                let plain = plain_sample_bilinear(&gray, x, y);
                assert!(same(o, plain), "row at ({x}, {y}): {o} vs {plain}");
                assert!(same(sampler.at(x, y), plain), "at ({x}, {y})");
            }
        }
    }
}
