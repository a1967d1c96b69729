//! Training any of the classifiers in this crate: mini-batches drawn from an
//! in-memory set of examples, AdamW, cross-entropy, a cosine learning-rate decay
//! and accuracy on a validation set after each epoch.
//!
//! Generic over the network: the caller passes a closure from a batch of inputs to
//! logits and the `VarMap` holding the weights. Examples are flat `f32` rows; an
//! `augment` hook may change each batch before it is used (fresh distortions every
//! epoch).

use candle_core::{D, Device, Result, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarMap, loss};

/// Labelled examples: `inputs.len() == labels.len() * shape.iter().product()`.
#[derive(Clone, Debug, Default)]
pub struct Examples {
    /// One flat row of values per example.
    pub inputs: Vec<f32>,
    /// The class of each example.
    pub labels: Vec<u32>,
    /// The shape of one example (for instance `[1, 28, 28]`).
    pub shape: Vec<usize>,
}

impl Examples {
    /// An empty set of examples of the given shape.
    pub fn new(shape: &[usize]) -> Examples {
        Examples {
            inputs: Vec::new(),
            labels: Vec::new(),
            shape: shape.to_vec(),
        }
    }

    /// Values per example.
    pub fn row_len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of examples.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Adds one example.
    pub fn push(&mut self, input: &[f32], label: u32) {
        debug_assert_eq!(input.len(), self.row_len());
        self.inputs.extend_from_slice(input);
        self.labels.push(label);
    }

    /// The examples at `indices` as an input tensor `[n, shape...]` and label tensor `[n]`.
    pub fn batch(&self, indices: &[usize], device: &Device) -> Result<(Tensor, Tensor)> {
        let row = self.row_len();
        let mut data = Vec::with_capacity(indices.len() * row);
        let mut labels = Vec::with_capacity(indices.len());
        for &i in indices {
            data.extend_from_slice(&self.inputs[i * row..(i + 1) * row]);
            labels.push(self.labels[i]);
        }
        let mut dims = vec![indices.len()];
        dims.extend_from_slice(&self.shape);
        Ok((
            Tensor::from_vec(data, dims, device)?,
            Tensor::from_vec(labels, indices.len(), device)?,
        ))
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Passes over the training examples.
    pub epochs: usize,
    /// Examples per step.
    pub batch_size: usize,
    /// Peak learning rate (decayed by a cosine to 5% of it).
    pub learning_rate: f64,
    /// AdamW weight decay.
    pub weight_decay: f64,
    /// Seed of the shuffling.
    pub seed: u64,
}

/// What one epoch achieved.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// Epoch number, from 1.
    pub epoch: usize,
    /// Mean training loss.
    pub train_loss: f32,
    /// Share of validation examples classified right (`None` without validation examples).
    pub validation_accuracy: Option<f32>,
}

/// A small deterministic generator (SplitMix64) for shuffling, so runs repeat.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform value in 0..1.
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A uniform index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Trains the weights in `vars` so that `forward(inputs, train)` gives logits for
/// `train_set`'s labels; reports each epoch to `on_epoch`.
pub fn train_classifier<F, A, R>(
    vars: &VarMap,
    forward: F,
    train_set: &Examples,
    validation: &Examples,
    config: &TrainConfig,
    mut augment: A,
    mut on_epoch: R,
) -> Result<Vec<EpochReport>>
where
    F: Fn(&Tensor, bool) -> Result<Tensor>,
    A: FnMut(&mut [f32], &mut SplitMix),
    R: FnMut(&EpochReport),
{
    let device = Device::Cpu;
    let params = ParamsAdamW {
        lr: config.learning_rate,
        weight_decay: config.weight_decay,
        ..Default::default()
    };
    let mut optimizer = AdamW::new(vars.all_vars(), params)?;
    let mut rng = SplitMix(config.seed);
    let steps_per_epoch = train_set.len().div_ceil(config.batch_size.max(1));
    let total_steps = (steps_per_epoch * config.epochs).max(1);
    let mut order: Vec<usize> = (0..train_set.len()).collect();
    let mut reports = Vec::with_capacity(config.epochs);
    let mut step = 0usize;
    for epoch in 1..=config.epochs {
        rng.shuffle(&mut order);
        let (mut loss_sum, mut batches) = (0.0f32, 0usize);
        for chunk in order.chunks(config.batch_size.max(1)) {
            let progress = step as f64 / total_steps as f64;
            let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
            optimizer.set_learning_rate(config.learning_rate * (0.05 + 0.95 * cosine));
            let (inputs, labels) = train_set.batch(chunk, &device)?;
            let inputs = augmented(inputs, &mut augment, &mut rng, train_set.row_len())?;
            let logits = forward(&inputs, true)?;
            let loss = loss::cross_entropy(&logits, &labels)?;
            optimizer.backward_step(&loss)?;
            loss_sum += loss.to_scalar::<f32>()?;
            batches += 1;
            step += 1;
        }
        let validation_accuracy = if validation.is_empty() {
            None
        } else {
            Some(accuracy(&forward, validation, config.batch_size.max(1))?)
        };
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / batches.max(1) as f32,
            validation_accuracy,
        };
        on_epoch(&report);
        reports.push(report);
    }
    Ok(reports)
}

/// Applies the augmentation hook to every example of a batch.
fn augmented<A>(inputs: Tensor, augment: &mut A, rng: &mut SplitMix, row: usize) -> Result<Tensor>
where
    A: FnMut(&mut [f32], &mut SplitMix),
{
    let dims = inputs.dims().to_vec();
    let mut data = inputs.flatten_all()?.to_vec1::<f32>()?;
    for example in data.chunks_mut(row) {
        augment(example, rng);
    }
    Tensor::from_vec(data, dims, inputs.device())
}

/// Share of `examples` whose highest logit is their label.
pub fn accuracy<F>(forward: &F, examples: &Examples, batch_size: usize) -> Result<f32>
where
    F: Fn(&Tensor, bool) -> Result<Tensor>,
{
    let device = Device::Cpu;
    let mut right = 0usize;
    let all: Vec<usize> = (0..examples.len()).collect();
    for chunk in all.chunks(batch_size) {
        let (inputs, labels) = examples.batch(chunk, &device)?;
        let predicted = forward(&inputs, false)?.argmax(D::Minus1)?;
        let hits = predicted
            .eq(&labels)?
            .to_dtype(candle_core::DType::F32)?
            .sum_all()?;
        right += hits.to_scalar::<f32>()? as usize;
    }
    Ok(right as f32 / examples.len().max(1) as f32)
}
