//! Sensor noise: how much a picture has, and a picture with less.
//!
//! A dim room's photo or webcam frame carries grain that the cards' faint
//! ink (a pale open outline, thin stripes) sinks into: the card network reads
//! the grain as stripes and doubts the card is one. The table reader measures
//! the grain and, on a grainy picture only, also names each card crop
//! smoothed (`snapsolve::set_photo::classify::SmoothedCrops`); the sudoku
//! reader cuts a grainy photo's cells from a smoothed grey
//! (`snapsolve::sudoku_photo`).
//!
//! The level is Immerkær's estimate ("Fast noise variance estimation", 1996):
//! the mask
//!
//! ```text
//!    1 -2  1
//!   -2  4 -2
//!    1 -2  1
//! ```
//!
//! is the difference of two Laplacians, blind to flat paper and to straight
//! gradients, and answers pure noise of deviation σ with deviation 6σ. Edges
//! answer too; the median of the answers' sizes (not their mean) leaves the
//! minority of pixels on edges out, so a sharp, clean picture measures near 0.

use image::{GrayImage, RgbImage};

use crate::blur::gaussian_blur;

/// Noise at or above this deviation (0-255 grey levels) makes a picture
/// grainy: the shared photos, webcam frames and sudoku pages measure 0-3.4
/// (`noise_levels` example), a dim room's grain 8 and more.
pub const NOISY: f32 = 6.0;

/// Rows sampled for the estimate at most: a hundred thousand pixels judge
/// the grain as well as all of a 12 MP photo.
const ROWS_SAMPLED: usize = 100;

/// The standard deviation of the picture's pixel noise in grey levels
/// (Immerkær's mask, median of its answers; see the module notes), judged on
/// up to [`ROWS_SAMPLED`] rows spread over the picture.
pub fn noise_level(image: &RgbImage) -> f32 {
    let (w, h) = (image.width() as usize, image.height() as usize);
    if w < 3 || h < 3 {
        return 0.0;
    }
    // Rows' grey as the sum of their three channels (no division: the mask's
    // answers are measured in thirds of a grey level).
    let mut rows = [vec![0i32; w], vec![0i32; w], vec![0i32; w]];
    let pixels = image.as_raw();
    // Answers counted by size, up to 16 times the largest noise of interest.
    let mut counts = vec![0u32; 1024];
    let largest = counts.len() - 1;
    let step = ((h - 2) / ROWS_SAMPLED).max(1);
    for y in (1..h - 1).step_by(step) {
        for (row, grey) in rows.iter_mut().zip(y - 1..) {
            let bytes = &pixels[3 * w * grey..3 * w * (grey + 1)];
            for (g, p) in row.iter_mut().zip(bytes.chunks_exact(3)) {
                *g = i32::from(p[0]) + i32::from(p[1]) + i32::from(p[2]);
            }
        }
        let [above, row, below] = &rows;
        for x in 1..w - 1 {
            let corners = above[x - 1] + above[x + 1] + below[x - 1] + below[x + 1];
            let sides = above[x] + below[x] + row[x - 1] + row[x + 1];
            let answer = corners - 2 * sides + 4 * row[x];
            counts[(answer.unsigned_abs() as usize).min(largest)] += 1;
        }
    }
    let median = median_of_counts(&counts) as f32 / 3.0;
    // For Gaussian noise the median of |answer| is 0.6745 of its deviation.
    median / 0.6745 / 6.0
}

/// The index at which half of all counts lie at or below.
fn median_of_counts(counts: &[u32]) -> usize {
    let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    let mut seen = 0u64;
    for (value, &count) in counts.iter().enumerate() {
        seen += u64::from(count);
        if 2 * seen >= total {
            return value;
        }
    }
    counts.len() - 1
}

/// Each channel blurred by a Gaussian of `sigma` pixels.
pub fn smoothed(image: &RgbImage, sigma: f32) -> RgbImage {
    let (w, h) = image.dimensions();
    let blurred: Vec<GrayImage> = (0..3)
        .map(|k| {
            let channel = image.as_raw().chunks_exact(3).map(|p| p[k]).collect();
            let channel = GrayImage::from_raw(w, h, channel).expect("one byte a pixel");
            gaussian_blur(&channel, sigma)
        })
        .collect();
    let [r, g, b] = [0, 1, 2].map(|k| blurred[k].as_raw());
    let pixels = r
        .iter()
        .zip(g)
        .zip(b)
        .flat_map(|((&r, &g), &b)| [r, g, b])
        .collect();
    RgbImage::from_raw(w, h, pixels).expect("three bytes a pixel")
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A card-like picture: pale paper, a dark table, a few sharp outlines.
    fn scene() -> RgbImage {
        RgbImage::from_fn(320, 240, |x, y| {
            let on_card = (60..260).contains(&x) && (40..200).contains(&y);
            let outline = on_card && (x % 40 == 0 || y % 50 == 0);
            Rgb(match (on_card, outline) {
                (_, true) => [150, 40, 40],
                (true, false) => [220, 218, 210],
                _ => [70, 50, 30],
            })
        })
    }

    /// Grain of deviation `sigma`, the same on every channel, as a sensor's.
    fn grainy(image: &RgbImage, sigma: f32) -> RgbImage {
        let mut rng = StdRng::seed_from_u64(3);
        let mut out = image.clone();
        for p in out.pixels_mut() {
            // The sum of 12 uniforms less 6 is nearly Gaussian of deviation 1.
            let g: f32 = (0..12).map(|_| rng.random::<f32>()).sum::<f32>() - 6.0;
            p.0 =
                p.0.map(|v| (f32::from(v) + sigma * g).round().clamp(0.0, 255.0) as u8);
        }
        out
    }

    #[test]
    fn a_clean_sharp_picture_measures_no_noise() {
        assert!(noise_level(&scene()) < 0.5);
    }

    #[test]
    fn grain_is_measured_near_its_deviation() {
        for sigma in [4.0, 8.0, 12.0] {
            let level = noise_level(&grainy(&scene(), sigma));
            assert!((level - sigma).abs() < 0.15 * sigma, "{sigma}: {level}");
        }
    }

    #[test]
    fn smoothing_lowers_the_noise_and_keeps_the_size() {
        let noisy = grainy(&scene(), 10.0);
        let quiet = smoothed(&noisy, 1.0);
        assert!(noise_level(&quiet) < 0.5 * noise_level(&noisy));
        assert_eq!(quiet.dimensions(), noisy.dimensions());
        // Flat paper stays as it was.
        let paper = RgbImage::from_pixel(20, 10, Rgb([200, 190, 180]));
        assert_eq!(smoothed(&paper, 1.5), paper);
    }

    #[test]
    fn tiny_pictures_measure_no_noise() {
        assert_eq!(noise_level(&RgbImage::new(2, 9)), 0.0);
        assert_eq!(noise_level(&RgbImage::new(0, 0)), 0.0);
    }
}
