//! The sudoku cell reader: a small convolutional network that tells an empty
//! cell from the digits 1-9, printed or handwritten.
//!
//! Input: `[batch, 1, side, side]` ink values in 0..1 (0 = paper, 1 = ink), as cut
//! out by `snapsolve_vision::grid::sample_cells`. Output: `[batch, 10]` logits,
//! class 0 = empty, classes 1-9 = the digits.
//!
//! Two 3x3 convolutions (padding 1), each with ReLU and 2x2 max pooling
//! (28 -> 14 -> 7), optionally a third 3x3 convolution on the 7x7 planes,
//! then a hidden dense layer with dropout in training and the ten logits. It trains with candle ([`DigitNet`]) and reads photos with the
//! same weights through [`FastDigitNet`] (`crate::cpu_inference`: one GEMM per
//! layer over the 81 cells), because candle's CPU convolutions took 7-33 ms
//! for 81 cells on one core against a budget of 50 ms for the whole photo.
//! (The previous reader, a perceptron 784-256-128, read handwriting worse:
//! models/README.md.)

use std::collections::HashMap;

use candle_core::{Result, Tensor};
use candle_nn::{Conv2d, Conv2dConfig, Linear, Module, VarBuilder, conv2d, linear};
use rand::Rng;

use crate::cpu_inference::{Conv3x3, Dense, Planes, max_pool2, softmax_rows};
use crate::seeded::dropout;

/// Number of classes: empty and the nine digits.
pub const CLASSES: usize = 10;
/// Dropout on the hidden dense layer in training.
const DROPOUT: f32 = 0.25;

/// The network's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Side of the square input, in pixels (a multiple of 4).
    pub side: usize,
    /// Channels of the two convolutions.
    pub channels: [usize; 2],
    /// Channels of a third 3x3 convolution (padding 1, ReLU, no pooling) on
    /// the `side / 4` planes after the second pooling, if any.
    pub third: Option<usize>,
    /// Width of the hidden dense layer.
    pub hidden: usize,
}

impl Config {
    /// The committed model until session 14: 28x28 input, 12 and 24
    /// channels, 96 hidden units.
    pub fn small() -> Config {
        Config {
            side: 28,
            channels: [12, 24],
            third: None,
            hidden: 96,
        }
    }

    /// Wider, with a third convolution: 16 and 32 channels, then 64 on the
    /// 7x7 planes, 128 hidden units (426,122 weights; about 2.5 times the
    /// small network's work per cell); the committed model since session 15.
    pub fn deeper() -> Config {
        Config {
            side: 28,
            channels: [16, 32],
            third: Some(64),
            hidden: 128,
        }
    }

    /// The shape of a network saved with [`DigitNet`]'s weight names (`conv1`,
    /// `conv2`, optionally `conv3`, `fc1`, `fc2`), read from the weights
    /// themselves, so a reader loads weights of any size it is given.
    pub fn of_weights(weights: &HashMap<String, Tensor>) -> Result<Config> {
        let out_channels = |name: &str| match weights.get(&format!("{name}.weight")) {
            Some(w) => Ok(w.dims4()?.0),
            None => candle_core::bail!("digit weights lack {name}.weight"),
        };
        let channels = [out_channels("conv1")?, out_channels("conv2")?];
        let third = match weights.contains_key("conv3.weight") {
            true => Some(out_channels("conv3")?),
            false => None,
        };
        let Some(fc1) = weights.get("fc1.weight") else {
            candle_core::bail!("digit weights lack fc1.weight");
        };
        let (hidden, features) = fc1.dims2()?;
        // features = last channels * (side / 4)^2
        let quarter = (features / third.unwrap_or(channels[1])).isqrt();
        let config = Config {
            side: 4 * quarter,
            channels,
            third,
            hidden,
        };
        if config.features() != features {
            candle_core::bail!(
                "digit weights: fc1 takes {features} values, not a square of channels"
            );
        }
        Ok(config)
    }

    /// Values the dense layers see per cell.
    fn features(&self) -> usize {
        self.third.unwrap_or(self.channels[1]) * (self.side / 4) * (self.side / 4)
    }
}

/// The digit network, for training (candle).
#[derive(Clone, Debug)]
pub struct DigitNet {
    config: Config,
    conv1: Conv2d,
    conv2: Conv2d,
    conv3: Option<Conv2d>,
    fc1: Linear,
    fc2: Linear,
}

impl DigitNet {
    /// Builds the network, taking (or creating, when training) its weights from `vb`.
    pub fn new(config: &Config, vb: VarBuilder) -> Result<DigitNet> {
        if !config.side.is_multiple_of(4) {
            candle_core::bail!("the input side must be a multiple of 4");
        }
        let same = Conv2dConfig {
            padding: 1,
            ..Default::default()
        };
        let [c1, c2] = config.channels;
        Ok(DigitNet {
            config: *config,
            conv1: conv2d(1, c1, 3, same, vb.pp("conv1"))?,
            conv2: conv2d(c1, c2, 3, same, vb.pp("conv2"))?,
            conv3: match config.third {
                Some(c3) => Some(conv2d(c2, c3, 3, same, vb.pp("conv3"))?),
                None => None,
            },
            fc1: linear(config.features(), config.hidden, vb.pp("fc1"))?,
            fc2: linear(config.hidden, CLASSES, vb.pp("fc2"))?,
        })
    }

    /// Logits `[batch, 10]` for ink squares `[batch, 1, side, side]` in
    /// training: dropout after the hidden layer, its mask drawn from `rng` so
    /// a seeded run repeats exactly.
    pub fn forward_train<R: Rng + ?Sized>(&self, xs: &Tensor, rng: &mut R) -> Result<Tensor> {
        self.run(xs, |t| dropout(&t, DROPOUT, rng))
    }

    /// Logits for inference (no dropout), through candle.
    pub fn forward(&self, xs: &Tensor) -> Result<Tensor> {
        self.run(xs, Ok)
    }

    fn run(&self, xs: &Tensor, drop: impl FnOnce(Tensor) -> Result<Tensor>) -> Result<Tensor> {
        let xs = self.conv1.forward(xs)?.relu()?.max_pool2d(2)?;
        let mut xs = self.conv2.forward(&xs)?.relu()?.max_pool2d(2)?;
        if let Some(conv3) = &self.conv3 {
            xs = conv3.forward(&xs)?.relu()?;
        }
        let xs = drop(self.fc1.forward(&xs.flatten_from(1)?)?.relu()?)?;
        self.fc2.forward(&xs)
    }

    /// The same network with its current weights, for fast reading.
    pub fn fast(&self) -> Result<FastDigitNet> {
        let conv = |c: &Conv2d| match c.bias() {
            Some(b) => Conv3x3::from_tensors(c.weight(), b),
            None => candle_core::bail!("digit convolutions have biases"),
        };
        let dense = |l: &Linear| match l.bias() {
            Some(b) => Dense::from_tensors(l.weight(), b),
            None => candle_core::bail!("digit dense layers have biases"),
        };
        Ok(FastDigitNet {
            side: self.config.side,
            conv1: conv(&self.conv1)?,
            conv2: conv(&self.conv2)?,
            conv3: self.conv3.as_ref().map(conv).transpose()?,
            fc1: dense(&self.fc1)?,
            fc2: dense(&self.fc2)?,
        })
    }
}

/// The digit network for reading only, on plain buffers (see the module docs).
#[derive(Clone, Debug)]
pub struct FastDigitNet {
    side: usize,
    conv1: Conv3x3,
    conv2: Conv3x3,
    conv3: Option<Conv3x3>,
    fc1: Dense,
    fc2: Dense,
}

impl FastDigitNet {
    /// Class probabilities for `cells` (`side * side` ink values per cell,
    /// cell after cell): [`CLASSES`] values per cell.
    pub fn probabilities(&self, cells: &[f32]) -> Vec<f32> {
        let per_cell = self.side * self.side;
        let batch = cells.len() / per_cell;
        let planes = Planes::from_gray(
            cells[..batch * per_cell].to_vec(),
            batch,
            self.side,
            self.side,
        );
        let planes = max_pool2(&self.conv1.forward(&planes, false), true);
        let mut planes = max_pool2(&self.conv2.forward(&planes, false), true);
        if let Some(conv3) = &self.conv3 {
            planes = conv3.forward(&planes, true);
        }
        let hidden = self.fc1.forward(&planes.to_rows(), true);
        let mut logits = self.fc2.forward(&hidden, false);
        softmax_rows(&mut logits, CLASSES);
        logits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device};
    use candle_nn::VarMap;

    fn random_net(config: &Config) -> DigitNet {
        let map = VarMap::new();
        let vb = crate::seeded::seeded_var_builder(&map, 3, DType::F32, &Device::Cpu);
        DigitNet::new(config, vb).expect("network")
    }

    /// Without and with a third convolution.
    fn configs() -> [Config; 2] {
        [Config::small(), Config::deeper()]
    }

    #[test]
    fn shapes_flow_from_cells_to_ten_logits() {
        for config in configs() {
            let xs = Tensor::zeros((5, 1, config.side, config.side), DType::F32, &Device::Cpu)
                .expect("zeros");
            assert_eq!(
                random_net(&config).forward(&xs).expect("forward").dims(),
                &[5, CLASSES]
            );
        }
    }

    #[test]
    fn the_shape_is_read_back_from_saved_weights() {
        for config in configs() {
            let map = VarMap::new();
            let vb = crate::seeded::seeded_var_builder(&map, 3, DType::F32, &Device::Cpu);
            DigitNet::new(&config, vb).expect("network");
            let weights: HashMap<String, Tensor> = map
                .data()
                .lock()
                .expect("weights")
                .iter()
                .map(|(name, var)| (name.clone(), var.as_tensor().clone()))
                .collect();
            assert_eq!(Config::of_weights(&weights).expect("shape"), config);
        }
    }

    #[test]
    fn the_fast_reader_gives_candles_probabilities() {
        for config in configs() {
            fast_matches_candle(&random_net(&config));
        }
    }

    fn fast_matches_candle(net: &DigitNet) {
        let xs = Tensor::rand(0f32, 1.0, (81, 1, 28, 28), &Device::Cpu).expect("cells");
        let want = candle_nn::ops::softmax_last_dim(&net.forward(&xs).expect("forward"))
            .and_then(|p| p.flatten_all())
            .and_then(|p| p.to_vec1::<f32>())
            .expect("probabilities");
        let cells = xs.flatten_all().and_then(|c| c.to_vec1()).expect("values");
        let got = net.fast().expect("fast").probabilities(&cells);
        let worst = got
            .iter()
            .zip(&want)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f32::max);
        assert!(worst < 1e-5, "largest difference {worst}");
    }
}
