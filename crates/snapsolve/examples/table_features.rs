//! Per card of rendered stress tables that a read card lies on: the truth,
//! the reading, the network's colour and shading probabilities (text-form
//! order: red green purple, solid striped open), and the hand-made
//! classifier's `fill` and `hue` of the read crop (-1 where it finds no
//! ink): `table_features CONDITION FIRST COUNT`. Session 46 measured with it
//! whether a table's open cards tell its striped ones (docs/evaluation.md).

use snapsolve::set_photo::features::measure;
use snapsolve::set_photo::stress::{Condition, read_card_on, run_condition};
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_vision::crop::card_crop;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, first, count] = args.as_slice() else {
        return Err("usage: table_features CONDITION FIRST COUNT".into());
    };
    let condition = Condition::by_name(name).ok_or(format!("no condition {name}"))?;
    let first: usize = first.parse().map_err(|e| format!("{first}: {e}"))?;
    let count: usize = count.parse().map_err(|e| format!("{count}: {e}"))?;
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no classifier")?;
    let mut print_cards = |index: usize, table: &snapsolve_synth::Table, reading: &_, _: &_| {
        for placed in &table.cards {
            let Some(read) = read_card_on(reading, placed) else {
                continue;
            };
            let p = read.reading.attribute_probabilities;
            let features = card_crop(&table.image, &read.upright).and_then(|c| measure(&c));
            let (fill, hue, sat) =
                features.map_or((-1.0, -1.0, -1.0), |f| (f.fill, f.hue, f.saturation));
            println!(
                "{index} {} {} col {:.2} {:.2} {:.2} sh {:.2} {:.2} {:.2} fill {fill:.3} hue {hue:.0} sat {sat:.2}",
                placed.card, read.card, p[1][0], p[1][1], p[1][2], p[2][0], p[2][1], p[2][2]
            );
        }
    };
    run_condition(
        condition,
        first..first + count,
        classifier.as_ref(),
        Default::default(),
        &mut print_cards,
    );
    Ok(())
}
