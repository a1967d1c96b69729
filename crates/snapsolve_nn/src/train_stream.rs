//! Training from a stream of freshly made batches, step by step: AdamW with
//! linear warm-up and cosine decay, a generic minibatch loop, multi-head
//! cross-entropy and batched prediction.
//!
//! The loop knows nothing about the data: the caller hands it a closure that
//! builds batch `step` (rendered on the fly, drawn from several pools,
//! augmented) and one that turns a batch into a scalar loss. The SET card and
//! sudoku digit networks both train this way.

use candle_core::{D, DType, Result, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW, VarMap};

/// How long and how fast to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Number of optimiser steps (one minibatch each).
    pub steps: usize,
    /// Peak learning rate, reached after the warm-up.
    pub learning_rate: f64,
    /// Steps of linear warm-up from zero.
    pub warmup_steps: usize,
    /// AdamW decoupled weight decay.
    pub weight_decay: f64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            steps: 1000,
            learning_rate: 3e-3,
            warmup_steps: 50,
            weight_decay: 1e-4,
        }
    }
}

impl TrainConfig {
    /// Learning rate at `step`: linear warm-up, then cosine decay to 2% of the peak.
    pub fn learning_rate_at(&self, step: usize) -> f64 {
        if step < self.warmup_steps {
            return self.learning_rate * (step + 1) as f64 / self.warmup_steps as f64;
        }
        let span = self.steps.saturating_sub(self.warmup_steps).max(1) as f64;
        let t = ((step - self.warmup_steps) as f64 / span).min(1.0);
        let floor = 0.02;
        self.learning_rate
            * (floor + (1.0 - floor) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos()))
    }
}

/// What happened in one step, for progress bars and logs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepReport {
    /// Step index, from 0.
    pub step: usize,
    /// Loss of this step's batch.
    pub loss: f32,
    /// Learning rate used.
    pub learning_rate: f64,
}

/// Runs `config.steps` AdamW steps over every variable of `varmap`.
///
/// `next_batch(step)` builds a batch (any type), `loss(&batch)` computes a
/// scalar loss tensor from it with the network in training mode, and
/// `on_step` sees every step's report. Returns the per-step losses.
pub fn train_loop<B>(
    varmap: &VarMap,
    config: &TrainConfig,
    mut next_batch: impl FnMut(usize) -> Result<B>,
    mut loss: impl FnMut(&B) -> Result<Tensor>,
    mut on_step: impl FnMut(&StepReport),
) -> Result<Vec<f32>> {
    let params = ParamsAdamW {
        lr: config.learning_rate_at(0),
        weight_decay: config.weight_decay,
        ..ParamsAdamW::default()
    };
    let mut optimizer = AdamW::new(varmap.all_vars(), params)?;
    let mut losses = Vec::with_capacity(config.steps);
    for step in 0..config.steps {
        let learning_rate = config.learning_rate_at(step);
        optimizer.set_learning_rate(learning_rate);
        let batch = next_batch(step)?;
        let loss = loss(&batch)?;
        optimizer.backward_step(&loss)?;
        let loss = loss.to_scalar::<f32>()?;
        losses.push(loss);
        on_step(&StepReport {
            step,
            loss,
            learning_rate,
        });
    }
    Ok(losses)
}

/// Mean cross-entropy over several classification heads that share one logits row.
///
/// `logits`: `(batch, heads * classes)`, head after head; `targets`: `(batch, heads)`, `u32`.
pub fn multi_head_cross_entropy(
    logits: &Tensor,
    targets: &Tensor,
    heads: usize,
    classes: usize,
) -> Result<Tensor> {
    let batch = logits.dim(0)?;
    let logits = logits.reshape((batch * heads, classes))?;
    let targets = targets.reshape(batch * heads)?;
    candle_nn::loss::cross_entropy(&logits, &targets)
}

/// Like [`multi_head_cross_entropy`], but each row counts with its weight in
/// `row_weights` (`(batch,)`, `f32`): rows of weight 0 (crops that are not a
/// card, whose attributes mean nothing) teach the heads nothing. The mean is
/// over the weighted rows and heads.
pub fn masked_multi_head_cross_entropy(
    logits: &Tensor,
    targets: &Tensor,
    row_weights: &Tensor,
    heads: usize,
    classes: usize,
) -> Result<Tensor> {
    let batch = logits.dim(0)?;
    let log_p = candle_nn::ops::log_softmax(&logits.reshape((batch * heads, classes))?, D::Minus1)?;
    let picked = log_p
        .gather(&targets.reshape((batch * heads, 1))?, 1)?
        .reshape((batch, heads))?
        .sum(1)?;
    let weight = row_weights.sum_all()?.to_scalar::<f32>()?.max(1.0);
    (picked * row_weights)?
        .sum_all()?
        .affine(-1.0 / (f64::from(weight) * heads as f64), 0.0)
}

/// Mean binary cross-entropy of logits `x` against targets `t` in [0, 1]
/// (same shape), in the stable form `max(x, 0) - x t + ln(1 + e^-|x|)`:
/// candle's own takes the log of a sigmoid, which is minus infinity once a
/// logit passes about -17.
pub fn binary_cross_entropy_with_logits(x: &Tensor, t: &Tensor) -> Result<Tensor> {
    ((x.relu()? - (x * t)?)? + softplus_tail(x)?)?.mean_all()
}

/// `ln(1 + e^-|x|)`, the part of `ln(1 + e^x) = max(x, 0) + ln(1 + e^-|x|)`
/// that never overflows.
pub fn softplus_tail(x: &Tensor) -> Result<Tensor> {
    x.abs()?.neg()?.exp()?.affine(1.0, 1.0)?.log()
}

/// Per-head softmax probabilities: `(batch, heads * classes)` logits to `(batch, heads, classes)`.
pub fn multi_head_softmax(logits: &Tensor, heads: usize, classes: usize) -> Result<Tensor> {
    let batch = logits.dim(0)?;
    candle_nn::ops::softmax_last_dim(&logits.reshape((batch, heads, classes))?)
}

/// Fraction of rows whose argmax over the last dimension equals `targets` (`u32`), per position.
///
/// For `(batch, heads, classes)` probabilities and `(batch, heads)` targets this
/// returns `(batch, heads)` of 0/1 as `f32`.
pub fn correct(probabilities: &Tensor, targets: &Tensor) -> Result<Tensor> {
    probabilities
        .argmax(D::Minus1)?
        .eq(&targets.to_dtype(DType::U32)?)?
        .to_dtype(DType::F32)
}

/// Runs `forward` over `inputs` in chunks of `batch_size` rows and concatenates the outputs.
pub fn predict_in_batches(
    inputs: &Tensor,
    batch_size: usize,
    mut forward: impl FnMut(&Tensor) -> Result<Tensor>,
) -> Result<Tensor> {
    let n = inputs.dim(0)?;
    let mut outputs = Vec::with_capacity(n.div_ceil(batch_size.max(1)));
    let mut start = 0;
    while start < n {
        let len = batch_size.max(1).min(n - start);
        outputs.push(forward(&inputs.narrow(0, start, len)?)?);
        start += len;
    }
    Tensor::cat(&outputs, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;
    use candle_nn::{Linear, Module};

    #[test]
    fn masked_rows_teach_nothing_and_full_weights_match_the_plain_loss() -> Result<()> {
        let device = Device::Cpu;
        let logits = Tensor::new(
            &[
                [2f32, 0.0, -1.0, 0.5, 0.5, 0.0],
                [0.0, 3.0, 0.0, -2.0, 1.0, 0.0],
            ],
            &device,
        )?;
        let targets = Tensor::new(&[[0u32, 1], [2, 0]], &device)?;
        let plain = multi_head_cross_entropy(&logits, &targets, 2, 3)?.to_scalar::<f32>()?;
        let all = Tensor::new(&[1f32, 1.0], &device)?;
        let masked = masked_multi_head_cross_entropy(&logits, &targets, &all, 2, 3)?;
        assert!((masked.to_scalar::<f32>()? - plain).abs() < 1e-5);
        // Only the first row counts: its loss alone.
        let first = Tensor::new(&[1f32, 0.0], &device)?;
        let one = masked_multi_head_cross_entropy(&logits, &targets, &first, 2, 3)?;
        let alone =
            multi_head_cross_entropy(&logits.narrow(0, 0, 1)?, &targets.narrow(0, 0, 1)?, 2, 3)?;
        assert!((one.to_scalar::<f32>()? - alone.to_scalar::<f32>()?).abs() < 1e-5);
        Ok(())
    }

    #[test]
    fn binary_cross_entropy_is_finite_far_out_and_right_near_zero() -> Result<()> {
        let device = Device::Cpu;
        let x = Tensor::new(&[-40f32, 0.0, 40.0], &device)?;
        let t = Tensor::new(&[1f32, 1.0, 0.0], &device)?;
        let loss = binary_cross_entropy_with_logits(&x, &t)?.to_scalar::<f32>()?;
        // ln(1 + e^40) ~ 40 twice, ln 2 once, over three.
        assert!(
            (loss - (80.0 + std::f32::consts::LN_2) / 3.0).abs() < 1e-3,
            "{loss}"
        );
        Ok(())
    }

    #[test]
    fn schedule_warms_up_then_decays() {
        let config = TrainConfig {
            steps: 100,
            learning_rate: 1.0,
            warmup_steps: 10,
            weight_decay: 0.0,
        };
        assert!(config.learning_rate_at(0) < 0.2);
        assert!((config.learning_rate_at(10) - 1.0).abs() < 1e-9);
        assert!(config.learning_rate_at(60) < config.learning_rate_at(30));
        assert!(config.learning_rate_at(99) < 0.05);
    }

    #[test]
    fn loop_fits_a_separable_two_head_problem() -> Result<()> {
        let device = Device::Cpu;
        let varmap = VarMap::new();
        // Seeded variables, as both trainers use: the loop must reach them.
        let vb = crate::seeded::seeded_var_builder(&varmap, 1, DType::F32, &device);
        let layer: Linear = candle_nn::linear(2, 6, vb.pp("fc"))?;
        // Head 0: sign of x; head 1: sign of y (classes 0 and 1 of 3).
        let xs = Tensor::new(
            &[[1f32, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]],
            &device,
        )?;
        let ys = Tensor::new(&[[0u32, 0], [1, 0], [0, 1], [1, 1]], &device)?;
        let config = TrainConfig {
            steps: 200,
            learning_rate: 0.05,
            warmup_steps: 5,
            weight_decay: 0.0,
        };
        let losses = train_loop(
            &varmap,
            &config,
            |_| Ok((xs.clone(), ys.clone())),
            |(x, y)| multi_head_cross_entropy(&layer.forward(x)?, y, 2, 3),
            |_| {},
        )?;
        assert!(losses[losses.len() - 1] < 0.1 * losses[0], "{losses:?}");
        let probs = multi_head_softmax(&predict_in_batches(&xs, 3, |x| layer.forward(x))?, 2, 3)?;
        let right = correct(&probs, &ys)?.sum_all()?.to_scalar::<f32>()?;
        assert_eq!(right, 8.0);
        Ok(())
    }
}
