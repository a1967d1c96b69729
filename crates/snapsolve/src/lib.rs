//! The front door of snapsolve: turns what a user has (card names, a puzzle, a
//! photo) into a reading with confidences and then into an answer.
//!
//! The CLI (and any other front end) calls this crate and nothing below it, so
//! it never needs to know which algorithm answers.
#![deny(missing_docs)]

pub mod data;
pub mod distort;
pub mod images;
pub mod json;
pub mod set;
pub mod set_photo;
pub mod sudoku;
pub mod sudoku_photo;
pub mod textures;
pub mod train;
