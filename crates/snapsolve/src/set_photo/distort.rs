//! Changes made to every photo before it is read, to see how the reader copes
//! with conditions the labelled photos do not show (`snapsolve eval set-photos
//! --distort NAME`): a tungsten or shade cast, a dim room, a small webcam
//! frame, a camera held sideways, heavy JPEG compression.
//!
//! Light and compression go through the renderer's camera
//! (`snapsolve_synth::Camera`), fixed instead of random.

use image::RgbImage;
use image::imageops::{FilterType, resize, rotate90};
use rand::SeedableRng;
use rand::rngs::StdRng;
use snapsolve_synth::Camera;
use snapsolve_vision::Photo;

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
}

impl Distortion {
    /// Every distortion, in the order the help lists them.
    pub const ALL: [Distortion; 6] = [
        Distortion::Warm,
        Distortion::Cold,
        Distortion::Dark,
        Distortion::Small,
        Distortion::Turned,
        Distortion::Jpeg,
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
            Distortion::Warm => light(&mut image, [1.1, 0.95, 0.7], None),
            Distortion::Cold => light(&mut image, [0.8, 0.95, 1.1], None),
            Distortion::Dark => light(&mut image, [0.55; 3], None),
            Distortion::Jpeg => light(&mut image, [1.0; 3], Some(30)),
            Distortion::Small => {
                let scale = 640.0 / image.width().max(image.height()).max(1) as f32;
                if scale < 1.0 {
                    let side = |s: u32| ((s as f32 * scale).round() as u32).max(1);
                    image = resize(
                        &image,
                        side(image.width()),
                        side(image.height()),
                        FilterType::Triangle,
                    );
                }
            }
            Distortion::Turned => image = rotate90(&image),
        }
        Photo::from_upright(image)
    }
}

/// A fixed camera: these gains, no gradient, glare, blur or noise.
fn light(image: &mut image::RgbImage, gains: [f32; 3], jpeg_quality: Option<u8>) {
    let camera = Camera {
        gains,
        gradient: [0.0; 2],
        glare: None,
        blur: 0.0,
        motion: None,
        noise: 0.0,
        jpeg_quality,
    };
    // Without noise the camera draws nothing from its generator.
    camera.apply(image, &mut StdRng::seed_from_u64(0));
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
