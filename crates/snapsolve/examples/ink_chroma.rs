//! How colourful the ink of card crops is against their paper
//! (`snapsolve_vision::crop::ink_colour_spread`), the lowest five of each
//! colour named: `ink_chroma crops` (every crop of the shared `crops.csv`),
//! `ink_chroma photos` (every card read on the shared table photos),
//! `ink_chroma stress FIRST` (every card read on 24 stress tables of every
//! condition from FIRST; cards read where none lies are listed apart as
//! false), `ink_chroma free` (every card read on the card-free photos of
//! `eval/set_card_free.jsonl`, whole and cut to a card's shape at full and
//! half height: all false). Run from the repository with `../shared/data`
//! beside it. Session 32 set the grey-ink floors of `set_photo::table` from
//! it (docs/evaluation.md); the reader it runs leaves the greyest of one or
//! two cards out already, so `free` lists only what passes.

use std::path::Path;

use image::RgbImage;
use snapsolve::images::Limits;
use snapsolve::set_photo::eval::{parse_crop_labels, parse_photo_labels};
use snapsolve::set_photo::stress::Condition;
use snapsolve::set_photo::table::{TableReading, read_table, read_table_photo};
use snapsolve::set_photo::{CardClassifier, DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_set::Card;
use snapsolve_vision::crop::{canonical_card, card_crop, ink_colour_spread};
use snapsolve_vision::{Photo, Quad};

type Error = Box<dyn std::error::Error>;

/// Spreads with what they were measured on, and the card read or labelled.
type Spreads = Vec<(f32, String, Card)>;

/// The lowest five spreads of each colour.
fn report(name: &str, mut spreads: Spreads) {
    spreads.sort_by(|a, b| a.0.total_cmp(&b.0));
    println!("{name}: {} cards", spreads.len());
    for (colour, label) in ["red", "green", "purple"].into_iter().enumerate() {
        let lowest: Vec<String> = spreads
            .iter()
            .filter(|(_, _, card)| usize::from(card.values()[1]) == colour)
            .take(5)
            .map(|(spread, what, card)| format!("{spread:.3} {card} ({what})"))
            .collect();
        println!("  {label}: {}", lowest.join(", "));
    }
}

/// The spread of every card `reading` holds, as cut from `image`.
fn read_spreads(image: &RgbImage, reading: TableReading, what: &str, into: &mut Spreads) {
    for card in reading.cards {
        let spread = card_crop(image, &card.upright).and_then(|crop| ink_colour_spread(&crop));
        into.push((spread.unwrap_or(-1.0), what.to_string(), card.card));
    }
}

/// A card-shaped cut about the middle of `image`, `share` of its height.
fn card_shaped_cut(image: &RgbImage, share: f32) -> RgbImage {
    let (w, h) = image.dimensions();
    let ch = (h as f32 * share) as u32;
    let cw = ((ch as f32 / 1.56) as u32).min(w);
    image::imageops::crop_imm(image, (w - cw) / 2, (h - ch) / 2, cw, ch).to_image()
}

fn crops() -> Result<(), Error> {
    let labels = parse_crop_labels(&std::fs::read_to_string("../shared/data/set/crops.csv")?)?;
    let mut spreads = Spreads::new();
    for label in labels {
        let image = image::open(format!("../shared/data/{}", label.image))?.to_rgb8();
        let spread = ink_colour_spread(&canonical_card(&image)).unwrap_or(-1.0);
        spreads.push((spread, label.image, label.card));
    }
    report("crops", spreads);
    Ok(())
}

fn photos(classifier: &dyn CardClassifier) -> Result<(), Error> {
    let mut spreads = Spreads::new();
    for list in ["photos.jsonl", "more_photos.jsonl"] {
        let text = std::fs::read_to_string(format!("../shared/data/set/{list}"))?;
        for label in parse_photo_labels(&text)? {
            let path = format!("../shared/data/{}", label.image);
            let photo = read_table_photo(Path::new(&path), Limits::default())?;
            let reading = read_table(&photo, classifier);
            read_spreads(&photo.image, reading, &label.image, &mut spreads);
        }
    }
    report("cards read on the table photos", spreads);
    Ok(())
}

fn stress(first: usize, classifier: &dyn CardClassifier) {
    let mut false_cards = Spreads::new();
    for condition in Condition::ALL {
        let mut spreads = Spreads::new();
        for index in first..first + 24 {
            let table = snapsolve_synth::render_table(&condition.spec(index));
            let photo = Photo::from_upright(table.image.clone());
            let reading = read_table(&photo, classifier);
            let mut read = Spreads::new();
            read_spreads(&photo.image, reading.clone(), &index.to_string(), &mut read);
            for (card, spread) in reading.cards.iter().zip(read) {
                let on_a_card = table.cards.iter().any(|placed| {
                    Quad {
                        corners: placed.corners,
                    }
                    .contains(card.upright.centre())
                });
                if on_a_card {
                    spreads.push(spread);
                } else {
                    false_cards.push(spread);
                }
            }
        }
        report(condition.name(), spreads);
    }
    report("false cards", false_cards);
}

fn card_free(classifier: &dyn CardClassifier) -> Result<(), Error> {
    let mut spreads = Spreads::new();
    for label in parse_photo_labels(&std::fs::read_to_string("eval/set_card_free.jsonl")?)? {
        let whole = image::open(format!("../shared/data/{}", label.image))?.to_rgb8();
        let cuts = [
            ("whole", whole.clone()),
            ("cut 1", card_shaped_cut(&whole, 1.0)),
            ("cut 0.5", card_shaped_cut(&whole, 0.5)),
        ];
        for (how, image) in cuts {
            let reading = read_table(&Photo::from_upright(image.clone()), classifier);
            let what = format!("{} {how}", label.image);
            read_spreads(&image, reading, &what, &mut spreads);
        }
    }
    report("false cards on card-free photos", spreads);
    Ok(())
}

fn main() -> Result<(), Error> {
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no default classifier")?;
    let arg = |n: usize| std::env::args().nth(n).unwrap_or_default();
    match arg(1).as_str() {
        "crops" => crops(),
        "photos" => photos(classifier.as_ref()),
        "stress" => {
            stress(arg(2).parse().unwrap_or(400), classifier.as_ref());
            Ok(())
        }
        "free" => card_free(classifier.as_ref()),
        _ => Err("usage: ink_chroma crops|photos|stress FIRST|free".into()),
    }
}
