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
}
