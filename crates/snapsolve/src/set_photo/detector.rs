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
use std::sync::LazyLock;

use snapsolve_vision::Quad;
use snapsolve_vision::cards::cores::quads_from_cores;
use snapsolve_vision::cards::refine::settle_on_edges;

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
pub const CORE_LEVEL: u8 = 127;
/// Name, in the weights file, of the factor that grows a core blob's
/// rectangle to the card (measured by the trainer on its validation tables).
pub const CORE_GROW: &str = "decode.core_grow";
/// How far a side may move when refined, as a share of the card's shorter side.
const REFINE_REACH: f32 = 0.12;

/// The shipped detector, built once; `None` when its weights cannot be read.
static SHIPPED: LazyLock<Option<CardDetector>> = LazyLock::new(|| CardDetector::embedded().ok());

/// The shipped detector, if its embedded weights load.
pub fn shipped() -> Option<&'static CardDetector> {
    SHIPPED.as_ref()
}

/// The card detector, ready to read photos.
#[derive(Debug)]
pub struct CardDetector {
    net: DetectorInference,
    core_grow: f32,
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
        let core_grow = vb.get(1, CORE_GROW)?.to_vec1::<f32>()?[0];
        Ok(CardDetector {
            net: SetDetector::new(vb)?.to_inference()?,
            core_grow,
        })
    }

    /// Card outlines in `image`'s pixels, moved onto the cards' edges
    /// ([`settle_on_edges`]), portrait order.
    pub fn detect(&self, image: &RgbImage) -> Vec<Quad> {
        let rough = self.rough_outlines(image);
        settle_on_edges(image, &rough, REFINE_REACH)
            .into_iter()
            .map(|quad| quad.portrait())
            .collect()
    }

    /// The paper (red) and core (green) probabilities as a picture at half
    /// the detector's input size, to look at.
    pub fn maps(&self, image: &RgbImage) -> RgbImage {
        let (w, h) = input_size(image.width(), image.height());
        let small = snapsolve_vision::resample::resize_triangle(image, w as u32, h as u32);
        let p = self
            .net
            .probabilities(&standardise(small.as_raw(), w, h), h, w);
        let (mw, mh) = (w / 2, h / 2);
        RgbImage::from_fn(mw as u32, mh as u32, |x, y| {
            let i = y as usize * mw + x as usize;
            image::Rgb([(p[i] * 255.0) as u8, (p[mw * mh + i] * 255.0) as u8, 0])
        })
    }

    /// Card outlines straight from the core map: the cores' rectangles grown back.
    pub fn rough_outlines(&self, image: &RgbImage) -> Vec<Quad> {
        let (w, h) = input_size(image.width(), image.height());
        let small = snapsolve_vision::resample::resize_triangle(image, w as u32, h as u32);
        let map = core_map(&self.net, small.as_raw(), w, h);
        let (sx, sy) = (
            image.width() as f32 / map.width() as f32,
            image.height() as f32 / map.height() as f32,
        );
        quads_from_cores(&map, CORE_LEVEL, self.core_grow)
            .into_iter()
            .map(|q| q.map(|[x, y]| [x * sx, y * sy]))
            .collect()
    }
}

/// The core probabilities (0..255) of a picture already at a detector input
/// size (`pixels` interleaved RGB), at half that size.
pub fn core_map(net: &DetectorInference, pixels: &[u8], width: usize, height: usize) -> GrayImage {
    let probabilities = net.probabilities(&standardise(pixels, width, height), height, width);
    let (mw, mh) = (width / 2, height / 2);
    let core = &probabilities[CORE * mw * mh..][..mw * mh];
    GrayImage::from_fn(mw as u32, mh as u32, |x, y| {
        image::Luma([(core[y as usize * mw + x as usize] * 255.0) as u8])
    })
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
