//! Single-card chips cut from rendered stress tables as a video's card
//! detector might cut them: each card's upright bounding box grown by
//! MARGIN of its size on every side (parts of its neighbours in view), named
//! as `snapsolve set card` names a picture (`name_card_picture`):
//! `chips [MARGIN] [FIRST] [COUNT] [OUT_DIR] [CONDITION...]` (default 0.2,
//! 400, 12, none, the six conditions below). With `OUT_DIR` (`-` for none),
//! every chip named wrong is saved there, named by its condition, table,
//! true card and reading. `photographed-cards` gives chips of real cards
//! (faces cut from the shared table photos) under the stress suite's light.
//! Sessions 32 and 43 measured with it (docs/evaluation.md).

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
    let out = arg(4).filter(|dir| dir != "-");
    let named: Vec<Condition> = std::env::args()
        .skip(5)
        .map(|name| {
            Condition::by_name(&name).unwrap_or_else(|| {
                eprintln!("chips: no stress condition is called {name}");
                std::process::exit(2)
            })
        })
        .collect();
    let conditions = if named.is_empty() {
        CONDITIONS.to_vec()
    } else {
        named
    };
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    for condition in conditions {
        let (mut chips, mut right) = (0, 0);
        for index in first..first + count {
            let table = render_table(&condition.spec(index));
            for placed in &table.cards {
                let picture = chip(&table.image, placed, margin);
                let read = name_card_picture(&picture, classifier.as_ref()).map(|r| r.card());
                chips += 1;
                right += usize::from(read == Some(placed.card));
                if let (Some(dir), false) = (&out, read == Some(placed.card)) {
                    let read = read.map_or("nothing".to_string(), |c| c.to_string());
                    let name =
                        format!("{}-{index}-{}-as-{read}.png", condition.name(), placed.card);
                    if let Err(e) = picture.save(std::path::Path::new(dir).join(name)) {
                        eprintln!("{e}");
                    }
                }
            }
        }
        println!(
            "{:14} margin {margin}: {right} of {chips} named right",
            condition.name()
        );
    }
}
