//! Names every card read on rendered stress tables again from other views
//! of the reader's outline, and counts how many each way of reading names
//! right, per deck edition: `stress_card_views FIRST COUNT CONDITION...`.
//! `reader` is the reading as the table reader gives it; `own` its outline's
//! crop alone; `steady6` the average over that crop and the six views of
//! `set_photo::steady` (always taken); `rot2` the crop and two turned ±2°;
//! `rot3+steady` the seven and two turned ±3°; `inset` the crop and one 7%
//! smaller; `truth` the crop at the true corners; `vote4`/`vote5` the
//! average of the seven where at least 4 (5) of them name its card, else
//! the reader's name. Session 21 measured the reader with it
//! (docs/evaluation.md).

use image::RgbImage;
use snapsolve::set_photo::classify::{CardClassifier, CardReading};
use snapsolve::set_photo::steady::views;
use snapsolve::set_photo::stress::{Condition, read_card_on};
use snapsolve::set_photo::table::read_table_with;
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_synth::{Edition, render_table};
use snapsolve_vision::crop::card_crop;
use snapsolve_vision::{Photo, Quad};

fn rotated(q: &Quad, degrees: f32) -> Quad {
    let c = q.centre();
    let (s, co) = degrees.to_radians().sin_cos();
    q.map(|[x, y]| {
        let (dx, dy) = (x - c[0], y - c[1]);
        [c[0] + co * dx - s * dy, c[1] + s * dx + co * dy]
    })
}

fn average(readings: &[CardReading]) -> CardReading {
    let mut p = [[0.0f32; 3]; 4];
    for r in readings {
        for (total, value) in p
            .iter_mut()
            .flatten()
            .zip(r.attribute_probabilities.iter().flatten())
        {
            *total += value / readings.len() as f32;
        }
    }
    CardReading {
        attribute_probabilities: p,
        card_probability: None,
    }
}

fn name_from(
    classifier: &dyn CardClassifier,
    image: &RgbImage,
    quads: &[Quad],
) -> Option<CardReading> {
    let crops: Vec<RgbImage> = quads.iter().filter_map(|q| card_crop(image, q)).collect();
    if crops.is_empty() {
        return None;
    }
    Some(average(&classifier.classify(&crops)))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [first, count, names @ ..] = args.as_slice() else {
        return Err("usage: stress_card_views FIRST COUNT CONDITION...".into());
    };
    let number = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let (first, count) = (number(first)?, number(count)?);
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no classifier")?;
    let variants = [
        "reader",
        "own",
        "steady6",
        "rot2",
        "rot3+steady",
        "inset",
        "truth",
    ];
    let mut right = vec![[0usize; 2]; variants.len()];
    let mut total = [0usize; 2];
    let mut extra = [[0usize; 2]; 2];
    for name in names {
        let condition = Condition::by_name(name).ok_or(format!("no condition {name}"))?;
        for index in first..first + count {
            let spec = condition.spec(index);
            let alt = usize::from(spec.edition != Edition::Standard);
            let table = render_table(&spec);
            let photo = Photo::from_upright(table.image.clone());
            let reading = read_table_with(&photo, classifier.as_ref(), Default::default());
            for placed in &table.cards {
                let truth = Quad {
                    corners: placed.corners,
                };
                let Some(read) = read_card_on(&reading, placed) else {
                    continue;
                };
                total[alt] += 1;
                let q = read.upright;
                let mut steady: Vec<Quad> = views(&q).to_vec();
                steady.push(q);
                let mut rot3 = steady.clone();
                rot3.extend([rotated(&q, 3.0), rotated(&q, -3.0)]);
                let sets: Vec<Vec<Quad>> = vec![
                    vec![q],
                    steady,
                    vec![q, rotated(&q, 2.0), rotated(&q, -2.0)],
                    rot3,
                    vec![q, q.scaled(0.93)],
                    vec![truth],
                ];
                right[0][alt] += usize::from(read.card == placed.card);
                // Voting rules over the 7 steady views.
                let crops: Vec<RgbImage> = sets[1]
                    .iter()
                    .filter_map(|q| card_crop(&table.image, q))
                    .collect();
                let each = classifier.classify(&crops);
                let avg = average(&each);
                let votes = each.iter().filter(|r| r.card() == avg.card()).count();
                for (k, need) in [(0usize, 4usize), (1, 5)] {
                    let name = if votes >= need { avg.card() } else { read.card };
                    extra[k][alt] += usize::from(name == placed.card);
                }
                for (v, quads) in sets.iter().enumerate() {
                    if let Some(r) = name_from(classifier.as_ref(), &table.image, quads) {
                        right[v + 1][alt] += usize::from(r.card() == placed.card);
                    }
                }
            }
        }
    }
    println!(
        "cards with a reading on them: std {} alt {}",
        total[0], total[1]
    );
    for (v, r) in variants.iter().zip(&right) {
        println!(
            "{v:<12} std {:>5} ({} wrong)  alt {:>5} ({} wrong)",
            r[0],
            total[0] - r[0],
            r[1],
            total[1] - r[1]
        );
    }
    for (k, r) in extra.iter().enumerate() {
        println!(
            "vote{}     std {:>5} ({} wrong)  alt {:>5} ({} wrong)",
            k + 4,
            r[0],
            total[0] - r[0],
            r[1],
            total[1] - r[1]
        );
    }
    Ok(())
}
