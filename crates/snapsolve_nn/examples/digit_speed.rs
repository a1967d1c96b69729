//! Times the sudoku digit network on random cells: a training step of 128
//! cells (candle, forward + backward + AdamW) and reading the 81 cells of one
//! grid, through candle and through the fast reader the photo path uses.
//! `cargo run --release -p snapsolve_nn --example digit_speed -- [C1 C2 HIDDEN [C3]]`
//! (C3: channels of a third convolution)
//! (default: `Config::small()`); run it on one core: `RAYON_NUM_THREADS=1 taskset -c 1 ...`.

use candle_core::{DType, Device, Tensor};
use candle_nn::{Optimizer, VarMap};
use snapsolve_nn::digits::{Config, DigitNet};
use snapsolve_nn::seeded::seeded_var_builder;

/// Median milliseconds of `runs` calls of `f`.
fn median_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = std::time::Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn main() -> candle_core::Result<()> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    let mut config = Config::small();
    if let [c1, c2, hidden, ref third @ ..] = args[..] {
        config.channels = [c1, c2];
        config.hidden = hidden;
        config.third = third.first().copied();
    }
    let device = Device::Cpu;
    let varmap = VarMap::new();
    let net = DigitNet::new(&config, seeded_var_builder(&varmap, 1, DType::F32, &device))?;
    let params: usize = varmap.all_vars().iter().map(|v| v.elem_count()).sum();
    let side = config.side;
    let cells = Tensor::rand(0f32, 1.0, (81, 1, side, side), &device)?;
    let values: Vec<f32> = cells.flatten_all()?.to_vec1()?;
    let fast = net.fast()?;
    let read_fast = median_ms(41, || {
        std::hint::black_box(fast.probabilities(&values));
    });
    let read_candle = median_ms(21, || {
        std::hint::black_box(net.forward(&cells).and_then(|l| l.to_vec2::<f32>()).ok());
    });
    let mut optimizer = candle_nn::AdamW::new_lr(varmap.all_vars(), 1e-3)?;
    let batch = Tensor::rand(0f32, 1.0, (128, 1, side, side), &device)?;
    let labels = Tensor::zeros(128, DType::U32, &device)?;
    let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
    let step = median_ms(11, || {
        let logits = net.forward_train(&batch, &mut rng).expect("forward");
        let loss = candle_nn::loss::cross_entropy(&logits, &labels).expect("loss");
        optimizer.backward_step(&loss).expect("step");
    });
    println!(
        "{config:?}: {params} weights; 81 cells: fast {read_fast:.2} ms, candle {read_candle:.2} ms; training step of 128: {step:.0} ms"
    );
    Ok(())
}
