//! Close-ups of single cards cut from the labelled table photos, read as a
//! player's photo of one card would be:
//! `close_ups ROOT FILL FRAME_WIDTH_OVER_HEIGHT LABELS...`, for example
//! `close_ups ../shared/data 0.9 0.75 ../shared/data/set/photos.jsonl`
//! (a phone held upright, the card filling 90% of the frame's height).
//!
//! From every third photo, every fourth card the reader names on the whole
//! photo (whose picture keeps about a card's proportions: a far card of a
//! slanted table, cut out, is a telephoto view no phone takes) is framed so
//! that it fills `FILL` of the frame's height, the frame turned a quarter
//! where the card lies on its side; the close-up is read alone, and counts
//! as right where that card's name is among the cards read. The names read
//! on the whole photos are 99.7% right (`snapsolve eval set-photos`).

use std::path::Path;

use image::RgbImage;
use image::imageops::{FilterType, crop_imm, resize};
use snapsolve::set_photo::eval::parse_photo_labels;
use snapsolve::set_photo::table::{read_table, read_table_photo};
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_vision::{Limits, Photo, Quad};

/// Close-ups are shrunk to this longer side at most, as a phone app would.
const LONGEST: u32 = 1280;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, fill, ratio, labels @ ..] = args.as_slice() else {
        return Err("usage: close_ups ROOT FILL FRAME_WIDTH_OVER_HEIGHT LABELS...".into());
    };
    let fill: f32 = fill.parse().map_err(|_| "FILL: a number such as 0.9")?;
    let ratio: f32 = ratio
        .parse()
        .map_err(|_| "FRAME_WIDTH_OVER_HEIGHT: such as 0.75")?;
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no classifier")?;
    let (mut tried, mut named, mut nothing) = (0, 0, 0);
    for file in labels {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let rows = parse_photo_labels(&text).map_err(|e| format!("{file}: {e}"))?;
        for label in rows.iter().step_by(3) {
            let path = Path::new(root).join(&label.image);
            let photo = read_table_photo(&path, Limits::default()).map_err(|e| e.to_string())?;
            let whole = read_table(&photo, classifier.as_ref());
            for card in whole.cards.iter().step_by(4) {
                if card.upright.aspect() < 1.35 {
                    continue;
                }
                let close_up =
                    Photo::from_upright(frame_around(&photo.image, &card.upright, fill, ratio));
                let read = read_table(&close_up, classifier.as_ref());
                tried += 1;
                let hit = read.cards.iter().any(|c| c.card == card.card);
                named += usize::from(hit);
                nothing += usize::from(read.cards.is_empty());
                if !hit {
                    println!(
                        "not named: {} ({}), read {:?}",
                        card.card,
                        label.image,
                        read.cards
                            .iter()
                            .map(|c| c.card.to_string())
                            .collect::<Vec<_>>()
                    );
                }
            }
        }
    }
    println!("close-ups: {tried}, card named {named}, no card found {nothing}");
    Ok(())
}

/// The part of `image` around `quad` in which the card's bounding box fills
/// `fill` of the frame's height (its width where the card lies on its side),
/// the frame `ratio` as wide as tall (turned with the card), cut at the
/// picture's edges and shrunk to [`LONGEST`].
fn frame_around(image: &RgbImage, quad: &Quad, fill: f32, ratio: f32) -> RgbImage {
    let span = |axis: usize| {
        let v = quad.corners.map(|p| p[axis]);
        let (lo, hi) = (
            v.iter().copied().fold(f32::MAX, f32::min),
            v.iter().copied().fold(f32::MIN, f32::max),
        );
        (lo, hi)
    };
    let ((x0, x1), (y0, y1)) = (span(0), span(1));
    let side = (x1 - x0).max(y1 - y0);
    let (mut w, mut h) = (side / fill * ratio, side / fill);
    if x1 - x0 > y1 - y0 {
        (w, h) = (h, w);
    }
    let left = ((x0 + x1) / 2.0 - w / 2.0).max(0.0) as u32;
    let top = ((y0 + y1) / 2.0 - h / 2.0).max(0.0) as u32;
    let w = (w as u32).min(image.width() - left);
    let h = (h as u32).min(image.height() - top);
    let cut = crop_imm(image, left, top, w, h).to_image();
    let scale = LONGEST as f32 / w.max(h) as f32;
    if scale < 1.0 {
        let size = |v: u32| ((v as f32 * scale).round() as u32).max(1);
        resize(&cut, size(w), size(h), FilterType::Triangle)
    } else {
        cut
    }
}
