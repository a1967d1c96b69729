//! Stress tables spoilt further after rendering, to look for conditions the
//! suite lacks: `probe_transforms [FIRST] [COUNT] [CONDITION]` (default 400,
//! 24, light-wood) reads COUNT tables of CONDITION from FIRST as rendered and
//! after each change below, and prints cards, found, right, named and false
//! cards per change. Session 32 measured with it (docs/evaluation.md):
//! overexposure is the one change that costs names.

use image::{Rgb, RgbImage};
use snapsolve::set_photo::stress::{Condition, score_table};
use snapsolve::set_photo::table::read_table;
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_synth::render_table;
use snapsolve_vision::Photo;

/// Each pixel's channels through `f`, rounded and clipped.
fn map(image: &RgbImage, f: impl Fn([f32; 3]) -> [f32; 3]) -> RgbImage {
    RgbImage::from_fn(image.width(), image.height(), |x, y| {
        let p = image.get_pixel(x, y).0.map(f32::from);
        Rgb(f(p).map(|v| v.round().clamp(0.0, 255.0) as u8))
    })
}

fn jpeg(image: &RgbImage, quality: u8) -> RgbImage {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode_image(image)
        .expect("a picture encodes");
    image::load_from_memory(&bytes)
        .expect("its bytes decode")
        .to_rgb8()
}

type Change = (&'static str, Box<dyn Fn(&RgbImage) -> RgbImage>);

fn changes() -> Vec<Change> {
    let gamma = |v: f32| 255.0 * (v / 255.0).powf(2.0);
    vec![
        ("as rendered", Box::new(|i: &RgbImage| i.clone())),
        (
            "overexposed x1.35",
            Box::new(|i| map(i, |p| p.map(|v| v * 1.35))),
        ),
        (
            "overexposed x1.7",
            Box::new(|i| map(i, |p| p.map(|v| v * 1.7))),
        ),
        (
            "x1.35, then gamma 2",
            Box::new(move |i| map(i, |p| p.map(|v| gamma((v * 1.35).min(255.0))))),
        ),
        (
            "washed out",
            Box::new(|i| map(i, |p| p.map(|v| 90.0 + 0.65 * v))),
        ),
        (
            "cool cast",
            Box::new(|i| map(i, |p| [p[0] * 0.75, p[1] * 0.95, p[2] * 1.2])),
        ),
        (
            "green cast",
            Box::new(|i| map(i, |p| [p[0] * 0.85, p[1] * 1.1, p[2] * 0.8])),
        ),
        ("jpeg quality 15", Box::new(|i| jpeg(i, 15))),
        (
            "half size",
            Box::new(|i| {
                let (w, h) = (i.width() / 2, i.height() / 2);
                image::imageops::resize(i, w, h, image::imageops::FilterType::Triangle)
            }),
        ),
        (
            "colour drained 60%",
            Box::new(|i| {
                map(i, |p| {
                    let grey = 0.3 * p[0] + 0.59 * p[1] + 0.11 * p[2];
                    p.map(|v| 0.6 * grey + 0.4 * v)
                })
            }),
        ),
    ]
}

fn main() {
    let arg = |n: usize| std::env::args().nth(n);
    let first: usize = arg(1).and_then(|s| s.parse().ok()).unwrap_or(400);
    let count: usize = arg(2).and_then(|s| s.parse().ok()).unwrap_or(24);
    let condition = arg(3)
        .and_then(|s| Condition::by_name(&s))
        .unwrap_or(Condition::LightWood);
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    for (name, change) in changes() {
        let mut total = [0usize; 5];
        for index in first..first + count {
            let mut table = render_table(&condition.spec(index));
            let width = table.image.width() as f32;
            table.image = change(&table.image);
            let scale = table.image.width() as f32 / width;
            for card in &mut table.cards {
                card.corners = card.corners.map(|[x, y]| [x * scale, y * scale]);
            }
            let reading = read_table(
                &Photo::from_upright(table.image.clone()),
                classifier.as_ref(),
            );
            let s = score_table(&reading, &table, 0.08);
            let counts = [s.cards, s.found, s.right, s.named, s.false_cards];
            for (t, v) in total.iter_mut().zip(counts) {
                *t += v;
            }
        }
        let [cards, found, right, named, false_cards] = total;
        println!(
            "{name:20} {cards} cards: found {found}, right {right}, named {named}, false {false_cards}"
        );
    }
}
