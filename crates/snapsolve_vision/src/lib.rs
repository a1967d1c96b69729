//! Pixels for snapsolve: decoding photos safely, thresholds, contours,
//! quadrilaterals, perspective warps, crops and drawn overlays.
//!
//! This crate knows no puzzle rules and no networks: it finds shapes that look
//! like cards or grids and hands over upright crops.
#![deny(missing_docs)]

pub mod crop;
pub mod decode;
pub mod grid;

pub use decode::{DecodeError, Limits, decode_image, read_image};
