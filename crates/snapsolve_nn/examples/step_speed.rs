//! Measures training steps per second and inference time of the SET card
//! network on random inputs: `cargo run --release -p snapsolve_nn --example step_speed -- [BATCH] [C1,C2,..] [W] [H]`.

use candle_core::{DType, Device, Tensor};
use candle_nn::{VarBuilder, VarMap};
use snapsolve_nn::set_cards::{CLASSES, Config, HEADS, SetCardNet};
use snapsolve_nn::train_stream::{TrainConfig, multi_head_cross_entropy, train_loop};

fn main() -> candle_core::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let batch: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(32);
    let mut config = Config::small();
    if let Some(c) = args.get(2) {
        config.channels = c.split(',').filter_map(|s| s.parse().ok()).collect();
    }
    if let (Some(w), Some(h)) = (args.get(3), args.get(4)) {
        config.input_width = w.parse().unwrap_or(48);
        config.input_height = h.parse().unwrap_or(72);
    }
    let device = Device::Cpu;
    let varmap = VarMap::new();
    let net = SetCardNet::new(
        &config,
        VarBuilder::from_varmap(&varmap, DType::F32, &device),
    )?;
    let params: usize = varmap.all_vars().iter().map(|v| v.elem_count()).sum();
    let x = Tensor::randn(
        0f32,
        1.0,
        (batch, 3, config.input_height, config.input_width),
        &device,
    )?;
    let y = Tensor::zeros((batch, HEADS), DType::U32, &device)?;
    let steps = 20;
    let start = std::time::Instant::now();
    let train = TrainConfig {
        steps,
        ..TrainConfig::default()
    };
    train_loop(
        &varmap,
        &train,
        |_| Ok(()),
        |_| {
            let logits = net.forward_t(&x, true)?.narrow(1, 0, HEADS * CLASSES)?;
            multi_head_cross_entropy(&logits, &y, HEADS, CLASSES)
        },
        |_| {},
    )?;
    let per_step = start.elapsed().as_secs_f64() / steps as f64;
    let x16 = x.narrow(0, 0, batch.min(16))?;
    let start = std::time::Instant::now();
    for _ in 0..20 {
        net.forward(&x16)?;
    }
    let infer = start.elapsed().as_secs_f64() / 20.0;
    println!(
        "{config:?} params {params}: {:.1} ms per training step of {batch}, {:.2} ms inference of {}",
        per_step * 1e3,
        infer * 1e3,
        x16.dim(0)?
    );
    Ok(())
}
