//! The canonical crops handed to classifiers.

/// Width of an upright card crop, in pixels (portrait: long side vertical).
pub const CARD_CROP_WIDTH: u32 = 96;
/// Height of an upright card crop; 150/96 is close to a SET card's 3.5"/2.25".
pub const CARD_CROP_HEIGHT: u32 = 150;

use image::RgbImage;

use crate::quad::Quad;
use crate::warp::warp_quad;

/// Cuts one card out of a photo as a canonical upright crop
/// ([`CARD_CROP_WIDTH`] x [`CARD_CROP_HEIGHT`]); `quad` in portrait order.
pub fn card_crop(image: &RgbImage, quad: &Quad) -> Option<RgbImage> {
    warp_quad(image, quad, CARD_CROP_WIDTH, CARD_CROP_HEIGHT)
}

/// Brings an image of one card filling the picture to the canonical crop:
/// turned a quarter if it is landscape, then resized to
/// [`CARD_CROP_WIDTH`] x [`CARD_CROP_HEIGHT`].
pub fn canonical_card(image: &RgbImage) -> RgbImage {
    let upright = if image.width() > image.height() {
        image::imageops::rotate90(image)
    } else {
        image.clone()
    };
    crate::resample::resize_triangle(&upright, CARD_CROP_WIDTH, CARD_CROP_HEIGHT)
}

/// How colourful the ink of a card crop is against its own paper (0 for
/// grey or black ink, towards 1 for a pure colour), or `None` where nothing
/// on it is ink.
///
/// Each channel's paper level is the bright end (90th percentile) of the
/// crop away from its rim, so a colour cast of the light divides out; a
/// pixel is ink where some channel is at least [`INK_DARKENING`] darker
/// than paper; the ink's mean darkening per channel is taken, and its spread
/// over its largest. Red ink darkens green and blue and leaves red (the
/// shared crops and photos: 0.24 and over), purple darkens green most (0.065
/// and over, a purple under dim light nearly black); black print, pencil and
/// grey pen darken all three alike (false cards read on card-free pages:
/// 0.03-0.18).
pub fn ink_colour_spread(crop: &RgbImage) -> Option<f32> {
    let pixels = away_from_rim(crop);
    let paper = paper_level(&pixels)?;
    let (mut darkening, mut ink) = ([0.0f32; 3], 0usize);
    for p in &pixels {
        let d: [f32; 3] = std::array::from_fn(|c| (1.0 - f32::from(p[c]) / paper[c]).max(0.0));
        if d.iter().any(|&v| v >= INK_DARKENING) {
            for c in 0..3 {
                darkening[c] += d[c];
            }
            ink += 1;
        }
    }
    if ink == 0 {
        return None;
    }
    Some(relative_spread(darkening))
}

/// How coloured the paper of a card crop is: the spread of its paper level
/// ([`ink_colour_spread`]) over its largest channel, 0 for white or grey
/// paper. Cards of the shared crops, warm light included, lie under 0.53 (1,500
/// of them, one in a hundred over 0.39); a sunlit green leaf's is 0.87.
/// `None` for an empty crop.
pub fn paper_colour_spread(crop: &RgbImage) -> Option<f32> {
    paper_level(&away_from_rim(crop)).map(relative_spread)
}

/// How far apart three channels' values are, over the largest (0 when all
/// are equal).
fn relative_spread(values: [f32; 3]) -> f32 {
    let most = values.iter().copied().fold(0.0f32, f32::max);
    let least = values.iter().copied().fold(f32::MAX, f32::min);
    (most - least) / most.max(f32::EPSILON)
}

/// The pixels of a crop away from its rim (a tenth of its width, a twelfth
/// of its height), where a loose outline's table does not reach.
fn away_from_rim(crop: &RgbImage) -> Vec<[u8; 3]> {
    let (width, height) = crop.dimensions();
    let (rim_x, rim_y) = (width / 10, height / 12);
    crop.enumerate_pixels()
        .filter(|&(x, y, _)| x >= rim_x && y >= rim_y && x + rim_x < width && y + rim_y < height)
        .map(|(_, _, p)| p.0)
        .collect()
}

/// Each channel's paper level: the bright end (90th percentile) of
/// `pixels`, at least 1; `None` where there are none.
fn paper_level(pixels: &[[u8; 3]]) -> Option<[f32; 3]> {
    if pixels.is_empty() {
        return None;
    }
    Some(std::array::from_fn(|c| {
        let mut channel: Vec<u8> = pixels.iter().map(|p| p[c]).collect();
        let at = channel.len() * 9 / 10;
        f32::from(*channel.select_nth_unstable(at).1).max(1.0)
    }))
}

/// How much darker than paper, in some channel, a pixel of ink is (a share
/// of the paper's level).
const INK_DARKENING: f32 = 0.3;

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A crop of `paper` with an oval of `ink` in its middle.
    fn inked(paper: [u8; 3], ink: [u8; 3]) -> RgbImage {
        RgbImage::from_fn(CARD_CROP_WIDTH, CARD_CROP_HEIGHT, |x, y| {
            let (dx, dy) = ((x as f32 - 48.0) / 30.0, (y as f32 - 75.0) / 14.0);
            Rgb(if dx * dx + dy * dy <= 1.0 { ink } else { paper })
        })
    }

    #[test]
    fn grey_ink_spreads_little_and_coloured_ink_much_whatever_the_light() {
        let spread = |paper, ink| ink_colour_spread(&inked(paper, ink)).expect("ink");
        // Black print on white paper, and on paper yellowed by warm light.
        assert!(spread([240, 240, 240], [30, 30, 30]) < 0.02);
        assert!(spread([250, 225, 170], [31, 28, 21]) < 0.02);
        // Red, and a purple nearly black under dim light.
        assert!(spread([240, 240, 240], [200, 40, 50]) > 0.7);
        assert!(spread([120, 115, 110], [30, 12, 32]) > 0.06);
        // Nothing inked.
        assert_eq!(ink_colour_spread(&inked([240; 3], [240; 3])), None);
    }

    #[test]
    fn white_and_warm_lit_paper_is_little_coloured_and_a_leaf_much() {
        let spread = |paper| paper_colour_spread(&inked(paper, [200, 40, 50])).expect("pixels");
        assert!(spread([240, 240, 240]) < 0.01);
        assert!(spread([250, 225, 170]) < 0.35);
        // A sunlit leaf's brightest green, and its darker veins as "ink".
        assert!(paper_colour_spread(&inked([150, 223, 30], [60, 120, 10])).expect("pixels") > 0.8);
    }
}
