//! Table surfaces a player's cards lie on, beyond the plain random ones of
//! [`crate::camera::fill_background`]: a white desk, light wood, and the busy
//! surfaces that beat a finder which looks for white paper on a calm
//! background (terrazzo, a speckled counter, a floral cloth, carpet).
//!
//! Pattern sizes are fractions of the picture's longer side, so a surface
//! looks the same at every rendering size.

use image::{Rgb, RgbImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_ellipse_mut, draw_polygon_mut};
use imageproc::point::Point;
use rand::Rng;
use rand::rngs::StdRng;

use crate::camera::fill_textured;

/// A white or off-white surface: one level between 215 and 245, a faint warm
/// or cool tint, a slow light gradient and fine grain.
pub(crate) fn fill_white(img: &mut RgbImage, rng: &mut StdRng) {
    let level = rng.random_range(215.0..245.0f32);
    let tint = rng.random_range(-6.0..6.0f32);
    let base = [level + tint, level, level - tint];
    let grain = rng.random_range(1.0..4.0f32);
    fill_textured(img, base, grain, |_, _| 1.0, rng);
}

/// Light wood: a pale yellow-brown base with long wavy grain.
pub(crate) fn fill_light_wood(img: &mut RgbImage, rng: &mut StdRng) {
    let base = [
        rng.random_range(190.0..225.0f32),
        rng.random_range(150.0..185.0f32),
        rng.random_range(95.0..140.0f32),
    ];
    let freq = rng.random_range(0.02..0.08f32);
    let phase = rng.random_range(0.0..6.3f32);
    let grain = rng.random_range(2.0..6.0f32);
    let vertical = rng.random_bool(0.5);
    fill_textured(
        img,
        base,
        grain,
        |x, y| {
            let (t, s) = if vertical { (x, y) } else { (y, x) };
            1.0 + 0.06 * (t * freq + (s * 0.004).sin() * 4.0 + phase).sin()
        },
        rng,
    );
}

/// Terrazzo: a pale or grey cement full of angular chips of stone, from
/// near-black to white, some as large as a card's symbol.
pub(crate) fn fill_terrazzo(img: &mut RgbImage, rng: &mut StdRng) {
    let level = rng.random_range(150.0..220.0f32);
    fill_textured(img, [level + 4.0, level, level - 4.0], 5.0, |_, _| 1.0, rng);
    let side = longer_side(img);
    let chips = (rng.random_range(0.6..1.4) * 4000.0) as usize;
    for _ in 0..chips {
        let size = side * rng.random_range(0.002..0.014);
        let colour = stone_colour(rng);
        let centre = random_point(img, rng);
        draw_polygon_mut(img, &chip(centre, size, rng), colour);
    }
}

/// A speckled stone counter: a mid grey or beige ground under a dense
/// scatter of dark and light grains and slow blotches.
pub(crate) fn fill_speckled_counter(img: &mut RgbImage, rng: &mut StdRng) {
    let level = rng.random_range(110.0..200.0f32);
    let warm = rng.random_range(0.0..15.0f32);
    let freq = rng.random_range(0.01..0.03f32);
    fill_textured(
        img,
        [level + warm, level + warm / 2.0, level],
        12.0,
        |x, y| 1.0 + 0.08 * ((x * freq).sin() * (y * freq * 1.3).cos()),
        rng,
    );
    let side = longer_side(img);
    let grains = (img.width() as f32 * img.height() as f32 * 0.02) as usize;
    for _ in 0..grains {
        let radius = (side * rng.random_range(0.0005..0.003)).round() as i32;
        let v = if rng.random_bool(0.7) {
            rng.random_range(10..70)
        } else {
            rng.random_range(200..255)
        };
        draw_filled_circle_mut(img, pixel(random_point(img, rng)), radius, Rgb([v, v, v]));
    }
}

/// A floral tablecloth: a coloured ground under flowers of five petals
/// (white petals are as white as a card) with green leaves.
pub(crate) fn fill_floral_cloth(img: &mut RgbImage, rng: &mut StdRng) {
    let ground: Rgb<u8> = Rgb([rng.random(), rng.random(), rng.random()]);
    fill_textured(img, ground.0.map(f32::from), 4.0, |_, _| 1.0, rng);
    let side = longer_side(img);
    let petal_colours = [
        Rgb([245, 245, 240]),
        Rgb([rng.random(), rng.random(), rng.random()]),
        Rgb([rng.random(), rng.random(), rng.random()]),
    ];
    let flowers = rng.random_range(60..160);
    for _ in 0..flowers {
        let size = side * rng.random_range(0.015..0.05);
        let centre = random_point(img, rng);
        let leaf_at = [centre[0] + size * 1.4, centre[1] + size * 0.6];
        let leaf = Rgb([40, rng.random_range(100..170), 50]);
        draw_filled_ellipse_mut(img, pixel(leaf_at), size as i32, (size * 0.4) as i32, leaf);
        let colour = petal_colours[rng.random_range(0..petal_colours.len())];
        let turn = rng.random_range(0.0..std::f32::consts::TAU);
        for k in 0..5 {
            let angle = turn + k as f32 * std::f32::consts::TAU / 5.0;
            let at = [
                centre[0] + 0.7 * size * angle.cos(),
                centre[1] + 0.7 * size * angle.sin(),
            ];
            draw_filled_circle_mut(img, pixel(at), (size * 0.45) as i32, colour);
        }
        draw_filled_circle_mut(img, pixel(centre), (size * 0.3) as i32, Rgb([230, 180, 30]));
    }
}

/// Carpet: a grey or brown pile, coarse grain and slow patches of wear.
pub(crate) fn fill_carpet(img: &mut RgbImage, rng: &mut StdRng) {
    let level = rng.random_range(70.0..170.0f32);
    let brown = rng.random_range(0.0..25.0f32);
    let freq = rng.random_range(0.005..0.02f32);
    let phase = rng.random_range(0.0..6.3f32);
    fill_textured(
        img,
        [level + brown, level + brown / 2.0, level],
        rng.random_range(18.0..35.0),
        |x, y| 1.0 + 0.1 * ((x * freq + phase).sin() + (y * freq * 0.7).cos()) / 2.0,
        rng,
    );
}

/// The colour of a terrazzo chip: mostly greys from black to white, some
/// warm stone (rust, ochre, pink).
fn stone_colour(rng: &mut StdRng) -> Rgb<u8> {
    if rng.random_bool(0.7) {
        let v = rng.random_range(20..250);
        Rgb([v, v, v])
    } else {
        Rgb([
            rng.random_range(150..230),
            rng.random_range(70..160),
            rng.random_range(50..130),
        ])
    }
}

/// An irregular convex-ish chip of four to six corners about `size` across.
fn chip(centre: [f32; 2], size: f32, rng: &mut StdRng) -> Vec<Point<i32>> {
    let corners = rng.random_range(4..7);
    let turn = rng.random_range(0.0..std::f32::consts::TAU);
    let mut points: Vec<Point<i32>> = (0..corners)
        .map(|k| {
            let angle = turn + k as f32 * std::f32::consts::TAU / corners as f32;
            let r = size * rng.random_range(0.5..1.0);
            let p = pixel([centre[0] + r * angle.cos(), centre[1] + r * angle.sin()]);
            Point::new(p.0, p.1)
        })
        .collect();
    // imageproc refuses a polygon whose last point repeats its first.
    points.dedup();
    if points.len() > 1 && points.first() == points.last() {
        points.pop();
    }
    if points.len() < 3 {
        let p = pixel(centre);
        return vec![
            Point::new(p.0, p.1),
            Point::new(p.0 + 1, p.1),
            Point::new(p.0, p.1 + 1),
        ];
    }
    points
}

fn longer_side(img: &RgbImage) -> f32 {
    img.width().max(img.height()) as f32
}

fn random_point(img: &RgbImage, rng: &mut StdRng) -> [f32; 2] {
    [
        rng.random_range(0.0..img.width() as f32),
        rng.random_range(0.0..img.height() as f32),
    ]
}

fn pixel(p: [f32; 2]) -> (i32, i32) {
    (p[0].round() as i32, p[1].round() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Spread of the darkest channel: a busy surface is far from flat.
    fn spread(img: &RgbImage) -> f32 {
        let values: Vec<f32> = img
            .pixels()
            .map(|p| f32::from(*p.0.iter().min().unwrap_or(&0)))
            .collect();
        let mean = values.iter().sum::<f32>() / values.len() as f32;
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / values.len() as f32).sqrt()
    }

    #[test]
    fn busy_surfaces_are_busier_than_a_white_desk() {
        let mut white = RgbImage::new(320, 240);
        fill_white(&mut white, &mut StdRng::seed_from_u64(1));
        let fills: [fn(&mut RgbImage, &mut StdRng); 4] = [
            fill_terrazzo,
            fill_speckled_counter,
            fill_floral_cloth,
            fill_carpet,
        ];
        for (i, fill) in fills.into_iter().enumerate() {
            let mut busy = RgbImage::new(320, 240);
            fill(&mut busy, &mut StdRng::seed_from_u64(i as u64));
            assert!(
                spread(&busy) > 2.0 * spread(&white),
                "surface {i}: {} vs {}",
                spread(&busy),
                spread(&white)
            );
        }
    }
}
