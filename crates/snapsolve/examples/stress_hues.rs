//! The ink hue of every card read on tables of the rendered stress suite, beside
//! its true and read colour: `stress_hues CONDITION FIRST COUNT`. Prints one line
//! per table: each card as `true>read:hue` (`*` where the colours differ), the
//! hue of its strongest ink relative to pure red (purple's side negative) and
//! its saturation, so
//! that a table's colour groups can be seen beside the network's names.

use snapsolve::set_photo::features::{hue_from_red, strongest_ink_hue_saturation};
use snapsolve::set_photo::stress::{Condition, read_card_on};
use snapsolve::set_photo::table::read_table_with;
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_synth::render_table;
use snapsolve_vision::Photo;
use snapsolve_vision::crop::card_crop;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, first, count] = args.as_slice() else {
        return Err("usage: stress_hues CONDITION FIRST COUNT".into());
    };
    let condition = Condition::by_name(name).ok_or(format!("no condition {name}"))?;
    let number = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let first = number(first)?;
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no classifier")?;
    for index in first..first + number(count)? {
        let table = render_table(&condition.spec(index));
        let photo = Photo::from_upright(table.image.clone());
        let reading = read_table_with(&photo, classifier.as_ref(), Default::default());
        let mut line = Vec::new();
        for placed in &table.cards {
            let Some(read) = read_card_on(&reading, placed) else {
                continue;
            };
            let (hue, saturation) = card_crop(&photo.image, &read.upright)
                .and_then(|crop| strongest_ink_hue_saturation(&crop))
                .map_or((f32::NAN, f32::NAN), |(h, s)| (hue_from_red(h), s));
            let colour = |card: snapsolve_set::Card| ["R", "G", "P"][usize::from(card.values()[1])];
            let (truth, named) = (colour(placed.card), colour(read.card));
            let mark = if truth == named { "" } else { "*" };
            line.push((
                hue,
                format!("{mark}{truth}>{named}:{hue:.0}/{saturation:.2}"),
            ));
        }
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
        let words: Vec<String> = line.into_iter().map(|(_, w)| w).collect();
        println!("{index} {}", words.join(" "));
    }
    Ok(())
}
