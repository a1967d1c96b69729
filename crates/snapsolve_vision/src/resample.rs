//! Resizing with a triangle (bilinear) filter, pixel for pixel the same as
//! `image::imageops::resize(.., FilterType::Triangle)`.
//!
//! The network reads every card crop shrunk from 96x150 to 48x72. The `image`
//! crate's resize is generic over pixel types: each tap goes through
//! `get_pixel`, four channels (alpha made up for RGB), numeric casts and
//! bounds checks, which made shrinking ~70% of naming 12 cards. Here the
//! filter weights are worked out once per output row and column, and the taps
//! run over flat RGB rows. The arithmetic is the crate's, in the same order
//! (vertical pass into `f32`, horizontal pass, clamp, round half away from
//! zero), so the bytes are identical (tested against it).

use image::RgbImage;

/// `image` resized to `width x height` with the triangle filter.
///
/// Both passes add each pixel's taps in the crate's order, starting from
/// zero, so every float sum is the crate's to the bit. The vertical pass adds
/// whole source rows, one tap weight at a time, into the output row (a loop
/// the compiler vectorises; pixel by pixel, tap by tap, it was scalar); the
/// horizontal pass reads each pixel's taps from one flat table of a fixed
/// width, padded with weight 0 (adding 0 x a pixel changes no sum).
/// Enlarging the part of a far-away table around its cards took a quarter
/// of reading it this way before.
pub fn resize_triangle(image: &RgbImage, width: u32, height: u32) -> RgbImage {
    let (w, h) = image.dimensions();
    if w == 0 || h == 0 || width == 0 || height == 0 {
        return RgbImage::new(width, height);
    }
    if (w, h) == (width, height) {
        return image.clone();
    }
    let rows = taps(h, height);
    let columns = TapTable::of(&taps(w, width), w as usize);
    let row_len = 3 * w as usize;
    let src = image.as_raw();
    // Vertical pass: `height` rows of `w` pixels, three f32 channels each.
    let mut tall = vec![0f32; row_len * height as usize];
    for (out_row, tap) in tall.chunks_exact_mut(row_len).zip(&rows) {
        for (k, &weight) in tap.weights.iter().enumerate() {
            let start = (tap.first + k) * row_len;
            for (t, &s) in out_row.iter_mut().zip(&src[start..start + row_len]) {
                *t += f32::from(s) * weight;
            }
        }
    }
    // Horizontal pass, rounded to bytes.
    let mut out = RgbImage::new(width, height);
    let rows = out
        .chunks_exact_mut(3 * width as usize)
        .zip(tall.chunks_exact(row_len));
    for (out_row, tall_row) in rows {
        columns.blend_row(tall_row, out_row);
    }
    out
}

/// `v` clamped to `0..=255` and rounded half away from zero, as `f32::round`
/// does, without its library call (4% of reading a far-away table).
fn round_to_byte(v: f32) -> u8 {
    let v = v.clamp(0.0, 255.0);
    let whole = v as u32;
    // `v - whole` is exact (Sterbenz: `whole <= v <= 2 whole` once `whole`
    // is 1 or more, and `v - 0` is `v`).
    (whole + u32::from(v - whole as f32 >= 0.5)) as u8
}

/// The taps of every output pixel along one axis in one table: each pixel's
/// first source pixel, and `width` weights a pixel, the unused ones 0 (their
/// first pixel moved back so that every tap lies within the source).
struct TapTable {
    firsts: Vec<usize>,
    weights: Vec<f32>,
    width: usize,
}

impl TapTable {
    fn of(taps: &[Tap], source_len: usize) -> TapTable {
        let width = taps
            .iter()
            .map(|t| t.weights.len())
            .max()
            .unwrap_or(1)
            .max(1);
        let mut firsts = Vec::with_capacity(taps.len());
        let mut weights = Vec::with_capacity(taps.len() * width);
        for tap in taps {
            // Padding after the last weight may run past the source's end:
            // start earlier and pad in front instead.
            let pad = width - tap.weights.len();
            let front = (tap.first + width).saturating_sub(source_len).min(pad);
            firsts.push(tap.first - front);
            weights.extend(std::iter::repeat_n(0.0, front));
            weights.extend(&tap.weights);
            weights.extend(std::iter::repeat_n(0.0, pad - front));
        }
        TapTable {
            firsts,
            weights,
            width,
        }
    }

    /// One output row from one row of the vertical pass: each pixel's taps
    /// read as one slice (one bounds check) and added tap after tap from
    /// zero, in the crate's order. The usual widths (enlarging for a closer
    /// look: 2 or 3 taps; shrinking a crop by two: 5) get loops of known
    /// length.
    fn blend_row(&self, tall_row: &[f32], out_row: &mut [u8]) {
        match self.width {
            2 => self.blend_row_of(2, tall_row, out_row),
            3 => self.blend_row_of(3, tall_row, out_row),
            4 => self.blend_row_of(4, tall_row, out_row),
            5 => self.blend_row_of(5, tall_row, out_row),
            n => self.blend_row_of(n, tall_row, out_row),
        }
    }

    /// [`TapTable::blend_row`] for a table `n` weights wide (inlined into
    /// each arm there, so `n` is a constant in each copy).
    #[inline(always)]
    fn blend_row_of(&self, n: usize, tall_row: &[f32], out_row: &mut [u8]) {
        let taps = self.firsts.iter().zip(self.weights.chunks_exact(n));
        for (pixel, (&first, weights)) in out_row.chunks_exact_mut(3).zip(taps) {
            let source = &tall_row[3 * first..3 * (first + n)];
            let mut t = [0f32; 3];
            for (values, &weight) in source.chunks_exact(3).zip(weights) {
                for c in 0..3 {
                    t[c] += values[c] * weight;
                }
            }
            for c in 0..3 {
                pixel[c] = round_to_byte(t[c]);
            }
        }
    }
}
/// The source pixels and normalised weights of one output pixel along an axis.
struct Tap {
    first: usize,
    weights: Vec<f32>,
}

/// The taps of each of `to` output pixels along an axis of `from` pixels
/// (the `image` crate's formulas: support 1 widened by the shrink ratio).
fn taps(from: u32, to: u32) -> Vec<Tap> {
    let ratio = from as f32 / to as f32;
    let sratio = if ratio < 1.0 { 1.0 } else { ratio };
    let support = sratio;
    (0..to)
        .map(|out| {
            let centre = (out as f32 + 0.5) * ratio;
            let left = ((centre - support).floor() as i64).clamp(0, i64::from(from) - 1);
            let right = ((centre + support).ceil() as i64).clamp(left + 1, i64::from(from));
            let centre = centre - 0.5;
            let mut weights: Vec<f32> = (left..right)
                .map(|i| triangle((i as f32 - centre) / sratio))
                .collect();
            let sum: f32 = weights.iter().fold(0.0, |s, w| s + w);
            for w in &mut weights {
                *w /= sum;
            }
            Tap {
                first: left as usize,
                weights,
            }
        })
        .collect()
}

fn triangle(x: f32) -> f32 {
    if x.abs() < 1.0 { 1.0 - x.abs() } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;
    use image::imageops::{FilterType, resize};
    use rand::{Rng, SeedableRng};

    #[test]
    fn same_bytes_as_the_image_crate() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(8);
        let mut cases = vec![
            (96, 150, 48, 72),
            (150, 96, 72, 48),
            // A far table's cards enlarged, a frame shrunk.
            (310, 205, 905, 598),
            (640, 480, 96, 150),
            (1, 1, 3, 2),
            (5, 7, 0, 3),
        ];
        for _ in 0..300 {
            cases.push((
                rng.random_range(1..80),
                rng.random_range(1..80),
                rng.random_range(1..80),
                rng.random_range(1..80),
            ));
        }
        for (w, h, nw, nh) in cases {
            let image = RgbImage::from_fn(w, h, |_, _| Rgb(rng.random()));
            assert_eq!(
                resize_triangle(&image, nw, nh),
                resize(&image, nw, nh, FilterType::Triangle),
                "{w}x{h} -> {nw}x{nh}"
            );
        }
    }

    #[test]
    fn bytes_round_half_away_from_zero_as_f32_round_does() {
        let mut values = vec![-3.0, -0.0, f32::NAN, 255.49, 255.5, 300.0, 0.49999997];
        for k in 0..256 {
            let k = k as f32;
            values.extend([k, k + 0.5, k + 0.49999, k + 0.50001, k - 0.5, k + 0.999]);
            values.push(f32::from_bits((k + 0.5).to_bits() - 1));
        }
        for v in values {
            assert_eq!(round_to_byte(v), v.clamp(0.0, 255.0).round() as u8, "{v}");
        }
    }
}
