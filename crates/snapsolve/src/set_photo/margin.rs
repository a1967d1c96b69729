//! Pictures cut tight round their cards: a web page's or a screenshot's row of
//! cards whose paper runs to the picture's edges, top and bottom.
//!
//! The card finder takes an outline along the picture's edge for a card cut
//! off by it, and with every card so it has no whole card to measure the
//! others by: three flat cards in a row, cut tight, read as no card on white,
//! grey or green ground alike (`examples/flat_layouts.rs`). The same picture
//! with a margin of its ground round it reads right; so where nothing is read
//! and two opposite edges of the picture run through card paper, the reader
//! reads it again with a margin ([`with_margin`]) and maps what it finds back
//! ([`Margin::back_into`]).

use image::{Rgb, RgbImage};
use snapsolve_vision::{Photo, Quad};

use super::table::{CutBy, PartialCard, TableReading, assemble_reading, cut_off_by_edge};

/// Share of an edge's pixels that must be card paper for the edge to run
/// through cards: three cards in a row with gaps between them fill 80-90% of
/// the top and bottom edges, one card with ground on both sides about half.
const PAPER_EDGE_SHARE: f32 = 0.4;

/// Card paper: bright in every channel and nearly grey (the paper of both
/// editions under daylight and warm light alike).
fn is_paper(Rgb([r, g, b]): Rgb<u8>) -> bool {
    let (low, high) = (r.min(g).min(b), r.max(g).max(b));
    low >= 150 && high - low <= 45
}

/// Whether two opposite edges of the picture both run through card paper
/// for at least [`PAPER_EDGE_SHARE`] of their length.
pub fn edges_run_through_paper(image: &RgbImage) -> bool {
    let (w, h) = image.dimensions();
    if w < 2 || h < 2 {
        return false;
    }
    let share = |pixels: &mut dyn Iterator<Item = (u32, u32)>, length: u32| {
        pixels
            .filter(|&(x, y)| is_paper(*image.get_pixel(x, y)))
            .count() as f32
            / length as f32
    };
    let top = share(&mut (0..w).map(|x| (x, 0)), w);
    let bottom = share(&mut (0..w).map(|x| (x, h - 1)), w);
    let left = share(&mut (0..h).map(|y| (0, y)), h);
    let right = share(&mut (0..h).map(|y| (w - 1, y)), h);
    (top.min(bottom) >= PAPER_EDGE_SHARE) || (left.min(right) >= PAPER_EDGE_SHARE)
}

/// Margin added on every side, as a share of the picture's longer side
/// (at least [`LEAST_MARGIN`] pixels): a few pixels of ground round the
/// cards are what the finder needs to see their outlines.
const MARGIN_SHARE: f32 = 0.03;
const LEAST_MARGIN: u32 = 6;

/// The margin added round a picture: its pixel (x, y) is at (x + offset,
/// y + offset) of the margined picture.
pub struct Margin {
    /// The margin's width in pixels.
    pub offset: u32,
}

/// The margin's colour: a dark table's. Card paper needs an edge against
/// it; a margin of the ground between the cards hides the cards' outlines
/// where that ground is white (three flat cards on white, margined with
/// their paper's colour, read as no card; margined dark, white or grey, read
/// right).
const MARGIN_COLOUR: Rgb<u8> = Rgb([40, 40, 40]);

/// The picture with a dark margin round it ([`MARGIN_COLOUR`]), and the margin.
pub fn with_margin(image: &RgbImage) -> (RgbImage, Margin) {
    let (w, h) = image.dimensions();
    let offset = ((MARGIN_SHARE * w.max(h) as f32) as u32).max(LEAST_MARGIN);
    let mut out = RgbImage::from_pixel(w + 2 * offset, h + 2 * offset, MARGIN_COLOUR);
    image::imageops::replace(&mut out, image, i64::from(offset), i64::from(offset));
    (out, Margin { offset })
}

/// Share of the picture above which an outline found with a margin round
/// it is the picture itself.
const PICTURE_SHARE: f32 = 0.9;

impl Margin {
    /// A reading of the margined picture as a reading of `photo`: every
    /// outline moved back by the margin and brought to the stored pixels.
    /// A card found reaching into the margin, or running along the picture's
    /// edge and cut short by it, was cut off by the edge after all: it is
    /// reported partial, not named. An outline that is most of the picture
    /// is the picture itself, which the margin made look like a card on a
    /// dark table (a newspaper's page read as a card): it is left out (a
    /// picture that is one card is read as such without a margin).
    pub fn back_into(&self, photo: &Photo, margined: TableReading) -> TableReading {
        let shift = self.offset as f32;
        let back = |quad: &Quad| quad.map(|[x, y]| [x - shift, y - shift]);
        let (width, height) = photo.image.dimensions();
        let (w, h) = (width as f32, height as f32);
        // The finder's outlines are good to a working pixel or two.
        let slack = 0.01 * w.max(h);
        let within = |[x, y]: [f32; 2]| {
            (-slack..=w + slack).contains(&x) && (-slack..=h + slack).contains(&y)
        };
        let picture = w * h;
        let (cards, pictures): (Vec<_>, Vec<_>) = margined
            .cards
            .into_iter()
            .partition(|c| c.upright.area() < PICTURE_SHARE * picture);
        let quads: Vec<Quad> = cards.iter().map(|c| back(&c.upright)).collect();
        let cut = cut_off_by_edge(&quads, width, height);
        let (mut kept, mut readings, mut partial) = (Vec::new(), Vec::new(), Vec::new());
        for ((quad, card), cut) in quads.into_iter().zip(cards).zip(cut) {
            if cut || !quad.corners.iter().all(|&p| within(p)) {
                partial.push(quad);
            } else {
                kept.push(quad);
                readings.push(card.reading);
            }
        }
        partial.extend(margined.partial.iter().map(|p| back(&p.upright)));
        let mut reading = assemble_reading(photo, kept, readings);
        reading.not_cards = margined.not_cards + pictures.len();
        reading.partial = partial
            .into_iter()
            .map(|upright| PartialCard::in_photo(photo, upright, CutBy::Edge))
            .collect();
        reading
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row_of_paper(ground: [u8; 3]) -> RgbImage {
        // Three 40-pixel "cards" of paper with 6-pixel gaps, 62 pixels tall.
        RgbImage::from_fn(132, 62, |x, _| {
            if x % 46 < 40 {
                Rgb([245, 243, 238])
            } else {
                Rgb(ground)
            }
        })
    }

    #[test]
    fn a_row_of_paper_cut_tight_runs_through_paper_and_a_dark_table_does_not() {
        assert!(edges_run_through_paper(&row_of_paper([40, 90, 50])));
        let table = RgbImage::from_pixel(132, 62, Rgb([60, 40, 30]));
        assert!(!edges_run_through_paper(&table));
    }

    #[test]
    fn the_picture_sits_inside_its_margin() {
        let row = row_of_paper([40, 90, 50]);
        let (margined, margin) = with_margin(&row);
        assert_eq!(margin.offset, LEAST_MARGIN);
        assert_eq!(margined.dimensions(), (132 + 12, 62 + 12));
        assert_eq!(*margined.get_pixel(0, 0), MARGIN_COLOUR);
        assert_eq!(margined.get_pixel(6 + 45, 6), row.get_pixel(45, 0));
    }
}
