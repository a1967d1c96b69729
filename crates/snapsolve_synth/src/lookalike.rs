//! Crops that are not a SET card, cut the way a card finder cuts them: the
//! negatives a card/not-a-card score learns from.
//!
//! A finder that looks for pale rectangles hands the namer blank paper,
//! playing cards, printed pages, notes and phones, and — on a real table —
//! quadrilaterals that take half a card, a gap between two cards or two cards
//! at once. Each is drawn here on a random surface, photographed by a random
//! [`Camera`] and cut out of a card-shaped quadrilateral, exactly as
//! [`render_crop`](crate::render_crop) cuts a real card, so the only thing that
//! tells the two apart is what is inside the crop.

use image::{RgbImage, RgbaImage};
use rand::Rng;
use rand::rngs::StdRng;
use snapsolve_set::Card;
use tiny_skia::{FillRule, Path, PathBuilder, Pixmap, Rect, Transform};

use crate::camera::{Camera, CastShadow, draw_clutter, fill_background};
use crate::deck::{CardStyle, Edition};
use crate::draw::{CARD_ASPECT, paint, render_card, rounded_rect, to_rgba};
use crate::geometry::{Quad, composite_card, warp_quad};
use crate::scene::place;

/// What a not-a-card crop shows; every kind is drawn about equally often.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookalike {
    /// A blank card-sized piece of paper or card stock.
    BlankPaper,
    /// A playing card: red or black pips and corner indices.
    PlayingCard,
    /// Part of a printed or ruled page (text lines, a grid, a margin).
    PrintedPage,
    /// A coloured note, a phone or a box: a rectangle that is no card.
    Object,
    /// The table itself with clutter on it.
    Surface,
    /// A quadrilateral that takes part of a SET card and the table beside it.
    HalfCard,
    /// A quadrilateral over two neighbouring SET cards and the gap between them.
    TwoCards,
    /// A quadrilateral inside one SET card, around one or two of its symbols.
    InsideCard,
}

impl Lookalike {
    /// Every kind, in drawing order.
    pub const ALL: [Lookalike; 8] = [
        Lookalike::BlankPaper,
        Lookalike::PlayingCard,
        Lookalike::PrintedPage,
        Lookalike::Object,
        Lookalike::Surface,
        Lookalike::HalfCard,
        Lookalike::TwoCards,
        Lookalike::InsideCard,
    ];
}

/// Renders a `width` x `height` upright crop of `kind`, cut from a
/// photographed scene like a card crop (same scale, tilt, camera and corner error).
pub fn render_lookalike(kind: Lookalike, width: u32, height: u32, rng: &mut StdRng) -> RgbImage {
    let card_w = width as f32 * rng.random_range(0.75..1.5);
    let card = [card_w, card_w * CARD_ASPECT];
    let (scene_w, scene_h) = ((3.2 * card[0]) as u32, (2.6 * card[1]) as u32);
    let mut scene = RgbImage::new(scene_w, scene_h);
    fill_background(&mut scene, rng);
    if rng.random_bool(0.5) {
        draw_clutter(&mut scene, rng.random_range(1..4), rng);
    }
    let centre = [scene_w as f32 / 2.0, scene_h as f32 / 2.0];
    let angle = rng.random_range(-0.5..0.5f32);
    let tilt = 0.1 * card_w;
    let mut wobble = |_| [rng.random_range(-tilt..tilt), rng.random_range(-tilt..tilt)];
    let crop_quad = place(centre, card, angle, &mut wobble);
    match kind {
        Lookalike::BlankPaper => composite_card(&mut scene, &blank_paper(card[0], rng), &crop_quad),
        Lookalike::PlayingCard => {
            composite_card(&mut scene, &playing_card(card[0], rng), &crop_quad)
        }
        Lookalike::PrintedPage => {
            let page = printed_page(card[0] * 2.5, rng);
            let at = [
                centre[0] + rng.random_range(-0.6..0.6) * card[0],
                centre[1] + rng.random_range(-0.6..0.6) * card[1],
            ];
            let size = [page.width() as f32, page.height() as f32];
            composite_card(&mut scene, &page, &place(at, size, angle, |_| [0.0; 2]));
        }
        Lookalike::Object => composite_card(&mut scene, &object(card, rng), &crop_quad),
        Lookalike::Surface => {}
        Lookalike::HalfCard | Lookalike::TwoCards | Lookalike::InsideCard => {
            lay_set_cards(&mut scene, kind, centre, card, angle, rng)
        }
    }
    let crop_quad = match kind {
        Lookalike::InsideCard => place(centre, card.map(|s| s * 0.5), angle, |_| [0.0; 2]),
        _ => crop_quad,
    };
    if rng.random_bool(0.4) {
        CastShadow::random(rng).apply(&mut scene);
    }
    Camera::random(rng, card_w / 96.0).apply(&mut scene, rng);
    let err = 0.04 * card_w;
    let found: Quad = crop_quad.map(|p| {
        [
            p[0] + rng.random_range(-err..err),
            p[1] + rng.random_range(-err..err),
        ]
    });
    warp_quad(&scene, &found, width, height)
}

/// SET cards placed so that the crop at `centre` is not one card: shifted by
/// 40-70% of a card (half a card), two cards side by side with the crop on
/// their gap, or one card right under it (the crop is then cut at half size,
/// inside the card).
fn lay_set_cards(
    scene: &mut RgbImage,
    kind: Lookalike,
    centre: [f32; 2],
    card: [f32; 2],
    angle: f32,
    rng: &mut StdRng,
) {
    let edition = Edition::ALL[rng.random_range(0..2)];
    let style = CardStyle::random(edition, rng);
    let (c, s) = (angle.cos(), angle.sin());
    // Offsets in the crop's own frame, turned into the scene.
    let at = |dx: f32, dy: f32| [centre[0] + c * dx - s * dy, centre[1] + s * dx + c * dy];
    let sign = |rng: &mut StdRng| if rng.random_bool(0.5) { 1.0 } else { -1.0 };
    let centres: Vec<[f32; 2]> = match kind {
        Lookalike::HalfCard => {
            let along_x = rng.random_bool(0.5);
            let shift = rng.random_range(0.4..0.7) * sign(rng);
            let (dx, dy) = if along_x {
                (shift * card[0], 0.0)
            } else {
                (0.0, shift * card[1])
            };
            vec![at(dx, dy)]
        }
        Lookalike::TwoCards => {
            let gap = rng.random_range(0.05..0.3) * card[0];
            let half = (card[0] + gap) / 2.0;
            let jitter = rng.random_range(-0.15..0.15) * card[0];
            vec![at(-half + jitter, 0.0), at(half + jitter, 0.0)]
        }
        _ => vec![centre],
    };
    for at in centres {
        let Some(drawn_card) = Card::from_index(rng.random_range(0..81)) else {
            continue;
        };
        let drawn = render_card(drawn_card, &style, (card[0] * 1.2).round() as u32);
        let quad = place(at, card, angle, |_| [0.0; 2]);
        composite_card(scene, &drawn, &quad);
    }
}

fn pixmap(width: f32, height: f32) -> Pixmap {
    Pixmap::new(width.max(8.0) as u32, height.max(8.0) as u32)
        .unwrap_or_else(|| unreachable!("sizes are at least 8"))
}

fn fill(pixmap: &mut Pixmap, path: Option<Path>, rgb: [f32; 3]) {
    if let Some(path) = path {
        pixmap.fill_path(
            &path,
            &paint(rgb, true),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}

fn rect(x: f32, y: f32, w: f32, h: f32) -> Option<Path> {
    Rect::from_xywh(x, y, w.max(0.5), h.max(0.5)).map(PathBuilder::from_rect)
}

/// One of the flat things on a table that look like a card, about `size`
/// wide: blank paper, a playing card, a printed page or an object.
pub(crate) fn draw_distractor(size: f32, rng: &mut StdRng) -> RgbaImage {
    match rng.random_range(0..4) {
        0 => blank_paper(size, rng),
        1 => playing_card(size, rng),
        2 => printed_page(size * 2.5, rng),
        _ => object([size, size * CARD_ASPECT], rng),
    }
}

/// Off-white, cream or grey paper.
fn paper_colour(rng: &mut StdRng) -> [f32; 3] {
    let level = rng.random_range(200.0..255.0f32);
    let warm = rng.random_range(-8.0..12.0f32);
    [level, level - 0.3 * warm, level - warm]
}

/// A blank card-sized piece of paper, sometimes with a faint mark or two.
fn blank_paper(width: f32, rng: &mut StdRng) -> RgbaImage {
    let (w, h) = (width, width * CARD_ASPECT);
    let mut pm = pixmap(w, h);
    let radius = rng.random_range(0.0..0.08) * w;
    fill(
        &mut pm,
        rounded_rect(0.0, 0.0, w, h, radius),
        paper_colour(rng),
    );
    for _ in 0..rng.random_range(0..3) {
        let grey = rng.random_range(120.0..220.0f32);
        fill(
            &mut pm,
            rect(
                rng.random_range(0.1..0.7) * w,
                rng.random_range(0.1..0.9) * h,
                rng.random_range(0.05..0.3) * w,
                rng.random_range(0.01..0.04) * h,
            ),
            [grey; 3],
        );
    }
    to_rgba(&pm)
}

/// A playing card: one to ten pips in two or three columns and small corner
/// indices, all red or all black (a red diamond is the lookalike that matters).
fn playing_card(width: f32, rng: &mut StdRng) -> RgbaImage {
    let (w, h) = (width, width * CARD_ASPECT);
    let mut pm = pixmap(w, h);
    fill(
        &mut pm,
        rounded_rect(0.0, 0.0, w, h, 0.06 * w),
        paper_colour(rng),
    );
    let ink = if rng.random_bool(0.5) {
        [rng.random_range(170.0..230.0), 20.0, 30.0]
    } else {
        [20.0, 20.0, 25.0]
    };
    let pips = rng.random_range(1..=10usize);
    let columns = if pips <= 3 {
        1
    } else {
        2 + usize::from(pips > 8)
    };
    let rows = pips.div_ceil(columns);
    let pip = rng.random_range(0.1..0.18) * w;
    let diamond = rng.random_bool(0.5);
    for i in 0..pips {
        let (col, row) = ((i % columns) as f32, (i / columns) as f32);
        let cx = w * (0.5 + (col - (columns as f32 - 1.0) / 2.0) * 0.28);
        let cy = h * (0.5 + (row - (rows as f32 - 1.0) / 2.0) * 0.7 / rows.max(1) as f32);
        fill(&mut pm, pip_path(cx, cy, pip, diamond), ink);
    }
    for (x, y) in [
        (0.1 * w, 0.06 * h),
        (0.9 * w - 0.06 * w, 0.94 * h - 0.1 * h),
    ] {
        fill(&mut pm, rect(x, y, 0.06 * w, 0.1 * h), ink);
    }
    to_rgba(&pm)
}

/// A diamond or a round pip of radius `r`.
fn pip_path(cx: f32, cy: f32, r: f32, diamond: bool) -> Option<Path> {
    if !diamond {
        return PathBuilder::from_circle(cx, cy, r * 0.6);
    }
    let mut pb = PathBuilder::new();
    pb.move_to(cx, cy - r);
    pb.line_to(cx + 0.7 * r, cy);
    pb.line_to(cx, cy + r);
    pb.line_to(cx - 0.7 * r, cy);
    pb.close();
    pb.finish()
}

/// A page `width` wide: lines of text (dark dashes), ruled lines with a red
/// margin, or a printed grid.
fn printed_page(width: f32, rng: &mut StdRng) -> RgbaImage {
    let (w, h) = (width, width * rng.random_range(1.0..1.5));
    let mut pm = pixmap(w, h);
    fill(&mut pm, rect(0.0, 0.0, w, h), paper_colour(rng));
    let ink_level = rng.random_range(10.0..90.0f32);
    let ink = [
        ink_level,
        ink_level,
        ink_level + rng.random_range(0.0..40.0),
    ];
    let pitch = rng.random_range(0.02..0.06) * h;
    match rng.random_range(0..3) {
        0 => {
            let mut y = pitch;
            while y < h - pitch {
                let mut x = 0.06 * w;
                while x < 0.94 * w {
                    let word = rng.random_range(0.02..0.09) * w;
                    fill(&mut pm, rect(x, y, word, 0.45 * pitch), ink);
                    x += word + 0.015 * w;
                }
                y += pitch;
            }
        }
        1 => {
            let blue = [140.0, 170.0, 220.0];
            let mut y = pitch;
            while y < h {
                fill(&mut pm, rect(0.0, y, w, 0.06 * pitch), blue);
                y += pitch;
            }
            fill(
                &mut pm,
                rect(0.12 * w, 0.0, 0.004 * w, h),
                [220.0, 90.0, 90.0],
            );
        }
        _ => {
            let cell = rng.random_range(0.05..0.12) * w;
            let mut x = 0.05 * w;
            while x < 0.95 * w {
                fill(&mut pm, rect(x, 0.05 * h, 0.004 * w, 0.9 * h), ink);
                x += cell;
            }
            let mut y = 0.05 * h;
            while y < 0.95 * h {
                fill(&mut pm, rect(0.05 * w, y, 0.9 * w, 0.004 * w), ink);
                y += cell;
            }
        }
    }
    to_rgba(&pm)
}

/// A sticky note, a phone with a lit screen or a printed box, about card-sized.
pub(crate) fn object(card: [f32; 2], rng: &mut StdRng) -> RgbaImage {
    let scale = rng.random_range(0.8..1.2f32);
    let (w, h) = (card[0] * scale, card[1] * scale);
    let mut pm = pixmap(w, h);
    let bright = |rng: &mut StdRng| -> [f32; 3] {
        std::array::from_fn(|_| rng.random_range(120.0..255.0f32))
    };
    match rng.random_range(0..3) {
        0 => fill(&mut pm, rect(0.0, 0.0, w, h), bright(rng)),
        1 => {
            fill(
                &mut pm,
                rounded_rect(0.0, 0.0, w, h, 0.12 * w),
                [20.0, 20.0, 25.0],
            );
            fill(
                &mut pm,
                rect(0.06 * w, 0.08 * h, 0.88 * w, 0.84 * h),
                bright(rng),
            );
            for _ in 0..rng.random_range(2..8) {
                let colour: [f32; 3] = std::array::from_fn(|_| rng.random_range(0.0..255.0f32));
                fill(
                    &mut pm,
                    PathBuilder::from_circle(
                        rng.random_range(0.2..0.8) * w,
                        rng.random_range(0.15..0.85) * h,
                        rng.random_range(0.04..0.12) * w,
                    ),
                    colour,
                );
            }
        }
        _ => {
            fill(&mut pm, rect(0.0, 0.0, w, h), paper_colour(rng));
            let band: [f32; 3] = std::array::from_fn(|_| rng.random_range(0.0..255.0f32));
            let top = rng.random_range(0.1..0.7) * h;
            fill(
                &mut pm,
                rect(0.0, top, w, rng.random_range(0.1..0.3) * h),
                band,
            );
        }
    }
    to_rgba(&pm)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn every_kind_renders_at_the_crop_size_and_differs_by_seed() {
        for kind in Lookalike::ALL {
            let mut rng = StdRng::seed_from_u64(5);
            let a = render_lookalike(kind, 96, 150, &mut rng);
            let b = render_lookalike(kind, 96, 150, &mut rng);
            assert_eq!(a.dimensions(), (96, 150), "{kind:?}");
            assert_ne!(a, b, "{kind:?}");
        }
    }
}
