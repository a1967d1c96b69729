//! The sudoku cell reader: a small convolutional network that tells an empty cell
//! from the digits 1-9, printed or handwritten.
//!
//! Input: `[batch, 1, side, side]` ink values in 0..1 (0 = paper, 1 = ink), as cut
//! out by `snapsolve_vision::grid::sample_cells`. Output: `[batch, 10]` logits,
//! class 0 = empty, classes 1-9 = the digits.
//!
//! Three 3x3 convolutions with 2x2 max-pooling (28 → 14 → 7 → 3), then two
//! linear layers. Small on purpose: all 81 cells of a photo go through it in one
//! batch within a few milliseconds on one core.

use candle_core::{Result, Tensor};
use candle_nn::{Conv2d, Conv2dConfig, Linear, Module, VarBuilder, conv2d, linear};

/// Number of classes: empty and the nine digits.
pub const CLASSES: usize = 10;

/// The network's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Side of the square input, in pixels (a multiple of 8 plus 4 keeps pooling exact: 28).
    pub side: usize,
    /// Channels of the three convolutions.
    pub channels: [usize; 3],
    /// Width of the hidden linear layer.
    pub hidden: usize,
}

impl Config {
    /// The committed model: 28x28 input, 12/24/48 channels, 96 hidden units (~57k weights).
    pub fn small() -> Config {
        Config {
            side: 28,
            channels: [12, 24, 48],
            hidden: 96,
        }
    }

    /// Side of the feature map after three poolings.
    fn pooled_side(&self) -> usize {
        self.side / 8
    }
}

/// The digit network.
#[derive(Clone, Debug)]
pub struct DigitNet {
    conv1: Conv2d,
    conv2: Conv2d,
    conv3: Conv2d,
    fc1: Linear,
    fc2: Linear,
}

impl DigitNet {
    /// Builds the network, taking (or creating, when training) its weights from `vb`.
    pub fn new(config: &Config, vb: VarBuilder) -> Result<DigitNet> {
        let same = Conv2dConfig {
            padding: 1,
            ..Default::default()
        };
        let [c1, c2, c3] = config.channels;
        let flat = c3 * config.pooled_side() * config.pooled_side();
        Ok(DigitNet {
            conv1: conv2d(1, c1, 3, same, vb.pp("conv1"))?,
            conv2: conv2d(c1, c2, 3, same, vb.pp("conv2"))?,
            conv3: conv2d(c2, c3, 3, same, vb.pp("conv3"))?,
            fc1: linear(flat, config.hidden, vb.pp("fc1"))?,
            fc2: linear(config.hidden, CLASSES, vb.pp("fc2"))?,
        })
    }

    /// Logits `[batch, 10]` for ink squares `[batch, 1, side, side]`; `train` turns on dropout.
    pub fn forward_t(&self, xs: &Tensor, train: bool) -> Result<Tensor> {
        let xs = self.conv1.forward(xs)?.relu()?.max_pool2d(2)?;
        let xs = self.conv2.forward(&xs)?.relu()?.max_pool2d(2)?;
        let xs = self.conv3.forward(&xs)?.relu()?.max_pool2d(2)?;
        let xs = xs.flatten_from(1)?;
        let xs = self.fc1.forward(&xs)?.relu()?;
        let xs = if train {
            candle_nn::ops::dropout(&xs, 0.3)?
        } else {
            xs
        };
        self.fc2.forward(&xs)
    }

    /// Logits for inference (no dropout).
    pub fn forward(&self, xs: &Tensor) -> Result<Tensor> {
        self.forward_t(xs, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    #[test]
    fn shapes_flow_from_cells_to_ten_logits() {
        let map = VarMap::new();
        let vb = VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu);
        let config = Config::small();
        let net = DigitNet::new(&config, vb).unwrap();
        let xs = Tensor::zeros((5, 1, config.side, config.side), DType::F32, &Device::Cpu).unwrap();
        assert_eq!(net.forward(&xs).unwrap().dims(), &[5, CLASSES]);
    }
}
