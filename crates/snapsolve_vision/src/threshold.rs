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
    let mut histogram = [0u32; 256];
    let raw: Vec<u8> = image
        .as_raw()
        .chunks_exact(3)
        .map(|p| {
            let v = p[0].min(p[1]).min(p[2]);
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
