//! Pixels for snapsolve: decoding photos safely, thresholds, contours,
//! quadrilaterals, perspective warps, resizing, crops and drawn overlays.
//!
//! This crate knows no puzzle rules and no networks: it finds shapes that look
//! like cards or grids and hands over upright crops.
#![deny(missing_docs)]

pub mod adaptive;
pub mod blur;
pub mod cards;
pub mod contours;
pub mod crop;
pub mod decode;
pub mod draw;
pub mod fill;
pub mod grid;
mod linear;
pub mod morphology;
pub mod noise;
pub mod quad;
pub mod resample;
pub mod shrink;
pub mod threshold;
pub mod warp;

pub use cards::{CardFinder, find_cards};
pub use decode::{
    DecodeError, Limits, Photo, decode_image, decode_photo, decode_photo_reduced, read_bytes,
    read_image, read_photo,
};
pub use quad::Quad;
