//! Whole pictures: one card as a classifier sees it (a crop cut from a
//! photographed scene) and whole tables of cards with their true corners.

use image::RgbImage;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use snapsolve_set::Card;

use crate::camera::{Camera, CastShadow, draw_clutter, fill_background};
use crate::deck::{CardStyle, Edition};
use crate::draw::{CARD_ASPECT, render_card};
use crate::geometry::{Quad, composite_card, warp_quad};

/// Share of rendered crops with a [`CastShadow`] across the card.
pub const CROP_SHADOW_SHARE: f64 = 0.4;

/// Renders `card` the way a detector hands it to a classifier: drawn, laid on
/// a background with a random tilt, in [`CROP_SHADOW_SHARE`] of the crops
/// partly shaded by a cast shadow, photographed by a random [`Camera`], then
/// cut back out of a slightly wrong quadrilateral into an upright
/// `width` x `height` crop, turned by 180° half of the time.
pub fn render_crop(
    card: Card,
    edition: Edition,
    width: u32,
    height: u32,
    rng: &mut StdRng,
) -> RgbImage {
    let style = CardStyle::random(edition, rng);
    let card_w = width as f32 * rng.random_range(0.75..1.5);
    let card_h = card_w * CARD_ASPECT;
    let drawn = render_card(card, &style, card_w.round() as u32);
    let margin = 0.25 * card_w;
    let (scene_w, scene_h) = (
        (card_w + 2.0 * margin) as u32,
        (card_h + 2.0 * margin) as u32,
    );
    let mut scene = RgbImage::new(scene_w, scene_h);
    fill_background(&mut scene, rng);
    let tilt = 0.1 * card_w;
    let angle = rng.random_range(-0.5..0.5f32);
    let quad = place(
        [scene_w as f32 / 2.0, scene_h as f32 / 2.0],
        [card_w, card_h],
        angle,
        |_| [rng.random_range(-tilt..tilt), rng.random_range(-tilt..tilt)],
    );
    composite_card(&mut scene, &drawn, &quad);
    if rng.random_bool(CROP_SHADOW_SHARE) {
        CastShadow::random(rng).apply(&mut scene);
    }
    Camera::random(rng, card_w / 96.0).apply(&mut scene, rng);
    // A detector's corners are a little off: sometimes inside the card, sometimes outside.
    let err = 0.04 * card_w;
    let found: Quad = quad.map(|p| {
        [
            p[0] + rng.random_range(-err..err),
            p[1] + rng.random_range(-err..err),
        ]
    });
    let mut crop = warp_quad(&scene, &found, width, height);
    if rng.random_bool(0.5) {
        image::imageops::rotate180_in_place(&mut crop);
    }
    crop
}

/// Corners of a `size` card centred at `centre`, turned by `angle` radians,
/// each corner then moved by `wobble(i)` (perspective).
fn place(
    centre: [f32; 2],
    size: [f32; 2],
    angle: f32,
    mut wobble: impl FnMut(usize) -> [f32; 2],
) -> Quad {
    let (c, s) = (angle.cos(), angle.sin());
    let (hw, hh) = (size[0] / 2.0, size[1] / 2.0);
    let local = [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]];
    std::array::from_fn(|i| {
        let [x, y] = local[i];
        let d = wobble(i);
        [
            centre[0] + c * x - s * y + d[0],
            centre[1] + s * x + c * y + d[1],
        ]
    })
}

/// What to put on a table.
#[derive(Clone, Debug)]
pub struct TableSpec {
    /// The cards, laid out row by row in a grid.
    pub cards: Vec<Card>,
    /// Deck edition of every card.
    pub edition: Edition,
    /// Picture size in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
    /// Cards per row.
    pub columns: usize,
    /// Gap between neighbouring cards as a fraction of a card width (0 = touching).
    pub gap: f32,
    /// Largest random turn of each card, in radians (the whole layout also turns).
    pub max_card_turn: f32,
    /// Number of non-card objects drawn on the table.
    pub clutter: usize,
    /// Whether to add camera distortions (lighting, blur, noise, JPEG).
    pub camera: bool,
    /// Seed of everything random.
    pub seed: u64,
}

impl TableSpec {
    /// A typical table: the given cards, four per row in a 1280x960 picture, a small gap, camera effects.
    pub fn new(cards: Vec<Card>, edition: Edition, seed: u64) -> TableSpec {
        TableSpec {
            cards,
            edition,
            width: 1280,
            height: 960,
            columns: 4,
            gap: 0.2,
            max_card_turn: 0.15,
            clutter: 2,
            camera: true,
            seed,
        }
    }
}

/// A card placed on a rendered table.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedCard {
    /// Which card.
    pub card: Card,
    /// Its corners in picture pixels, top-left first in the card's own upright frame.
    pub corners: Quad,
}

/// A rendered table and the truth about it.
#[derive(Clone, Debug)]
pub struct Table {
    /// The picture.
    pub image: RgbImage,
    /// Every card on it, in `TableSpec::cards` order.
    pub cards: Vec<PlacedCard>,
}

/// Renders a table: background, clutter, then the cards in a turned grid that
/// fills about 70% of the picture, then the camera.
pub fn render_table(spec: &TableSpec) -> Table {
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let mut image = RgbImage::new(spec.width.max(16), spec.height.max(16));
    fill_background(&mut image, &mut rng);
    draw_clutter(&mut image, spec.clutter, &mut rng);
    let n = spec.cards.len();
    let columns = spec.columns.clamp(1, n.max(1));
    let rows = n.div_ceil(columns).max(1);
    let (w, h) = (image.width() as f32, image.height() as f32);
    // Cards lie landscape or portrait on the table, whichever fits the grid better.
    let pitch_x = 1.0 + spec.gap;
    let pitch_y = CARD_ASPECT + spec.gap;
    let card_w = (0.7 * w / (columns as f32 * pitch_x)).min(0.7 * h / (rows as f32 * pitch_y));
    let layout_turn = rng.random_range(-0.2..0.2f32);
    let (c, s) = (layout_turn.cos(), layout_turn.sin());
    let style = CardStyle::random(spec.edition, &mut rng);
    let mut cards = Vec::with_capacity(n);
    for (i, &card) in spec.cards.iter().enumerate() {
        let (col, row) = ((i % columns) as f32, (i / columns) as f32);
        let gx = (col - (columns as f32 - 1.0) / 2.0) * pitch_x * card_w;
        let gy = (row - (rows as f32 - 1.0) / 2.0) * pitch_y * card_w;
        let centre = [w / 2.0 + c * gx - s * gy, h / 2.0 + s * gx + c * gy];
        let mut turn = layout_turn + rng.random_range(-spec.max_card_turn..=spec.max_card_turn);
        if rng.random_bool(0.5) {
            turn += std::f32::consts::PI;
        }
        let tilt = 0.03 * card_w;
        let corners = place(centre, [card_w, card_w * CARD_ASPECT], turn, |_| {
            [
                rng.random_range(-tilt..=tilt),
                rng.random_range(-tilt..=tilt),
            ]
        });
        let drawn = render_card(card, &style, (card_w * 1.2).round() as u32);
        composite_card(&mut image, &drawn, &corners);
        cards.push(PlacedCard { card, corners });
    }
    if spec.camera {
        Camera::random(&mut rng, card_w / 96.0).apply(&mut image, &mut rng);
    }
    Table { image, cards }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crops_have_the_requested_size_and_show_paper() {
        let mut rng = StdRng::seed_from_u64(7);
        for edition in Edition::ALL {
            let crop = render_crop(
                "2-purple-striped-squiggle".parse().unwrap(),
                edition,
                96,
                150,
                &mut rng,
            );
            assert_eq!(crop.dimensions(), (96, 150));
            let mean: f32 = crop
                .pixels()
                .map(|p| p.0.iter().map(|&c| c as f32).sum::<f32>())
                .sum::<f32>()
                / (3.0 * 96.0 * 150.0);
            assert!(mean > 40.0, "a card crop is mostly paper, mean {mean}");
        }
    }

    #[test]
    fn tables_report_every_card_inside_the_picture() {
        let cards: Vec<Card> = Card::all().step_by(7).take(12).collect();
        let spec = TableSpec::new(cards.clone(), Edition::Standard, 3);
        let table = render_table(&spec);
        assert_eq!(table.cards.len(), 12);
        for (placed, card) in table.cards.iter().zip(&cards) {
            assert_eq!(placed.card, *card);
            for [x, y] in placed.corners {
                assert!(x >= 0.0 && y >= 0.0 && x < 1280.0 && y < 960.0, "{x},{y}");
            }
        }
        // Same seed, same picture.
        assert_eq!(render_table(&spec).image, table.image);
    }
}
