//! `snapsolve set card` on loosely cropped cards: a picture of one card with
//! table all round it (the card about 80% or 50% of the picture's height,
//! turned a little), and chips cut from tables with parts of the
//! neighbouring cards in view, rendered from fixed seeds, named by the
//! default classifier as the command does (`name_card_picture`). No data
//! folder needed.

use snapsolve::set_photo::example::seeded_cards;
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name, name_card_picture};
use snapsolve_synth::{Edition, TableSpec, render_table};

#[test]
fn loosely_cropped_cards_are_named() {
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    let cards = seeded_cards(24, 77);
    let mut right = 0;
    for (i, &card) in cards.iter().enumerate() {
        let mut spec = TableSpec::new(vec![card], Edition::ALL[i % 2], 900 + i as u64);
        let fill = if i < 12 { 0.9 } else { 0.6 };
        (spec.width, spec.height, spec.fill) = (480, 720, fill);
        spec.clutter = 0;
        let picture = render_table(&spec).image;
        let read = name_card_picture(&picture, classifier.as_ref()).map(|r| r.card());
        eprintln!("{card}: read {read:?}");
        right += usize::from(read == Some(card));
    }
    eprintln!("loose crops: {right} of {} named right", cards.len());
    // Floor just under what this test measured when written: 23 of 24 (12
    // at 80%, 12 at 50%; 19 before the finder's pale-desk passes); 24 since
    // session 31. The whole picture given
    // to the network, as before `card_in_picture`, named 7 of 24 at the 80%
    // framing alone.
    assert!(right >= 22, "{right} of {} named right", cards.len());
}

#[test]
fn chips_cut_from_a_table_with_parts_of_neighbours_are_named() {
    use snapsolve::set_photo::stress::{Condition, chip};

    // As a video's card detector cuts them: each card's bounding box grown
    // by a fifth of its size each way, parts of the neighbours in view.
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    let (mut chips, mut right) = (0, 0);
    for (condition, index) in [(Condition::DimWarm, 0), (Condition::BusySurface, 1)] {
        let table = render_table(&condition.spec(index));
        for placed in &table.cards {
            let chip = chip(&table.image, placed, 0.2);
            let read = name_card_picture(&chip, classifier.as_ref()).map(|r| r.card());
            eprintln!("{}: read {read:?}", placed.card);
            chips += 1;
            right += usize::from(read == Some(placed.card));
        }
    }
    eprintln!("chips: {right} of {chips} named right");
    assert!(right + 1 >= chips, "{right} of {chips} named right");
}
