//! Exact and simulated statistics of SET: caps, random deals and whole games.
//!
//! - [`caps`]: how many sets of `k` cards hold no SET, exactly, for every `k`;
//! - [`symmetry`] (private): the counting identity that makes those exact
//!   counts cheap, by exploiting the affine symmetry of the deck.
//!
//! Long computations report progress through a [`Progress`] callback and use
//! every core through rayon; their results never depend on the thread count.

pub mod caps;
mod symmetry;

pub use caps::{CapTable, NoSetChance, count_caps};
pub use symmetry::binomial;

/// Called with (work done, total work) as a long computation advances, from any thread.
pub type Progress<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// A [`Progress`] callback that ignores reports.
pub fn no_progress(_done: u64, _total: u64) {}
