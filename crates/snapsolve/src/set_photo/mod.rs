//! Reading a SET table from a photo: cards found by `snapsolve_vision`, named by a
//! [`CardClassifier`], then solved by `snapsolve_set`.

pub mod classify;

pub use classify::{CardClassifier, CardReading};
