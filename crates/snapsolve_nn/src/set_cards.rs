//! The SET card network: an upright card crop in, four attribute heads
//! (number, color, shading, shape) of three logits each out, and one logit
//! saying whether the crop is a SET card at all.
//!
//! Four small heads rather than 81 classes: every head sees every card, so
//! each attribute learns from 27 times more examples, and the caller gets a
//! per-attribute confidence. The body is a stack of strided 3x3 convolutions
//! (each halves the resolution) with batch normalisation and ReLU; the last
//! feature map is flattened, not pooled, so the heads still know where the
//! symbols are (which is how one counts them).

use crate::cpu_inference::{Conv3x3, Dense, Planes};
use candle_core::{Module, ModuleT, Result, Tensor};
use candle_nn::{BatchNorm, Conv2d, Conv2dConfig, Linear, VarBuilder};

/// Number of attribute heads.
pub const HEADS: usize = 4;
/// Values per attribute.
pub const CLASSES: usize = 3;
/// Column of the card/not-a-card logit, after the attribute heads.
pub const CARD_LOGIT: usize = HEADS * CLASSES;
/// Logits per crop: the attribute heads, then the card logit.
pub const OUTPUTS: usize = HEADS * CLASSES + 1;

/// Shape of the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Input width in pixels (the crop is resized to this).
    pub input_width: usize,
    /// Input height in pixels.
    pub input_height: usize,
    /// Output channels of each stride-2 convolution.
    pub channels: Vec<usize>,
}

impl Config {
    /// The shipped network: 48x72 input (a 96x150 crop shrunk by 2), three
    /// stages of 8-16-32 channels, a 6x9x32 feature map, about 27k weights.
    /// Chosen by measurement: it trains at ~90 ms per batch of 32 on one core
    /// and reads 16 crops in ~5 ms; 64x96 with 16-24-32-48 took 8x longer per step.
    pub fn small() -> Config {
        Config {
            input_width: 48,
            input_height: 72,
            channels: vec![8, 16, 32],
        }
    }

    /// A tiny network for tests.
    pub fn tiny() -> Config {
        Config {
            input_width: 32,
            input_height: 48,
            channels: vec![4, 8],
        }
    }

    /// Side of the last feature map: each stage halves both sides.
    fn feature_size(&self) -> (usize, usize) {
        let shrink = 1 << self.channels.len();
        (self.input_height / shrink, self.input_width / shrink)
    }
}

/// One convolution stage.
#[derive(Clone, Debug)]
struct Stage {
    conv: Conv2d,
    norm: BatchNorm,
}

/// The SET card network.
#[derive(Clone, Debug)]
pub struct SetCardNet {
    stages: Vec<Stage>,
    head: Linear,
}

impl SetCardNet {
    /// Builds the network; weight names are `stage{i}.conv`, `stage{i}.norm`, `head`.
    ///
    /// Both input sides must be divisible by `2^stages`: candle 0.11's
    /// backward pass of a stride-2 convolution gets odd sizes wrong.
    pub fn new(config: &Config, vb: VarBuilder) -> Result<SetCardNet> {
        let shrink = 1 << config.channels.len();
        if !config.input_width.is_multiple_of(shrink) || !config.input_height.is_multiple_of(shrink)
        {
            candle_core::bail!(
                "input {}x{} is not divisible by {shrink}",
                config.input_width,
                config.input_height
            );
        }
        let conv_config = Conv2dConfig {
            padding: 1,
            stride: 2,
            ..Conv2dConfig::default()
        };
        let mut stages = Vec::with_capacity(config.channels.len());
        let mut inputs = 3;
        for (i, &out) in config.channels.iter().enumerate() {
            let vb = vb.pp(format!("stage{i}"));
            let conv = candle_nn::conv2d_no_bias(inputs, out, 3, conv_config, vb.pp("conv"))?;
            let norm = candle_nn::batch_norm(out, 1e-5, vb.pp("norm"))?;
            stages.push(Stage { conv, norm });
            inputs = out;
        }
        let (h, w) = config.feature_size();
        // One layer for all five heads: the card logit reads the same
        // features as the attributes, at 193 weights per extra output.
        let head = candle_nn::linear(inputs * h * w, OUTPUTS, vb.pp("head"))?;
        Ok(SetCardNet { stages, head })
    }

    /// Logits `(batch, OUTPUTS)` (attributes head after head, then the card
    /// logit at [`CARD_LOGIT`]) from images `(batch, 3, height, width)`;
    /// `train` selects batch statistics (and updates the running ones).
    pub fn forward_t(&self, images: &Tensor, train: bool) -> Result<Tensor> {
        let mut x = images.clone();
        for stage in &self.stages {
            x = stage
                .norm
                .forward_t(&stage.conv.forward(&x)?, train)?
                .relu()?;
        }
        self.head.forward(&x.flatten_from(1)?)
    }

    /// Inference: logits with the running statistics.
    pub fn forward(&self, images: &Tensor) -> Result<Tensor> {
        self.forward_t(images, false)
    }

    /// The same network with its current weights, for reading only: each
    /// batch norm (its running statistics) folded into the convolution
    /// before it, every layer one GEMM over the batch
    /// ([`crate::cpu_inference`]). Candle's stride-2 convolutions took a
    /// tenth of reading a far-away table, most of it outside the
    /// multiplications.
    pub fn fast(&self) -> Result<FastSetCardNet> {
        let stages = self
            .stages
            .iter()
            .map(|stage| {
                let (gamma, beta) = stage
                    .norm
                    .weight_and_bias()
                    .ok_or_else(|| candle_core::Error::Msg("batch norm without weights".into()))?;
                let spread = (stage.norm.running_var() + stage.norm.eps())?.sqrt()?;
                let scale = (gamma / spread)?;
                let shift = (beta - (stage.norm.running_mean() * &scale)?)?;
                let weight = stage
                    .conv
                    .weight()
                    .broadcast_mul(&scale.reshape(((), 1, 1, 1))?)?;
                Conv3x3::from_tensors(&weight, &shift)
            })
            .collect::<Result<Vec<_>>>()?;
        let bias = self
            .head
            .bias()
            .ok_or_else(|| candle_core::Error::Msg("head without bias".into()))?;
        Ok(FastSetCardNet {
            stages,
            head: Dense::from_tensors(self.head.weight(), bias)?,
        })
    }
}

/// The SET card network for reading only, on plain buffers ([`SetCardNet::fast`]).
#[derive(Clone, Debug)]
pub struct FastSetCardNet {
    stages: Vec<Conv3x3>,
    head: Dense,
}

impl FastSetCardNet {
    /// Logits, [`OUTPUTS`] a picture (the attributes' heads, then the card
    /// logit at [`CARD_LOGIT`]), of `batch` pictures of three planes of
    /// `height x width` values each, picture after picture.
    pub fn logits(&self, pictures: &[f32], batch: usize, height: usize, width: usize) -> Vec<f32> {
        let mut planes = Planes::from_nchw(pictures, batch, 3, height, width);
        for stage in &self.stages {
            planes = stage.forward_stride2(&planes, true);
        }
        self.head.forward(&planes.to_rows(), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    #[test]
    fn output_has_four_heads_of_three_and_a_card_logit() -> Result<()> {
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
        for config in [Config::tiny(), Config::small()] {
            let net = SetCardNet::new(&config, vb.pp(format!("{}", config.input_width)))?;
            let x = Tensor::zeros(
                (2, 3, config.input_height, config.input_width),
                DType::F32,
                &Device::Cpu,
            )?;
            assert_eq!(net.forward(&x)?.dims(), &[2, OUTPUTS]);
            assert_eq!(net.forward_t(&x, true)?.dims(), &[2, OUTPUTS]);
        }
        Ok(())
    }

    #[test]
    fn the_fast_network_gives_candles_logits() -> Result<()> {
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
        let config = Config::small();
        let net = SetCardNet::new(&config, vb)?;
        let (h, w) = (config.input_height, config.input_width);
        // Training passes move the batch norms' running statistics away
        // from 0 and 1, so that folding them is put to the test.
        for _ in 0..3 {
            let x = (Tensor::randn(0f32, 1.0, (4, 3, h, w), &Device::Cpu)? * 2.0)?;
            net.forward_t(&(x + 0.7)?, true)?;
        }
        let x = Tensor::randn(0f32, 1.0, (5, 3, h, w), &Device::Cpu)?;
        let want: Vec<f32> = net.forward(&x)?.flatten_all()?.to_vec1()?;
        let got = net.fast()?.logits(&x.flatten_all()?.to_vec1()?, 5, h, w);
        assert_eq!(got.len(), want.len());
        let worst = got
            .iter()
            .zip(&want)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-3, "largest difference {worst}");
        Ok(())
    }
}
