//! Card faces cut from the table photos of the shared data, for the stress
//! condition that lays real cards on surfaces no photo here shows
//! ([`super::stress::Condition::PhotographedCards`]).
//!
//! Every labelled table photo (`set/photos.jsonl`, `set/more_photos.jsonl`:
//! the photos `snapsolve eval set-photos` reads, which no network trained
//! on) is read by the photo path; where it reads exactly the label's cards,
//! none cut off, each card is cut along its outline, drawn in a little so
//! that no table shows at its edge, and its corners rounded. The faces are
//! the cards the reader already names right where they lie: what the
//! condition tests is finding them, and naming them, on other surfaces,
//! smaller or larger and under other light.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use image::{RgbImage, Rgba, RgbaImage};
use snapsolve_set::Card;
use snapsolve_synth::CardFaces;
use snapsolve_synth::faces::round_corners;
use snapsolve_vision::{Limits, Quad, read_bytes};

use super::classify::CardClassifier;
use super::eval::parse_photo_labels;
use super::network::NetworkClassifier;
use super::table::{decode_table_photo, read_table};

/// The label files whose photos give faces, relative to the shared data folder.
const LABEL_FILES: [&str; 2] = ["set/photos.jsonl", "set/more_photos.jsonl"];
/// Widest face kept, in pixels (a card 160 pixels wide shows its stripes).
const FACE_WIDTH: u32 = 160;
/// Narrowest face kept: a smaller card laid at a table's size would be
/// blown up into a blur no camera gives.
const NARROWEST_FACE: f32 = 64.0;
/// Faces kept per card of each deck: enough for every table to differ,
/// few enough to keep them all in memory.
const FACES_PER_CARD: usize = 3;
/// Each outline is drawn in to this share of its size about its centre
/// before cutting: an outline a pixel off would leave table at the edge.
const INSET: f32 = 0.96;
/// The level a face's paper is brought to in each channel: a white card in
/// the light of the table it is laid on (the table's camera then lights
/// both alike), not in the light of the room it was photographed in.
const PAPER_LEVEL: f32 = 238.0;
/// Largest gain [`paper_gains`] gives a channel (a card in deep shade).
const MOST_GAIN: f32 = 2.5;
/// Radius of a face's rounded corners, as a share of its width.
const CORNER_RADIUS: f32 = 0.06;

/// The faces cut from the shared data with the committed card network, cut
/// once per process; `None` without the shared data.
pub fn photographed_faces() -> Option<Arc<CardFaces>> {
    static FACES: OnceLock<Option<Arc<CardFaces>>> = OnceLock::new();
    FACES
        .get_or_init(|| {
            let root = crate::data::shared_data_dir()?;
            let classifier = NetworkClassifier::embedded().ok()?;
            let faces = cut_faces(&root, &classifier);
            (!faces.is_empty()).then(|| Arc::new(CardFaces::new(faces)))
        })
        .clone()
}

/// The faces of every labelled table photo under `root` read exactly right
/// by `classifier` (see the module's comment).
pub fn cut_faces(root: &Path, classifier: &dyn CardClassifier) -> Vec<(Card, RgbaImage)> {
    let labels = LABEL_FILES
        .iter()
        .filter_map(|file| std::fs::read_to_string(root.join(file)).ok())
        .filter_map(|text| parse_photo_labels(&text).ok())
        .flatten();
    let mut kept: HashMap<(Card, String), usize> = HashMap::new();
    let mut faces = Vec::new();
    for label in labels {
        let Ok(bytes) = read_bytes(&root.join(&label.image), Limits::default()) else {
            continue;
        };
        let Ok(photo) = decode_table_photo(&bytes, Limits::default()) else {
            continue;
        };
        let reading = read_table(&photo, classifier);
        let read: Vec<Card> = reading.cards.iter().map(|c| c.card).collect();
        if !same_cards(&read, &label.cards) || !reading.partial.is_empty() {
            continue;
        }
        for card in &reading.cards {
            let count = kept.entry((card.card, label.deck.clone())).or_default();
            if *count >= FACES_PER_CARD {
                continue;
            }
            if let Some(face) = cut_face(&photo.image, &card.upright) {
                faces.push((card.card, face));
                *count += 1;
            }
        }
    }
    faces
}

/// Whether `a` and `b` hold the same cards, as many times each.
fn same_cards(a: &[Card], b: &[Card]) -> bool {
    let sorted = |cards: &[Card]| {
        let mut indices: Vec<u8> = cards.iter().map(|c| c.index()).collect();
        indices.sort_unstable();
        indices
    };
    sorted(a) == sorted(b)
}

/// The card inside `outline` (portrait order) cut upright from `image`,
/// its corners rounded; `None` when it is too small to be worth laying.
fn cut_face(image: &RgbImage, outline: &Quad) -> Option<RgbaImage> {
    let shortest = outline.shortest_side() * INSET;
    if shortest < NARROWEST_FACE {
        return None;
    }
    let width = shortest.min(FACE_WIDTH as f32).round() as u32;
    let height = (width as f32 * snapsolve_synth::CARD_ASPECT).round() as u32;
    let rgb = snapsolve_vision::warp::warp_quad(image, &outline.scaled(INSET), width, height)?;
    let gains = paper_gains(&rgb);
    let mut face = RgbaImage::from_fn(width, height, |x, y| {
        let [r, g, b] = rgb.get_pixel(x, y).0.map(f32::from);
        let [r, g, b] = [r * gains[0], g * gains[1], b * gains[2]].map(|v| v.min(255.0) as u8);
        Rgba([r, g, b, 255])
    });
    round_corners(&mut face, CORNER_RADIUS);
    Some(face)
}

/// Per channel, the gain that brings a card's paper to [`PAPER_LEVEL`]: its
/// paper is taken as the brightest quarter of its pixels (the symbols cover
/// well under half of a card), each channel's median there.
fn paper_gains(card: &RgbImage) -> [f32; 3] {
    let mut pixels: Vec<[u8; 3]> = card.pixels().map(|p| p.0).collect();
    pixels
        .sort_unstable_by_key(|p| std::cmp::Reverse(p.iter().map(|&v| u32::from(v)).sum::<u32>()));
    let paper = &pixels[..(pixels.len() / 4).max(1)];
    std::array::from_fn(|c| {
        let mut levels: Vec<u8> = paper.iter().map(|p| p[c]).collect();
        levels.sort_unstable();
        let median = f32::from(levels[levels.len() / 2]).max(1.0);
        (PAPER_LEVEL / median).min(MOST_GAIN)
    })
}
