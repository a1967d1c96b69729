//! SET as a 0-1 integer program: seed 001's model, solved by microlp (or HiGHS
//! with the `highs` feature), exported as LP.
//!
//! [`SetIlp`] holds the model for a layout as data, [`IlpEngine`] finds every
//! SET with no-good cuts (engine 6, `--engine ilp`), and [`write_lp`] writes
//! the model in CPLEX LP format for any other MILP solver.
//!
//! ```
//! use snapsolve_ilp::IlpEngine;
//! use snapsolve_set::{Layout, finders::SetFinder};
//!
//! let layout = Layout::parse("1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle 1-red-open-oval").unwrap();
//! assert_eq!(IlpEngine::PREFERRED.find_sets(&layout).unwrap(), vec![[0, 1, 2]]);
//! ```
#![deny(missing_docs)]

pub mod engine;
pub mod lp_format;
pub mod model;

pub use engine::{IlpEngine, IlpSolver, enumerate_sets, solve_once};
pub use lp_format::{write_lp, write_model_lp};
pub use model::{Row, Sense, SetIlp, Variable, VariableRole};
