//! A PNG that ends before its last row (a half-copied upload or screenshot),
//! read as far as it goes, as image viewers do.
//!
//! A PNG's rows come one after another through one zlib stream, each whole
//! row decoded only from the bytes before it: the rows a cut file holds are
//! exactly those the decoder returns before it runs out of data. `image`
//! fails the whole picture instead, so the rows are read here with the `png`
//! crate (the one `image` uses). An interlaced file (Adam7) sends the picture
//! in seven coarse-to-fine passes; what a cut one holds is no region of
//! rows, so it is left to fail.

use std::io::Cursor;

use image::metadata::Orientation;
use image::{DynamicImage, GrayImage, RgbImage};

use super::{DecodeError, Limits, MISSING_GREY, Photo, check_size};

/// The last chunk of every whole PNG: length 0, `IEND`, its CRC.
const IEND: [u8; 12] = [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82];

/// Whether a PNG's bytes end with its `IEND` chunk (a whole file: one that
/// fails to decode is damaged, not cut).
pub(super) fn ends_whole(bytes: &[u8]) -> bool {
    bytes.ends_with(&IEND)
}

/// The rows a cut, non-interlaced PNG holds, the rest painted
/// [`MISSING_GREY`] and marked missing (before the EXIF turn, then turned
/// with the picture). `Ok(None)` where it holds no whole row or is
/// interlaced.
pub(super) fn decode(
    bytes: &[u8],
    limits: Limits,
) -> Result<Option<(Photo, GrayImage)>, DecodeError> {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let Ok(mut reader) = decoder.read_info() else {
        return Ok(None);
    };
    let info = reader.info();
    let (width, height) = (info.width, info.height);
    check_size(width, height, limits)?;
    if info.interlaced {
        return Ok(None);
    }
    let orientation = info
        .exif_metadata
        .as_deref()
        .and_then(Orientation::from_exif_chunk)
        .unwrap_or(Orientation::NoTransforms);
    let channels = reader.output_color_type().0.samples();
    let mut image = RgbImage::from_pixel(width, height, MISSING_GREY);
    let mut rows = 0;
    for pixels in image.rows_mut() {
        let Ok(Some(row)) = reader.next_row() else {
            break;
        };
        for (pixel, samples) in pixels.zip(row.data().chunks(channels)) {
            pixel.0 = rgb_of(samples);
        }
        rows += 1;
    }
    if rows == 0 {
        return Ok(None);
    }
    let missing = GrayImage::from_fn(width, height, |_, y| {
        image::Luma([if y < rows { 0 } else { 255 }])
    });
    let turn = |picture: DynamicImage| {
        let mut picture = picture;
        picture.apply_orientation(orientation);
        picture
    };
    let image = turn(DynamicImage::ImageRgb8(image)).into_rgb8();
    let missing = turn(DynamicImage::ImageLuma8(missing)).into_luma8();
    let photo = Photo::decoded(image, orientation, (width, height), 1);
    Ok(Some((photo, missing)))
}

/// One pixel's colour from its 8-bit samples (grey, grey and alpha, RGB or
/// RGBA; alpha dropped, as the whole-file path does).
fn rgb_of(samples: &[u8]) -> [u8; 3] {
    match samples {
        [grey] | [grey, _] => [*grey; 3],
        [r, g, b, ..] => [*r, *g, *b],
        _ => MISSING_GREY.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_of(image: &RgbImage) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, image.width(), image.height());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        // Unfiltered and barely compressed, so the rows spread over the file.
        encoder.set_compression(png::Compression::NoCompression);
        let mut writer = encoder.write_header().expect("header");
        writer.write_image_data(image.as_raw()).expect("rows");
        writer.finish().expect("end");
        bytes
    }

    fn gradient() -> RgbImage {
        RgbImage::from_fn(64, 48, |x, y| image::Rgb([x as u8 * 4, y as u8 * 5, 7]))
    }

    #[test]
    fn a_cut_png_keeps_its_whole_rows_and_marks_the_rest_missing() {
        let image = gradient();
        let bytes = png_of(&image);
        assert!(ends_whole(&bytes));
        let cut = &bytes[..bytes.len() / 2];
        assert!(!ends_whole(cut));
        let (photo, missing) = decode(cut, Limits::default()).unwrap().unwrap();
        assert_eq!(photo.image.dimensions(), (64, 48));
        let kept = (0..48).take_while(|&y| missing.get_pixel(0, y).0[0] == 0);
        let kept = kept.count() as u32;
        assert!((20..28).contains(&kept), "{kept} rows");
        for y in 0..48 {
            for x in 0..64 {
                let expected = if y < kept {
                    *image.get_pixel(x, y)
                } else {
                    MISSING_GREY
                };
                assert_eq!(*photo.image.get_pixel(x, y), expected, "({x}, {y})");
            }
        }
    }

    #[test]
    fn a_cut_interlaced_png_or_one_with_no_row_is_not_read() {
        let plain = png_of(&gradient());
        // The header and no row.
        assert!(decode(&plain[..60], Limits::default()).unwrap().is_none());
        // The header says Adam7 (its interlace byte, then the chunk's CRC
        // mended): the rows are never looked at.
        let mut interlaced = plain.clone();
        interlaced[28] = 1;
        let crc = crc32fast::hash(&interlaced[12..29]);
        interlaced[29..33].copy_from_slice(&crc.to_be_bytes());
        let cut = &interlaced[..interlaced.len() / 2];
        assert!(decode(cut, Limits::default()).unwrap().is_none());
        assert!(
            decode(&plain[..plain.len() / 2], Limits::default())
                .unwrap()
                .is_some()
        );
    }
}
