//! Decoding JPEG, PNG and WebP photos with explicit limits and EXIF orientation.
//!
//! The size is checked from the header, before any pixel buffer is allocated,
//! so a 100,000 x 100,000 image is refused in microseconds instead of asking
//! for 30 GB.

use std::fmt;
use std::io::Cursor;
use std::path::Path;

use image::metadata::Orientation;
use image::{DynamicImage, ImageDecoder, ImageReader, RgbImage};

/// What a photo may be at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest width or height, in pixels.
    pub max_side: u32,
    /// Largest width x height.
    pub max_pixels: u64,
    /// Largest file, in bytes.
    pub max_file_bytes: u64,
}

impl Default for Limits {
    /// 16,384 pixels a side, 64 megapixels, 64 MB: above any phone camera, far below trouble.
    fn default() -> Limits {
        Limits {
            max_side: 16_384,
            max_pixels: 64_000_000,
            max_file_bytes: 64 * 1024 * 1024,
        }
    }
}

/// Why a photo could not be read.
#[derive(Debug)]
pub enum DecodeError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The file is empty.
    Empty,
    /// The bytes are not a JPEG, PNG or WebP image.
    UnknownFormat,
    /// The image is larger than the limits allow.
    TooLarge {
        /// Width from the header.
        width: u32,
        /// Height from the header.
        height: u32,
        /// The limits that refused it.
        limits: Limits,
    },
    /// The file is larger than the limits allow.
    FileTooLarge(u64),
    /// The decoder failed (truncated or corrupt data).
    Corrupt(String),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Io(e) => write!(f, "cannot read the image: {e}"),
            DecodeError::Empty => write!(f, "the image file is empty"),
            DecodeError::UnknownFormat => {
                write!(f, "not an image snapsolve can read (JPEG, PNG or WebP)")
            }
            DecodeError::TooLarge {
                width,
                height,
                limits,
            } => write!(
                f,
                "the image is {width}x{height} pixels; the limit is {} pixels a side and {} megapixels",
                limits.max_side,
                limits.max_pixels / 1_000_000
            ),
            DecodeError::FileTooLarge(bytes) => {
                write!(f, "the file is {bytes} bytes, over the size limit")
            }
            DecodeError::Corrupt(why) => write!(f, "the image is damaged or truncated: {why}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Reads and decodes an image file (see [`decode_image`]).
pub fn read_image(path: &Path, limits: Limits) -> Result<RgbImage, DecodeError> {
    let size = std::fs::metadata(path).map_err(DecodeError::Io)?.len();
    if size > limits.max_file_bytes {
        return Err(DecodeError::FileTooLarge(size));
    }
    let bytes = std::fs::read(path).map_err(DecodeError::Io)?;
    decode_image(&bytes, limits)
}

/// Decodes JPEG, PNG or WebP bytes into upright RGB pixels.
///
/// The EXIF orientation is applied, so the result is what a person sees; its
/// pixel coordinates are those of the picture as displayed. (Phone photos are
/// often stored sideways with an orientation tag.)
pub fn decode_image(bytes: &[u8], limits: Limits) -> Result<RgbImage, DecodeError> {
    decode_photo(bytes, limits).map(|photo| photo.image)
}

/// Reads and decodes a photo file, keeping its orientation (see [`decode_photo`]).
pub fn read_photo(path: &Path, limits: Limits) -> Result<Photo, DecodeError> {
    let size = std::fs::metadata(path).map_err(DecodeError::Io)?.len();
    if size > limits.max_file_bytes {
        return Err(DecodeError::FileTooLarge(size));
    }
    let bytes = std::fs::read(path).map_err(DecodeError::Io)?;
    decode_photo(&bytes, limits)
}

/// A decoded photo: upright pixels plus what is needed to map positions back to
/// the pixels as stored in the file.
#[derive(Clone, Debug)]
pub struct Photo {
    /// Upright pixels (EXIF orientation applied).
    pub image: RgbImage,
    /// The EXIF orientation that was applied.
    pub orientation: Orientation,
    /// Width of the image as stored in the file.
    pub stored_width: u32,
    /// Height of the image as stored in the file.
    pub stored_height: u32,
}

impl Photo {
    /// Maps a point of the upright image to the same point of the image as
    /// stored in the file (continuous coordinates: pixel `i` spans `[i, i+1)`).
    pub fn to_stored(&self, (u, v): (f32, f32)) -> (f32, f32) {
        stored_from_upright(
            self.orientation,
            self.stored_width as f32,
            self.stored_height as f32,
            (u, v),
        )
    }
}

/// Inverse of [`DynamicImage::apply_orientation`] for one point: from upright
/// coordinates back to stored ones, for a stored image of `w` x `h`.
pub fn stored_from_upright(
    orientation: Orientation,
    w: f32,
    h: f32,
    (u, v): (f32, f32),
) -> (f32, f32) {
    match orientation {
        Orientation::NoTransforms => (u, v),
        Orientation::Rotate90 => (v, h - u),
        Orientation::Rotate180 => (w - u, h - v),
        Orientation::Rotate270 => (w - v, u),
        Orientation::FlipHorizontal => (w - u, v),
        Orientation::FlipVertical => (u, h - v),
        Orientation::Rotate90FlipH => (v, u),
        Orientation::Rotate270FlipH => (w - v, h - u),
    }
}

/// Whether a JPEG's last scan is followed by an end-of-image marker. The
/// decoder pads a truncated scan with grey instead of failing; entropy-coded
/// data never contains `FF D9` or `FF DA` (every `FF` there is followed by
/// `00`), so the last start-of-scan must come before the last end-of-image
/// (an embedded EXIF thumbnail has its own pair, earlier in the file).
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let last = |marker: u8| {
        bytes
            .windows(2)
            .rposition(|w| w[0] == 0xFF && w[1] == marker)
    };
    match (last(0xDA), last(0xD9)) {
        (Some(scan), Some(end)) => end > scan,
        _ => false,
    }
}

/// Decodes JPEG, PNG or WebP bytes into a [`Photo`]: upright pixels and the
/// orientation that made them upright.
pub fn decode_photo(bytes: &[u8], limits: Limits) -> Result<Photo, DecodeError> {
    if bytes.is_empty() {
        return Err(DecodeError::Empty);
    }
    if bytes.len() as u64 > limits.max_file_bytes {
        return Err(DecodeError::FileTooLarge(bytes.len() as u64));
    }
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(DecodeError::Io)?;
    if reader.format().is_none() {
        return Err(DecodeError::UnknownFormat);
    }
    if reader.format() == Some(image::ImageFormat::Jpeg) && !jpeg_is_complete(bytes) {
        return Err(DecodeError::Corrupt(
            "the JPEG data ends before its end-of-image marker".into(),
        ));
    }
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| DecodeError::Corrupt(e.to_string()))?;
    let (width, height) = decoder.dimensions();
    if width > limits.max_side
        || height > limits.max_side
        || u64::from(width) * u64::from(height) > limits.max_pixels
    {
        return Err(DecodeError::TooLarge {
            width,
            height,
            limits,
        });
    }
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image =
        DynamicImage::from_decoder(decoder).map_err(|e| DecodeError::Corrupt(e.to_string()))?;
    image.apply_orientation(orientation);
    Ok(Photo {
        image: image.into_rgb8(),
        orientation,
        stored_width: width,
        stored_height: height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_bytes(width: u32, height: u32) -> Vec<u8> {
        let mut out = Vec::new();
        RgbImage::new(width, height)
            .write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png)
            .unwrap();
        out
    }

    #[test]
    fn decodes_a_small_png() {
        let image = decode_image(&png_bytes(7, 5), Limits::default()).unwrap();
        assert_eq!(image.dimensions(), (7, 5));
    }

    #[test]
    fn empty_garbage_and_truncated_inputs_are_errors() {
        assert!(matches!(
            decode_image(&[], Limits::default()),
            Err(DecodeError::Empty)
        ));
        assert!(matches!(
            decode_image(b"hello, not an image", Limits::default()),
            Err(DecodeError::UnknownFormat)
        ));
        let bytes = png_bytes(64, 64);
        assert!(matches!(
            decode_image(&bytes[..bytes.len() / 2], Limits::default()),
            Err(DecodeError::Corrupt(_))
        ));
    }

    #[test]
    fn truncated_jpeg_is_an_error() {
        let mut bytes = Vec::new();
        RgbImage::from_pixel(64, 64, image::Rgb([200, 10, 10]))
            .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
            .unwrap();
        assert!(decode_image(&bytes, Limits::default()).is_ok());
        let cut = &bytes[..bytes.len() - 40];
        assert!(matches!(
            decode_image(cut, Limits::default()),
            Err(DecodeError::Corrupt(_))
        ));
    }

    /// CRC-32 as PNG chunks use it, so the forged header passes the decoder's check.
    fn crc32(data: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in data {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn upright_points_map_back_to_stored_pixels_for_every_orientation() {
        let (w, h) = (5u32, 3u32);
        let mut stored = RgbImage::new(w, h);
        stored.put_pixel(3, 1, image::Rgb([255, 0, 0]));
        for orientation in [
            Orientation::NoTransforms,
            Orientation::Rotate90,
            Orientation::Rotate180,
            Orientation::Rotate270,
            Orientation::FlipHorizontal,
            Orientation::FlipVertical,
            Orientation::Rotate90FlipH,
            Orientation::Rotate270FlipH,
        ] {
            let mut upright = DynamicImage::ImageRgb8(stored.clone());
            upright.apply_orientation(orientation);
            let upright = upright.into_rgb8();
            let (u, v) = upright
                .enumerate_pixels()
                .find(|(_, _, p)| p.0[0] == 255)
                .map(|(x, y, _)| (x as f32 + 0.5, y as f32 + 0.5))
                .unwrap();
            let (x, y) = stored_from_upright(orientation, w as f32, h as f32, (u, v));
            assert_eq!((x, y), (3.5, 1.5), "{orientation:?}");
        }
    }

    #[test]
    fn huge_images_are_refused_from_the_header() {
        // A valid PNG header claiming 100,000 x 100,000 pixels, with no pixel data.
        let mut bytes = png_bytes(1, 1);
        bytes[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        bytes[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        let err = decode_image(&bytes, Limits::default()).unwrap_err();
        assert!(
            matches!(err, DecodeError::TooLarge { width: 100_000, .. }),
            "{err}"
        );
    }
}
