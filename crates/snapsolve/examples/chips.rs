//! Single-card chips cut from rendered stress tables as a video's card
//! detector might cut them: each card's upright bounding box grown by
//! MARGIN of its size on every side (parts of its neighbours in view), named
//! as `snapsolve set card` names a picture (`name_card_picture`):
//! `chips [MARGIN] [FIRST] [COUNT]` (default 0.2, 400, 12). Session 32
//! measured with it (docs/evaluation.md).

use snapsolve::set_photo::stress::{Condition, chip};
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name, name_card_picture};
use snapsolve_synth::render_table;

const CONDITIONS: [Condition; 6] = [
    Condition::LightWood,
    Condition::BusySurface,
    Condition::DimWarm,
    Condition::MovingPhone,
    Condition::WhiteOnWhite,
    Condition::TwentyOneTouching,
];

fn main() {
    let arg = |n: usize| std::env::args().nth(n);
    let margin: f32 = arg(1).and_then(|s| s.parse().ok()).unwrap_or(0.2);
    let first: usize = arg(2).and_then(|s| s.parse().ok()).unwrap_or(400);
    let count: usize = arg(3).and_then(|s| s.parse().ok()).unwrap_or(12);
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    for condition in CONDITIONS {
        let (mut chips, mut right) = (0, 0);
        for index in first..first + count {
            let table = render_table(&condition.spec(index));
            for placed in &table.cards {
                let read =
                    name_card_picture(&chip(&table.image, placed, margin), classifier.as_ref());
                chips += 1;
                right += usize::from(read.is_some_and(|r| r.card() == placed.card));
            }
        }
        println!(
            "{:14} margin {margin}: {right} of {chips} named right",
            condition.name()
        );
    }
}
