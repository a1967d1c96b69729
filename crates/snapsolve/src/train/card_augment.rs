//! Random changes to a shrunk card crop (interleaved RGB at the network's
//! input size) for `snapsolve train set-cards`: what a table photo does
//! (turns, mirror images, colour casts) and what a moving phone does to a
//! video frame (motion blur, defocus, a card only 25-40 pixels wide,
//! washed-out colour).
//!
//! Every crop, card or not, goes through the same changes, so that blur or
//! a cast never tells the card logit which is which.

use image::RgbImage;
use rand::Rng;
use rand::rngs::StdRng;

use crate::distort::{shrink_and_grow, smear, wash_out};

/// Share of crops spoilt the way video frames are (one spoiler each).
const VIDEO_SHARE: f64 = 0.5;

/// A half turn half of the time (cards come out upside down), a mirror image
/// half of the time (the tomwhite crops are mirrored pictures: their squiggles
/// have the other handedness than on the table, and no attribute depends on
/// it), per-channel gains, and on [`VIDEO_SHARE`] of crops one video spoiler.
pub fn augment(pixels: &[u8], width: usize, rng: &mut StdRng) -> Vec<u8> {
    let gains: [f32; 3] = std::array::from_fn(|_| rng.random_range(0.85..1.15));
    let mut out: Vec<u8> = pixels
        .chunks_exact(3)
        .flat_map(|p| {
            std::array::from_fn::<u8, 3, _>(|k| (p[k] as f32 * gains[k]).clamp(0.0, 255.0) as u8)
        })
        .collect();
    if rng.random_bool(0.5) {
        // Reversing the pixel order turns the image by 180°.
        out = out.chunks_exact(3).rev().flatten().copied().collect();
    }
    if rng.random_bool(0.5) {
        mirror(&mut out, width);
    }
    if rng.random_bool(VIDEO_SHARE) {
        out = match rng.random_range(0..4) {
            0 => motion_blur(&out, width, rng),
            1 => box_blur(&out, width),
            2 => low_resolution(out, width, rng),
            _ => washed_out(out, rng),
        };
    }
    out
}

fn mirror(pixels: &mut [u8], width: usize) {
    for row in pixels.chunks_exact_mut(3 * width) {
        for x in 0..width / 2 {
            for k in 0..3 {
                row.swap(3 * x + k, 3 * (width - 1 - x) + k);
            }
        }
    }
}

/// A random smear (2-5 taps, one of four directions): [`smear`].
fn motion_blur(pixels: &[u8], width: usize, rng: &mut StdRng) -> Vec<u8> {
    let taps = rng.random_range(2..=5i64);
    let direction = [(1, 0), (0, 1), (1, 1), (1, -1)][rng.random_range(0..4)];
    smear(pixels, width, taps, direction)
}

/// A 3x3 mean: a card slightly out of focus.
fn box_blur(pixels: &[u8], width: usize) -> Vec<u8> {
    let height = pixels.len() / (3 * width);
    let mut out = vec![0u8; pixels.len()];
    for y in 0..height {
        for x in 0..width {
            let mut sum = [0u32; 3];
            let mut n = 0;
            for sy in y.saturating_sub(1)..(y + 2).min(height) {
                for sx in x.saturating_sub(1)..(x + 2).min(width) {
                    let i = 3 * (sy * width + sx);
                    for k in 0..3 {
                        sum[k] += u32::from(pixels[i + k]);
                    }
                    n += 1;
                }
            }
            for k in 0..3 {
                out[3 * (y * width + x) + k] = (sum[k] / n) as u8;
            }
        }
    }
    out
}

/// Shrunk to 50-85% and grown back: a card 25-40 pixels wide in the frame.
fn low_resolution(pixels: Vec<u8>, width: usize, rng: &mut StdRng) -> Vec<u8> {
    let height = pixels.len() / (3 * width);
    let Some(image) = RgbImage::from_raw(width as u32, height as u32, pixels.clone()) else {
        return pixels;
    };
    let f = rng.random_range(0.5..0.85f32);
    let small = (
        ((width as f32 * f) as u32).max(4),
        ((height as f32 * f) as u32).max(4),
    );
    shrink_and_grow(&image, small.0, small.1).into_raw()
}

/// Colour drained 20-60% towards grey, lifted up to 35% towards white: [`wash_out`].
fn washed_out(mut pixels: Vec<u8>, rng: &mut StdRng) -> Vec<u8> {
    let drain = rng.random_range(0.2..0.6f32);
    let lift = rng.random_range(0.0..0.35f32);
    wash_out(&mut pixels, drain, lift);
    pixels
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn gradient(width: usize, height: usize) -> Vec<u8> {
        (0..width * height)
            .flat_map(|i| {
                let (x, y) = (i % width, i / width);
                [(x * 5) as u8, (y * 3) as u8, 128]
            })
            .collect()
    }

    #[test]
    fn every_spoiler_keeps_the_size_and_blur_keeps_a_flat_crop_flat() {
        let mut rng = StdRng::seed_from_u64(9);
        let crop = gradient(48, 72);
        for _ in 0..50 {
            assert_eq!(augment(&crop, 48, &mut rng).len(), crop.len());
        }
        let flat = vec![200u8; 48 * 72 * 3];
        assert_eq!(box_blur(&flat, 48), flat);
        assert_eq!(motion_blur(&flat, 48, &mut rng), flat);
    }

    #[test]
    fn mirroring_twice_gives_the_crop_back() {
        let crop = gradient(48, 72);
        let mut twice = crop.clone();
        mirror(&mut twice, 48);
        assert_ne!(twice, crop);
        mirror(&mut twice, 48);
        assert_eq!(twice, crop);
    }
}
