//! The default card classifier: the `snapsolve_nn` SET card network with the
//! weights committed in `models/set_cards.safetensors` (made by
//! `snapsolve train set-cards`, described in `models/README.md`).
//!
//! Crops are shrunk to the network's input size and normalised here, in one
//! place, so training and reading prepare pixels identically.

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use image::RgbImage;
use snapsolve_nn::set_cards::{CLASSES, Config, HEADS, SetCardNet};

use super::classify::{CardClassifier, CardReading};

/// The committed weights, embedded in the binary.
pub static EMBEDDED_WEIGHTS: &[u8] = include_bytes!("../../../../models/set_cards.safetensors");

/// Crops per forward pass: bounds memory while keeping the per-call overhead small.
const BATCH: usize = 64;

/// Why a network could not be built.
#[derive(Debug)]
pub struct NetworkError(pub String);

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "card network: {}", self.0)
    }
}

impl std::error::Error for NetworkError {}

impl From<candle_core::Error> for NetworkError {
    fn from(e: candle_core::Error) -> Self {
        NetworkError(e.to_string())
    }
}

/// Names card crops with the SET card network.
#[derive(Debug)]
pub struct NetworkClassifier {
    net: SetCardNet,
    config: Config,
}

impl NetworkClassifier {
    /// The shipped network with its embedded weights.
    pub fn embedded() -> Result<NetworkClassifier, NetworkError> {
        NetworkClassifier::from_safetensors(EMBEDDED_WEIGHTS, &Config::small())
    }

    /// A network of shape `config` with weights from safetensors bytes.
    pub fn from_safetensors(
        bytes: &[u8],
        config: &Config,
    ) -> Result<NetworkClassifier, NetworkError> {
        if bytes.is_empty() {
            return Err(NetworkError(
                "no weights (run `snapsolve train set-cards`)".into(),
            ));
        }
        let vb = VarBuilder::from_slice_safetensors(bytes, DType::F32, &Device::Cpu)?;
        Ok(NetworkClassifier::from_net(
            SetCardNet::new(config, vb)?,
            config,
        ))
    }

    /// Wraps an already built network (e.g. one being trained).
    pub fn from_net(net: SetCardNet, config: &Config) -> NetworkClassifier {
        NetworkClassifier {
            net,
            config: config.clone(),
        }
    }

    /// Per-attribute probabilities for crops already shrunk by [`network_pixels`].
    pub fn read_pixels(&self, pixels: &[&[u8]]) -> candle_core::Result<Vec<CardReading>> {
        let mut readings = Vec::with_capacity(pixels.len());
        for chunk in pixels.chunks(BATCH) {
            let input = input_tensor(chunk, &self.config)?;
            let logits = self.net.forward(&input)?;
            let probs = snapsolve_nn::train_stream::multi_head_softmax(&logits, HEADS, CLASSES)?;
            for row in probs.to_vec3::<f32>()? {
                let p = |a: usize| [row[a][0], row[a][1], row[a][2]];
                readings.push(CardReading {
                    attribute_probabilities: [p(0), p(1), p(2), p(3)],
                });
            }
        }
        Ok(readings)
    }
}

impl CardClassifier for NetworkClassifier {
    fn name(&self) -> &'static str {
        "network"
    }

    fn classify(&self, crops: &[RgbImage]) -> Vec<CardReading> {
        let pixels: Vec<Vec<u8>> = crops
            .iter()
            .map(|c| network_pixels(c, &self.config))
            .collect();
        let refs: Vec<&[u8]> = pixels.iter().map(Vec::as_slice).collect();
        // A failed forward pass leaves every attribute undecided (confidence 1/81),
        // which callers report as unreadable rather than trusting.
        self.read_pixels(&refs).unwrap_or_else(|_| {
            vec![
                CardReading {
                    attribute_probabilities: [[1.0 / 3.0; 3]; 4]
                };
                crops.len()
            ]
        })
    }
}

/// Shrinks an upright crop to the network's input size: interleaved RGB bytes, row-major.
pub fn network_pixels(crop: &RgbImage, config: &Config) -> Vec<u8> {
    let (w, h) = (config.input_width as u32, config.input_height as u32);
    if crop.dimensions() == (w, h) {
        return crop.as_raw().clone();
    }
    snapsolve_vision::resample::resize_triangle(crop, w, h).into_raw()
}

/// Turns shrunk crops into a `(batch, 3, height, width)` tensor, each crop
/// standardised by its own mean and spread over all channels: exposure and
/// contrast go away, the balance between channels (the ink colour) stays.
pub fn input_tensor(pixels: &[&[u8]], config: &Config) -> candle_core::Result<Tensor> {
    let plane = config.input_width * config.input_height;
    let mut data = Vec::with_capacity(pixels.len() * 3 * plane);
    for px in pixels {
        if px.len() != 3 * plane {
            candle_core::bail!("crop has {} bytes, expected {}", px.len(), 3 * plane);
        }
        let n = px.len() as f32;
        let mean = px.iter().map(|&v| v as f32).sum::<f32>() / n;
        let var = px.iter().map(|&v| (v as f32 - mean).powi(2)).sum::<f32>() / n;
        let scale = 1.0 / (var.sqrt() + 8.0);
        for c in 0..3 {
            data.extend(
                px[c..]
                    .iter()
                    .step_by(3)
                    .map(|&v| (v as f32 - mean) * scale),
            );
        }
    }
    Tensor::from_vec(
        data,
        (pixels.len(), 3, config.input_height, config.input_width),
        &Device::Cpu,
    )
}
