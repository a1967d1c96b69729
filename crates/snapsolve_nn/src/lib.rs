//! Small neural networks for snapsolve, built on candle and run on the CPU.
//!
//! One file per network: a `Config` with named presets, `new(&Config, VarBuilder)`,
//! and `forward` from an input tensor to logits. Inputs are tensors, never
//! images: turning pixels into tensors is the caller's business. Weights are
//! loaded only at the program's edge (embedded safetensors).
#![deny(missing_docs)]

pub mod cpu_inference;
pub mod digits;
pub mod seeded;
pub mod set_cards;
pub mod set_detector;
pub mod train_stream;
