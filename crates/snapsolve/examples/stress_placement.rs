//! How far the outlines of misplaced cards are from the truth, in the rendered
//! stress suite: `stress_placement CONDITION FIRST COUNT`. For every true card
//! that no read card matches within 0.08 card widths (the `eval set-stress`
//! rule) but that a read card lies on, prints the largest corner error (in
//! card widths), the read outline's area over the true one's, and whether the
//! read name is right; then a tally of the errors. `eval set-stress` counts
//! misplaced cards; this says whether they are a little off or far off, and
//! too large (taking in what lies beside) or too small (a part of the card).

use snapsolve::set_photo::stress::{Condition, card_width, corner_error, read_card_on};
use snapsolve::set_photo::table::read_table_with;
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_synth::render_table;
use snapsolve_vision::{Photo, Quad};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, first, count] = args.as_slice() else {
        return Err("usage: stress_placement CONDITION FIRST COUNT".into());
    };
    let condition = Condition::by_name(name).ok_or(format!("no condition {name}"))?;
    let number = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let first = number(first)?;
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no classifier")?;
    let mut bins = [0usize; 5];
    let (mut larger, mut smaller) = (0, 0);
    for index in first..first + number(count)? {
        let table = render_table(&condition.spec(index));
        let photo = Photo::from_upright(table.image.clone());
        let reading = read_table_with(&photo, classifier.as_ref(), Default::default());
        for placed in &table.cards {
            let truth = Quad {
                corners: placed.corners,
            };
            let width = card_width(&placed.corners);
            // A rendered table's picture is upright: stored and upright corners agree.
            let Some(read) = read_card_on(&reading, placed) else {
                continue;
            };
            let error = corner_error(&read.stored.corners, &placed.corners) / width;
            if error < 0.08 {
                continue;
            }
            let area = read.stored.area() / truth.area();
            if area > 1.0 {
                larger += 1;
            } else {
                smaller += 1;
            }
            let bin = match error {
                e if e < 0.12 => 0,
                e if e < 0.2 => 1,
                e if e < 0.35 => 2,
                e if e < 0.6 => 3,
                _ => 4,
            };
            bins[bin] += 1;
            println!(
                "{index} {} error {error:.3} area {area:.2} aspect {:.2} (true {:.2}) named {}",
                placed.card,
                aspect(&read.stored),
                aspect(&truth),
                if read.card == placed.card {
                    "right"
                } else {
                    "wrong"
                }
            );
        }
    }
    println!(
        "errors 0.08-0.12 {}, 0.12-0.2 {}, 0.2-0.35 {}, 0.35-0.6 {}, over 0.6 {}; larger {larger}, smaller {smaller}",
        bins[0], bins[1], bins[2], bins[3], bins[4]
    );
    Ok(())
}

/// The longer side over the shorter, each the mean of two opposite sides.
fn aspect(quad: &Quad) -> f32 {
    let c = quad.corners;
    let d = |a: [f32; 2], b: [f32; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let one = (d(c[0], c[1]) + d(c[2], c[3])) / 2.0;
    let other = (d(c[1], c[2]) + d(c[3], c[0])) / 2.0;
    one.max(other) / one.min(other).max(1.0)
}
