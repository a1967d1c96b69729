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
