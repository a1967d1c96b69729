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
pub fn resize_triangle(image: &RgbImage, width: u32, height: u32) -> RgbImage {
    let (w, h) = image.dimensions();
    if w == 0 || h == 0 || width == 0 || height == 0 {
        return RgbImage::new(width, height);
    }
    if (w, h) == (width, height) {
        return image.clone();
    }
    let rows = taps(h, height);
    let columns = taps(w, width);
    let (w, width) = (w as usize, width as usize);
    let src = image.as_raw();
    // Vertical pass: `height` rows of `w` pixels, three f32 channels each.
    let mut tall = vec![0f32; 3 * w * height as usize];
    for (out_row, tap) in tall.chunks_exact_mut(3 * w).zip(&rows) {
        for (x, out) in out_row.chunks_exact_mut(3).enumerate() {
            let mut t = [0f32; 3];
            for (k, weight) in tap.weights.iter().enumerate() {
                let p = 3 * ((tap.first + k) * w + x);
                for c in 0..3 {
                    t[c] += f32::from(src[p + c]) * weight;
                }
            }
            out.copy_from_slice(&t);
        }
    }
    // Horizontal pass, rounded to bytes.
    let mut out = RgbImage::new(width as u32, height);
    for (out_row, tall_row) in out
        .chunks_exact_mut(3 * width)
        .zip(tall.chunks_exact(3 * w))
    {
        for (pixel, tap) in out_row.chunks_exact_mut(3).zip(&columns) {
            let mut t = [0f32; 3];
            for (k, weight) in tap.weights.iter().enumerate() {
                let p = 3 * (tap.first + k);
                for c in 0..3 {
                    t[c] += tall_row[p + c] * weight;
                }
            }
            for c in 0..3 {
                pixel[c] = t[c].clamp(0.0, 255.0).round() as u8;
            }
        }
    }
    out
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
}
