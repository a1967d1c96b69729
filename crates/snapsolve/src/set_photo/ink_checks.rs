//! Three checks of the card network's names where over-exposure washes the
//! ink out, by measurements a person can verify (docs/evaluation.md,
//! sessions 48 and 51). All look only at cards whose paper is clipped white
//! ([`clipped_white`]): on a picture exposed right the network is better
//! than any such rule.
//!
//! - **Reds of two hues.** Purple ink under a warm light looks magenta; the
//!   network names it right while the card's paper shows the light's cast
//!   (each crop is white-balanced on its paper), but once the paper is
//!   clipped white the cast stays in the ink and the purple is named red.
//!   Within one table a colour's cards lie within about twenty degrees of
//!   hue (the shared photos' reds: 348-357° on one source, 13-34° on
//!   another), and such purples 30-50° bluer than the table's true reds. So
//!   where the cards named red fall into two hue groups at least
//!   [`RED_HUE_GAP`] apart, and the bluer group is clearly on purple's side
//!   of red ([`PURPLE_SIDE`]), its clipped cards are purple.
//! - **A tint the network half saw.** Over-exposure washes stripes out to a
//!   pale tint. A clipped card named open whose network still gives striped
//!   at least [`STRIPED_DOUBT`], and whose symbols' insides hold ink (the
//!   features classifier's fill at least [`STRIPED_FILL`]; 95% of the open
//!   cards of the shared crops measure under 0.041), is striped.
//!
//! - **Stripes the network did not see.** Where the tint is gone too, the
//!   stripes may still show as faint lines at the picture's own resolution,
//!   finer than the network's crop: a clipped card named open whose symbols'
//!   insides ripple down the columns ([`STRIPE_RIPPLE`]) many times more than
//!   along the rows ([`STRIPE_RATIO`]), spread over the columns rather
//!   than at one edge ([`STRIPE_PEAK_SHARE`]; `set_photo::stripes`), is
//!   striped.
//!
//! All only swap two of an attribute's probabilities, so the reading's
//! confidence is the network's own.

use image::RgbImage;
use snapsolve_vision::Quad;
use snapsolve_vision::crop::card_crop;

use super::classify::CardReading;
use super::features::{hue_from_red, measure, strongest_ink_hue};
use super::stripes::symbol_ripple;

/// The least gap of hue, in degrees, between two groups of cards named red
/// for the bluer group to be taken for purple.
pub const RED_HUE_GAP: f32 = 25.0;
/// The bluer group's hues must all lie at least this far (degrees) from pure
/// red towards purple (at most 345°): a table's reds under a warm light lie
/// on the other side, towards orange.
pub const PURPLE_SIDE: f32 = 15.0;
/// The least probability of striped, for a card named open, for its tint to
/// be looked at.
pub const STRIPED_DOUBT: f32 = 0.1;
/// The least share of ink inside the symbols (relative to their outline's)
/// that makes a card named open striped.
pub const STRIPED_FILL: f32 = 0.08;
/// The least ripple down the columns of a card's symbols' insides (mean
/// square, ink levels of 0-255) for stripes: the open cards clipped white
/// of the rendered suite (tables 400-447) reach 6, or 17 with a ratio
/// ([`STRIPE_RATIO`]) of 0.2; the striped ones the network named open 0-1,200.
pub const STRIPE_RIPPLE: f32 = 8.0;
/// The least ratio of the columns' ripple to the rows' for stripes: open
/// cards clipped white reach 3.8 (one with a coloured object's edge across
/// it, 108: [`STRIPE_PEAK_SHARE`]).
pub const STRIPE_RATIO: f32 = 8.0;
/// The most of the columns' ripple its largest tenth may hold for stripes:
/// the striped cards clipped white of the rendered suite hold 0.23-0.79,
/// the open card with a coloured object's edge across it 1.
pub const STRIPE_PEAK_SHARE: f32 = 0.9;
/// A card is clipped white where at least this share of it is at least
/// [`CLIPPED_LEVEL`] in every channel (the shared photos' cards at 130%
/// exposure: 0.5-0.95; the rendered suite's cards exposed right: 0).
pub const CLIPPED_SHARE: f32 = 0.3;
/// A channel's level taken for clipped white.
pub const CLIPPED_LEVEL: u8 = 250;

const RED: usize = 0;
const PURPLE: usize = 2;
const STRIPED: usize = 1;
const OPEN: usize = 2;
const COLOUR: usize = 1;
const SHADING: usize = 2;

/// Applies both checks to the cards read on one table (`image` is the
/// upright picture the quads lie in).
pub fn check_washed_out_names(image: &RgbImage, cards: &mut [(Quad, CardReading)]) {
    purple_among_reds(image, cards);
    for (quad, reading) in cards.iter_mut() {
        if is_washed_out_stripes(image, quad, reading) {
            reading.attribute_probabilities[SHADING].swap(STRIPED, OPEN);
        }
    }
}

/// Whether most of a card is clipped white ([`CLIPPED_SHARE`]), judged on
/// a grid of 12 x 18 points across its outline (no crop is cut: on a picture
/// exposed right this is all the checks cost).
pub fn clipped_white(image: &RgbImage, quad: &Quad) -> bool {
    const ACROSS: usize = 12;
    const DOWN: usize = 18;
    let clipped = (0..ACROSS * DOWN)
        .filter(|k| {
            let u = ((k % ACROSS) as f32 + 0.5) / ACROSS as f32;
            let v = ((k / ACROSS) as f32 + 0.5) / DOWN as f32;
            let [x, y] = quad.point_at(u, v);
            x >= 0.0
                && y >= 0.0
                && image
                    .get_pixel_checked(x as u32, y as u32)
                    .is_some_and(|p| p.0.iter().all(|&v| v >= CLIPPED_LEVEL))
        })
        .count();
    clipped as f32 >= CLIPPED_SHARE * (ACROSS * DOWN) as f32
}

/// Renames purple the clipped cards of the bluer of two hue groups among
/// the cards named red.
fn purple_among_reds(image: &RgbImage, cards: &mut [(Quad, CardReading)]) {
    let Some(mut reds) = hues_named_red(image, cards) else {
        return;
    };
    reds.sort_by(|a, b| a.0.total_cmp(&b.0));
    let gap = |k: usize| reds[k].0 - reds[k - 1].0;
    let Some(split) = (1..reds.len()).max_by(|&a, &b| gap(a).total_cmp(&gap(b))) else {
        return;
    };
    if gap(split) < RED_HUE_GAP || reds[split - 1].0 > -PURPLE_SIDE {
        return;
    }
    for &(_, clipped, i) in &reds[..split] {
        if clipped {
            cards[i].1.attribute_probabilities[COLOUR].swap(RED, PURPLE);
        }
    }
}

/// Each card named red as (hue relative to pure red in -180..180, purple's
/// side negative; whether it is clipped white; its index), where at least
/// two are named red and one of them is clipped; else `None`.
fn hues_named_red(
    image: &RgbImage,
    cards: &[(Quad, CardReading)],
) -> Option<Vec<(f32, bool, usize)>> {
    let named_red: Vec<(usize, bool)> = (0..cards.len())
        .filter(|&i| cards[i].1.card().values()[COLOUR] as usize == RED)
        .map(|i| (i, clipped_white(image, &cards[i].0)))
        .collect();
    if named_red.len() < 2 || !named_red.iter().any(|&(_, clipped)| clipped) {
        return None;
    }
    let reds: Vec<(f32, bool, usize)> = named_red
        .into_iter()
        .filter_map(|(i, clipped)| {
            let hue = strongest_ink_hue(&card_crop(image, &cards[i].0)?)?;
            Some((hue_from_red(hue), clipped, i))
        })
        .collect();
    (reds.len() >= 2).then_some(reds)
}

/// Whether a clipped card named open shows a tint inside its symbols that
/// the network half saw, or stripes at the picture's own resolution.
fn is_washed_out_stripes(image: &RgbImage, quad: &Quad, reading: &CardReading) -> bool {
    let shading = reading.attribute_probabilities[SHADING];
    if reading.card().values()[SHADING] as usize != OPEN || !clipped_white(image, quad) {
        return false;
    }
    let tint_half_seen = || {
        shading[STRIPED] >= STRIPED_DOUBT
            && card_crop(image, quad)
                .and_then(|crop| measure(&crop))
                .is_some_and(|features| features.fill >= STRIPED_FILL)
    };
    let stripes_seen = || {
        symbol_ripple(image, quad).is_some_and(|ripple| {
            ripple.columns >= STRIPE_RIPPLE
                && ripple.stripe_ratio() >= STRIPE_RATIO
                && ripple.columns_peak <= STRIPE_PEAK_SHARE
        })
    };
    tint_half_seen() || stripes_seen()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;
    use imageproc::drawing::{
        draw_filled_ellipse_mut, draw_filled_rect_mut, draw_hollow_ellipse_mut,
    };
    use imageproc::rect::Rect;

    const CARD_WIDTH: u32 = 96;
    const CARD_HEIGHT: u32 = 150;

    /// A table of white cards on grey, side by side, each with one oval
    /// outlined in its ink colour, filled with `tint` where one is given.
    fn table(cards: &[(Rgb<u8>, Option<Rgb<u8>>)]) -> (RgbImage, Vec<Quad>) {
        let width = 20 + cards.len() as u32 * (CARD_WIDTH + 20);
        let mut image = RgbImage::from_pixel(width, CARD_HEIGHT + 40, Rgb([90, 90, 90]));
        let quads = cards
            .iter()
            .enumerate()
            .map(|(i, &(ink, tint))| {
                let x = 20 + i as u32 * (CARD_WIDTH + 20);
                let paper = Rect::at(x as i32, 20).of_size(CARD_WIDTH, CARD_HEIGHT);
                draw_filled_rect_mut(&mut image, paper, Rgb([255, 255, 255]));
                let centre = ((x + CARD_WIDTH / 2) as i32, (20 + CARD_HEIGHT / 2) as i32);
                if let Some(tint) = tint {
                    draw_filled_ellipse_mut(&mut image, centre, 30, 18, tint);
                }
                for thickness in 0..3 {
                    draw_hollow_ellipse_mut(
                        &mut image,
                        centre,
                        30 - thickness,
                        18 - thickness,
                        ink,
                    );
                }
                let (x, y, w, h) = (x as f32, 20.0, CARD_WIDTH as f32, CARD_HEIGHT as f32);
                Quad {
                    corners: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
                }
            })
            .collect();
        (image, quads)
    }

    /// Faint upright stripes, a pixel wide every three, across the oval of
    /// each card of `table`.
    fn stripe(image: &mut RgbImage, quads: &[Quad], stripe: Rgb<u8>) {
        for quad in quads {
            let [x0, y0] = quad.corners[0];
            let centre = (x0 + CARD_WIDTH as f32 / 2.0, y0 + CARD_HEIGHT as f32 / 2.0);
            for x in (-24..=24).step_by(3) {
                let half = 14.0 * (1.0 - (x as f32 / 28.0).powi(2)).sqrt();
                for y in -(half as i32)..=half as i32 {
                    let p = ((centre.0 as i32 + x) as u32, (centre.1 as i32 + y) as u32);
                    image.put_pixel(p.0, p.1, stripe);
                }
            }
        }
    }

    /// A sure reading of colour `colour` and shading `shading`, striped at `striped` if open.
    fn reading(colour: usize, shading: usize, striped: f32) -> CardReading {
        let mut colours = [0.0; 3];
        colours[colour] = 1.0;
        let shadings = match shading {
            OPEN => [0.0, striped, 1.0 - striped],
            _ => std::array::from_fn(|v| f32::from(u8::from(v == shading))),
        };
        CardReading {
            attribute_probabilities: [[1.0, 0.0, 0.0], colours, shadings, [0.0, 1.0, 0.0]],
            card_probability: Some(1.0),
        }
    }

    /// The picture a tenth darker: its paper no longer clipped white.
    fn exposed_right(image: &mut RgbImage) {
        for p in image.pixels_mut() {
            p.0 = p.0.map(|v| (f32::from(v) * 0.9) as u8);
        }
    }

    fn colours_after_checks(inks: &[Rgb<u8>]) -> Vec<u8> {
        colours_after_checks_on(inks, false)
    }

    fn colours_after_checks_on(inks: &[Rgb<u8>], darker: bool) -> Vec<u8> {
        let (mut image, quads) = table(&inks.iter().map(|&ink| (ink, None)).collect::<Vec<_>>());
        if darker {
            exposed_right(&mut image);
        }
        let mut cards: Vec<(Quad, CardReading)> = quads
            .into_iter()
            .map(|q| (q, reading(RED, 0, 0.0)))
            .collect();
        check_washed_out_names(&image, &mut cards);
        cards
            .iter()
            .map(|(_, r)| r.card().values()[COLOUR])
            .collect()
    }

    // Hues of the inks: 20° (a red under warm light), 338° (a warm light's
    // purple), 350° and 5° (reds), 40° (orange).
    const RED_20: Rgb<u8> = Rgb([200, 93, 40]);
    const MAGENTA_338: Rgb<u8> = Rgb([200, 40, 100]);
    const RED_350: Rgb<u8> = Rgb([200, 40, 67]);
    const RED_5: Rgb<u8> = Rgb([200, 53, 40]);
    const ORANGE_40: Rgb<u8> = Rgb([200, 147, 40]);

    #[test]
    fn the_bluer_of_two_hue_groups_named_red_is_purple() {
        let colours = colours_after_checks(&[RED_20, MAGENTA_338, RED_20, MAGENTA_338]);
        assert_eq!(colours, vec![0, 2, 0, 2]);
    }

    #[test]
    fn cards_exposed_right_keep_the_network_s_names() {
        let inks = [RED_20, MAGENTA_338, RED_20, MAGENTA_338];
        assert_eq!(colours_after_checks_on(&inks, true), vec![0, 0, 0, 0]);
        let purple = Rgb([110, 40, 160]);
        let pale = Rgb([225, 205, 235]);
        let (mut image, quads) = table(&[(purple, Some(pale))]);
        exposed_right(&mut image);
        let mut cards = vec![(quads[0], reading(PURPLE, OPEN, 0.3))];
        check_washed_out_names(&image, &mut cards);
        assert_eq!(cards[0].1.card().values()[SHADING], 2);
    }

    #[test]
    fn reds_of_one_hue_group_stay_red() {
        assert_eq!(
            colours_after_checks(&[RED_350, RED_5, RED_350]),
            vec![0, 0, 0]
        );
        // A lone card named red has no table to be compared with.
        assert_eq!(colours_after_checks(&[MAGENTA_338]), vec![0]);
    }

    #[test]
    fn two_groups_on_orange_s_side_of_red_stay_red() {
        // 5° and 40° are far apart, but the bluer group is red itself.
        assert_eq!(
            colours_after_checks(&[RED_5, ORANGE_40, RED_5]),
            vec![0, 0, 0]
        );
    }

    #[test]
    fn an_open_card_with_a_tint_the_network_half_saw_is_striped() {
        let purple = Rgb([110, 40, 160]);
        let pale = Rgb([225, 205, 235]);
        let (image, quads) = table(&[(purple, Some(pale)), (purple, Some(pale)), (purple, None)]);
        let mut cards = vec![
            (quads[0], reading(PURPLE, OPEN, 0.3)),
            (quads[1], reading(PURPLE, OPEN, 0.02)),
            (quads[2], reading(PURPLE, OPEN, 0.3)),
        ];
        check_washed_out_names(&image, &mut cards);
        let shadings: Vec<u8> = cards
            .iter()
            .map(|(_, r)| r.card().values()[SHADING])
            .collect();
        // Half seen and tinted: striped; tinted but not seen, or seen but no tint: open.
        assert_eq!(shadings, vec![1, 2, 2]);
        assert!((cards[0].1.attribute_probabilities[SHADING][STRIPED] - 0.7).abs() < 1e-6);
    }

    #[test]
    fn stripes_too_faint_for_the_network_s_crop_make_a_clipped_open_card_striped() {
        let purple = Rgb([110, 40, 160]);
        let (mut image, quads) = table(&[(purple, None), (purple, None)]);
        stripe(&mut image, &quads[..1], Rgb([235, 215, 245]));
        let shading_after = |image: &RgbImage| {
            let mut cards: Vec<(Quad, CardReading)> = quads
                .iter()
                .map(|&q| (q, reading(PURPLE, OPEN, 0.0)))
                .collect();
            check_washed_out_names(image, &mut cards);
            cards
                .iter()
                .map(|(_, r)| r.card().values()[SHADING])
                .collect::<Vec<u8>>()
        };
        // Striped, though the network gave striped nothing; the open card stays open.
        assert_eq!(shading_after(&image), vec![1, 2]);
        // Exposed right, the network's names stand.
        exposed_right(&mut image);
        assert_eq!(shading_after(&image), vec![2, 2]);
    }
}
