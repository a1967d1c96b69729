//! JPEG decoding at 1/2, 1/4 or 1/8 scale with `jpeg-decoder`'s DCT scaling.
//!
//! A 12-megapixel phone photo takes tens of milliseconds to decode whole,
//! most of it inverse DCTs, chroma upsampling and colour conversion of pixels
//! that card finding shrinks away at once. Scaled decoding runs a 4x4, 2x2 or
//! 1x1 inverse DCT per 8x8 block instead, so those stages shrink with the
//! output; only the entropy decoding still reads every coefficient.

use image::metadata::Orientation;
use image::{DynamicImage, RgbImage};
use jpeg_decoder::{Decoder, PixelFormat};

use super::{DecodeError, Limits, Photo, check_size};

/// The scaled decoding of `bytes`, or `None` when it would not be reduced
/// (the longer side is under `2 * min_side`) or the pixel format is one this
/// path does not convert (the caller then decodes whole).
pub(super) fn decode(
    bytes: &[u8],
    limits: Limits,
    min_side: u32,
) -> Result<Option<Photo>, DecodeError> {
    let corrupt = |e: jpeg_decoder::Error| DecodeError::Corrupt(e.to_string());
    let mut decoder = Decoder::new(bytes);
    decoder.read_info().map_err(corrupt)?;
    let Some(info) = decoder.info() else {
        return Ok(None);
    };
    let (width, height) = (u32::from(info.width), u32::from(info.height));
    check_size(width, height, limits)?;
    let reduction = reduction(width, height, min_side);
    if reduction == 1 || !matches!(info.pixel_format, PixelFormat::RGB24 | PixelFormat::L8) {
        return Ok(None);
    }
    // `scale` picks the smallest IDCT whose output reaches the requested size.
    let want = |side: u32| (side.div_ceil(reduction)).clamp(1, u32::from(u16::MAX)) as u16;
    let (out_w, out_h) = decoder.scale(want(width), want(height)).map_err(corrupt)?;
    let (out_w, out_h) = (u32::from(out_w), u32::from(out_h));
    decoder.set_max_decoding_buffer_size(limits.max_pixels.saturating_mul(3) as usize);
    let pixels = decoder.decode().map_err(corrupt)?;
    let image = match info.pixel_format {
        PixelFormat::RGB24 => RgbImage::from_raw(out_w, out_h, pixels),
        _ => image::GrayImage::from_raw(out_w, out_h, pixels)
            .map(|gray| DynamicImage::ImageLuma8(gray).into_rgb8()),
    }
    .ok_or_else(|| DecodeError::Corrupt("the decoder returned too few pixels".into()))?;
    let orientation = decoder
        .exif_data()
        .and_then(Orientation::from_exif_chunk)
        .unwrap_or(Orientation::NoTransforms);
    let mut image = DynamicImage::ImageRgb8(image);
    image.apply_orientation(orientation);
    Ok(Some(Photo::decoded(
        image.into_rgb8(),
        orientation,
        (width, height),
        reduction,
    )))
}

/// The largest of 1, 2, 4 and 8 that keeps the longer side at least `min_side`.
fn reduction(width: u32, height: u32, min_side: u32) -> u32 {
    let long = width.max(height);
    [8, 4, 2]
        .into_iter()
        .find(|&r| long / r >= min_side)
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduction_keeps_the_long_side_above_the_minimum() {
        assert_eq!(reduction(4032, 3024, 1000), 4);
        assert_eq!(reduction(4032, 3024, 2000), 2);
        assert_eq!(reduction(960, 720, 1000), 1);
        assert_eq!(reduction(1999, 100, 1000), 1);
        assert_eq!(reduction(16000, 100, 1000), 8);
    }
}
