//! Every way of finding the SETs in a layout, behind one interface.
//!
//! All finders return the same list: every triple of positions `[i, j, k]` with
//! `i < j < k` whose cards form a SET, sorted. Tests and benchmarks loop over
//! [`all_finders`] (and the solver-backed engines of other crates), so a new
//! engine is checked against the plain one for free.

mod brute;
mod exclusion;
mod fast;
mod group;
mod pairs;

use std::fmt;

use crate::layout::{Layout, Triple};

pub use brute::{BruteForce, find_sets_brute};
pub use exclusion::{OneSetAtATime, enumerate_by_exclusion};
#[cfg(target_arch = "x86_64")]
pub(crate) use fast::vbmi_available;
pub use fast::{Fast, count_sets, find_sets, find_sets_into, has_set, portable};
pub use group::{Grouping, find_sets_grouping};
pub use pairs::{PairLookup, find_sets_pairs};

/// A method of finding all SETs in a layout.
pub trait SetFinder: Sync {
    /// Short name, as accepted by `--engine`.
    fn name(&self) -> &'static str;

    /// The outside solver that answers for this engine (name and version, as
    /// shown to users), or `None` for the finders that are plain code.
    fn solver(&self) -> Option<&'static str> {
        None
    }

    /// All SETs of the layout, as sorted increasing position triples.
    fn find_sets(&self, layout: &Layout) -> Result<Vec<Triple>, EngineError>;
}

/// A solver-backed engine failed (the pure finders never do).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    /// The engine that failed.
    pub engine: &'static str,
    /// What went wrong, from the engine's point of view.
    pub message: String,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} engine failed: {}", self.engine, self.message)
    }
}

impl EngineError {
    /// An error of `engine`, saying what went wrong.
    pub fn new(engine: &'static str, message: impl fmt::Display) -> EngineError {
        EngineError {
            engine,
            message: message.to_string(),
        }
    }
}

impl std::error::Error for EngineError {}

/// The four finders of this crate, plainest first; the last one is the default.
pub fn all_finders() -> [&'static dyn SetFinder; 4] {
    [&BruteForce, &PairLookup, &Grouping, &Fast]
}
