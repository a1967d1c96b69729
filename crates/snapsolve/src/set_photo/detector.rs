//! The learned card detector on a photo: the picture shrunk to about 256x192
//! (`snapsolve_nn::set_detector`, weights in `models/set_detector.safetensors`
//! made by `snapsolve train set-detector`), its map of card cores turned into
//! card outlines (`snapsolve_vision::cards::cores`) in the photo's pixels.
//!
//! The detector proposes; it does not decide. Its outlines join the
//! threshold finder's (which are sharper where both see a card) and every
//! candidate must pass the card network's card/not-a-card logit.

use candle_core::{DType, Device};
use candle_nn::VarBuilder;
use image::{GrayImage, RgbImage};
use snapsolve_nn::set_detector::{CORE, DetectorInference, SIDE_MULTIPLE, SetDetector};
use snapsolve_vision::Quad;
use snapsolve_vision::cards::cores::quads_from_cores;

use super::network::{NetworkError, standardise};

/// The committed weights, embedded in the binary.
pub static EMBEDDED_DETECTOR: &[u8] = include_bytes!("../../../../models/set_detector.safetensors");

/// Input width the detector is trained at (landscape).
pub const DETECTOR_WIDTH: usize = 256;
/// Input height the detector is trained at.
pub const DETECTOR_HEIGHT: usize = 192;
/// A card's core is the card shrunk by this factor about its centre.
pub const CORE_SHRINK: f32 = 0.5;
/// Core probability (in 0..255) above which a pixel is core.
const CORE_LEVEL: u8 = 127;

/// The card detector, ready to read photos.
#[derive(Debug)]
pub struct CardDetector {
    net: DetectorInference,
}

impl CardDetector {
    /// The shipped detector with its embedded weights.
    pub fn embedded() -> Result<CardDetector, NetworkError> {
        CardDetector::from_safetensors(EMBEDDED_DETECTOR)
    }

    /// A detector with weights from safetensors bytes.
    pub fn from_safetensors(bytes: &[u8]) -> Result<CardDetector, NetworkError> {
        if bytes.is_empty() {
            return Err(NetworkError(
                "no detector weights (run `snapsolve train set-detector`)".into(),
            ));
        }
        let vb = VarBuilder::from_slice_safetensors(bytes, DType::F32, &Device::Cpu)?;
        Ok(CardDetector {
            net: SetDetector::new(vb)?.to_inference()?,
        })
    }

    /// Card outlines in `image`'s pixels.
    pub fn detect(&self, image: &RgbImage) -> Vec<Quad> {
        let (w, h) = input_size(image.width(), image.height());
        let small = snapsolve_vision::resample::resize_triangle(image, w as u32, h as u32);
        let probabilities = self
            .net
            .probabilities(&standardise(small.as_raw(), w, h), h, w);
        let (mw, mh) = (w / 2, h / 2);
        let core = &probabilities[CORE * mw * mh..][..mw * mh];
        let map = GrayImage::from_fn(mw as u32, mh as u32, |x, y| {
            image::Luma([(core[y as usize * mw + x as usize] * 255.0) as u8])
        });
        let (sx, sy) = (
            image.width() as f32 / mw as f32,
            image.height() as f32 / mh as f32,
        );
        quads_from_cores(&map, CORE_LEVEL, CORE_SHRINK)
            .into_iter()
            .map(|q| q.map(|[x, y]| [x * sx, y * sy]))
            .collect()
    }
}

/// The detector's input size for a `width` x `height` photo: the longer side
/// 256, the shorter in proportion, both rounded to a multiple of 16 (a photo
/// of 4:3 gets exactly 256x192; others are stretched by under 4%).
pub fn input_size(width: u32, height: u32) -> (usize, usize) {
    let long = DETECTOR_WIDTH as f32;
    let scale = long / width.max(height).max(1) as f32;
    let round = |v: u32| {
        let m = SIDE_MULTIPLE as f32;
        (((v as f32 * scale) / m).round() * m).max(m) as usize
    };
    (round(width), round(height))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_sizes_keep_the_aspect_and_the_multiple() {
        assert_eq!(input_size(4032, 3024), (256, 192));
        assert_eq!(input_size(3024, 4032), (192, 256));
        let (w, h) = input_size(1920, 1080);
        assert_eq!((w, h), (256, 144));
        assert_eq!(input_size(10, 5000), (16, 256));
    }
}
