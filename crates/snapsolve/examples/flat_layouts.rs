//! Layouts of flat cards as a web page or a screenshot of a SET game shows
//! them, read as `snapsolve set photo` reads them: `flat_layouts [WIDTH]`.
//!
//! Every layout is `COLS` cards to a row with a gap between them and a margin
//! round them (shares of a card's width), on white or light grey, drawn in
//! each edition's nominal style `WIDTH` pixels a card. Printed per framing:
//! cards read right, layout cards not read (missed or misnamed), readings
//! of cards not in the layout (misnamed or false). `flat_layouts WIDTH DIR`
//! also saves each framing's first layout in `DIR` to look at.

use image::{Rgba, RgbaImage, imageops};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use snapsolve::set_photo::table::read_table;
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_set::Card;
use snapsolve_synth::{CardStyle, Edition, render_card};
use snapsolve_vision::Photo;

/// Name, cards, cards to a row, gap and margin (shares of a card's width),
/// ground, a grey border line round each card.
type Framing = (&'static str, usize, usize, f32, f32, [u8; 3], bool);

const WHITE: [u8; 3] = [255, 255, 255];
const GREEN: [u8; 3] = [40, 90, 50];
const PALE: [u8; 3] = [240, 240, 240];

const FRAMINGS: [Framing; 11] = [
    ("row of 3 cut tight", 3, 3, 0.08, 0.0, WHITE, false),
    ("row of 3 cut tight, green", 3, 3, 0.08, 0.0, GREEN, false),
    ("2 cut tight, grey", 2, 2, 0.08, 0.0, [200, 200, 200], false),
    ("row of 3, margin", 3, 3, 0.08, 0.08, WHITE, false),
    ("row of 3 touching, tight", 3, 3, 0.0, 0.0, WHITE, true),
    ("12, 4 a row, gaps", 12, 4, 0.1, 0.1, WHITE, false),
    ("12, 4 a row, border", 12, 4, 0.1, 0.1, WHITE, true),
    ("12, 3 a row, grey", 12, 3, 0.1, 0.1, [225, 225, 225], false),
    ("12, 4 a row, narrow gaps", 12, 4, 0.03, 0.03, WHITE, false),
    ("12, 4 a row, tight", 12, 4, 0.1, 0.0, WHITE, false),
    ("6, 3 a row, grey border", 6, 3, 0.1, 0.05, PALE, true),
];

/// Draws `cards` laid out as `framing` says.
fn layout(cards: &[Card], style: &CardStyle, width: u32, framing: Framing) -> RgbaImage {
    let (_, _, cols, gap, margin, ground, border) = framing;
    let faces: Vec<RgbaImage> = cards
        .iter()
        .map(|&c| render_card(c, style, width))
        .collect();
    let (w, h) = faces[0].dimensions();
    let (gap, margin) = ((gap * w as f32) as u32, (margin * w as f32) as u32);
    let rows = cards.len().div_ceil(cols) as u32;
    let cols = cols as u32;
    let mut out = RgbaImage::from_pixel(
        2 * margin + cols * w + (cols - 1) * gap,
        2 * margin + rows * h + (rows - 1) * gap,
        Rgba([ground[0], ground[1], ground[2], 255]),
    );
    for (i, face) in faces.iter().enumerate() {
        let (col, row) = (i as u32 % cols, i as u32 / cols);
        let (x, y) = (margin + col * (w + gap), margin + row * (h + gap));
        imageops::overlay(&mut out, face, i64::from(x), i64::from(y));
        if border {
            for (px, py) in (0..w)
                .flat_map(|a| [(a, 0), (a, h - 1)])
                .chain((0..h).flat_map(|b| [(0, b), (w - 1, b)]))
            {
                out.put_pixel(x + px, y + py, Rgba([160, 160, 160, 255]));
            }
        }
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let width = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    let save_to = std::env::args().nth(2);
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no default classifier")?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let deck: Vec<Card> = Card::all().collect();
    for edition in Edition::ALL {
        let style = CardStyle::nominal(edition);
        for framing in FRAMINGS {
            let (mut right, mut missed, mut other) = (0, 0, 0);
            for round in 0..10 {
                let cards: Vec<Card> = deck.choose_multiple(&mut rng, framing.1).copied().collect();
                let picture =
                    image::DynamicImage::ImageRgba8(layout(&cards, &style, width, framing));
                if let (0, Some(dir)) = (round, &save_to) {
                    let name = format!(
                        "{}_{}.png",
                        edition.label(),
                        framing.0.replace([' ', ','], "_")
                    );
                    picture.save(std::path::Path::new(dir).join(name))?;
                }
                let read = read_table(&Photo::from_upright(picture.to_rgb8()), classifier.as_ref());
                let read: Vec<Card> = read.cards.iter().map(|c| c.card).collect();
                right += cards.iter().filter(|c| read.contains(c)).count();
                missed += cards.iter().filter(|c| !read.contains(c)).count();
                other += read.iter().filter(|c| !cards.contains(c)).count();
            }
            println!(
                "{:4} {:26} right {right:3}/{:3}, missed or misnamed {missed:3}, read not in the layout {other}",
                edition.label(),
                framing.0,
                framing.1 * 10
            );
        }
    }
    Ok(())
}
