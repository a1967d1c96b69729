//! Reading a SET table from a photo: cards found by `snapsolve_vision`, named by a
//! [`CardClassifier`], then solved by `snapsolve_set`.

pub mod classify;
pub mod detector;
pub mod distort;
pub mod eval;
pub mod example;
pub mod features;
pub mod stress;
pub mod table;

use std::path::Path;

use image::RgbImage;
use snapsolve_vision::{DecodeError, Limits, read_image};

pub use classify::{CardClassifier, CardReading};
pub use features::FeaturesClassifier;
pub use table::{TableReading, decode_table_photo, draw_answer, read_table, read_table_photo};

/// Reads a picture of one card filling the frame and brings it to the
/// canonical upright crop classifiers take (turned a quarter if landscape).
pub fn read_card_image(path: &Path, limits: Limits) -> Result<RgbImage, DecodeError> {
    read_image(path, limits).map(|image| snapsolve_vision::crop::canonical_card(&image))
}

/// Names accepted by [`classifier_by_name`].
pub const CLASSIFIERS: [&str; 2] = ["features", "network"];

/// The classifier used when none is named: the network, which reads both
/// decks better than the hand-made features (docs/evaluation.md).
pub const DEFAULT_CLASSIFIER: &str = "network";

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
