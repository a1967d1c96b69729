//! Which cards of the rendered stress suite are read wrong, and how:
//! `stress_misnames CONDITION FIRST COUNT [OUT_DIR]` lists every true card that no
//! card read lies on (`missed`) and every one read under another name
//! (`misnamed`, with the attributes that differ), then a tally by attribute,
//! with each card's deck edition. `eval set-stress` counts; this says which part of
//! the name goes wrong. With `OUT_DIR`, each misnamed card is saved there as
//! the card network sees it: cut at the true corners (`-true.png`) and at the
//! corners read (`-read.png`).

use snapsolve::set_photo::stress::{Condition, read_card_on};
use snapsolve::set_photo::table::read_table_with;
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_synth::render_table;
use snapsolve_vision::crop::card_crop;
use snapsolve_vision::{Photo, Quad};

const ATTRIBUTES: [&str; 4] = ["number", "colour", "shading", "shape"];

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, first, count, out) = match args.as_slice() {
        [name, first, count] => (name, first, count, None),
        [name, first, count, out] => (name, first, count, Some(out)),
        _ => return Err("usage: stress_misnames CONDITION FIRST COUNT [OUT_DIR]".into()),
    };
    if let Some(out) = out {
        std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    }
    let condition = Condition::by_name(name).ok_or(format!("no condition {name}"))?;
    let number = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let first = number(first)?;
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no classifier")?;
    let (mut cards, mut missed, mut misnamed) = (0, 0, 0);
    let mut by_attribute = [0usize; 4];
    for index in first..first + number(count)? {
        let spec = condition.spec(index);
        let table = render_table(&spec);
        let photo = Photo::from_upright(table.image.clone());
        let reading = read_table_with(&photo, classifier.as_ref(), Default::default());
        for placed in &table.cards {
            cards += 1;
            let truth = Quad {
                corners: placed.corners,
            };
            let on_it = read_card_on(&reading, placed);
            let edition = format!("{:?}", spec.edition);
            match on_it {
                None => {
                    missed += 1;
                    println!("{index} missed   {} {edition}", placed.card);
                }
                Some(read) if read.card != placed.card => {
                    misnamed += 1;
                    let truth_parts: Vec<String> = placed
                        .card
                        .to_string()
                        .split('-')
                        .map(String::from)
                        .collect();
                    let read_parts: Vec<String> =
                        read.card.to_string().split('-').map(String::from).collect();
                    let differ: Vec<&str> = (0..4)
                        .filter(|&a| truth_parts.get(a) != read_parts.get(a))
                        .inspect(|&a| by_attribute[a] += 1)
                        .map(|a| ATTRIBUTES[a])
                        .collect();
                    if let Some(out) = out {
                        // Cut at the true corners, then as the reader cut it.
                        let file = format!("{name}-{index}-{}-as-{}", placed.card, read.card);
                        for (quad, end) in [(&truth, "true"), (&read.upright, "read")] {
                            if let Some(crop) = card_crop(&table.image, quad) {
                                let path =
                                    std::path::Path::new(out).join(format!("{file}-{end}.png"));
                                crop.save(path).map_err(|e| e.to_string())?;
                            }
                        }
                    }
                    println!(
                        "{index} misnamed {} read {} ({:.2}) {edition} differ: {}",
                        placed.card,
                        read.card,
                        read.confidence(),
                        differ.join(",")
                    );
                }
                Some(_) => {}
            }
        }
    }
    println!("{cards} cards: {missed} missed, {misnamed} misnamed");
    for (attribute, n) in ATTRIBUTES.iter().zip(by_attribute) {
        println!("  {attribute:<8} wrong {n}");
    }
    Ok(())
}
