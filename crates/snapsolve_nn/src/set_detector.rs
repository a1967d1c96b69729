//! The SET card detector: a small fully convolutional network that marks,
//! at half the input's resolution, which pixels are card paper and which
//! lie in a card's *core* (the card shrunk to half its size about its
//! centre). Cores of cards laid edge to edge stay apart by half a card, so
//! each core is one card; its outline grown back twice gives the card.
//!
//! ```text
//!  input 3 x H x W  ──space-to-depth──►  12 x H/2 x W/2
//!  e1  conv 12→12                     H/2   ─────────────────────────────┐
//!  pool, e2 conv 12→16, e3 16→16      H/4   ───────────────────┐         │
//!  pool, e4 conv 16→24, e5 24→24      H/8   ─────────┐         │         │
//!  pool, e6 conv 24→32, e7 32→32      H/16           │         │         │
//!  up, concat e5 → d1 conv 56→24      H/8   ◄────────┘         │         │
//!  up, concat e3 → d2 conv 40→16      H/4   ◄──────────────────┘         │
//!  up, concat e1 → d3 conv 28→8       H/2   ◄────────────────────────────┘
//!  head conv 8→2 (paper, core logits) H/2
//! ```
//!
//! Every convolution is 3x3 with padding 1 and a bias, followed by ReLU
//! (not the head); no batch normalisation, so inference is plain
//! convolutions (`cpu_inference`, ~90M multiply-adds for 256x192).
//! Candle trains it; [`DetectorInference`] runs it.

use candle_core::{D, Result, Tensor};
use candle_nn::{Conv2d, Conv2dConfig, Module, VarBuilder};

use crate::cpu_inference::{Conv3x3, Planes, max_pool2};
use crate::train_stream::softplus_tail;

/// Output channels: paper, then core.
pub const OUTPUTS: usize = 2;
/// Channel of the paper logits.
pub const PAPER: usize = 0;
/// Channel of the core logits.
pub const CORE: usize = 1;
/// Both sides of the input must be multiples of this (space-to-depth and three poolings).
pub const SIDE_MULTIPLE: usize = 16;

/// (name, inputs, outputs) of every convolution, in order.
const LAYERS: [(&str, usize, usize); 11] = [
    ("e1", 12, 12),
    ("e2", 12, 16),
    ("e3", 16, 16),
    ("e4", 16, 24),
    ("e5", 24, 24),
    ("e6", 24, 32),
    ("e7", 32, 32),
    ("d1", 32 + 24, 24),
    ("d2", 24 + 16, 16),
    ("d3", 16 + 12, 8),
    ("head", 8, OUTPUTS),
];

/// The detector as candle trains it.
#[derive(Clone, Debug)]
pub struct SetDetector {
    convs: Vec<Conv2d>,
}

impl SetDetector {
    /// Builds the network; weight names are those of `LAYERS` (`e1` … `head`).
    pub fn new(vb: VarBuilder) -> Result<SetDetector> {
        let config = Conv2dConfig {
            padding: 1,
            ..Conv2dConfig::default()
        };
        let convs = LAYERS
            .iter()
            .map(|&(name, i, o)| candle_nn::conv2d(i, o, 3, config, vb.pp(name)))
            .collect::<Result<Vec<_>>>()?;
        Ok(SetDetector { convs })
    }

    /// Logits `(batch, 2, H/2, W/2)` from standardised images `(batch, 3, H, W)`.
    pub fn forward(&self, images: &Tensor) -> Result<Tensor> {
        let c = &self.convs;
        let relu = |i: usize, x: &Tensor| c[i].forward(x)?.relu();
        let x = space_to_depth(images)?;
        let e1 = relu(0, &x)?;
        let e3 = relu(2, &relu(1, &e1.max_pool2d(2)?)?)?;
        let e5 = relu(4, &relu(3, &e3.max_pool2d(2)?)?)?;
        let e7 = relu(6, &relu(5, &e5.max_pool2d(2)?)?)?;
        let d1 = relu(7, &Tensor::cat(&[&up2(&e7)?, &e5], 1)?)?;
        let d2 = relu(8, &Tensor::cat(&[&up2(&d1)?, &e3], 1)?)?;
        let d3 = relu(9, &Tensor::cat(&[&up2(&d2)?, &e1], 1)?)?;
        c[10].forward(&d3)
    }

    /// The layers for [`DetectorInference`].
    pub fn to_inference(&self) -> Result<DetectorInference> {
        let convs = self
            .convs
            .iter()
            .map(|conv| {
                let bias = conv
                    .bias()
                    .ok_or_else(|| candle_core::Error::Msg("detector conv without bias".into()))?;
                Conv3x3::from_tensors(conv.weight(), bias)
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(DetectorInference { convs })
    }
}

/// `(n, c, h, w)` → `(n, 4c, h/2, w/2)`: each 2x2 block of pixels becomes
/// four channels (`c * 4 + dy * 2 + dx`), a lossless stride-2 first step.
fn space_to_depth(x: &Tensor) -> Result<Tensor> {
    let (n, c, h, w) = x.dims4()?;
    x.reshape((n, c, h / 2, 2, w / 2, 2))?
        .permute((0, 1, 3, 5, 2, 4))?
        .reshape((n, c * 4, h / 2, w / 2))
}

fn up2(x: &Tensor) -> Result<Tensor> {
    let (_, _, h, w) = x.dims4()?;
    x.upsample_nearest2d(h * 2, w * 2)
}

/// Per-pixel mean binary cross-entropy of the logits against 0/1 targets of
/// the same shape, positives of each channel weighted by `positive_weight`
/// (cores cover a few percent of a picture).
pub fn detector_loss(logits: &Tensor, targets: &Tensor, positive_weight: f64) -> Result<Tensor> {
    let x = logits;
    let tail = softplus_tail(x)?;
    // ln(1 + e^x) and ln(1 + e^-x), stably.
    let log_one_plus_exp = (x.relu()? + &tail)?;
    let log_one_plus_exp_neg = (x.neg()?.relu()? + &tail)?;
    let positive = (targets * log_one_plus_exp_neg)?.affine(positive_weight, 0.0)?;
    let negative = (targets.affine(-1.0, 1.0)? * log_one_plus_exp)?;
    (positive + negative)?.mean_all()
}

/// Fraction of pixels per channel where the thresholded logits agree with
/// the targets (a training-time check).
pub fn pixel_agreement(logits: &Tensor, targets: &Tensor) -> Result<Tensor> {
    logits
        .ge(0.0)?
        .to_dtype(targets.dtype())?
        .eq(targets)?
        .to_dtype(candle_core::DType::F32)?
        .mean(D::Minus1)?
        .mean(D::Minus1)?
        .mean(0)
}

/// The detector on plain buffers, for reading photos on one core.
#[derive(Clone, Debug, PartialEq)]
pub struct DetectorInference {
    convs: Vec<Conv3x3>,
}

impl DetectorInference {
    /// Paper and core probabilities `(2, H/2, W/2)`, channel after channel,
    /// for one standardised image given as three planes `(3, H, W)`.
    pub fn probabilities(&self, planes: &[f32], height: usize, width: usize) -> Vec<f32> {
        assert!(
            height.is_multiple_of(SIDE_MULTIPLE) && width.is_multiple_of(SIDE_MULTIPLE),
            "detector input {width}x{height} is not a multiple of {SIDE_MULTIPLE}"
        );
        assert_eq!(planes.len(), 3 * height * width, "detector input size");
        let c = &self.convs;
        let x = planes_space_to_depth(planes, height, width);
        let e1 = c[0].forward(&x, true);
        let e3 = c[2].forward(&c[1].forward(&max_pool2(&e1, false), true), true);
        let e5 = c[4].forward(&c[3].forward(&max_pool2(&e3, false), true), true);
        let e7 = c[6].forward(&c[5].forward(&max_pool2(&e5, false), true), true);
        let d1 = c[7].forward(&concat(&upsample2(&e7), &e5), true);
        let d2 = c[8].forward(&concat(&upsample2(&d1), &e3), true);
        let d3 = c[9].forward(&concat(&upsample2(&d2), &e1), true);
        let mut out = c[10].forward(&d3, false).data;
        out.iter_mut().for_each(|v| *v = 1.0 / (1.0 + (-*v).exp()));
        out
    }
}

/// [`space_to_depth`] on one image's planes.
fn planes_space_to_depth(planes: &[f32], h: usize, w: usize) -> Planes {
    let (h2, w2) = (h / 2, w / 2);
    let mut data = Vec::with_capacity(planes.len());
    for c in 0..3 {
        let plane = &planes[c * h * w..][..h * w];
        for dy in 0..2 {
            for dx in 0..2 {
                for y in 0..h2 {
                    let row = &plane[(2 * y + dy) * w..][..w];
                    data.extend((0..w2).map(|x| row[2 * x + dx]));
                }
            }
        }
    }
    Planes {
        channels: 12,
        batch: 1,
        height: h2,
        width: w2,
        data,
    }
}

/// Nearest-neighbour 2x upsampling (candle's `upsample_nearest2d` to twice the size).
fn upsample2(input: &Planes) -> Planes {
    let (h, w) = (input.height, input.width);
    let mut data = Vec::with_capacity(input.data.len() * 4);
    for plane in input.data.chunks_exact((h * w).max(1)) {
        for row in plane.chunks_exact(w.max(1)) {
            let wide: Vec<f32> = row.iter().flat_map(|&v| [v, v]).collect();
            data.extend_from_slice(&wide);
            data.extend_from_slice(&wide);
        }
    }
    Planes {
        channels: input.channels,
        batch: input.batch,
        height: 2 * h,
        width: 2 * w,
        data,
    }
}

/// Channels of `a` then of `b` (one image each, same size).
fn concat(a: &Planes, b: &Planes) -> Planes {
    assert_eq!(
        (a.height, a.width, a.batch),
        (b.height, b.width, b.batch),
        "concat sizes"
    );
    let mut data = Vec::with_capacity(a.data.len() + b.data.len());
    data.extend_from_slice(&a.data);
    data.extend_from_slice(&b.data);
    Planes {
        channels: a.channels + b.channels,
        batch: a.batch,
        height: a.height,
        width: a.width,
        data,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    #[test]
    fn plain_inference_gives_candles_probabilities() -> Result<()> {
        let device = Device::Cpu;
        let varmap = VarMap::new();
        let vb = crate::seeded::seeded_var_builder(&varmap, 4, DType::F32, &device);
        let net = SetDetector::new(vb)?;
        let (h, w) = (32, 48);
        let values: Vec<f32> = (0..3 * h * w)
            .map(|i| ((i * 37 % 101) as f32 / 50.0) - 1.0)
            .collect();
        let x = Tensor::from_vec(values.clone(), (1, 3, h, w), &device)?;
        let want = candle_nn::ops::sigmoid(&net.forward(&x)?)?
            .flatten_all()?
            .to_vec1::<f32>()?;
        let got = net.to_inference()?.probabilities(&values, h, w);
        assert_eq!(got.len(), OUTPUTS * (h / 2) * (w / 2));
        let worst = got
            .iter()
            .zip(&want)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(worst < 1e-4, "largest difference {worst}");
        Ok(())
    }

    #[test]
    fn loss_is_small_when_logits_agree_and_large_when_not() -> Result<()> {
        let device = Device::Cpu;
        let t = Tensor::new(&[[[[1f32, 0.0]]]], &device)?;
        let good = Tensor::new(&[[[[8f32, -8.0]]]], &device)?;
        let bad = Tensor::new(&[[[[-8f32, 8.0]]]], &device)?;
        let g = detector_loss(&good, &t, 3.0)?.to_scalar::<f32>()?;
        let b = detector_loss(&bad, &t, 3.0)?.to_scalar::<f32>()?;
        assert!(g < 0.01 && b > 5.0, "{g} {b}");
        Ok(())
    }
}
