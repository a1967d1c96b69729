//! The default card classifier: two `snapsolve_nn` SET card networks read
//! together, with the weights committed in `models/set_cards.safetensors` and
//! `models/set_cards_long.safetensors` (made by `snapsolve train set-cards`,
//! the second with three times the steps; described in `models/README.md`).
//!
//! Crops are shrunk to the network's input size and normalised here, in one
//! place, so training and reading prepare pixels identically.

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use image::RgbImage;
use snapsolve_nn::cpu_inference::softmax_rows;
use snapsolve_nn::set_cards::{CARD_LOGIT, CLASSES, Config, FastSetCardNet, OUTPUTS, SetCardNet};

use super::classify::{CardClassifier, CardReading};

/// The committed weights, embedded in the binary.
pub static EMBEDDED_WEIGHTS: &[u8] = include_bytes!("../../../../models/set_cards.safetensors");

/// The weights of the same recipe run three times as long (15,000 steps),
/// embedded too. Alone they read blurred cards better and the second
/// edition's foreshortened ovals and rectangles worse; averaged with the
/// first, the rendered stress suite reads better in sum than with the first
/// alone, and the table photos as well (docs/evaluation.md, session 33).
pub static EMBEDDED_LONG_WEIGHTS: &[u8] =
    include_bytes!("../../../../models/set_cards_long.safetensors");

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
    /// One or more networks of one shape, whose readings are averaged
    /// (each read through [`SetCardNet::fast`]).
    nets: Vec<FastSetCardNet>,
    config: Config,
}

impl NetworkClassifier {
    /// The shipped networks with their embedded weights, read together.
    pub fn embedded() -> Result<NetworkClassifier, NetworkError> {
        NetworkClassifier::ensemble(&[EMBEDDED_WEIGHTS, EMBEDDED_LONG_WEIGHTS], &Config::small())
    }

    /// A network of shape `config` with weights from safetensors bytes.
    pub fn from_safetensors(
        bytes: &[u8],
        config: &Config,
    ) -> Result<NetworkClassifier, NetworkError> {
        NetworkClassifier::ensemble(&[bytes], config)
    }

    /// Networks of shape `config`, one for each set of weights (at least
    /// one), whose readings are averaged: the mean of their attribute
    /// probabilities, and the card probability of their mean card logit.
    pub fn ensemble(weights: &[&[u8]], config: &Config) -> Result<NetworkClassifier, NetworkError> {
        if weights.is_empty() {
            return Err(NetworkError(
                "an ensemble needs at least one network".into(),
            ));
        }
        let mut nets = Vec::with_capacity(weights.len());
        for bytes in weights {
            if bytes.is_empty() {
                return Err(NetworkError(
                    "no weights (run `snapsolve train set-cards`)".into(),
                ));
            }
            let vb = VarBuilder::from_slice_safetensors(bytes, DType::F32, &Device::Cpu)?;
            nets.push(SetCardNet::new(config, vb)?.fast()?);
        }
        Ok(NetworkClassifier {
            nets,
            config: config.clone(),
        })
    }

    /// Wraps an already built network (e.g. one just trained), with the
    /// weights it has now.
    pub fn from_net(net: &SetCardNet, config: &Config) -> candle_core::Result<NetworkClassifier> {
        Ok(NetworkClassifier {
            nets: vec![net.fast()?],
            config: config.clone(),
        })
    }

    /// Per-attribute probabilities and the probability of being a card at all,
    /// for crops already shrunk by [`network_pixels`]; each is white-balanced
    /// on its paper first ([`paper_white_balance`]). With several networks,
    /// their attribute probabilities are averaged, and the card probability
    /// is that of their mean card logit.
    pub fn read_pixels(&self, pixels: &[&[u8]]) -> candle_core::Result<Vec<CardReading>> {
        let mut readings = Vec::with_capacity(pixels.len());
        for chunk in pixels.chunks(BATCH) {
            let balanced: Vec<Vec<u8>> = chunk
                .iter()
                .map(|p| {
                    let mut p = p.to_vec();
                    paper_white_balance(&mut p);
                    p
                })
                .collect();
            let refs: Vec<&[u8]> = balanced.iter().map(Vec::as_slice).collect();
            let input = standardised_batch(&refs, &self.config)?;
            let (probabilities, card_logits) = self.summed_outputs(&input, chunk.len());
            let n = self.nets.len() as f32;
            for (probs, card_logit) in probabilities.chunks_exact(CARD_LOGIT).zip(card_logits) {
                let p = |a: usize| std::array::from_fn(|c| probs[a * CLASSES + c] / n);
                readings.push(CardReading {
                    attribute_probabilities: [p(0), p(1), p(2), p(3)],
                    card_probability: Some(1.0 / (1.0 + (-card_logit / n).exp())),
                });
            }
        }
        Ok(readings)
    }

    /// The networks' attribute probabilities (`batch` rows of [`CARD_LOGIT`],
    /// head after head) and card logits, each summed over the networks, for
    /// `batch` standardised crops.
    fn summed_outputs(&self, input: &[f32], batch: usize) -> (Vec<f32>, Vec<f32>) {
        let (w, h) = (self.config.input_width, self.config.input_height);
        let mut probabilities = vec![0f32; batch * CARD_LOGIT];
        let mut card_logits = vec![0f32; batch];
        for net in &self.nets {
            let logits = net.logits(input, batch, h, w);
            for ((row, sum), card) in logits
                .chunks_exact(OUTPUTS)
                .zip(probabilities.chunks_exact_mut(CARD_LOGIT))
                .zip(&mut card_logits)
            {
                let mut heads = row[..CARD_LOGIT].to_vec();
                softmax_rows(&mut heads, CLASSES);
                sum.iter_mut().zip(heads).for_each(|(s, p)| *s += p);
                *card += row[CARD_LOGIT];
            }
        }
        (probabilities, card_logits)
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
                    attribute_probabilities: [[1.0 / 3.0; 3]; 4],
                    card_probability: None,
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

/// Scales the three channels so that the card's paper, its whitest 30% of
/// pixels (symbols cover less than half of any card), comes out grey.
///
/// Under warm or cold light the ink colours shift with the paper: purple
/// under a tungsten cast looks red. The network learns under random casts
/// (rendered crops with random white balance, random per-channel gains), and
/// reading takes the cast away, which puts every crop in the middle of what
/// it learned. Done when reading only: training on balanced crops was tried
/// and read the validation crops worse (alternate deck 50/52 against 52/52).
/// Gains are kept within [0.5, 2].
pub fn paper_white_balance(pixels: &mut [u8]) {
    let mut whiteness: Vec<u8> = pixels
        .chunks_exact(3)
        .map(|p| p[0].min(p[1]).min(p[2]))
        .collect();
    if whiteness.is_empty() {
        return;
    }
    let k = whiteness.len() * 7 / 10;
    let level = *whiteness.select_nth_unstable(k).1;
    let mut sum = [0u64; 3];
    let mut n = 0u64;
    for p in pixels.chunks_exact(3) {
        if p[0].min(p[1]).min(p[2]) >= level {
            for c in 0..3 {
                sum[c] += u64::from(p[c]);
            }
            n += 1;
        }
    }
    if n == 0 || sum.contains(&0) {
        return;
    }
    let mean = sum.iter().sum::<u64>() as f32 / 3.0;
    let gains: [f32; 3] = std::array::from_fn(|c| (mean / sum[c] as f32).clamp(0.5, 2.0));
    for p in pixels.chunks_exact_mut(3) {
        for c in 0..3 {
            p[c] = (f32::from(p[c]) * gains[c]).round().min(255.0) as u8;
        }
    }
}

/// Turns shrunk crops into a `(batch, 3, height, width)` tensor, each crop
/// standardised by its own mean and spread over all channels: exposure and
/// contrast go away, the balance between channels (the ink colour) stays.
pub fn input_tensor(pixels: &[&[u8]], config: &Config) -> candle_core::Result<Tensor> {
    let (w, h) = (config.input_width, config.input_height);
    let data = standardised_batch(pixels, config)?;
    Tensor::from_vec(data, (pixels.len(), 3, h, w), &Device::Cpu)
}

/// Shrunk crops standardised ([`standardise`]) one after the other: the
/// values of a `(batch, 3, height, width)` batch, for training (as a tensor,
/// [`input_tensor`]) and reading alike.
fn standardised_batch(pixels: &[&[u8]], config: &Config) -> candle_core::Result<Vec<f32>> {
    let (w, h) = (config.input_width, config.input_height);
    let mut data = Vec::with_capacity(pixels.len() * 3 * w * h);
    for px in pixels {
        if px.len() != 3 * w * h {
            candle_core::bail!("crop has {} bytes, expected {}", px.len(), 3 * w * h);
        }
        data.extend(standardise(px, w, h));
    }
    Ok(data)
}

/// Interleaved RGB bytes to three planes, standardised by the picture's own
/// mean and spread (exposure and contrast go away, colour balance stays).
pub fn standardise(pixels: &[u8], width: usize, height: usize) -> Vec<f32> {
    let n = (width * height * 3).max(1) as f32;
    let mean = pixels.iter().map(|&v| f32::from(v)).sum::<f32>() / n;
    let var = pixels
        .iter()
        .map(|&v| (f32::from(v) - mean).powi(2))
        .sum::<f32>()
        / n;
    let scale = 1.0 / (var.sqrt() + 8.0);
    let mut planes = Vec::with_capacity(pixels.len());
    for c in 0..3 {
        planes.extend(
            pixels[c..]
                .iter()
                .step_by(3)
                .map(|&v| (f32::from(v) - mean) * scale),
        );
    }
    planes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_paper_comes_out_grey_and_the_ink_keeps_its_hue() {
        // Paper under a warm cast, a third of the card covered by purple ink.
        let (paper, ink) = ([220u8, 190, 130], [120u8, 40, 90]);
        let mut pixels: Vec<u8> = (0..300)
            .flat_map(|i| if i % 3 == 0 { ink } else { paper })
            .collect();
        paper_white_balance(&mut pixels);
        let balanced_paper = &pixels[3..6];
        let spread = balanced_paper.iter().max().unwrap() - balanced_paper.iter().min().unwrap();
        assert!(spread <= 2, "paper {balanced_paper:?}");
        // The ink's blue gains on its red once the cast is gone: purple, not red.
        let balanced_ink = &pixels[0..3];
        assert!(
            f32::from(balanced_ink[2]) / f32::from(balanced_ink[0]) > 90.0 / 120.0,
            "ink {balanced_ink:?}"
        );
    }

    #[test]
    fn standardised_planes_have_zero_mean() {
        let pixels: Vec<u8> = (0..48).map(|i| (i * 5) as u8).collect();
        let planes = standardise(&pixels, 4, 4);
        assert_eq!(planes.len(), 48);
        assert!(planes.iter().sum::<f32>().abs() < 1e-3);
    }

    #[test]
    fn balancing_leaves_empty_and_black_crops_alone() {
        let mut empty: Vec<u8> = Vec::new();
        paper_white_balance(&mut empty);
        let mut black = vec![0u8; 30];
        paper_white_balance(&mut black);
        assert_eq!(black, vec![0u8; 30]);
    }
}
