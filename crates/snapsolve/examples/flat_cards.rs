//! Single cards as a scan or a web page shows them, read as `snapsolve set
//! card` and `snapsolve set photo` read them; then pictures of a card's
//! shape with no card, read as `set photo` reads them:
//! `flat_cards [WIDTH]` (run from the repository, `../shared/data` beside it).
//!
//! Every card of both decks is drawn flat (its nominal style) `WIDTH` pixels
//! wide: filling its picture, on white with a margin (with and without a grey
//! border line), on grey, turned a quarter, on a dark ground. Then 15 of each
//! lookalike kind (200x311) and, of every card-free photo of
//! `eval/set_card_free.jsonl`, a centre cut of a card's proportions, full
//! height and half: the cards read there, and how many of them are the whole
//! picture (what `read_whole_picture` adds). Session 32 measured with it
//! (docs/evaluation.md).

use image::{Rgb, RgbImage, RgbaImage, imageops};
use rand::SeedableRng;
use snapsolve::set_photo::eval::parse_photo_labels;
use snapsolve::set_photo::table::{TableReading, read_table};
use snapsolve::set_photo::{
    CardClassifier, DEFAULT_CLASSIFIER, classifier_by_name, name_card_picture,
};
use snapsolve_set::Card;
use snapsolve_synth::{CardStyle, Edition, Lookalike, render_card, render_lookalike};
use snapsolve_vision::Photo;

/// How a flat card is framed: name, ground, margin (share of its size),
/// turned a quarter, a grey border line round the card.
type Framing = (&'static str, [u8; 3], f32, bool, bool);

const FRAMINGS: [Framing; 6] = [
    ("filling its picture", [255, 255, 255], 0.0, false, false),
    ("white margin", [255, 255, 255], 0.15, false, false),
    ("white margin, border", [255, 255, 255], 0.15, false, true),
    ("grey margin", [200, 200, 200], 0.15, false, false),
    ("white, turned", [255, 255, 255], 0.1, true, false),
    ("dark margin", [40, 40, 40], 0.3, false, false),
];

fn framed(card: &RgbaImage, (_, ground, margin, turned, border): Framing) -> RgbImage {
    let (w, h) = card.dimensions();
    let (mx, my) = ((w as f32 * margin) as u32, (h as f32 * margin) as u32);
    let mut out = RgbImage::from_pixel(w + 2 * mx, h + 2 * my, Rgb(ground));
    for (x, y, p) in card.enumerate_pixels() {
        let a = f32::from(p[3]) / 255.0;
        let q = out.get_pixel_mut(x + mx, y + my);
        for c in 0..3 {
            q[c] = (f32::from(p[c]) * a + f32::from(q[c]) * (1.0 - a)).round() as u8;
        }
        if border && (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
            *q = Rgb([160, 160, 160]);
        }
    }
    if turned {
        imageops::rotate90(&out)
    } else {
        out
    }
}

fn read(image: RgbImage, classifier: &dyn CardClassifier) -> TableReading {
    read_table(&Photo::from_upright(image), classifier)
}

fn flat_cards(width: u32, classifier: &dyn CardClassifier) {
    for edition in Edition::ALL {
        let style = CardStyle::nominal(edition);
        for framing in FRAMINGS {
            let (mut named, mut read_right, mut wrong) = (0, 0, Vec::new());
            for card in Card::all() {
                let picture = framed(&render_card(card, &style, width), framing);
                match name_card_picture(&picture, classifier).map(|r| r.card()) {
                    Some(read) if read == card => named += 1,
                    Some(read) => wrong.push(format!("{card} as {read}")),
                    None => wrong.push(format!("{card} not read")),
                }
                let cards = read(picture, classifier).cards;
                read_right += usize::from(cards.len() == 1 && cards[0].card == card);
            }
            println!(
                "{:4} {:22} set card {named:2}/81, set photo {read_right:2}/81 {wrong:?}",
                edition.label(),
                framing.0
            );
        }
    }
}

fn card_free(classifier: &dyn CardClassifier) -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let whole = |reading: &TableReading, (w, h): (u32, u32)| {
        let picture = (w * h) as f32;
        reading
            .cards
            .iter()
            .filter(|c| c.stored.area() >= 0.95 * picture)
            .count()
    };
    let (mut pictures, mut cards, mut wholes) = (0, 0, 0);
    for kind in Lookalike::ALL {
        for _ in 0..15 {
            let reading = read(render_lookalike(kind, 200, 311, &mut rng), classifier);
            for card in &reading.cards {
                println!(
                    "  lookalike {kind:?} read as {} ({:.2})",
                    card.card,
                    card.confidence()
                );
            }
            (pictures, cards, wholes) = (
                pictures + 1,
                cards + reading.cards.len(),
                wholes + whole(&reading, (200, 311)),
            );
        }
    }
    println!(
        "lookalikes: {pictures} pictures, {cards} cards read, {wholes} of them the whole picture"
    );
    let (mut pictures, mut cards, mut wholes) = (0, 0, 0);
    for label in parse_photo_labels(&std::fs::read_to_string("eval/set_card_free.jsonl")?)? {
        let path = label.image;
        let photo = image::open(format!("../shared/data/{path}"))?.to_rgb8();
        let (w, h) = photo.dimensions();
        for share in [1.0f32, 0.5] {
            let ch = (h as f32 * share) as u32;
            let cw = ((ch as f32 / 1.56) as u32).min(w);
            let cut = imageops::crop_imm(&photo, (w - cw) / 2, (h - ch) / 2, cw, ch).to_image();
            let reading = read(cut, classifier);
            if !reading.cards.is_empty() {
                println!("  {path} (cut {share}): {} cards", reading.cards.len());
            }
            (pictures, cards, wholes) = (
                pictures + 1,
                cards + reading.cards.len(),
                wholes + whole(&reading, (cw, ch)),
            );
        }
    }
    println!(
        "card-free photos cut to a card's shape: {pictures} pictures, {cards} cards read, {wholes} of them the whole picture"
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let width = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("no default classifier")?;
    flat_cards(width, classifier.as_ref());
    card_free(classifier.as_ref())
}
