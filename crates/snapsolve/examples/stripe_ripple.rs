//! Probe: the ripple of each read card's symbols down the columns and along
//! the rows (`set_photo::stripes`), with its true and read shading:
//! `stripe_ripple stress CONDITION FIRST COUNT` or `stripe_ripple photo PATH
//! [DISTORTION]` (a photo's cards as read and measured on the photo spoilt
//! as `eval set-photos --distort DISTORTION` spoils it; its true names are
//! not known here, so the first two columns are both the reading's). One
//! line per card: `truth read clipped columns rows ratio truth-name
//! read-name hue fill peak solid`: the strongest ink's hue and the symbols'
//! fill (`set_photo::features`), the share of the ripple in the largest
//! tenth of the columns, and the network's probability of solid.

use snapsolve::distort::Distortion;
use snapsolve::set_photo::features::{measure, strongest_ink_hue};
use snapsolve::set_photo::ink_checks::clipped_white;
use snapsolve::set_photo::stress::{Condition, read_card_on};
use snapsolve::set_photo::stripes::symbol_ripple;
use snapsolve::set_photo::table::{TableCard, read_table_with};
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name, decode_table_photo};
use snapsolve_set::{Attribute, Card};
use snapsolve_synth::render_table;
use snapsolve_vision::crop::card_crop;
use snapsolve_vision::{Limits, Photo};

fn shading(card: Card) -> &'static str {
    Attribute::Shading.value_names()[usize::from(card.value(Attribute::Shading))]
}

fn line(image: &image::RgbImage, card: &TableCard, truth: Card) {
    let (quad, read) = (&card.upright, card.card);
    let solid = card.reading.attribute_probabilities[2][0];
    let ripple = symbol_ripple(image, quad);
    let crop = card_crop(image, quad);
    let hue = crop.as_ref().and_then(strongest_ink_hue).unwrap_or(-1.0);
    let fill = crop.as_ref().and_then(measure).map_or(-1.0, |f| f.fill);
    let (c, r, ratio, peak) = ripple.map_or((0.0, 0.0, 0.0, 0.0), |p| {
        (p.columns, p.rows, p.stripe_ratio(), p.columns_peak)
    });
    println!(
        "{} {} {} {c:.2} {r:.2} {ratio:.2} {truth} {read} {hue:.0} {fill:.2} {peak:.2} {solid:.2}",
        shading(truth),
        shading(read),
        clipped_white(image, quad),
    );
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no classifier")?;
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["stress", name, first, count] => {
            let condition = Condition::by_name(name).ok_or("no such condition")?;
            let first: usize = first.parse().map_err(|_| "FIRST")?;
            let count: usize = count.parse().map_err(|_| "COUNT")?;
            for index in first..first + count {
                let table = render_table(&condition.spec(index));
                let photo = Photo::from_upright(table.image.clone());
                let reading = read_table_with(&photo, classifier.as_ref(), Default::default());
                for placed in &table.cards {
                    if let Some(read) = read_card_on(&reading, placed) {
                        line(&table.image, read, placed.card);
                    }
                }
            }
        }
        ["photo", path, rest @ ..] => {
            let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
            let photo = decode_table_photo(&bytes, Limits::default()).map_err(|e| e.to_string())?;
            let seen = match rest {
                [name] => Distortion::by_name(name)
                    .ok_or("no such distortion")?
                    .apply(photo.clone()),
                _ => photo,
            };
            let reading = read_table_with(&seen, classifier.as_ref(), Default::default());
            for card in &reading.cards {
                line(&seen.image, card, card.card);
            }
        }
        _ => {
            return Err(
                "usage: stripe_ripple stress COND FIRST COUNT | photo PATH [DISTORTION]".into(),
            );
        }
    }
    Ok(())
}
