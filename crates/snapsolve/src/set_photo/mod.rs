//! Reading a SET table from a photo: cards found by `snapsolve_vision`, named by a
//! [`CardClassifier`], then solved by `snapsolve_set`.

pub mod classify;
pub mod detector;
pub mod eval;
pub mod example;
pub mod faces;
pub mod features;
pub mod ink_checks;
pub mod margin;
mod missing_part;
pub mod picture;
pub mod steady;
pub mod stress;
pub mod stripes;
pub mod table;

use std::path::Path;

use image::RgbImage;
use snapsolve_vision::{DecodeError, Limits, read_image};

pub use classify::{CardClassifier, CardReading};
pub use features::FeaturesClassifier;
pub use picture::draw_answer;
pub use table::{TableReading, decode_table_photo, read_table, read_table_photo};

/// Reads a picture of one card filling the frame and brings it to the
/// canonical upright crop classifiers take (turned a quarter if landscape).
pub fn read_card_image(path: &Path, limits: Limits) -> Result<RgbImage, DecodeError> {
    read_image(path, limits).map(|image| snapsolve_vision::crop::canonical_card(&image))
}

/// A picture's share of area a card found in it must cover to be the card
/// the picture shows; above the upper bound the picture is the card itself.
const LOOSE_CARD_SHARE: std::ops::Range<f32> = 0.2..0.9;

/// The upright crop of the card a picture shows when it is cut loosely: when
/// the card finder sees exactly one card taking 20-90% of the picture (table
/// around it), that card cut out; otherwise `None`.
pub fn card_in_picture(image: &RgbImage) -> Option<RgbImage> {
    let finder = snapsolve_vision::CardFinder {
        max_area_fraction: LOOSE_CARD_SHARE.end,
        ..snapsolve_vision::CardFinder::default()
    };
    let area = (image.width() as f32 * image.height() as f32).max(1.0);
    match finder.find(image).as_slice() {
        [quad] if LOOSE_CARD_SHARE.contains(&(quad.area() / area)) => {
            snapsolve_vision::crop::card_crop(image, quad)
        }
        _ => None,
    }
}

/// The upright crop of the card the table reader ([`read_table`]) reads at
/// the middle of a picture, where it covers at least the least share of a
/// loose picture ([`LOOSE_CARD_SHARE`]): a chip cut from a table with a
/// margin round the card shows parts of its neighbours, among which the
/// finder alone often outlines no card (chips of stress tables 400-411 cut
/// with a fifth of the card's size round it; docs/evaluation.md, session 32).
fn card_read_at_middle(image: &RgbImage, classifier: &dyn CardClassifier) -> Option<RgbImage> {
    let area = (image.width() as f32 * image.height() as f32).max(1.0);
    let middle = [image.width() as f32 / 2.0, image.height() as f32 / 2.0];
    let reading = read_table(
        &snapsolve_vision::Photo::from_upright(image.clone()),
        classifier,
    );
    let card = reading.cards.iter().find(|card| {
        card.upright.contains(middle) && card.upright.area() >= LOOSE_CARD_SHARE.start * area
    })?;
    snapsolve_vision::crop::card_crop(image, &card.upright)
}

/// Names a picture of one card, cut tightly or loosely (what `snapsolve set
/// card` is given): see [`name_card_picture_spoilt`].
pub fn name_card_picture(image: &RgbImage, classifier: &dyn CardClassifier) -> Option<CardReading> {
    name_card_picture_spoilt(image, classifier, |crop| crop)
}

/// Names a picture of one card from up to three views, each passed through
/// `spoil` first: the card the table reader reads at its middle
/// ([`card_read_at_middle`]), the card the finder alone finds in it
/// ([`card_in_picture`]) and the whole picture, as [`read_card_image`] takes
/// it; the reading surer of a card and of its name wins, the whole picture on
/// a tie. No view alone will do: a loose picture shows table around the
/// card, and in a tight one the finder may outline a part of the card
/// (around its symbols), which misnamed 45 of the 4,860 standard crops of the
/// shared data where the whole picture misnames 3 (docs/evaluation.md,
/// session 22); a chip cut with parts of the neighbouring cards in view
/// needs the table reader (session 32).
pub fn name_card_picture_spoilt(
    image: &RgbImage,
    classifier: &dyn CardClassifier,
    spoil: impl Fn(RgbImage) -> RgbImage,
) -> Option<CardReading> {
    let views: Vec<RgbImage> = card_read_at_middle(image, classifier)
        .into_iter()
        .chain(card_in_picture(image))
        .chain([snapsolve_vision::crop::canonical_card(image)])
        .map(spoil)
        .collect();
    surest_reading(&views, classifier)
}

/// The reading of the `views` of one card surest of a card and of its name;
/// the last view's on a tie.
fn surest_reading(views: &[RgbImage], classifier: &dyn CardClassifier) -> Option<CardReading> {
    let sureness = |r: &CardReading| r.card_probability.unwrap_or(1.0) * r.confidence();
    classifier
        .classify(views)
        .into_iter()
        .max_by(|a, b| sureness(a).total_cmp(&sureness(b)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use snapsolve_synth::{Edition, TableSpec, render_table};

    /// Reads the crops of a batch, in order, as the card named by
    /// `names[i]` with card probability `sure[i]`, sure of its name.
    struct Scripted {
        names: [&'static str; 2],
        sure: [f32; 2],
    }

    impl CardClassifier for Scripted {
        fn name(&self) -> &'static str {
            "scripted"
        }

        fn classify(&self, crops: &[RgbImage]) -> Vec<CardReading> {
            (0..crops.len())
                .map(|i| {
                    let card: snapsolve_set::Card = self.names[i].parse().expect("a card name");
                    let mut attribute_probabilities = [[0.0; 3]; 4];
                    for (row, value) in attribute_probabilities.iter_mut().zip(card.values()) {
                        row[usize::from(value)] = 1.0;
                    }
                    CardReading {
                        attribute_probabilities,
                        card_probability: Some(self.sure[i]),
                    }
                })
                .collect()
        }
    }

    #[test]
    fn a_picture_of_one_card_is_named_by_its_surer_view_the_whole_on_a_tie() {
        let card = "2-red-solid-oval".parse().expect("a card name");
        let mut spec = TableSpec::new(vec![card], Edition::Standard, 912);
        (spec.width, spec.height, spec.fill, spec.clutter) = (480, 720, 0.6, 0);
        let loose = render_table(&spec).image;
        assert!(
            card_in_picture(&loose).is_some(),
            "the finder sees the card"
        );
        // (The table reader's view is left out here: it names crops of its
        // own, which a scripted classifier cannot foresee.)
        let views = [
            card_in_picture(&loose).expect("the finder sees the card"),
            snapsolve_vision::crop::canonical_card(&loose),
        ];
        let read = |sure: [f32; 2]| {
            let names = ["1-green-open-diamond", "3-purple-striped-squiggle"];
            let reading = surest_reading(&views, &Scripted { names, sure });
            reading.map(|r| r.card().to_string())
        };
        // The cut is read first, the whole picture second.
        assert_eq!(read([0.9, 0.2]).as_deref(), Some("1-green-open-diamond"));
        assert_eq!(
            read([0.2, 0.9]).as_deref(),
            Some("3-purple-striped-squiggle")
        );
        assert_eq!(
            read([0.7, 0.7]).as_deref(),
            Some("3-purple-striped-squiggle")
        );
        // A picture with no card found in it is read whole, its only view.
        let blank = RgbImage::from_pixel(60, 90, image::Rgb([200, 200, 200]));
        assert!(card_in_picture(&blank).is_none());
        let names = ["1-red-solid-oval", "3-purple-striped-squiggle"];
        let whole = name_card_picture(
            &blank,
            &Scripted {
                names,
                sure: [0.1, 0.9],
            },
        );
        assert_eq!(
            whole.map(|r| r.card().to_string()).as_deref(),
            Some("1-red-solid-oval")
        );
    }
}
