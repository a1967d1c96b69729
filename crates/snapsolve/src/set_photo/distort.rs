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
            CropSpoiler::MotionBlur => RgbImage::from_fn(w, h, |x, y| {
                let mut sum = [0u32; 3];
                for dx in -4i64..=4 {
                    let sx = (x as i64 + dx).clamp(0, w as i64 - 1) as u32;
                    for (s, v) in sum.iter_mut().zip(crop.get_pixel(sx, y).0) {
                        *s += u32::from(v);
                    }
                }
                image::Rgb(sum.map(|s| (s / 9) as u8))
            }),
            CropSpoiler::Defocus => imageproc::filter::gaussian_blur_f32(crop, 2.5),
            CropSpoiler::LowResolution => {
                let small = resize(crop, 40, 62, FilterType::Triangle);
                resize(&small, w, h, FilterType::Triangle)
            }
            CropSpoiler::WashedOut => {
                let mut out = crop.clone();
                for p in out.pixels_mut() {
                    let grey = p.0.iter().map(|&v| f32::from(v)).sum::<f32>() / 3.0;
                    for v in p.0.iter_mut() {
                        let c = 0.5 * f32::from(*v) + 0.5 * grey;
                        *v = (0.75 * c + 0.25 * 235.0).round() as u8;
                    }
                }
                out
            }
        }
    }
}
