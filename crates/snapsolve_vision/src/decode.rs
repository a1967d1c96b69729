//! Decoding JPEG, PNG and WebP photos with explicit limits and EXIF orientation.
//!
//! The size is checked from the header, before any pixel buffer is allocated,
//! so a 100,000 x 100,000 image is refused in microseconds instead of asking
//! for 30 GB.

use std::fmt;
use std::io::Cursor;
use std::path::Path;

use image::metadata::Orientation;

mod cut_png;
mod restarts;
mod scaled_jpeg;
use image::{DynamicImage, GrayImage, ImageDecoder, ImageReader, RgbImage};

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
    /// The bytes are an image of a format snapsolve does not decode, said
    /// as "an HEIC (HEIF) image", "a TIFF image".
    UnsupportedFormat(&'static str),
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
            DecodeError::UnsupportedFormat(format) => {
                write!(
                    f,
                    "{format}, which snapsolve cannot read: save or export it as JPEG, PNG \
                     or WebP"
                )?;
                if format.contains("HEIC") {
                    write!(
                        f,
                        " (an iPhone takes JPEG photos with Settings > Camera > Formats > Most \
                         Compatible)"
                    )?;
                }
                Ok(())
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

/// Reads a file's bytes, refusing one over the size limit before reading it.
pub fn read_bytes(path: &Path, limits: Limits) -> Result<Vec<u8>, DecodeError> {
    let size = std::fs::metadata(path).map_err(DecodeError::Io)?.len();
    if size > limits.max_file_bytes {
        return Err(DecodeError::FileTooLarge(size));
    }
    std::fs::read(path).map_err(DecodeError::Io)
}

/// Reads and decodes an image file (see [`decode_image`]).
pub fn read_image(path: &Path, limits: Limits) -> Result<RgbImage, DecodeError> {
    decode_image(&read_bytes(path, limits)?, limits)
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
    decode_photo(&read_bytes(path, limits)?, limits)
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
    /// Stored pixels per pixel of `image` along each side: 1, or 2, 4 or 8
    /// for a JPEG decoded at a reduced scale ([`decode_photo_reduced`]).
    pub reduction: u32,
    /// What the reader should know about the file, in words (a JPEG or PNG
    /// that ends early is read as far as it goes, and says so here).
    pub warnings: Vec<String>,
    /// Where a file that ends early lacks the picture: 255 on the pixels of
    /// `image` the file did not hold (painted flat grey), 0 elsewhere.
    pub missing: Option<GrayImage>,
}

impl Photo {
    /// A picture that is already upright and whole: no EXIF turn, no reduced
    /// decoding, nothing to warn about (rendered or spoilt pictures).
    pub fn from_upright(image: RgbImage) -> Photo {
        let stored = image.dimensions();
        Photo::decoded(image, Orientation::NoTransforms, stored, 1)
    }

    /// A photo decoded whole: `image` upright after `orientation`, from a
    /// file storing `stored` pixels, `reduction` of them a pixel each way.
    fn decoded(
        image: RgbImage,
        orientation: Orientation,
        (stored_width, stored_height): (u32, u32),
        reduction: u32,
    ) -> Photo {
        Photo {
            image,
            orientation,
            stored_width,
            stored_height,
            reduction,
            warnings: Vec::new(),
            missing: None,
        }
    }

    /// Maps a point of the upright image to the same point of the image as
    /// stored in the file (continuous coordinates: pixel `i` spans `[i, i+1)`).
    pub fn to_stored(&self, (u, v): (f32, f32)) -> (f32, f32) {
        // Undo the orientation at the decoded size, then scale up: a reduced
        // pixel `i` covers stored pixels `[i r, (i+1) r)`.
        let (w, h) = if swaps_axes(self.orientation) {
            (self.image.height(), self.image.width())
        } else {
            (self.image.width(), self.image.height())
        };
        let (x, y) = stored_from_upright(self.orientation, w as f32, h as f32, (u, v));
        let r = self.reduction as f32;
        (
            (x * r).min(self.stored_width as f32),
            (y * r).min(self.stored_height as f32),
        )
    }
}

/// Whether an orientation turns the picture a quarter (width and height trade places).
fn swaps_axes(orientation: Orientation) -> bool {
    matches!(
        orientation,
        Orientation::Rotate90
            | Orientation::Rotate270
            | Orientation::Rotate90FlipH
            | Orientation::Rotate270FlipH
    )
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
    decode_photo_reduced(bytes, limits, u32::MAX)
}

/// Like [`decode_photo`], but a JPEG whose longer side is at least twice
/// `min_side` is decoded at 1/2, 1/4 or 1/8 of its size (DCT scaling: the
/// decoder skips the fine frequencies instead of computing and then throwing
/// away pixels), keeping the longer side at least `min_side`. Other formats,
/// and JPEGs the scaling decoder does not take (CMYK, 16-bit), are decoded
/// whole. [`Photo::to_stored`] maps positions back to the stored pixels.
pub fn decode_photo_reduced(
    bytes: &[u8],
    limits: Limits,
    min_side: u32,
) -> Result<Photo, DecodeError> {
    if bytes.is_empty() {
        return Err(DecodeError::Empty);
    }
    if bytes.len() as u64 > limits.max_file_bytes {
        return Err(DecodeError::FileTooLarge(bytes.len() as u64));
    }
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(DecodeError::Io)?;
    let Some(format) = reader.format() else {
        return Err(
            heif_kind(bytes).map_or(DecodeError::UnknownFormat, DecodeError::UnsupportedFormat)
        );
    };
    if let Some(name) = not_decoded(format) {
        return Err(DecodeError::UnsupportedFormat(name));
    }
    if format == image::ImageFormat::Jpeg {
        if !jpeg_is_complete(bytes) {
            return decode_cut_jpeg(bytes, limits, min_side);
        }
        if let Some(photo) = scaled_jpeg::decode(bytes, limits, min_side)? {
            return Ok(photo);
        }
    }
    let png = format == image::ImageFormat::Png;
    match decode_whole(reader, limits) {
        Err(DecodeError::Corrupt(why)) if png && !cut_png::ends_whole(bytes) => {
            match cut_png::decode(bytes, limits)? {
                Some((photo, missing)) => with_missing(photo, missing, "PNG"),
                None => Err(DecodeError::Corrupt(why)),
            }
        }
        decoded => decoded,
    }
}

/// The name of an image format snapsolve does not decode, said as the error
/// says it; `None` for JPEG, PNG and WebP. Phones save HEIC (an iPhone's usual
/// format) or AVIF, scanners and screenshots TIFF, BMP or GIF: said by name, a
/// player knows to export the picture, where "damaged" (what the decoder's
/// refusal would say) would send them looking for a fault.
fn not_decoded(format: image::ImageFormat) -> Option<&'static str> {
    use image::ImageFormat as F;
    match format {
        F::Jpeg | F::Png | F::WebP => None,
        F::Tiff => Some("a TIFF image"),
        F::Bmp => Some("a BMP image"),
        F::Gif => Some("a GIF image"),
        F::Avif => Some("an AVIF image"),
        F::Ico => Some("an ICO image"),
        F::OpenExr => Some("an OpenEXR image"),
        F::Hdr => Some("a Radiance HDR image"),
        F::Qoi => Some("a QOI image"),
        _ => Some("an image in another format"),
    }
}

/// HEIC (HEIF) and AVIF pictures, which `image` does not recognise without
/// its codecs: ISO media files whose box "ftyp" names what they hold.
fn heif_kind(bytes: &[u8]) -> Option<&'static str> {
    if bytes.get(4..8) != Some(b"ftyp".as_slice()) {
        return None;
    }
    match bytes.get(8..12)? {
        b"heic" | b"heix" | b"hevc" | b"hevx" | b"heim" | b"heis" | b"mif1" | b"msf1" => {
            Some("an HEIC (HEIF) image")
        }
        b"avif" | b"avis" => Some("an AVIF image"),
        _ => None,
    }
}

/// Decodes at full size, whatever the format, applying the EXIF orientation.
fn decode_whole(reader: ImageReader<Cursor<&[u8]>>, limits: Limits) -> Result<Photo, DecodeError> {
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| DecodeError::Corrupt(e.to_string()))?;
    let (width, height) = decoder.dimensions();
    check_size(width, height, limits)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut image =
        DynamicImage::from_decoder(decoder).map_err(|e| DecodeError::Corrupt(e.to_string()))?;
    image.apply_orientation(orientation);
    Ok(Photo::decoded(
        image.into_rgb8(),
        orientation,
        (width, height),
        1,
    ))
}

/// A JPEG that ends before its end-of-image marker (a half-copied upload), read
/// as far as it goes, as image viewers do, with a warning saying how much of the
/// picture is missing. A file cut before its first scan still fails.
///
/// Decoders fill what the file lacks in their own ways: a flat grey, bands of
/// colour, or noise-like blocks, depending on the decoder and on where the cut
/// falls. So the cut file is decoded three times, as it is and padded with two
/// different bit patterns: pixels that come out the same every time came from
/// the file; the others are painted one flat grey, so that nothing downstream
/// mistakes decoder filling for the picture. A file whose scan restarts every
/// few MCUs (phones write them) cannot be padded so: it is ended at its last
/// whole interval instead ([`decode_cut_at_restart`]). A progressive file cut
/// after its first scan holds the whole picture with less detail: it is read
/// so, nothing marked missing.
fn decode_cut_jpeg(bytes: &[u8], limits: Limits, min_side: u32) -> Result<Photo, DecodeError> {
    if !bytes.windows(2).any(|w| w == [0xFF, 0xDA]) {
        return Err(DecodeError::Corrupt(
            "the JPEG data ends before any of the picture".into(),
        ));
    }
    if let Some(restarts) = restarts::restarts(bytes) {
        return decode_cut_at_restart(bytes, &restarts, limits, min_side);
    }
    if restarts::progressive_past_first_scan(bytes) {
        // Later scans only refine: the file ended is the whole picture with
        // less detail (what a browser shows while a progressive photo loads).
        let mut photo = decode_padded(bytes, 0, limits, min_side)?;
        photo.warnings.push(
            "the JPEG file ends early (cut off while copying?): it is progressive and only its \
             first passes arrived, so the picture is read with less detail"
                .into(),
        );
        return Ok(photo);
    }
    let mut photo = decode_padded(bytes, 0, limits, min_side)?;
    let (width, height) = photo.image.dimensions();
    let mut missing = GrayImage::new(width, height);
    let twins = [
        decode_padded(bytes, 512, limits, min_side)?,
        decode_padded(bytes, 1024, limits, min_side)?,
    ];
    if twins
        .iter()
        .all(|t| t.image.dimensions() == (width, height))
    {
        let pixels = photo.image.pixels_mut().zip(twins[0].image.pixels());
        let pixels = pixels.zip(twins[1].image.pixels()).zip(missing.iter_mut());
        for (((pixel, a), b), lacked) in pixels {
            if pixel != a || pixel != b {
                *pixel = MISSING_GREY;
                *lacked = 255;
            }
        }
    }
    with_missing(photo, missing, "JPEG")
}

/// The flat grey a cut JPEG's missing pixels are painted.
const MISSING_GREY: image::Rgb<u8> = image::Rgb([128, 128, 128]);

/// A cut JPEG whose scan restarts every few MCUs ([`restarts`]), read up to
/// its last whole interval; the MCUs after it are painted one flat grey
/// where the file's layout says which they are.
fn decode_cut_at_restart(
    bytes: &[u8],
    restarts: &restarts::Restarts,
    limits: Limits,
    min_side: u32,
) -> Result<Photo, DecodeError> {
    // A marker is added for every interval due: bounded by the size limits.
    check_size(restarts.size.0, restarts.size.1, limits)?;
    let (ended, whole) = restarts::ended_at_last_interval(bytes, restarts);
    let mut photo = decode_ended(&ended, limits, min_side)?;
    let (width, height) = photo.image.dimensions();
    let mut missing = GrayImage::new(width, height);
    if let Some(lacks) = restarts::missing_at(restarts, whole) {
        for v in 0..height {
            for u in 0..width {
                let (x, y) = photo.to_stored((u as f32 + 0.5, v as f32 + 0.5));
                if lacks(x as u32, y as u32) {
                    photo.image.put_pixel(u, v, MISSING_GREY);
                    missing.put_pixel(u, v, image::Luma([255]));
                }
            }
        }
    }
    with_missing(photo, missing, "JPEG")
}

/// A cut file's photo with where it lacks the picture (`missing`, and the
/// flat band a decoder may have filled along an edge) and the warning that
/// says how much that is; an error where nearly all of it is.
fn with_missing(
    mut photo: Photo,
    mut missing: GrayImage,
    format: &str,
) -> Result<Photo, DecodeError> {
    mark_flat_edge_band(&photo.image, &mut missing);
    let total = (missing.width() as usize * missing.height() as usize).max(1);
    let lacked = missing.iter().filter(|&&m| m != 0).count();
    let share = lacked as f32 / total as f32;
    if share >= 0.99 {
        return Err(DecodeError::Corrupt(format!(
            "the {format} data ends before any of the picture"
        )));
    }
    photo.warnings.push(format!(
        "the {format} file ends early (cut off while copying?): about {:.0}% of the picture is \
         missing and was read as blank",
        100.0 * share
    ));
    photo.missing = Some(missing);
    Ok(photo)
}

/// Decodes a cut JPEG with `padding` bytes of a bit pattern (one for each
/// length, never `FF`, so no marker) and an end-of-image marker after it.
fn decode_padded(
    bytes: &[u8],
    padding: usize,
    limits: Limits,
    min_side: u32,
) -> Result<Photo, DecodeError> {
    let pattern = if padding.is_multiple_of(1024) {
        0xAA
    } else {
        0x55
    };
    let mut ended = Vec::with_capacity(bytes.len() + padding + 2);
    ended.extend_from_slice(bytes);
    ended.resize(bytes.len() + padding, pattern);
    ended.extend_from_slice(&[0xFF, 0xD9]);
    decode_ended(&ended, limits, min_side)
}

/// Decodes a cut JPEG given an ending (`ended`), scaled where it is large.
fn decode_ended(ended: &[u8], limits: Limits, min_side: u32) -> Result<Photo, DecodeError> {
    let too_early = |e: DecodeError| match e {
        DecodeError::Corrupt(why) => DecodeError::Corrupt(format!(
            "the JPEG data ends before its end-of-image marker, too early to read ({why})"
        )),
        other => other,
    };
    match scaled_jpeg::decode(ended, limits, min_side).map_err(too_early)? {
        Some(photo) => Ok(photo),
        None => {
            let reader = ImageReader::with_format(Cursor::new(ended), image::ImageFormat::Jpeg);
            decode_whole(reader, limits).map_err(too_early)
        }
    }
}

/// Marks in `missing` the widest band of one flat colour along an edge of
/// `image`: where a decoder filled in data the file lacked (after the EXIF
/// turn, that band may lie along any edge).
fn mark_flat_edge_band(image: &RgbImage, missing: &mut GrayImage) {
    let (w, h) = image.dimensions();
    if w == 0 || h == 0 {
        return;
    }
    let flat_row = |y: u32| (1..w).all(|x| image.get_pixel(x, y) == image.get_pixel(0, y));
    let flat_column = |x: u32| (1..h).all(|y| image.get_pixel(x, y) == image.get_pixel(x, 0));
    let bottom = (0..h).rev().take_while(|&y| flat_row(y)).count() as u32;
    let top = (0..h).take_while(|&y| flat_row(y)).count() as u32;
    let right = (0..w).rev().take_while(|&x| flat_column(x)).count() as u32;
    let left = (0..w).take_while(|&x| flat_column(x)).count() as u32;
    // Bands as shares of their side, the widest marked.
    let bands = [
        (bottom as f32 / h as f32, (0, h - bottom, w, h)),
        (top as f32 / h as f32, (0, 0, w, top)),
        (right as f32 / w as f32, (w - right, 0, w, h)),
        (left as f32 / w as f32, (0, 0, left, h)),
    ];
    let widest = bands.into_iter().max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((_, (x0, y0, x1, y1))) = widest {
        for y in y0..y1 {
            for x in x0..x1 {
                missing.put_pixel(x, y, image::Luma([255]));
            }
        }
    }
}

/// Refuses sizes beyond the limits (from the header, before any pixel buffer exists).
fn check_size(width: u32, height: u32, limits: Limits) -> Result<(), DecodeError> {
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
    Ok(())
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

    /// The first bytes of an iPhone's HEIC photo, an AVIF, a TIFF and a BMP
    /// (their headers as those formats define them).
    #[test]
    fn images_of_formats_not_read_are_named_not_called_damaged() {
        let heic = b"\0\0\0\x18ftypheic\0\0\0\0mif1heic\0\0\0\0";
        let avif = b"\0\0\0\x1cftypavif\0\0\0\0avifmif1miaf\0\0\0\0";
        let tiff = b"II*\0\x08\0\0\0\0\0\0\0\0\0\0\0";
        let bmp = b"BM\x36\x10\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0";
        for (bytes, named) in [
            (heic.as_slice(), "an HEIC (HEIF) image"),
            (avif, "an AVIF image"),
            (tiff, "a TIFF image"),
            (bmp, "a BMP image"),
        ] {
            let error = decode_photo(bytes, Limits::default()).err();
            assert!(
                matches!(error, Some(DecodeError::UnsupportedFormat(name)) if name == named),
                "{named}: {error:?}"
            );
        }
        let message = DecodeError::UnsupportedFormat("an HEIC (HEIF) image").to_string();
        assert!(
            message.contains("JPEG") && message.contains("Most Compatible"),
            "{message}"
        );
        let message = DecodeError::UnsupportedFormat("a TIFF image").to_string();
        assert!(
            !message.contains("damaged") && !message.contains("iPhone"),
            "{message}"
        );
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

    use image::GenericImageView;

    /// A noisy picture, as a photo is: no row or column of one flat colour.
    fn noisy_jpeg(width: u32, height: u32) -> Vec<u8> {
        let image = RgbImage::from_fn(width, height, |x, y| {
            let v = ((x * 7919 + y * 104_729) % 251) as u8;
            image::Rgb([v, v / 2 + 60, 255 - v])
        });
        let mut bytes = Vec::new();
        image
            .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
            .unwrap();
        bytes
    }

    #[test]
    fn a_cut_jpeg_is_read_as_far_as_it_goes_with_a_warning() {
        let bytes = noisy_jpeg(320, 240);
        let whole = decode_photo_reduced(&bytes, Limits::default(), 2000).unwrap();
        assert!(whole.warnings.is_empty());
        // Cut after the header, half way through the scan.
        let cut = &bytes[..bytes.len() / 2];
        let photo = decode_photo_reduced(cut, Limits::default(), 2000).unwrap();
        assert_eq!(photo.image.dimensions(), (320, 240));
        assert_eq!(photo.warnings.len(), 1, "{:?}", photo.warnings);
        let grey = photo
            .image
            .pixels()
            .filter(|p| p.0 == [128, 128, 128])
            .count() as f32
            / (320.0 * 240.0);
        assert!((0.3..0.7).contains(&grey), "missing {grey}");
        // Every grey pixel is marked missing, and nothing in the rows that arrived.
        let missing = photo
            .missing
            .as_ref()
            .expect("a cut file marks what it lacks");
        let marked = |x: u32, y: u32| missing.get_pixel(x, y).0[0] != 0;
        assert!(
            photo
                .image
                .enumerate_pixels()
                .all(|(x, y, p)| p.0 != [128, 128, 128] || marked(x, y))
        );
        assert!((0..60).all(|y| (0..320).all(|x| !marked(x, y))));
        assert!(whole.missing.is_none());
        assert!(
            photo.warnings[0].contains("ends early"),
            "{:?}",
            photo.warnings
        );
        // The rows that arrived are the same as in the whole picture.
        let top = |p: &Photo| p.image.view(0, 0, 320, 60).to_image();
        assert_eq!(top(&photo), top(&whole));
    }

    #[test]
    fn a_jpeg_cut_inside_its_header_is_an_error() {
        let bytes = noisy_jpeg(64, 64);
        for cut in [20, 100] {
            assert!(matches!(
                decode_image(&bytes[..cut], Limits::default()),
                Err(DecodeError::Corrupt(_))
            ));
        }
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
    fn large_jpegs_decode_reduced_and_map_back_to_stored_pixels() {
        // A 2400x1600 JPEG with a bright square at stored (1800..1840, 400..440).
        let mut stored = RgbImage::from_pixel(2400, 1600, image::Rgb([20, 20, 20]));
        for y in 400..440 {
            for x in 1800..1840 {
                stored.put_pixel(x, y, image::Rgb([250, 250, 250]));
            }
        }
        let mut bytes = Vec::new();
        stored
            .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
            .unwrap();
        let photo = decode_photo_reduced(&bytes, Limits::default(), 1000).unwrap();
        assert_eq!(photo.reduction, 2);
        assert_eq!(photo.image.dimensions(), (1200, 800));
        assert_eq!((photo.stored_width, photo.stored_height), (2400, 1600));
        assert!(photo.image.get_pixel(910, 210).0[0] > 200);
        assert_eq!(photo.to_stored((910.0, 210.0)), (1820.0, 420.0));
        // Small enough already: decoded whole.
        assert_eq!(
            decode_photo_reduced(&bytes, Limits::default(), 1500)
                .unwrap()
                .reduction,
            1
        );
        // The same photo stored sideways: upright points map through the turn, then the scale.
        let turned = Photo {
            image: image::imageops::rotate90(&photo.image),
            orientation: Orientation::Rotate90,
            stored_width: 2400,
            stored_height: 1600,
            reduction: 2,
            warnings: Vec::new(),
            missing: None,
        };
        // Upright (u, v) = (h - y, x) at the decoded size for a quarter turn.
        assert_eq!(turned.to_stored((800.0 - 210.0, 910.0)), (1820.0, 420.0));
    }

    #[test]
    fn huge_images_are_refused_from_the_header() {
        // A valid PNG header claiming 100,000 x 100,000 pixels, with no pixel data.
        let mut bytes = png_bytes(1, 1);
        bytes[16..20].copy_from_slice(&100_000u32.to_be_bytes());
        bytes[20..24].copy_from_slice(&100_000u32.to_be_bytes());
        let crc = crc32fast::hash(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        let err = decode_image(&bytes, Limits::default()).unwrap_err();
        assert!(
            matches!(err, DecodeError::TooLarge { width: 100_000, .. }),
            "{err}"
        );
    }
}
