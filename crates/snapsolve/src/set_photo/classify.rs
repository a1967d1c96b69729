//! The one interface every card classifier implements.
//!
//! A classifier receives upright canonical card crops (portrait, long side
//! vertical, `snapsolve_vision` sizes them) and returns, per crop, a probability
//! for each value of each attribute. Readings with low confidence or repeated
//! cards are reported by the caller, never silently accepted.

use image::RgbImage;
use snapsolve_set::{Attribute, Card};

/// What a classifier believes about one crop.
#[derive(Clone, Debug, PartialEq)]
pub struct CardReading {
    /// Probabilities of the three values of each attribute, text-form order
    /// (number, color, shading, shape); each row sums to 1.
    pub attribute_probabilities: [[f32; 3]; 4],
    /// Probability that the crop shows a SET card at all (not paper, a
    /// playing card, half a card or the table); `None` from a classifier
    /// that cannot tell, whose every crop is taken as a card.
    pub card_probability: Option<f32>,
}

impl CardReading {
    /// The most likely card: the most likely value of each attribute.
    pub fn card(&self) -> Card {
        let values = self.attribute_probabilities.map(|p| argmax(&p) as u8);
        // Every value is 0..3 by construction, so the card exists.
        Card::from_values(values).unwrap_or_else(|| unreachable!("argmax of 3 is below 3"))
    }

    /// Confidence of the whole reading: the product of the chosen values' probabilities.
    pub fn confidence(&self) -> f32 {
        self.attribute_probabilities
            .iter()
            .map(|p| p[argmax(p)])
            .product()
    }

    /// Probability of one attribute's chosen value.
    pub fn attribute_confidence(&self, attribute: Attribute) -> f32 {
        let p = &self.attribute_probabilities[Attribute::ALL
            .iter()
            .position(|a| *a == attribute)
            .unwrap_or(0)];
        p[argmax(p)]
    }

    /// How sure the reading is of a card and of its name: the card
    /// probability (1 from a classifier that cannot tell) times the
    /// confidence.
    pub fn sureness(&self) -> f32 {
        self.card_probability.unwrap_or(1.0) * self.confidence()
    }

    /// Whether the crop is taken for a SET card: its card probability is at
    /// least `threshold`, or the classifier cannot tell.
    pub fn is_card(&self, threshold: f32) -> bool {
        self.card_probability.is_none_or(|p| p >= threshold)
    }

    /// Probability the classifier gives a particular card.
    pub fn probability_of(&self, card: Card) -> f32 {
        let v = card.values();
        (0..4)
            .map(|a| self.attribute_probabilities[a][v[a] as usize])
            .product()
    }
}

fn argmax(p: &[f32; 3]) -> usize {
    (1..3).fold(0, |best, i| if p[i] > p[best] { i } else { best })
}

/// Names upright card crops.
pub trait CardClassifier: Send + Sync {
    /// Short name, e.g. `network` or `features`.
    fn name(&self) -> &'static str;

    /// Reads a batch of crops (batching lets networks amortise their overhead).
    fn classify(&self, crops: &[RgbImage]) -> Vec<CardReading>;
}

/// A classifier that names each crop twice, as it is and smoothed, and
/// keeps the surer reading: for grainy pictures, whose grain the network
/// can read as stripes and as "no card" on a faint card. The smoothing is
/// fixed in crop pixels, so it takes the same share of a symbol's stroke on
/// a card of any size in the picture (smoothing the picture instead blurs
/// far-off cards' strokes away and moves the finder's outlines); keeping the
/// surer of the two leaves alone the cards the grain did not hide.
pub struct SmoothedCrops<'a> {
    /// The classifier that names the crops.
    pub inner: &'a dyn CardClassifier,
    /// The Gaussian's deviation in crop pixels.
    pub sigma: f32,
}

impl CardClassifier for SmoothedCrops<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn classify(&self, crops: &[RgbImage]) -> Vec<CardReading> {
        let smoothed: Vec<RgbImage> = crops
            .iter()
            .map(|c| snapsolve_vision::noise::smoothed(c, self.sigma))
            .collect();
        let plain = self.inner.classify(crops);
        let smooth = self.inner.classify(&smoothed);
        plain
            .into_iter()
            .zip(smooth)
            .map(|(plain, smooth)| {
                if smooth.sureness() > plain.sureness() {
                    smooth
                } else {
                    plain
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_picks_the_likeliest_value_of_each_attribute() {
        let reading = CardReading {
            attribute_probabilities: [
                [0.1, 0.8, 0.1],
                [0.9, 0.05, 0.05],
                [0.2, 0.2, 0.6],
                [0.0, 0.5, 0.5],
            ],
            card_probability: None,
        };
        assert_eq!(reading.card().to_string(), "2-red-open-oval");
        assert!((reading.confidence() - 0.8 * 0.9 * 0.6 * 0.5).abs() < 1e-6);
        let card: Card = "1-red-solid-diamond".parse().unwrap();
        assert!((reading.probability_of(card) - 0.1 * 0.9 * 0.2 * 0.0).abs() < 1e-6);
    }

    /// Takes a crop for a card the less grain it measures, and names every
    /// crop 1-red-solid-oval.
    struct GrainShy;

    impl CardClassifier for GrainShy {
        fn name(&self) -> &'static str {
            "grain-shy"
        }

        fn classify(&self, crops: &[RgbImage]) -> Vec<CardReading> {
            crops
                .iter()
                .map(|crop| CardReading {
                    attribute_probabilities: [[0.9, 0.05, 0.05]; 4],
                    card_probability: Some(
                        1.0 / (1.0 + snapsolve_vision::noise::noise_level(crop)),
                    ),
                })
                .collect()
        }
    }

    #[test]
    fn smoothed_crops_keep_the_surer_of_the_two_readings() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let clean = RgbImage::from_fn(96, 150, |x, _| {
            image::Rgb(if x % 24 < 3 { [150, 30, 30] } else { [230; 3] })
        });
        let mut grainy = clean.clone();
        for p in grainy.pixels_mut() {
            let g: f32 = (0..12).map(|_| rng.random::<f32>()).sum::<f32>() - 6.0;
            p.0 =
                p.0.map(|v| (f32::from(v) + 12.0 * g).clamp(0.0, 255.0) as u8);
        }
        let twice = SmoothedCrops {
            inner: &GrainShy,
            sigma: 1.5,
        };
        let [on_grain, on_clean] = [&grainy, &clean].map(|crop| {
            let once = GrainShy.classify(std::slice::from_ref(crop))[0].clone();
            (once, twice.classify(std::slice::from_ref(crop))[0].clone())
        });
        // The grain smoothed away, the smoothed view is surer and wins.
        assert!(on_grain.1.sureness() > 2.0 * on_grain.0.sureness());
        // A clean crop is named as it is.
        assert_eq!(on_clean.1, on_clean.0);
        assert_eq!(twice.name(), "grain-shy");
    }
}
