//! Changes made to every photo before it is read, to see how a reader copes
//! with conditions the labelled photos do not show (`snapsolve eval set-photos
//! --distort NAME`, `snapsolve eval sudoku-photos --distort NAME`): a tungsten or shade cast, a dim room, a small webcam
//! frame, a camera held sideways, heavy JPEG compression, and the harder
//! ends of a phone's video: overexposed, out of focus, shaken, a far-off
//! frame, a dim room's grain.
//!
//! Light and compression go through the renderer's camera
//! (`snapsolve_synth::Camera`), fixed instead of random.

use image::imageops::{FilterType, resize, rotate90};
use image::{Rgb, RgbImage};
use imageproc::geometric_transformations::{Border, Interpolation, Projection, warp};
use rand::SeedableRng;
use rand::rngs::StdRng;
use snapsolve_synth::Camera;
use snapsolve_vision::Photo;

/// A phone's main camera: focal length over the picture's longer side (the
/// camera [`Distortion::Tilted`] turns, and the stress suite's usual lens).
pub const PHONE_FOCAL: f32 = 0.75;

/// One way of spoiling a photo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distortion {
    /// Tungsten light: red up 10%, green down 5%, blue down 30%.
    Warm,
    /// Shade or a cold screen: red down 20%, blue up 10%.
    Cold,
    /// Under-exposed: every channel at 55%.
    Dark,
    /// A small frame: the longer side shrunk to 640 pixels.
    Small,
    /// The camera held the other way: the picture turned a quarter.
    Turned,
    /// JPEG at quality 30.
    Jpeg,
    /// Over-exposed: every channel at 130%, the paper clipped white and pale
    /// stripes faint (at 150% many are gone, to the eye too).
    Bright,
    /// Out of focus: a Gaussian blur of a 400th of the longer side (2.4
    /// pixels on a webcam frame, a card's stripes merged into a tint).
    Defocused,
    /// The phone moved while the shutter was open: every point streaked
    /// sideways by a 120th of the longer side.
    Shaken,
    /// A frame from across the room: the longer side shrunk to 400 pixels.
    Tiny,
    /// A dim room's grain: every channel at 50% and sensor noise of 12.
    Grainy,
    /// The phone turned [`TILT_DEGREES`] further towards the table's far side
    /// (a phone's field of view, zoomed out to keep the whole photo in
    /// frame): far cards smaller and squatter than near ones, the frame's
    /// new corners filled with the photo's top row's mean colour.
    Tilted,
    /// The table seen more steeply ([`LONG_LENS_DEGREES`] further) through a
    /// phone's second camera, a long lens ([`LONG_FOCAL`] of the longer
    /// side): every card squashed about square, with little perspective to
    /// tell a card seen steeply from a square seen straight on.
    LongLens,
}

impl Distortion {
    /// Every distortion, in the order the help lists them.
    pub const ALL: [Distortion; 13] = [
        Distortion::Warm,
        Distortion::Cold,
        Distortion::Dark,
        Distortion::Small,
        Distortion::Turned,
        Distortion::Jpeg,
        Distortion::Bright,
        Distortion::Defocused,
        Distortion::Shaken,
        Distortion::Tiny,
        Distortion::Grainy,
        Distortion::Tilted,
        Distortion::LongLens,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Distortion::Warm => "warm",
            Distortion::Cold => "cold",
            Distortion::Dark => "dark",
            Distortion::Small => "small",
            Distortion::Turned => "turned",
            Distortion::Jpeg => "jpeg",
            Distortion::Bright => "bright",
            Distortion::Defocused => "defocused",
            Distortion::Shaken => "shaken",
            Distortion::Tiny => "tiny",
            Distortion::Grainy => "grainy",
            Distortion::Tilted => "tilted",
            Distortion::LongLens => "long-lens",
        }
    }

    /// The distortion called `name`, if there is one.
    pub fn by_name(name: &str) -> Option<Distortion> {
        Distortion::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The photo as this distortion leaves it. Its pixels become the stored
    /// ones (no orientation, no reduction): evaluations compare cards, not corners.
    pub fn apply(self, photo: Photo) -> Photo {
        let mut image = photo.image;
        match self {
            Distortion::Small => image = shrunk(&image, 640.0),
            Distortion::Tiny => image = shrunk(&image, 400.0),
            Distortion::Turned => image = rotate90(&image),
            Distortion::Tilted => image = tilted(&image),
            Distortion::LongLens => image = laid_back(&image),
            through_a_camera => {
                let longer = image.width().max(image.height()) as f32;
                shoot(&mut image, through_a_camera.camera(longer));
            }
        }
        Photo::from_upright(image)
    }

    /// The fixed camera that makes this distortion, for a picture whose
    /// longer side is `longer` pixels (one that changes nothing for those
    /// that only resize or turn the picture).
    fn camera(self, longer: f32) -> Camera {
        let still = Camera::still([1.0; 3]);
        match self {
            Distortion::Warm => Camera::still([1.1, 0.95, 0.7]),
            Distortion::Cold => Camera::still([0.8, 0.95, 1.1]),
            Distortion::Dark => Camera::still([0.55; 3]),
            Distortion::Bright => Camera::still([1.3; 3]),
            Distortion::Jpeg => Camera {
                jpeg_quality: Some(30),
                ..still
            },
            Distortion::Defocused => Camera {
                blur: longer / 400.0,
                ..still
            },
            Distortion::Shaken => Camera {
                motion: Some([longer / 120.0, 0.0]),
                ..still
            },
            Distortion::Grainy => Camera {
                noise: 12.0,
                ..Camera::still([0.5; 3])
            },
            Distortion::Small
            | Distortion::Tiny
            | Distortion::Turned
            | Distortion::Tilted
            | Distortion::LongLens => still,
        }
    }
}

/// The picture through a fixed camera; a fixed seed, so the same noise each run.
fn shoot(image: &mut RgbImage, camera: Camera) {
    camera.apply(image, &mut StdRng::seed_from_u64(0));
}

/// The picture as a phone turned [`TILT_DEGREES`] further towards the table's far
/// side would take it ([`Distortion::Tilted`]): a camera of a phone's usual
/// field of view ([`PHONE_FOCAL`] of the longer side) turned about its
/// centre maps the picture by `K' R K^-1`, and the turned view is zoomed
/// out (`K'`, a shorter focal length) until the whole photo stays in frame.
/// (A trapezoid drawn by hand is no view any camera could take: the
/// reader's camera model could not place its cards in space.)
fn tilted(image: &RgbImage) -> RgbImage {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let (cx, cy) = (w / 2.0, h / 2.0);
    let focal = PHONE_FOCAL * w.max(h);
    let (sin, cos) = TILT_DEGREES.to_radians().sin_cos();
    // A picture point's ray, turned about the camera's x axis: where it
    // meets a camera of focal length 1, as (x, y) about the centre.
    let turned = |(x, y): (f32, f32)| -> (f32, f32) {
        let (dx, dy, dz) = ((x - cx) / focal, (y - cy) / focal, 1.0);
        let (ry, rz) = (cos * dy + sin * dz, -sin * dy + cos * dz);
        (dx / rz, ry / rz)
    };
    in_frame(image, turned, focal)
}

/// The picture laid on a table turned [`LONG_LENS_DEGREES`] away at its top
/// and seen through a lens of [`LONG_FOCAL`] of the longer side from as far
/// as makes its middle keep its size ([`Distortion::LongLens`]), zoomed out
/// until the whole photo stays in frame. (Turning a long lens's camera
/// instead, as [`tilted`] does, would turn the photo out of its narrow
/// view.)
fn laid_back(image: &RgbImage) -> RgbImage {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let (cx, cy) = (w / 2.0, h / 2.0);
    let focal = LONG_FOCAL * w.max(h);
    let (sin, cos) = LONG_LENS_DEGREES.to_radians().sin_cos();
    // A picture point on the turned table, its top farther: where its ray
    // meets a camera of focal length 1, as (x, y) about the centre.
    let laid = |(x, y): (f32, f32)| -> (f32, f32) {
        let (dx, dy) = (x - cx, y - cy);
        let depth = focal - dy * sin;
        (dx / depth, dy * cos / depth)
    };
    in_frame(image, laid, focal)
}

/// The picture mapped by the homography that takes its corners where `map`
/// takes them (in units of a camera of focal length 1 about the centre),
/// drawn through a camera of at most `focal` zoomed out until the whole
/// photo stays in frame; the frame's new corners filled with the photo's
/// top row's mean colour.
fn in_frame(image: &RgbImage, map: impl Fn((f32, f32)) -> (f32, f32), focal: f32) -> RgbImage {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let (cx, cy) = (w / 2.0, h / 2.0);
    let frame = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let corners = frame.map(map);
    let zoomed = corners
        .iter()
        .map(|&(x, y)| (cx / x.abs().max(1e-6)).min(cy / y.abs().max(1e-6)))
        .fold(focal, f32::min)
        * 0.98;
    let Some(projection) = Projection::from_control_points(
        frame,
        corners.map(|(x, y)| (cx + zoomed * x, cy + zoomed * y)),
    ) else {
        return image.clone();
    };
    let fill = Border::Constant(top_row_mean(image));
    warp(image, projection, Interpolation::Bilinear, fill)
}

/// How far [`Distortion::Tilted`] turns the camera towards the far side.
const TILT_DEGREES: f32 = 15.0;
/// The focal length of [`Distortion::LongLens`], as a share of the picture's
/// longer side: a phone's twice-zoom camera (about 52 mm in 35 mm terms),
/// the longest lens of the stress suite's `other-lens`.
const LONG_FOCAL: f32 = 1.5;
/// How far [`Distortion::LongLens`] turns the table away at its top: the
/// shared photos, taken from about 0-30 degrees off straight down, end
/// 45-75 degrees off it (the stress suite's `other-lens` tables: 50).
const LONG_LENS_DEGREES: f32 = 45.0;

/// The mean colour of a picture's top row (black for an empty picture).
fn top_row_mean(image: &RgbImage) -> Rgb<u8> {
    let mut sum = [0u64; 3];
    for x in 0..image.width() {
        for (s, v) in sum.iter_mut().zip(image.get_pixel(x, 0).0) {
            *s += u64::from(v);
        }
    }
    let n = u64::from(image.width()).max(1);
    Rgb(sum.map(|s| (s / n) as u8))
}

/// The picture with its longer side shrunk to `longest` pixels (never grown).
fn shrunk(image: &RgbImage, longest: f32) -> RgbImage {
    let scale = longest / image.width().max(image.height()).max(1) as f32;
    if scale >= 1.0 {
        return image.clone();
    }
    let side = |s: u32| ((s as f32 * scale).round() as u32).max(1);
    resize(
        image,
        side(image.width()),
        side(image.height()),
        FilterType::Triangle,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage};

    fn photo(width: u32, height: u32) -> Photo {
        Photo::from_upright(RgbImage::from_pixel(width, height, Rgb([200, 200, 200])))
    }

    #[test]
    fn names_round_trip() {
        for d in Distortion::ALL {
            assert_eq!(Distortion::by_name(d.name()), Some(d));
        }
        assert_eq!(Distortion::by_name("sepia"), None);
    }

    #[test]
    fn each_distortion_does_what_it_says() {
        assert_eq!(
            Distortion::Warm.apply(photo(8, 6)).image.get_pixel(0, 0).0,
            [220, 190, 140]
        );
        assert_eq!(
            Distortion::Dark.apply(photo(8, 6)).image.get_pixel(0, 0).0,
            [110; 3]
        );
        let small = Distortion::Small.apply(photo(1280, 960));
        assert_eq!(small.image.dimensions(), (640, 480));
        assert_eq!((small.stored_width, small.stored_height), (640, 480));
        assert_eq!(
            Distortion::Small.apply(photo(320, 240)).image.dimensions(),
            (320, 240)
        );
        assert_eq!(
            Distortion::Turned.apply(photo(8, 6)).image.dimensions(),
            (6, 8)
        );
        assert_eq!(
            Distortion::Jpeg.apply(photo(8, 6)).image.dimensions(),
            (8, 6)
        );
        // 200 x 1.3 clips at white.
        assert_eq!(
            Distortion::Bright
                .apply(photo(8, 6))
                .image
                .get_pixel(0, 0)
                .0,
            [255; 3]
        );
        assert_eq!(
            Distortion::Tiny.apply(photo(1280, 960)).image.dimensions(),
            (400, 300)
        );
        let grainy = Distortion::Grainy.apply(photo(64, 48)).image;
        let mean = grainy.pixels().map(|p| f32::from(p.0[0])).sum::<f32>() / (64.0 * 48.0);
        assert!((mean - 100.0).abs() < 3.0, "{mean}");
        assert!(grainy.pixels().any(|p| p.0[0] != 100));
    }

    #[test]
    fn a_tilted_photo_narrows_towards_its_top() {
        // Pale, with a dark frame one pixel wide: after the turn the dark
        // frame's top side is shorter than its bottom side, the picture's
        // middle column stays the middle, and the corners show the top row's
        // mean.
        let image = RgbImage::from_fn(400, 300, |x, y| {
            let frame = x == 0 || y == 0 || x == 399 || y == 299;
            Rgb([if frame { 0 } else { 240 }; 3])
        });
        let spoilt = Distortion::Tilted.apply(Photo::from_upright(image)).image;
        assert_eq!(spoilt.dimensions(), (400, 300));
        // The top row is all frame: the corners are dark.
        assert_eq!(spoilt.get_pixel(1, 1).0, [0; 3]);
        // The widest run of pale pixels of a row.
        let pale = |y: u32| {
            (0..400)
                .filter(|&x| spoilt.get_pixel(x, y).0[0] > 200)
                .count()
        };
        let rows: Vec<u32> = (0..300).filter(|&y| pale(y) > 0).collect();
        let (top, bottom) = (rows[2], rows[rows.len() - 3]);
        assert!(
            pale(top) * 10 < pale(bottom) * 9,
            "{} {}",
            pale(top),
            pale(bottom)
        );
        assert!(spoilt.get_pixel(200, 150).0[0] > 200);
    }

    #[test]
    fn a_photo_seen_through_a_long_lens_is_squashed_and_narrows_towards_its_top() {
        // A pale square in a dark frame: laid back 45 degrees, it ends
        // lower than wide (squashed about as the cosine says, a long lens
        // adding little perspective) and narrower at its top than at its
        // bottom.
        let image = RgbImage::from_fn(400, 400, |x, y| {
            let frame = x < 4 || y < 4 || x >= 396 || y >= 396;
            Rgb([if frame { 0 } else { 240 }; 3])
        });
        let spoilt = Distortion::LongLens.apply(Photo::from_upright(image)).image;
        assert_eq!(spoilt.dimensions(), (400, 400));
        let pale = |y: u32| {
            (0..400)
                .filter(|&x| spoilt.get_pixel(x, y).0[0] > 200)
                .count()
        };
        let rows: Vec<u32> = (0..400).filter(|&y| pale(y) > 0).collect();
        let (top, bottom) = (rows[2], rows[rows.len() - 3]);
        let height = (bottom - top) as f32;
        let width = pale((top + bottom) / 2) as f32;
        assert!((0.6..0.8).contains(&(height / width)), "{height} / {width}");
        assert!(pale(top) < pale(bottom), "{} {}", pale(top), pale(bottom));
    }

    #[test]
    fn blurs_spread_an_edge_and_keep_the_size() {
        // A black left half on white: a blur of 3 pixels or a streak of 10
        // leaves grey beside the edge.
        let edge = || {
            let image =
                RgbImage::from_fn(1200, 100, |x, _| Rgb([if x < 600 { 0 } else { 255 }; 3]));
            Photo::from_upright(image)
        };
        for distortion in [Distortion::Defocused, Distortion::Shaken] {
            let spoilt = distortion.apply(edge()).image;
            assert_eq!(spoilt.dimensions(), (1200, 100));
            let beside = spoilt.get_pixel(601, 50).0[0];
            assert!(beside > 20 && beside < 235, "{distortion:?}: {beside}");
        }
    }
}

/// One way a moving phone's video frame spoils a card (`snapsolve eval
/// set-cards --spoil NAME`), applied to the upright 96x150 crop before it is
/// named. Fixed strengths, at the hard end of what the namer trains on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CropSpoiler {
    /// The phone moved while the shutter was open: a 9-pixel horizontal smear.
    MotionBlur,
    /// Out of focus: a Gaussian blur of 2.5 pixels.
    Defocus,
    /// A card 40 pixels wide in the frame: shrunk to 40x62 and grown back.
    LowResolution,
    /// An over-exposed cheap camera: colour half drained, lifted a quarter towards white.
    WashedOut,
}

impl CropSpoiler {
    /// Every spoiler, in the order the help lists them.
    pub const ALL: [CropSpoiler; 4] = [
        CropSpoiler::MotionBlur,
        CropSpoiler::Defocus,
        CropSpoiler::LowResolution,
        CropSpoiler::WashedOut,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            CropSpoiler::MotionBlur => "motion-blur",
            CropSpoiler::Defocus => "defocus",
            CropSpoiler::LowResolution => "low-res",
            CropSpoiler::WashedOut => "washed-out",
        }
    }

    /// The spoiler called `name`, if there is one.
    pub fn by_name(name: &str) -> Option<CropSpoiler> {
        CropSpoiler::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The crop as this spoiler leaves it.
    pub fn apply(self, crop: &RgbImage) -> RgbImage {
        let (w, h) = crop.dimensions();
        match self {
            CropSpoiler::MotionBlur => {
                let smeared = smear(crop.as_raw(), w as usize, 9, (1, 0));
                RgbImage::from_raw(w, h, smeared).unwrap_or_else(|| crop.clone())
            }
            CropSpoiler::Defocus => imageproc::filter::gaussian_blur_f32(crop, 2.5),
            CropSpoiler::LowResolution => shrink_and_grow(crop, 40, 62),
            CropSpoiler::WashedOut => {
                let mut out = crop.clone();
                wash_out(&mut out, 0.5, 0.25);
                out
            }
        }
    }
}

/// The mean of `taps` pixels along direction `(dx, dy)` centred on each pixel
/// of interleaved RGB rows `width` long (a phone moving while the shutter is
/// open), clamped at the borders. Shared with the card network's training
/// (`train::card_augment`), which draws the taps and direction at random.
pub fn smear(pixels: &[u8], width: usize, taps: i64, (dx, dy): (i64, i64)) -> Vec<u8> {
    let height = pixels.len() / (3 * width).max(1);
    let mut out = vec![0u8; pixels.len()];
    for y in 0..height as i64 {
        for x in 0..width as i64 {
            let mut sum = [0u32; 3];
            for t in 0..taps {
                let sx = (x + dx * (t - taps / 2)).clamp(0, width as i64 - 1) as usize;
                let sy = (y + dy * (t - taps / 2)).clamp(0, height as i64 - 1) as usize;
                let i = 3 * (sy * width + sx);
                for k in 0..3 {
                    sum[k] += u32::from(pixels[i + k]);
                }
            }
            let o = 3 * (y as usize * width + x as usize);
            for k in 0..3 {
                out[o + k] = (sum[k] / taps as u32) as u8;
            }
        }
    }
    out
}

/// Shrunk to `width` x `height` and grown back: a card that few pixels wide.
pub fn shrink_and_grow(image: &RgbImage, width: u32, height: u32) -> RgbImage {
    let small = snapsolve_vision::resample::resize_triangle(image, width.max(1), height.max(1));
    snapsolve_vision::resample::resize_triangle(&small, image.width(), image.height())
}

/// Colour drained by `drain` towards grey and the whole lifted by `lift`
/// towards white (235): an over-exposed cheap camera.
pub fn wash_out(pixels: &mut [u8], drain: f32, lift: f32) {
    for p in pixels.chunks_exact_mut(3) {
        let grey = (f32::from(p[0]) + f32::from(p[1]) + f32::from(p[2])) / 3.0;
        for v in p.iter_mut() {
            let c = f32::from(*v) * (1.0 - drain) + grey * drain;
            *v = (c * (1.0 - lift) + 235.0 * lift).round().clamp(0.0, 255.0) as u8;
        }
    }
}
