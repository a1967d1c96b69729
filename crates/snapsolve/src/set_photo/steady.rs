//! Doubtful cards named again from outlines moved a little.
//!
//! An outline a few percent off its card (a guess beside other cards, a
//! card whose lit side does not show, a steep table's far card) cuts a crop
//! the network has seen less of, and a card it names with doubt may be read
//! one attribute wrong. Reading it again from outlines shifted and scaled by
//! a few percent and averaging the readings steadies the name, as the sudoku
//! reader does for doubtful cells; sure cards are not read again.
//!
//! The average replaces the first reading only where it is surer of its
//! name. Taken always, it named 75 more cards of 4,896 on stress tables
//! 400-447, but on the shared photos it turned two faint purple striped
//! diamonds of tomwhite's boards (read striped at 0.68 and 0.96) to open: the
//! views of a card whose stripes nearly vanish agree on nothing. Taken only
//! where surer, it names 34 more on those tables and reads the shared photos
//! exactly as before (docs/evaluation.md, session 17).

use snapsolve_vision::Quad;
use snapsolve_vision::crop::card_crop;

use super::classify::{CardClassifier, CardReading};

/// Cards named with less confidence than this are read again. On stress
/// tables 400-447 (4,896 cards, the average always taken), 0.9 named 68
/// more cards than reading none again, 0.99 another 7.
pub const STEADY_BELOW: f32 = 0.99;

/// How far each view moves the outline, as a share of the card's own side.
/// (Four more views shifted along the diagonals named 4 cards fewer on the
/// same tables.)
const SHIFT: f32 = 0.04;
/// How much each view grows or shrinks the outline about its centre.
const ZOOM: f32 = 0.05;

/// The outlines a doubtful card is read again from: shifted along each of
/// its sides both ways, and scaled up and down about its centre.
pub fn views(quad: &Quad) -> [Quad; 6] {
    let c = quad.corners;
    let across = [c[1][0] - c[0][0], c[1][1] - c[0][1]];
    let along = [c[3][0] - c[0][0], c[3][1] - c[0][1]];
    let shifted = |side: [f32; 2], by: f32| quad.map(|[x, y]| [x + by * side[0], y + by * side[1]]);
    [
        shifted(across, SHIFT),
        shifted(across, -SHIFT),
        shifted(along, SHIFT),
        shifted(along, -SHIFT),
        quad.scaled(1.0 + ZOOM),
        quad.scaled(1.0 - ZOOM),
    ]
}

/// Reads every card of `cards` named below [`STEADY_BELOW`] again in its
/// [`views`] of `image`, and names it by the readings averaged (its own
/// among them) where the average is surer than its own reading. Its card
/// probability stays as it was: this changes names, not which candidates
/// are cards.
pub fn steady_doubtful_names(
    image: &image::RgbImage,
    classifier: &dyn CardClassifier,
    cards: &mut [(Quad, CardReading)],
) {
    let mut owners = Vec::new();
    let mut crops = Vec::new();
    for (i, (quad, reading)) in cards.iter().enumerate() {
        if reading.confidence() >= STEADY_BELOW {
            continue;
        }
        for view in views(quad) {
            if let Some(crop) = card_crop(image, &view) {
                owners.push(i);
                crops.push(crop);
            }
        }
    }
    if crops.is_empty() {
        return;
    }
    let mut sums: Vec<([[f32; 3]; 4], f32)> = cards
        .iter()
        .map(|(_, reading)| (reading.attribute_probabilities, 1.0))
        .collect();
    for (i, reading) in owners.into_iter().zip(classifier.classify(&crops)) {
        let (sum, count) = &mut sums[i];
        for (total, p) in sum
            .iter_mut()
            .flatten()
            .zip(reading.attribute_probabilities.iter().flatten())
        {
            *total += p;
        }
        *count += 1.0;
    }
    for ((_, reading), (sum, count)) in cards.iter_mut().zip(sums) {
        let averaged = CardReading {
            attribute_probabilities: sum.map(|row| row.map(|p| p / count)),
            card_probability: reading.card_probability,
        };
        if averaged.confidence() > reading.confidence() {
            *reading = averaged;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use image::{Rgb, RgbImage};

    use super::*;

    /// Reads every crop as one card, sure of it, and counts the crops.
    struct Sure {
        crops: AtomicUsize,
    }

    impl CardClassifier for Sure {
        fn name(&self) -> &'static str {
            "sure"
        }

        fn classify(&self, crops: &[RgbImage]) -> Vec<CardReading> {
            self.crops.fetch_add(crops.len(), Ordering::Relaxed);
            let reading = CardReading {
                attribute_probabilities: [[0.0, 1.0, 0.0]; 4],
                card_probability: Some(0.2),
            };
            vec![reading; crops.len()]
        }
    }

    /// Steadies `cards` on a blank picture with [`Sure`]: how many crops
    /// it was asked to read.
    fn crops_read_steadying(cards: &mut [(Quad, CardReading)]) -> usize {
        let image = RgbImage::from_pixel(300, 200, Rgb([230, 230, 230]));
        let classifier = Sure {
            crops: AtomicUsize::new(0),
        };
        steady_doubtful_names(&image, &classifier, cards);
        classifier.crops.load(Ordering::Relaxed)
    }

    fn card(x: f32) -> Quad {
        Quad {
            corners: [[x, 40.0], [x + 60.0, 40.0], [x + 60.0, 134.0], [x, 134.0]],
        }
    }

    #[test]
    fn views_move_the_outline_a_little_along_its_own_sides() {
        let quad = card(50.0);
        let centres: Vec<[f32; 2]> = views(&quad).iter().map(Quad::centre).collect();
        let [cx, cy] = quad.centre();
        // 4% of the 60-pixel side across, of the 94-pixel side along.
        assert_eq!(centres[0], [cx + 2.4, cy]);
        assert_eq!(centres[1], [cx - 2.4, cy]);
        assert!((centres[2][1] - (cy + 3.76)).abs() < 1e-4);
        assert!((centres[3][1] - (cy - 3.76)).abs() < 1e-4);
        // The zooms keep the centre and change the size.
        assert_eq!(centres[4], [cx, cy]);
        assert!(views(&quad)[4].area() > quad.area() && views(&quad)[5].area() < quad.area());
    }

    #[test]
    fn only_doubtful_cards_are_read_again_and_their_readings_averaged() {
        let doubtful = CardReading {
            attribute_probabilities: [[0.6, 0.4, 0.0]; 4],
            card_probability: Some(0.9),
        };
        let sure = CardReading {
            attribute_probabilities: [[1.0, 0.0, 0.0]; 4],
            card_probability: Some(1.0),
        };
        let mut cards = vec![(card(20.0), sure.clone()), (card(150.0), doubtful)];
        // Six views of the doubtful card only.
        assert_eq!(crops_read_steadying(&mut cards), 6);
        assert_eq!(cards[0].1, sure);
        // Its own reading and six readings of value 1: the name follows them,
        // the card probability stays its own.
        let p = cards[1].1.attribute_probabilities[0];
        assert!((p[0] - 0.6 / 7.0).abs() < 1e-6 && (p[1] - 6.4 / 7.0).abs() < 1e-6);
        assert_eq!(cards[1].1.card_probability, Some(0.9));
        assert_eq!(cards[1].1.card().values(), [1; 4]);
    }

    #[test]
    fn a_card_the_views_read_less_surely_keeps_its_own_name() {
        // 0.9 for each attribute: 0.66 in all, doubtful; the views' value 1
        // averaged with it gives 0.87 for each, 0.58 in all: less sure.
        let own = CardReading {
            attribute_probabilities: [[0.9, 0.1, 0.0]; 4],
            card_probability: Some(1.0),
        };
        let mut cards = vec![(card(150.0), own.clone())];
        assert_eq!(crops_read_steadying(&mut cards), 6);
        assert_eq!(cards[0].1, own);
    }
}
