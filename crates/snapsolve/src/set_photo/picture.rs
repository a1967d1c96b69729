//! The answer drawn onto a photo of a table: each SET outlined in its own
//! colour and numbered, each card's name on it, cards cut off by the frame in
//! grey, and "no SET" or "no cards found" when that is the answer.

use image::{Rgb, RgbImage};
use snapsolve_vision::Quad;
use snapsolve_vision::draw::{draw_label_mut, draw_quad_outline_mut, label_size};

use super::table::{CutBy, TableReading};

/// A name may be this much wider than its card: a little wider still reads as
/// the card's, much wider runs over its neighbours.
const NAME_OVERHANG: f32 = 1.15;
/// Names are not drawn smaller than this many pixels tall (the font's digits
/// and letters blur together below it).
const SMALLEST_NAME: f32 = 8.0;
/// Names may be drawn this tall for each pixel of the median card's short
/// side, where that is more than the picture's own share: a card held up to
/// the camera, filling the frame, gets a name a player reads at a glance.
const NAME_PER_CARD_WIDTH: f32 = 0.08;

/// The lines a card's name (`2-red-striped-oval`) is drawn in on a card
/// `card_width` pixels wide, and how tall: on one line ("2 red striped
/// oval") `height` pixels tall where it fits, else on two ("2 red" over
/// "striped oval"), as tall as fits
/// (at most `height`; under [`SMALLEST_NAME`] on cards a webcam sees across
/// the room, which then go unnamed on the picture, as the text and JSON
/// output still name them).
fn name_lines(name: &str, card_width: f32, height: f32) -> (Vec<String>, f32) {
    let room = NAME_OVERHANG * card_width;
    let width = |line: &str, height: f32| label_size(line, height).0 as f32;
    // In words, as on two lines: a picture's names read alike.
    let one_line = name.replace('-', " ");
    if width(&one_line, height) <= room {
        return (vec![one_line], height);
    }
    let words: Vec<&str> = name.split('-').collect();
    let (first, second) = words.split_at(words.len().min(2));
    let lines = vec![first.join(" "), second.join(" ")];
    let widest = lines
        .iter()
        .map(|l| width(l, height))
        .fold(0.0f32, f32::max);
    let fitted = if widest <= room {
        height
    } else {
        height * room / widest
    };
    (lines, fitted)
}

/// A card's name drawn on its lower half, centred, at most `height` pixels
/// tall and about as wide as the card ([`name_lines`]).
fn draw_name(image: &mut RgbImage, name: &str, card: &Quad, height: f32) {
    let (lines, height) = name_lines(name, card.shortest_side(), height);
    let centre = card.centre();
    let bottom = card.corners[2][1].max(card.corners[3][1]);
    let mut y = bottom.min(centre[1] + 0.35 * (bottom - centre[1]));
    for line in &lines {
        let (w, h) = label_size(line, height);
        draw_label_mut(
            image,
            line,
            (centre[0] - w as f32 / 2.0) as i32,
            y as i32,
            height,
            Rgb([255, 255, 255]),
        );
        y += h as f32 + height / 3.0;
    }
}

/// How tall every name on a table is drawn, `scale` being the picture's
/// longer side over 1000. One size for every name, so that none stands out;
/// under [`SMALLEST_NAME`] (none drawn) where some card holds no legible
/// name. At most 12 pixels a thousand of the picture or
/// [`NAME_PER_CARD_WIDTH`] of the median card's short side, whichever is
/// more, but never less than legible for that: in a picture under 667 pixels
/// (a 640x480 frame, a card's scan) no name was drawn, however large its
/// cards, and a card filling the frame was named in letters about a
/// fiftieth of its width.
fn name_height(names: &[(String, &Quad)], scale: f32) -> f32 {
    let mut widths: Vec<f32> = names.iter().map(|(_, card)| card.shortest_side()).collect();
    widths.sort_by(f32::total_cmp);
    let median_width = widths.get(widths.len() / 2).copied().unwrap_or(0.0);
    let most = (12.0 * scale)
        .max(NAME_PER_CARD_WIDTH * median_width)
        .max(SMALLEST_NAME);
    names
        .iter()
        .map(|(name, card)| name_lines(name, card.shortest_side(), most).1)
        .fold(most, f32::min)
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
    let names: Vec<(String, &Quad)> = reading
        .cards
        .iter()
        .map(|card| (card.card.to_string(), &card.upright))
        .collect();
    let height = name_height(&names, scale);
    if height >= SMALLEST_NAME {
        for (name, card) in &names {
            draw_name(image, name, card, height);
        }
    } else {
        // Too small to name: each card read is still marked, thinly.
        for (_, card) in &names {
            let thin = (thickness / 2.0).max(1.0);
            draw_quad_outline_mut(image, card, thin, Rgb([255, 255, 255]));
        }
    }
    for partial in &reading.partial {
        let grey = Rgb([160, 160, 160]);
        draw_quad_outline_mut(image, &partial.upright, (thickness / 2.0).max(1.0), grey);
        let centre = partial.upright.centre();
        let label = match partial.cut_by {
            CutBy::Edge => "cut off",
            CutBy::MissingPart => "missing",
        };
        draw_label_mut(
            image,
            label,
            centre[0] as i32,
            centre[1] as i32,
            12.0 * scale,
            grey,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_fits_its_card_on_one_line_or_two_or_is_too_small_to_read() {
        let name = "3-purple-striped-squiggle";
        let (lines, height) = name_lines(name, 400.0, 12.0);
        assert_eq!(
            (lines, height),
            (vec!["3 purple striped squiggle".to_string()], 12.0)
        );
        // A card 60 pixels wide: two lines, each no wider than the card allows.
        let (lines, height) = name_lines(name, 60.0, 12.0);
        assert_eq!(lines, ["3 purple", "striped squiggle"]);
        assert!((SMALLEST_NAME..=12.0).contains(&height));
        for line in &lines {
            assert!(label_size(line, height).0 as f32 <= NAME_OVERHANG * 60.0 + 1.0);
        }
        // A card of 20 pixels holds no legible name.
        assert!(name_lines(name, 20.0, 12.0).1 < SMALLEST_NAME);
    }

    #[test]
    fn a_card_filling_the_frame_is_named_in_letters_sized_to_it() {
        let quad = |x: f32, w: f32| Quad {
            corners: [
                [x, 100.0],
                [x + w, 100.0],
                [x + w, 100.0 + 1.56 * w],
                [x, 100.0 + 1.56 * w],
            ],
        };
        let name = "1-purple-striped-diamond".to_string();
        // A 960-pixel frame: a lone card 540 wide, and a table of cards 120 wide.
        let close = quad(90.0, 540.0);
        let height = name_height(&[(name.clone(), &close)], 0.96);
        assert!(height >= 40.0, "{height}");
        let table: Vec<Quad> = (0..4).map(|i| quad(130.0 * i as f32, 120.0)).collect();
        let names: Vec<(String, &Quad)> = table.iter().map(|q| (name.clone(), q)).collect();
        let height = name_height(&names, 0.96);
        assert!((SMALLEST_NAME..=12.0 * 0.96).contains(&height), "{height}");
    }

    #[test]
    fn a_small_picture_of_large_cards_has_their_names_drawn() {
        use crate::set_photo::CardReading;
        use crate::set_photo::table::assemble_reading;
        use snapsolve_vision::Photo;

        // A 640x480 frame: names at most 12 pixels a thousand would be 7.7
        // pixels tall, under the legible floor, and none was drawn.
        let grey = Rgb([128, 128, 128]);
        let photo = Photo::from_upright(RgbImage::from_pixel(640, 480, grey));
        let card = Quad {
            corners: [[100.0, 50.0], [300.0, 50.0], [300.0, 362.0], [100.0, 362.0]],
        };
        let sure = CardReading {
            attribute_probabilities: [[1.0, 0.0, 0.0]; 4],
            card_probability: Some(1.0),
        };
        let reading = assemble_reading(&photo, vec![card], vec![sure]);
        let mut picture = photo.image.clone();
        draw_answer(&mut picture, &reading, 10);
        // The name's white letters, on the card (the outline would be thin
        // and on its edge).
        let lettered = (110..290)
            .flat_map(|x| (60..352).map(move |y| (x, y)))
            .filter(|&(x, y)| picture.get_pixel(x, y)[0] > 200)
            .count();
        assert!(lettered > 20, "{lettered} white pixels on the card");
    }
}
