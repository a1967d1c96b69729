//! Separating card paper from the table.
//!
//! Card paper is the brightest and least coloured thing on most tables, so
//! the darkest of a pixel's three channels ("whiteness") is high on cards and
//! low on dark cloth, grey cushions and saturated wood alike. Otsu's method
//! (seed 000) then picks the level between the two populations.

use image::{GrayImage, Luma, RgbImage};
use imageproc::contrast::otsu_level;

/// The darkest channel of each pixel: high on white paper, low on dark or coloured surfaces.
pub fn whiteness(image: &RgbImage) -> GrayImage {
    let mut out = GrayImage::new(image.width(), image.height());
    for (o, p) in out.pixels_mut().zip(image.pixels()) {
        *o = Luma([p.0[0].min(p.0[1]).min(p.0[2])]);
    }
    out
}

/// Foreground mask (255) of pixels above Otsu's level of `gray`, and the level.
pub fn otsu_mask(gray: &GrayImage) -> (GrayImage, u8) {
    let level = otsu_level(gray);
    let mut mask = gray.clone();
    for p in mask.pixels_mut() {
        p.0[0] = if p.0[0] > level { 255 } else { 0 };
    }
    (mask, level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    #[test]
    fn white_paper_beats_saturated_wood() {
        let mut image = RgbImage::from_pixel(4, 1, Rgb([200, 140, 80]));
        image.put_pixel(1, 0, Rgb([235, 230, 225]));
        let (mask, _) = otsu_mask(&whiteness(&image));
        assert_eq!(mask.as_raw(), &vec![0, 255, 0, 0]);
    }
}
