//! The sudoku cell reader: a small network that tells an empty cell from the
//! digits 1-9, printed or handwritten.
//!
//! Input: `[batch, 1, side, side]` ink values in 0..1 (0 = paper, 1 = ink), as cut
//! out by `snapsolve_vision::grid::sample_cells`. Output: `[batch, 10]` logits,
//! class 0 = empty, classes 1-9 = the digits.
//!
//! A multilayer perceptron (two hidden layers with ReLU), not a convolutional
//! network: on one core candle 0.11's CPU convolutions took 26-44 ms for the 81
//! cells of one photo even with 8/16/32 channels (and ~0.3-0.55 s per training
//! step of 128), against a budget of 50 ms for the whole photo; the perceptron
//! reads 81 cells in about a millisecond. Shift tolerance comes from training on
//! shifted and jittered cells instead of from pooling.

use candle_core::{Result, Tensor};
use candle_nn::{Linear, Module, VarBuilder, linear};
use rand::Rng;

use crate::seeded::dropout;

/// Number of classes: empty and the nine digits.
pub const CLASSES: usize = 10;

/// The network's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Side of the square input, in pixels.
    pub side: usize,
    /// Widths of the two hidden layers.
    pub hidden: [usize; 2],
}

impl Config {
    /// The committed model: 28x28 input, hidden layers of 256 and 128 (~235k weights).
    pub fn small() -> Config {
        Config {
            side: 28,
            hidden: [256, 128],
        }
    }
}

/// The digit network.
#[derive(Clone, Debug)]
pub struct DigitNet {
    fc1: Linear,
    fc2: Linear,
    fc3: Linear,
}

impl DigitNet {
    /// Builds the network, taking (or creating, when training) its weights from `vb`.
    pub fn new(config: &Config, vb: VarBuilder) -> Result<DigitNet> {
        let [h1, h2] = config.hidden;
        Ok(DigitNet {
            fc1: linear(config.side * config.side, h1, vb.pp("fc1"))?,
            fc2: linear(h1, h2, vb.pp("fc2"))?,
            fc3: linear(h2, CLASSES, vb.pp("fc3"))?,
        })
    }

    /// Logits `[batch, 10]` for ink squares `[batch, 1, side, side]` in
    /// training: dropout after each hidden layer, its masks drawn from `rng`
    /// so a seeded run repeats exactly.
    pub fn forward_train<R: Rng + ?Sized>(&self, xs: &Tensor, rng: &mut R) -> Result<Tensor> {
        self.run(xs, |t| dropout(&t, 0.2, rng))
    }

    /// Logits for inference (no dropout).
    pub fn forward(&self, xs: &Tensor) -> Result<Tensor> {
        self.run(xs, Ok)
    }

    fn run(&self, xs: &Tensor, mut drop: impl FnMut(Tensor) -> Result<Tensor>) -> Result<Tensor> {
        let xs = xs.flatten_from(1)?;
        let xs = drop(self.fc1.forward(&xs)?.relu()?)?;
        let xs = drop(self.fc2.forward(&xs)?.relu()?)?;
        self.fc3.forward(&xs)
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

    #[test]
    #[ignore = "prints the time of a training step and of reading 81 cells; run by hand"]
    fn time_one_training_step() {
        use candle_nn::Optimizer;
        let map = VarMap::new();
        let vb = VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu);
        let net = DigitNet::new(&Config::small(), vb).unwrap();
        let mut opt = candle_nn::AdamW::new_lr(map.all_vars(), 1e-3).unwrap();
        let xs = Tensor::rand(0f32, 1f32, (128, 1, 28, 28), &Device::Cpu).unwrap();
        let ys = Tensor::zeros(128, DType::U32, &Device::Cpu).unwrap();
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
        let start = std::time::Instant::now();
        for _ in 0..20 {
            let logits = net.forward_train(&xs, &mut rng).unwrap();
            let loss = candle_nn::loss::cross_entropy(&logits, &ys).unwrap();
            opt.backward_step(&loss).unwrap();
        }
        let step = start.elapsed().as_secs_f64() * 50.0;
        let cells = xs.narrow(0, 0, 81).unwrap();
        let start = std::time::Instant::now();
        for _ in 0..20 {
            net.forward(&cells).unwrap();
        }
        let read = start.elapsed().as_secs_f64() * 50.0;
        eprintln!("{step:.1} ms per step of 128, {read:.2} ms per 81 cells");
    }
}
