//! Reading a SET table from a photo: cards found by `snapsolve_vision`, named by a
//! [`CardClassifier`], then solved by `snapsolve_set`.

pub mod classify;
pub mod eval;
pub mod features;
pub mod table;

pub use classify::{CardClassifier, CardReading};
pub use features::FeaturesClassifier;
pub use table::{TableReading, draw_answer, read_table};

/// Names accepted by [`classifier_by_name`].
pub const CLASSIFIERS: [&str; 2] = ["features", "network"];

/// The classifier used when none is named (the hand-made features one until
/// the network lands).
pub const DEFAULT_CLASSIFIER: &str = "features";

/// A classifier by its name (see [`CLASSIFIERS`]).
pub fn classifier_by_name(name: &str) -> Option<Box<dyn CardClassifier>> {
    match name {
        "features" => Some(Box::new(FeaturesClassifier)),
        "network" => NetworkClassifier::embedded()
            .ok()
            .map(|c| Box::new(c) as Box<dyn CardClassifier>),
        _ => None,
    }
}
pub mod network;

pub use network::NetworkClassifier;
