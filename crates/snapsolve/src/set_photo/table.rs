//! From a photo of a table to cards, confidences and SETs, and back onto the photo.
//!
//! photo (upright) → card quadrilaterals ([`snapsolve_vision::CardFinder`]) →
//! canonical crops → readings ([`CardClassifier`]) → cards, with repeated and
//! unsure readings reported → SETs (`snapsolve_set::finders::find_sets`).

use std::path::Path;

use image::{Rgb, RgbImage};
use snapsolve_set::Card;
use snapsolve_set::finders::find_sets;
use snapsolve_vision::crop::card_crop;
use snapsolve_vision::draw::{draw_label_mut, draw_quad_outline_mut, label_size};
use snapsolve_vision::{
    CardFinder, DecodeError, Limits, Photo, Quad, decode_photo_reduced, read_bytes,
};

use super::classify::{CardClassifier, CardReading};

/// Readings below this confidence are reported as unsure.
pub const LOW_CONFIDENCE: f32 = 0.5;

/// One card found on the table.
#[derive(Clone, Debug)]
pub struct TableCard {
    /// The card read.
    pub card: Card,
    /// Corners in the upright picture (EXIF orientation applied), portrait order.
    pub upright: Quad,
    /// Corners in the pixels of the image as stored in the file.
    pub stored: Quad,
    /// The classifier's reading.
    pub reading: CardReading,
}

impl TableCard {
    /// Confidence of the reading.
    pub fn confidence(&self) -> f32 {
        self.reading.confidence()
    }
}

/// Everything read from one photo.
#[derive(Clone, Debug)]
pub struct TableReading {
    /// Width of the image as stored in the file.
    pub width: u32,
    /// Height of the image as stored in the file.
    pub height: u32,
    /// The cards, in reading order (rows top to bottom, then left to right).
    pub cards: Vec<TableCard>,
    /// SETs as positions in `cards`, each increasing, sorted.
    pub sets: Vec<[usize; 3]>,
    /// Groups of positions that were read as the same card (a deck has each card once).
    pub duplicates: Vec<Vec<usize>>,
    /// Positions whose reading is below [`LOW_CONFIDENCE`].
    pub unsure: Vec<usize>,
    /// What the reader should know about the photo (a file that ends early).
    pub warnings: Vec<String>,
}

/// JPEGs are decoded at a reduced scale that keeps their longer side at
/// least this long (see [`decode_table_photo`]).
pub const DECODE_MIN_SIDE: u32 = 2000;

/// Decodes a photo of a table for [`read_table`]: a JPEG of more than
/// `2 * DECODE_MIN_SIDE` pixels a side is decoded at 1/2, 1/4 or 1/8 scale,
/// which is all the card finder (~1000 pixels) and the 96x150 crops use;
/// corners still come back in the stored pixels.
pub fn decode_table_photo(bytes: &[u8], limits: Limits) -> Result<Photo, DecodeError> {
    decode_photo_reduced(bytes, limits, DECODE_MIN_SIDE)
}

/// Reads and decodes a photo file of a table (see [`decode_table_photo`]).
pub fn read_table_photo(path: &Path, limits: Limits) -> Result<Photo, DecodeError> {
    decode_table_photo(&read_bytes(path, limits)?, limits)
}

/// Reads a table: finds the cards, names them and finds the SETs.
pub fn read_table(photo: &Photo, classifier: &dyn CardClassifier) -> TableReading {
    let quads = CardFinder::default().find(&photo.image);
    let (quads, crops) = card_crops(&photo.image, quads);
    let readings = classifier.classify(&crops);
    assemble_reading(photo, quads, readings)
}

/// The canonical crop of every quadrilateral, keeping only those that warp
/// (a degenerate quadrilateral has no crop).
pub fn card_crops(image: &RgbImage, quads: Vec<Quad>) -> (Vec<Quad>, Vec<RgbImage>) {
    quads
        .into_iter()
        .filter_map(|q| card_crop(image, &q).map(|c| (q, c)))
        .unzip()
}

/// Cards from quadrilaterals and their readings: names, stored corners, SETs,
/// repeated and unsure readings.
pub fn assemble_reading(
    photo: &Photo,
    quads: Vec<Quad>,
    readings: Vec<CardReading>,
) -> TableReading {
    let cards: Vec<TableCard> = quads
        .into_iter()
        .zip(readings)
        .map(|(upright, reading)| TableCard {
            card: reading.card(),
            stored: upright.map(|p| {
                let (x, y) = photo.to_stored((p[0], p[1]));
                [x, y]
            }),
            upright,
            reading,
        })
        .collect();
    let names: Vec<Card> = cards.iter().map(|c| c.card).collect();
    let sets = find_sets(&names);
    let mut duplicates: Vec<Vec<usize>> = Vec::new();
    for (i, card) in names.iter().enumerate() {
        let same: Vec<usize> = (0..names.len()).filter(|&j| names[j] == *card).collect();
        if same.len() > 1 && same[0] == i {
            duplicates.push(same);
        }
    }
    let unsure = (0..cards.len())
        .filter(|&i| cards[i].confidence() < LOW_CONFIDENCE)
        .collect();
    TableReading {
        width: photo.stored_width,
        height: photo.stored_height,
        cards,
        sets,
        duplicates,
        unsure,
        warnings: photo.warnings.clone(),
    }
}

/// Distinct colours for SETs, chosen to stay apart for common colour blindness
/// (Okabe–Ito palette); SETs also carry numbers, so colour is never the only cue.
const SET_COLOURS: [[u8; 3]; 8] = [
    [230, 159, 0],
    [86, 180, 233],
    [0, 158, 115],
    [240, 228, 66],
    [0, 114, 178],
    [213, 94, 0],
    [204, 121, 167],
    [255, 255, 255],
];

/// Draws the answer onto the upright photo: each of the first `max_sets` SETs
/// outlined in its own colour (a card in several SETs gets nested outlines) with
/// its number beside every card, each card's name small, and "no SET" when there is none.
pub fn draw_answer(image: &mut RgbImage, reading: &TableReading, max_sets: usize) {
    let scale = image.width().max(image.height()) as f32 / 1000.0;
    let thickness = (4.0 * scale).max(2.0);
    let mut rings = vec![0usize; reading.cards.len()];
    for (number, set) in reading.sets.iter().take(max_sets).enumerate() {
        let colour = Rgb(SET_COLOURS[number % SET_COLOURS.len()]);
        for &i in set {
            let grow = thickness * (1.6 * rings[i] as f32 + 0.5);
            let quad = reading.cards[i].upright.expanded(grow);
            draw_quad_outline_mut(image, &quad, thickness, colour);
            let label = format!("{}", number + 1);
            let corner = quad.corners[0];
            let offset = rings[i] as f32 * 2.2 * thickness * 4.0;
            draw_label_mut(
                image,
                &label,
                (corner[0] + offset) as i32,
                (corner[1] - 22.0 * scale) as i32,
                18.0 * scale,
                colour,
            );
            rings[i] += 1;
        }
    }
    for card in &reading.cards {
        let name = card.card.to_string();
        let height = 12.0 * scale;
        let (w, _) = label_size(&name, height);
        let centre = card.upright.centre();
        let bottom = card.upright.corners[2][1].max(card.upright.corners[3][1]);
        let y = bottom.min(centre[1] + 0.35 * (bottom - centre[1]));
        draw_label_mut(
            image,
            &name,
            (centre[0] - w as f32 / 2.0) as i32,
            y as i32,
            height,
            Rgb([255, 255, 255]),
        );
    }
    if reading.sets.is_empty() {
        let text = if reading.cards.is_empty() {
            "no cards found"
        } else {
            "no SET"
        };
        draw_label_mut(
            image,
            text,
            (20.0 * scale) as i32,
            (20.0 * scale) as i32,
            48.0 * scale,
            Rgb([255, 80, 80]),
        );
    }
}
