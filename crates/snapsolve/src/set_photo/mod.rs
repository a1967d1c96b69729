//! Reading a SET table from a photo: cards found by `snapsolve_vision`, named by a
//! [`CardClassifier`], then solved by `snapsolve_set`.

pub mod classify;
pub mod detector;
pub mod distort;
pub mod eval;
pub mod example;
pub mod features;
pub mod steady;
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

/// Reads a picture of one card, cut tightly or loosely (what `snapsolve set
/// card` is given): see [`card_in_picture`].
pub fn read_any_card_image(path: &Path, limits: Limits) -> Result<RgbImage, DecodeError> {
    read_image(path, limits).map(|image| card_in_picture(&image))
}

/// A picture's share of area a card found in it must cover to be the card
/// the picture shows; above the upper bound the picture is the card itself.
const LOOSE_CARD_SHARE: std::ops::Range<f32> = 0.2..0.9;

/// The upright crop of the card a picture shows: when the card finder sees
/// exactly one card taking 20-90% of the picture (a loose crop, with table
/// around it), that card cut out of it; otherwise the whole picture (a
/// tight crop), as [`read_card_image`] takes it.
pub fn card_in_picture(image: &RgbImage) -> RgbImage {
    let finder = snapsolve_vision::CardFinder {
        max_area_fraction: LOOSE_CARD_SHARE.end,
        ..snapsolve_vision::CardFinder::default()
    };
    let area = (image.width() as f32 * image.height() as f32).max(1.0);
    match finder.find(image).as_slice() {
        [quad] if LOOSE_CARD_SHARE.contains(&(quad.area() / area)) => {
            snapsolve_vision::crop::card_crop(image, quad)
                .unwrap_or_else(|| snapsolve_vision::crop::canonical_card(image))
        }
        _ => snapsolve_vision::crop::canonical_card(image),
    }
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
