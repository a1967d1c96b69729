//! The ink hue of every card read on labelled table photos, beside its name:
//! `photo_hues LABELS.jsonl ROOT [DISTORTION]`. Prints one line per photo: its
//! colour counts true (from the label) and read, then each card read as
//! `colour:hue/saturation/shading` by hue (relative to pure red, purple's
//! side negative; shading S, T or O followed by the network's probability of
//! striped), to see how a table's colour groups lie beside the network's
//! names on real photos (labels give no card's place, only the multiset).

use snapsolve::distort::Distortion;
use snapsolve::set_photo::eval::parse_photo_labels;
use snapsolve::set_photo::features::{hue_from_red, strongest_ink_hue_saturation};
use snapsolve::set_photo::table::{read_table_photo, read_table_with};
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_vision::Limits;
use snapsolve_vision::crop::card_crop;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (labels, root, distortion) = match args.as_slice() {
        [labels, root] => (labels, root, None),
        [labels, root, name] => (
            labels,
            root,
            Some(Distortion::by_name(name).ok_or("no such distortion")?),
        ),
        _ => return Err("usage: photo_hues LABELS.jsonl ROOT [DISTORTION]".into()),
    };
    let text = std::fs::read_to_string(labels).map_err(|e| format!("{labels}: {e}"))?;
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no classifier")?;
    let counts = |colours: &mut dyn Iterator<Item = u8>| {
        let mut n = [0; 3];
        colours.for_each(|c| n[usize::from(c)] += 1);
        format!("{}R{}G{}P", n[0], n[1], n[2])
    };
    for label in parse_photo_labels(&text).map_err(|e| e.to_string())? {
        let path = std::path::Path::new(root).join(&label.image);
        let mut photo = read_table_photo(&path, Limits::default()).map_err(|e| e.to_string())?;
        if let Some(distortion) = distortion {
            photo = distortion.apply(photo);
        }
        let reading = read_table_with(&photo, classifier.as_ref(), Default::default());
        let mut cards: Vec<(f32, String)> = reading
            .cards
            .iter()
            .map(|card| {
                let (hue, saturation) = card_crop(&photo.image, &card.upright)
                    .and_then(|crop| strongest_ink_hue_saturation(&crop))
                    .map_or((f32::NAN, f32::NAN), |(h, s)| (hue_from_red(h), s));
                let colour = ["R", "G", "P"][usize::from(card.card.values()[1])];
                let shading = ["S", "T", "O"][usize::from(card.card.values()[2])];
                let striped = card.reading.attribute_probabilities[2][1];
                (
                    hue,
                    format!("{colour}:{hue:.0}/{saturation:.2}/{shading}{striped:.2}"),
                )
            })
            .collect();
        cards.sort_by(|a, b| a.0.total_cmp(&b.0));
        let truth = counts(&mut label.cards.iter().map(|c| c.values()[1]));
        let read = counts(&mut reading.cards.iter().map(|c| c.card.values()[1]));
        let words: Vec<String> = cards.into_iter().map(|(_, w)| w).collect();
        let mark = if truth == read { "" } else { "*" };
        println!(
            "{mark}{} true {truth} read {read} {}",
            label.image,
            words.join(" ")
        );
    }
    Ok(())
}
