//! The SET card game: the 81 cards, every method of finding SETs, hints, and statistics.
//!
//! This crate knows nothing of images, networks or command lines: it takes
//! cards and returns positions.
//!
//! ```
//! use snapsolve_set::{Layout, finders::find_sets};
//!
//! let layout = Layout::parse("1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle 1-red-open-oval").unwrap();
//! assert_eq!(find_sets(layout.cards()), vec![[0, 1, 2]]);
//! ```
#![deny(missing_docs)]

pub mod card;
pub mod check;
pub mod finders;
pub mod hint;
pub mod layout;
pub mod stats;

pub use card::{Attribute, Card, ParseCardError};
pub use layout::{Layout, LayoutError, Triple};
