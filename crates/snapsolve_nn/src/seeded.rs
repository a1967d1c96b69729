//! Reproducible training: initial weights and dropout masks drawn from a
//! seeded generator.
//!
//! candle 0.11 draws both from the CPU's thread generator, which cannot be
//! seeded (`Device::Cpu.set_seed` fails), so two runs of one training command
//! gave different weights. [`seeded_var_builder`] creates every variable from
//! the `Init` hint the layer asks for (the same distributions candle would
//! use: Kaiming-normal convolution and linear weights, uniform biases, ones
//! and zeros for batch norm), in the order the network creates them, from one
//! seeded generator; [`dropout`] takes its mask from the caller's generator.

use std::sync::Mutex;

use candle_core::{DType, Device, Result, Shape, Tensor, Var};
use candle_nn::init::{Init, NormalOrUniform};
use candle_nn::var_builder::SimpleBackend;
use candle_nn::{VarBuilder, VarMap};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, Normal};

/// A `VarBuilder` that stores new variables in `varmap` (to train and save
/// them) and draws their initial values from a generator seeded by `seed`:
/// building the same network twice with one seed gives identical weights.
pub fn seeded_var_builder<'a>(
    varmap: &VarMap,
    seed: u64,
    dtype: DType,
    device: &Device,
) -> VarBuilder<'a> {
    let backend = SeededInit {
        vars: varmap.clone(),
        rng: Mutex::new(StdRng::seed_from_u64(seed)),
    };
    VarBuilder::from_backend(Box::new(backend), dtype, device.clone())
}

/// Inverted dropout: zeroes each element with probability `p` and scales the
/// rest by `1 / (1 - p)`, the mask drawn from `rng` (as `candle_nn::ops::dropout`
/// does from the unseeded thread generator).
pub fn dropout<R: Rng + ?Sized>(xs: &Tensor, p: f32, rng: &mut R) -> Result<Tensor> {
    if !(0.0..1.0).contains(&p) {
        candle_core::bail!("dropout probability has to be in [0, 1), got {p}")
    }
    let scale = 1.0 / (1.0 - p);
    let mask: Vec<f32> = (0..xs.elem_count())
        .map(|_| if rng.random::<f32>() < p { 0.0 } else { scale })
        .collect();
    let mask = Tensor::from_vec(mask, xs.shape(), xs.device())?.to_dtype(xs.dtype())?;
    xs * mask
}

/// Creates missing variables from their `Init` hint with a seeded generator;
/// existing ones are returned as they are (as `VarMap` does).
struct SeededInit {
    vars: VarMap,
    rng: Mutex<StdRng>,
}

impl SimpleBackend for SeededInit {
    fn get(
        &self,
        shape: Shape,
        name: &str,
        init: Init,
        dtype: DType,
        device: &Device,
    ) -> Result<Tensor> {
        let mut vars = self
            .vars
            .data()
            .lock()
            .map_err(|_| candle_core::Error::Msg("variable map lock poisoned".into()))?;
        if let Some(var) = vars.get(name) {
            if var.shape() != &shape {
                candle_core::bail!("shape mismatch on {name}: {shape:?} <> {:?}", var.shape())
            }
            return Ok(var.as_tensor().clone());
        }
        let mut rng = self
            .rng
            .lock()
            .map_err(|_| candle_core::Error::Msg("generator lock poisoned".into()))?;
        let values = initial_values(&init, &shape, &mut rng)?;
        let tensor = Tensor::from_vec(values, shape, device)?.to_dtype(dtype)?;
        // The layer must hold the variable's own tensor (not the values it was
        // copied from), or the optimiser's updates never reach the network.
        let var = Var::from_tensor(&tensor)?;
        let tensor = var.as_tensor().clone();
        vars.insert(name.to_string(), var);
        Ok(tensor)
    }

    fn get_unchecked(&self, name: &str, _dtype: DType, _device: &Device) -> Result<Tensor> {
        candle_core::bail!("{name}: a seeded variable map needs the shape, use `get`")
    }

    fn contains_tensor(&self, name: &str) -> bool {
        self.vars
            .data()
            .lock()
            .is_ok_and(|vars| vars.contains_key(name))
    }
}

/// Values for a new variable, following `candle_nn::Init::var`.
fn initial_values(init: &Init, shape: &Shape, rng: &mut StdRng) -> Result<Vec<f32>> {
    let n = shape.elem_count();
    let normal = |mean: f64, stdev: f64, rng: &mut StdRng| -> Result<Vec<f32>> {
        let dist = Normal::new(mean, stdev).map_err(|e| candle_core::Error::Msg(e.to_string()))?;
        Ok((0..n).map(|_| dist.sample(rng) as f32).collect())
    };
    let uniform = |lo: f64, up: f64, rng: &mut StdRng| -> Vec<f32> {
        (0..n)
            .map(|_| (lo + (up - lo) * rng.random::<f64>()) as f32)
            .collect()
    };
    Ok(match *init {
        Init::Const(value) => vec![value as f32; n],
        Init::Uniform { lo, up } => uniform(lo, up, rng),
        Init::Randn { mean, stdev } => normal(mean, stdev, rng)?,
        Init::Kaiming {
            dist,
            fan,
            non_linearity,
        } => {
            let stdev = non_linearity.gain() / (fan.for_shape(shape) as f64).sqrt();
            match dist {
                NormalOrUniform::Uniform => {
                    let bound = 3f64.sqrt() * stdev;
                    uniform(-bound, bound, rng)
                }
                NormalOrUniform::Normal => normal(0.0, stdev, rng)?,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(seed: u64) -> Result<VarMap> {
        let varmap = VarMap::new();
        let vb = seeded_var_builder(&varmap, seed, DType::F32, &Device::Cpu);
        candle_nn::linear(20, 30, vb.pp("fc"))?;
        candle_nn::batch_norm(4, 1e-5, vb.pp("norm"))?;
        Ok(varmap)
    }

    fn values(varmap: &VarMap, name: &str) -> Result<Vec<f32>> {
        let vars = varmap.data().lock().expect("not poisoned");
        vars[name].as_tensor().flatten_all()?.to_vec1()
    }

    #[test]
    fn one_seed_gives_one_set_of_weights() -> Result<()> {
        let (a, b, c) = (build(5)?, build(5)?, build(6)?);
        assert_eq!(values(&a, "fc.weight")?, values(&b, "fc.weight")?);
        assert_eq!(values(&a, "fc.bias")?, values(&b, "fc.bias")?);
        assert_ne!(values(&a, "fc.weight")?, values(&c, "fc.weight")?);
        Ok(())
    }

    #[test]
    fn distributions_follow_the_layer_hints() -> Result<()> {
        let varmap = build(1)?;
        // Kaiming normal for ReLU: standard deviation sqrt(2 / fan_in).
        let w = values(&varmap, "fc.weight")?;
        let var = w.iter().map(|x| x * x).sum::<f32>() / w.len() as f32;
        assert!((var - 0.1).abs() < 0.03, "variance {var}");
        // Bias uniform within 1 / sqrt(fan_in).
        let bound = 1.0 / 20f32.sqrt();
        assert!(values(&varmap, "fc.bias")?.iter().all(|b| b.abs() <= bound));
        assert_eq!(values(&varmap, "norm.weight")?, vec![1.0; 4]);
        assert_eq!(values(&varmap, "norm.running_mean")?, vec![0.0; 4]);
        Ok(())
    }

    #[test]
    fn dropout_is_repeatable_and_keeps_the_mean() -> Result<()> {
        let xs = Tensor::ones(10_000, DType::F32, &Device::Cpu)?;
        let run = |seed| -> Result<Vec<f32>> {
            dropout(&xs, 0.2, &mut StdRng::seed_from_u64(seed))?.to_vec1()
        };
        let a = run(3)?;
        assert_eq!(a, run(3)?);
        let mean = a.iter().sum::<f32>() / a.len() as f32;
        assert!((mean - 1.0).abs() < 0.05, "mean {mean}");
        assert!(a.iter().all(|&v| v == 0.0 || (v - 1.25).abs() < 1e-6));
        Ok(())
    }
}
