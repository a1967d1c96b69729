//! How cards partly covered by things set down on them are read, and their
//! neighbours: `stress_covers FIRST COUNT [COVERS]` renders tables of the
//! `covered-cards` stress condition (with `COVERS` things on each instead of
//! the condition's own two or three), reads them as `snapsolve set photo`
//! does, and tallies every true card by the share of it that is covered:
//! read right (a card read whose middle lies on it, under its name), read
//! wrong (one lies on it under another name) or not read. For each card not
//! read it also says what the card network makes of the card cut at its
//! true corners: whether finding it or naming it is what fails.

use snapsolve::set_photo::stress::Condition;
use snapsolve::set_photo::table::{Finders, read_table_with};
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_synth::render_table;
use snapsolve_vision::Photo;
use snapsolve_vision::quad::Quad;

/// Upper ends of the covered shares tallied (the first: not covered at all).
const BUCKETS: [f32; 5] = [0.0, 0.1, 0.25, 0.5, 1.0];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize| args.get(i).and_then(|s| s.parse::<usize>().ok());
    let (first, count) = (number(1).unwrap_or(400), number(2).unwrap_or(48));
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    // Per bucket: cards, read right, read wrong.
    let mut tally = [[0usize; 3]; 5];
    for index in first..first + count {
        let mut spec = Condition::CoveredCards.spec(index);
        if let Some(covers) = number(3) {
            spec.covers = covers;
        }
        let table = render_table(&spec);
        let covers: Vec<Quad> = table
            .covers
            .iter()
            .map(|&corners| Quad { corners })
            .collect();
        let photo = Photo::from_upright(table.image.clone());
        let reading = read_table_with(&photo, classifier.as_ref(), Finders::default());
        for placed in &table.cards {
            let truth = Quad {
                corners: placed.corners,
            };
            let share = covered_share(&truth, &covers);
            let bucket = BUCKETS.iter().position(|&b| share <= b).unwrap_or(4);
            let read = reading
                .cards
                .iter()
                .find(|card| truth.contains(card.stored.centre()));
            tally[bucket][0] += 1;
            match read {
                Some(card) if card.card == placed.card => tally[bucket][1] += 1,
                Some(card) => {
                    tally[bucket][2] += 1;
                    println!(
                        "{index} {} covered {share:.2} read as {}",
                        placed.card, card.card
                    );
                }
                None => {
                    // What the network makes of the card cut at its true corners.
                    let crop = snapsolve_vision::crop::card_crop(&photo.image, &truth);
                    let said = crop.map(|c| classifier.classify(&[c]).remove(0));
                    let (p, name) = said.map_or((0.0, String::new()), |r| {
                        (r.card_probability.unwrap_or(0.0), r.card().to_string())
                    });
                    println!(
                        "{index} {} covered {share:.2} not read; at its true corners: card {p:.2}, {name}",
                        placed.card
                    );
                }
            }
        }
    }
    println!("covered share   cards  right  wrong  not read");
    let mut low = "none".to_string();
    for (bucket, [cards, right, wrong]) in BUCKETS.iter().zip(tally) {
        println!(
            "{:>13}  {cards:>6} {right:>6} {wrong:>6} {:>9}",
            if *bucket == 0.0 {
                low.clone()
            } else {
                format!("{low}-{bucket}")
            },
            cards - right - wrong
        );
        low = bucket.to_string();
    }
}

/// The share of `card` that lies under any of `covers`, from a grid of points.
fn covered_share(card: &Quad, covers: &[Quad]) -> f32 {
    let c = card.corners;
    let lerp =
        |a: [f32; 2], b: [f32; 2], t: f32| [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
    let (across, along) = (10, 16);
    let mut covered = 0;
    for j in 0..along {
        let t = (j as f32 + 0.5) / along as f32;
        for i in 0..across {
            let s = (i as f32 + 0.5) / across as f32;
            let p = lerp(lerp(c[0], c[1], s), lerp(c[3], c[2], s), t);
            covered += usize::from(covers.iter().any(|cover| cover.contains(p)));
        }
    }
    covered as f32 / (across * along) as f32
}
