//! SET as a SAT problem: seed 004's CNF, enumerated by a CDCL solver (BatSat, or
//! CaDiCaL with the `cadical` feature), exported as DIMACS.
//!
//! [`SetCnf`] builds the clauses for a layout, [`SatEngine`] finds every SET
//! with blocking clauses (engine 5, `--engine sat`), and [`write_dimacs`] writes
//! the CNF for any other solver.
//!
//! ```
//! use snapsolve_sat::SatEngine;
//! use snapsolve_set::{Layout, finders::SetFinder};
//!
//! let layout = Layout::parse("1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle 1-red-open-oval").unwrap();
//! assert_eq!(SatEngine::PREFERRED.find_sets(&layout).unwrap(), vec![[0, 1, 2]]);
//! ```
#![deny(missing_docs)]

pub mod dimacs;
pub mod encoding;
pub mod engine;

pub use dimacs::write_dimacs;
pub use encoding::{ClauseFamilies, PROPERTY_LITERALS, PropertyLiteral, SetCnf};
pub use engine::{SatEngine, SatSolver, enumerate_sets};
