//! Separating card paper from the table.
//!
//! Card paper is the brightest and least coloured thing on most tables, so
//! the darkest of a pixel's three channels ("whiteness") is high on cards and
//! low on dark cloth, grey cushions and saturated wood alike. Otsu's method
//! (seed 000) then picks the level between the two populations.

use image::{GrayImage, RgbImage};

/// Counts of each grey level.
pub type Histogram = [u32; 256];

/// The darkest channel of each pixel: high on white paper, low on dark or coloured surfaces.
pub fn whiteness(image: &RgbImage) -> GrayImage {
    whiteness_with_histogram(image).0
}

/// [`whiteness`] and its histogram, in one pass over the photo.
pub fn whiteness_with_histogram(image: &RgbImage) -> (GrayImage, Histogram) {
    const IDENTITY: [u8; 256] = {
        let mut lut = [0u8; 256];
        let mut v = 0;
        while v < 256 {
            lut[v] = v as u8;
            v += 1;
        }
        lut
    };
    weakest_channel(image, &[IDENTITY; 3])
}

/// [`whiteness_with_histogram`] after a white balance on the brightest
/// pixels: each channel is scaled up so that its 99th percentile meets the
/// highest of the three (gains within [1, 2]).
///
/// Under a cold cast white paper loses red, under a warm one blue, and its
/// whiteness (the weakest channel) falls towards that of a light wooden table:
/// on one photo under a cold cast (red x0.8, blue x1.1) the cards merged with
/// the table at every level and only the paper inside open symbols was left.
/// Scaling the weak channel back up restores the paper and leaves the table,
/// whose weakest channel is another one, where it was.
pub fn balanced_whiteness_with_histogram(image: &RgbImage) -> (GrayImage, Histogram) {
    // Every fourth pixel is plenty for a percentile, and a quarter of the pass.
    let mut channels = [[0u32; 256]; 3];
    let mut n = 0u64;
    for p in image.as_raw().chunks_exact(3).step_by(4) {
        for c in 0..3 {
            channels[c][usize::from(p[c])] += 1;
        }
        n += 1;
    }
    let n = n.max(1);
    let percentile = |h: &[u32; 256]| {
        let mut seen = 0u64;
        for (v, &count) in h.iter().enumerate() {
            seen += u64::from(count);
            if seen * 100 >= n * 99 {
                return v as f32;
            }
        }
        255.0
    };
    let bright = channels.map(|h| percentile(&h).max(1.0));
    let top = bright.iter().copied().fold(0.0, f32::max);
    let luts: [[u8; 256]; 3] = std::array::from_fn(|c| {
        let gain = (top / bright[c]).clamp(1.0, 2.0);
        std::array::from_fn(|v| (v as f32 * gain).round().min(255.0) as u8)
    });
    weakest_channel(image, &luts)
}

/// The weakest of each pixel's three channels, each first mapped through its
/// lookup table, and the histogram of the result, in one pass.
fn weakest_channel(image: &RgbImage, luts: &[[u8; 256]; 3]) -> (GrayImage, Histogram) {
    let mut histogram = [0u32; 256];
    let raw: Vec<u8> = image
        .as_raw()
        .chunks_exact(3)
        .map(|p| {
            let v = luts[0][usize::from(p[0])]
                .min(luts[1][usize::from(p[1])])
                .min(luts[2][usize::from(p[2])]);
            histogram[usize::from(v)] += 1;
            v
        })
        .collect();
    let white = GrayImage::from_raw(image.width(), image.height(), raw)
        .unwrap_or_else(|| unreachable!("one byte per pixel"));
    (white, histogram)
}

/// The histogram of a grey image.
pub fn histogram(gray: &GrayImage) -> Histogram {
    let mut histogram = [0u32; 256];
    for &v in gray.as_raw() {
        histogram[usize::from(v)] += 1;
    }
    histogram
}

/// Otsu's level of a histogram: the level that maximises the between-class
/// variance of "at most the level" and "above it". The same arithmetic as
/// imageproc's `otsu_level` (f64, strict improvement, 0 when there is one
/// class), so both give the same level on the same pixels.
pub fn otsu_level_of(histogram: &Histogram) -> u8 {
    let total_weight: u64 = histogram.iter().map(|&h| u64::from(h)).sum();
    let total_sum = histogram
        .iter()
        .enumerate()
        .fold(0f64, |sum, (t, &h)| sum + (t as u64 * u64::from(h)) as f64);
    let (mut background_sum, mut background_weight) = (0f64, 0u64);
    let (mut largest, mut best) = (0f64, 0u8);
    for (level, &count) in histogram.iter().enumerate() {
        background_weight += u64::from(count);
        if background_weight == 0 {
            continue;
        }
        let foreground_weight = total_weight - background_weight;
        if foreground_weight == 0 {
            break;
        }
        background_sum += (level as u64 * u64::from(count)) as f64;
        let background_mean = background_sum / background_weight as f64;
        let foreground_mean = (total_sum - background_sum) / foreground_weight as f64;
        let variance = background_weight as f64
            * foreground_weight as f64
            * (background_mean - foreground_mean).powi(2);
        if variance > largest {
            largest = variance;
            best = level as u8;
        }
    }
    best
}

/// Otsu's level of a grey image (see [`otsu_level_of`]).
pub fn otsu_level(gray: &GrayImage) -> u8 {
    otsu_level_of(&histogram(gray))
}

/// Foreground mask (255) of pixels above `level`.
pub fn mask_above(gray: &GrayImage, level: u8) -> GrayImage {
    let raw = gray
        .as_raw()
        .iter()
        .map(|&v| if v > level { 255 } else { 0 })
        .collect();
    GrayImage::from_raw(gray.width(), gray.height(), raw)
        .unwrap_or_else(|| unreachable!("one byte per pixel"))
}

/// Foreground mask (255) of pixels above Otsu's level of `gray`, and the level.
pub fn otsu_mask(gray: &GrayImage) -> (GrayImage, u8) {
    let level = otsu_level(gray);
    (mask_above(gray, level), level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cold_cast_is_balanced_away_and_a_neutral_photo_kept() {
        // White paper under a cold cast beside light wood, paper a tenth of the picture.
        let (paper, wood) = (image::Rgb([192u8, 228, 255]), image::Rgb([160u8, 152, 132]));
        let image = RgbImage::from_fn(100, 100, |x, _| if x < 10 { paper } else { wood });
        let (plain, _) = whiteness_with_histogram(&image);
        let (balanced, histogram) = balanced_whiteness_with_histogram(&image);
        assert_eq!(plain.get_pixel(0, 0).0[0], 192);
        // Red scaled by 255 / 192 and green by 255 / 228: the paper is white again,
        // the wood keeps its weakest channel (blue).
        assert_eq!(balanced.get_pixel(0, 0).0[0], 255);
        assert_eq!(balanced.get_pixel(50, 0).0[0], 132);
        assert_eq!(histogram.iter().sum::<u32>(), 10_000);
        // Neutral paper: nothing changes.
        let neutral = RgbImage::from_fn(100, 100, |x, _| {
            if x < 10 {
                image::Rgb([240, 240, 240])
            } else {
                wood
            }
        });
        assert_eq!(
            balanced_whiteness_with_histogram(&neutral).0,
            whiteness_with_histogram(&neutral).0
        );
    }
    use image::{Luma, Rgb};
    use rand::{Rng, SeedableRng};

    #[test]
    fn white_paper_beats_saturated_wood() {
        let mut image = RgbImage::from_pixel(4, 1, Rgb([200, 140, 80]));
        image.put_pixel(1, 0, Rgb([235, 230, 225]));
        let (mask, _) = otsu_mask(&whiteness(&image));
        assert_eq!(mask.as_raw(), &vec![0, 255, 0, 0]);
    }

    #[test]
    fn otsu_level_matches_imageproc() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        for round in 0..200 {
            let (w, h) = (rng.random_range(1..60), rng.random_range(1..60));
            // Two populations of random spread, sometimes one, sometimes a constant image.
            let (a, b) = (rng.random_range(0..=255u8), rng.random_range(0..=255u8));
            let spread = [0, 3, 30, 255][round % 4];
            let gray = GrayImage::from_fn(w, h, |_, _| {
                let centre = if rng.random_bool(0.3) { a } else { b };
                Luma([centre.saturating_add(rng.random_range(0..=spread))])
            });
            assert_eq!(otsu_level(&gray), imageproc::contrast::otsu_level(&gray));
        }
    }

    #[test]
    fn whiteness_histogram_counts_every_pixel() {
        let image = RgbImage::from_fn(7, 5, |x, y| Rgb([x as u8 * 30, 200, y as u8 * 40 + 10]));
        let (white, histogram) = whiteness_with_histogram(&image);
        assert_eq!(white, whiteness(&image));
        assert_eq!(histogram, super::histogram(&white));
    }
}
