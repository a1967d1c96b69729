//! Anti-aliased vector drawing of one upright card with tiny-skia.
//!
//! The card is drawn in portrait (long side vertical), symbols stacked
//! vertically with their long axis horizontal, which is how both editions look
//! once a crop is turned upright. Coordinates are in card widths, so one style
//! draws the same card at any resolution.

use image::RgbaImage;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use snapsolve_set::Card;
use tiny_skia::{
    Color, FillRule, LineCap, Mask, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, Transform,
};

use crate::deck::{CardStyle, Edition};

/// Height of a card over its width (3.5" / 2.25").
pub const CARD_ASPECT: f32 = 1.5556;

/// Draws `card` upright at `width` pixels wide (height follows the card's
/// aspect); pixels outside the rounded corners are transparent.
pub fn render_card(card: Card, style: &CardStyle, width: u32) -> RgbaImage {
    let width = width.max(8);
    let height = (width as f32 * CARD_ASPECT).round() as u32;
    let mut pixmap = Pixmap::new(width, height).unwrap_or_else(|| unreachable!("size >= 8"));
    let w = width as f32;
    let h = height as f32;
    if let Some(outline) = rounded_rect(0.0, 0.0, w, h, style.corner_radius * w) {
        pixmap.fill_path(
            &outline,
            &paint(style.paper, true),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
    let [number, color, shading, shape] = card.values();
    let ink = style.inks[color as usize];
    let count = number as usize + 1;
    let half_w = style.symbol_width * w / 2.0;
    let half_h = style.symbol_height * w / 2.0;
    for i in 0..count {
        let offset = i as f32 - (count - 1) as f32 / 2.0;
        let cy = h / 2.0 + offset * style.symbol_pitch * w;
        let Some(path) = symbol_path(style, shape, w / 2.0, cy, half_w, half_h) else {
            continue;
        };
        draw_symbol(&mut pixmap, &path, style, ink, shading, w);
    }
    to_rgba(&pixmap)
}

/// Fills and outlines one symbol according to its shading.
fn draw_symbol(
    pixmap: &mut Pixmap,
    path: &Path,
    style: &CardStyle,
    ink: [f32; 3],
    shading: u8,
    w: f32,
) {
    let ink_paint = paint(ink, true);
    match shading {
        0 => pixmap.fill_path(
            path,
            &ink_paint,
            FillRule::Winding,
            Transform::identity(),
            None,
        ),
        1 => {
            let Some(mut mask) = Mask::new(pixmap.width(), pixmap.height()) else {
                return;
            };
            mask.fill_path(path, FillRule::Winding, true, Transform::identity());
            let bounds = path.bounds();
            let texture = match style.edition {
                Edition::Standard => {
                    stripes(bounds, style.texture_period * w, style.texture_weight)
                }
                Edition::AltRectDotted => dots(bounds, style, w),
            };
            if let Some(texture) = texture {
                let mut texture_paint = ink_paint.clone();
                texture_paint
                    .shader
                    .apply_opacity(style.texture_strength.clamp(0.0, 1.0));
                pixmap.fill_path(
                    &texture,
                    &texture_paint,
                    FillRule::Winding,
                    Transform::identity(),
                    Some(&mask),
                );
            }
        }
        _ => {}
    }
    let stroke = Stroke {
        width: (style.outline * w).max(0.6),
        line_cap: LineCap::Round,
        ..Stroke::default()
    };
    pixmap.stroke_path(path, &ink_paint, &stroke, Transform::identity(), None);
}

/// Vertical stripes across a symbol's bounding box (the std edition's fill).
fn stripes(bounds: Rect, period: f32, weight: f32) -> Option<Path> {
    let period = period.max(1.2);
    let stripe = (period * weight).max(0.5);
    let mut pb = PathBuilder::new();
    let mut x = bounds.left() - period;
    while x < bounds.right() + period {
        if let Some(r) = Rect::from_xywh(x, bounds.top() - 1.0, stripe, bounds.height() + 2.0) {
            pb.push_rect(r);
        }
        x += period;
    }
    pb.finish()
}

/// Stippled dots on a jittered grid over a symbol's bounding box (the alt edition's fill).
fn dots(bounds: Rect, style: &CardStyle, w: f32) -> Option<Path> {
    let period = (style.texture_period * w).max(1.2);
    let radius = (period * style.texture_weight).max(0.35);
    let mut rng = StdRng::seed_from_u64(style.texture_seed);
    let mut pb = PathBuilder::new();
    let mut y = bounds.top();
    while y < bounds.bottom() {
        let mut x = bounds.left();
        while x < bounds.right() {
            let jx = rng.random_range(-0.45..0.45) * period;
            let jy = rng.random_range(-0.45..0.45) * period;
            pb.push_circle(x + jx, y + jy, radius * rng.random_range(0.7..1.3));
            x += period;
        }
        y += period;
    }
    pb.finish()
}

/// The outline of one symbol centred at (cx, cy) with half extents (a, b).
fn symbol_path(style: &CardStyle, shape: u8, cx: f32, cy: f32, a: f32, b: f32) -> Option<Path> {
    match (shape, style.edition) {
        (0, Edition::Standard) => {
            let mut pb = PathBuilder::new();
            pb.move_to(cx - a, cy);
            pb.line_to(cx, cy - b);
            pb.line_to(cx + a, cy);
            pb.line_to(cx, cy + b);
            pb.close();
            pb.finish()
        }
        (0, Edition::AltRectDotted) => {
            PathBuilder::from_rect(Rect::from_ltrb(cx - a, cy - b, cx + a, cy + b)?).into()
        }
        (1, Edition::Standard) => rounded_rect(cx - a, cy - b, 2.0 * a, 2.0 * b, b),
        // The second edition's oval is a true ellipse, pointed where a stadium
        // is flat: drawn as a stadium it passed for that edition's rectangle.
        (1, Edition::AltRectDotted) => {
            PathBuilder::from_oval(Rect::from_ltrb(cx - a, cy - b, cx + a, cy + b)?)
        }
        _ => squiggle(cx, cy, a, b, style.squiggle_wave, style.mirrored),
    }
}

/// Half of a squiggle's outline in unit coordinates (`[-1, 1]²`, y down): the
/// left end, the top edge with its hump on the left and its raised tip on the
/// right. Measured on a photographed standard-deck card; the other half is this
/// one turned by 180° (the printed squiggle is symmetric under a half turn).
const SQUIGGLE_HALF: [[f32; 2]; 13] = [
    [-1.0, 0.25],
    [-0.93, -0.25],
    [-0.8, -0.65],
    [-0.6, -0.87],
    [-0.4, -0.9],
    [-0.2, -0.83],
    [0.0, -0.7],
    [0.2, -0.58],
    [0.4, -0.6],
    [0.6, -0.8],
    [0.78, -0.98],
    [0.92, -0.92],
    [0.99, -0.65],
];

/// A squiggle: a fat S-shaped bar, smooth (Catmull-Rom through the measured
/// outline). `wave` scales how far the edges swing from the middle line
/// (prints differ), `mirror` draws the other handedness (a crop cut from a
/// mirrored picture).
fn squiggle(cx: f32, cy: f32, a: f32, b: f32, wave: f32, mirror: bool) -> Option<Path> {
    let flip = if mirror { -1.0 } else { 1.0 };
    let points: Vec<(f32, f32)> = SQUIGGLE_HALF
        .iter()
        .chain(SQUIGGLE_HALF.map(|[x, y]| [-x, -y]).iter())
        .map(|&[x, y]| {
            // Deepen or flatten the dents: move each edge point towards or away
            // from the typical edge height 0.55.
            let y = y.signum() * (0.55 + (y.abs() - 0.55) * wave);
            (cx + flip * x * a, cy + y * b)
        })
        .collect();
    smooth_closed(&points)
}

/// A closed Catmull-Rom spline through `points`, as cubic Bézier segments.
fn smooth_closed(points: &[(f32, f32)]) -> Option<Path> {
    let n = points.len();
    let at = |i: usize| points[i % n];
    let mut pb = PathBuilder::new();
    pb.move_to(at(0).0, at(0).1);
    for i in 0..n {
        let (p0, p1, p2, p3) = (at(i + n - 1), at(i), at(i + 1), at(i + 2));
        pb.cubic_to(
            p1.0 + (p2.0 - p0.0) / 6.0,
            p1.1 + (p2.1 - p0.1) / 6.0,
            p2.0 - (p3.0 - p1.0) / 6.0,
            p2.1 - (p3.1 - p1.1) / 6.0,
            p2.0,
            p2.1,
        );
    }
    pb.close();
    pb.finish()
}

/// A rectangle with corners of radius `r` (a stadium when `r` is half the height).
pub(crate) fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Path> {
    let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
    // Cubic Bézier approximation of a quarter circle.
    let k = 0.552_284_8 * r;
    let (l, t, rt, b) = (x, y, x + w, y + h);
    let mut pb = PathBuilder::new();
    pb.move_to(l + r, t);
    pb.line_to(rt - r, t);
    pb.cubic_to(rt - r + k, t, rt, t + r - k, rt, t + r);
    pb.line_to(rt, b - r);
    pb.cubic_to(rt, b - r + k, rt - r + k, b, rt - r, b);
    pb.line_to(l + r, b);
    pb.cubic_to(l + r - k, b, l, b - r + k, l, b - r);
    pb.line_to(l, t + r);
    pb.cubic_to(l, t + r - k, l + r - k, t, l + r, t);
    pb.close();
    pb.finish()
}

pub(crate) fn paint(rgb: [f32; 3], anti_alias: bool) -> Paint<'static> {
    let mut paint = Paint::default();
    let [r, g, b] = rgb.map(|c| c.clamp(0.0, 255.0) as u8);
    paint.set_color(Color::from_rgba8(r, g, b, 255));
    paint.anti_alias = anti_alias;
    paint
}

/// tiny-skia stores premultiplied alpha; images want it straight.
pub(crate) fn to_rgba(pixmap: &Pixmap) -> RgbaImage {
    let mut out = RgbaImage::new(pixmap.width(), pixmap.height());
    for (dst, src) in out.pixels_mut().zip(pixmap.pixels()) {
        let c = src.demultiply();
        dst.0 = [c.red(), c.green(), c.blue(), c.alpha()];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ink_fraction(img: &RgbaImage) -> f32 {
        let inked = img
            .pixels()
            .filter(|p| p.0[3] == 255 && (p.0[0] as i32 - p.0[1] as i32).abs() > 60)
            .count();
        inked as f32 / (img.width() * img.height()) as f32
    }

    #[test]
    fn more_symbols_and_fuller_fills_use_more_ink() {
        let style = CardStyle::nominal(Edition::Standard);
        let card = |s: &str| s.parse::<Card>().unwrap();
        let one = ink_fraction(&render_card(card("1-red-solid-oval"), &style, 96));
        let three = ink_fraction(&render_card(card("3-red-solid-oval"), &style, 96));
        let striped = ink_fraction(&render_card(card("3-red-striped-oval"), &style, 96));
        let open = ink_fraction(&render_card(card("3-red-open-oval"), &style, 96));
        assert!(three > 2.5 * one, "{three} vs {one}");
        assert!(
            three > striped && striped > open,
            "{three} {striped} {open}"
        );
    }

    #[test]
    fn a_faded_texture_is_a_paler_tint_inside_the_same_outline() {
        // Mean red-minus-green of the middle symbol's inside: the ink's tint.
        let tint = |strength: f32| {
            let mut style = CardStyle::nominal(Edition::Standard);
            style.texture_strength = strength;
            let img = render_card("1-red-striped-oval".parse().unwrap(), &style, 200);
            let (cx, cy) = (img.width() / 2, img.height() / 2);
            let inside: Vec<f32> = (cx - 30..cx + 30)
                .map(|x| {
                    let p = img.get_pixel(x, cy).0;
                    f32::from(p[0]) - f32::from(p[1])
                })
                .collect();
            inside.iter().sum::<f32>() / inside.len() as f32
        };
        let (printed, faded, none) = (tint(1.0), tint(0.3), tint(0.0));
        assert!(none.abs() < 3.0, "{none}");
        assert!(
            faded > 3.0 && faded < 0.5 * printed,
            "{printed} {faded} {none}"
        );
    }

    #[test]
    fn corners_are_transparent_and_centre_is_paper() {
        for edition in Edition::ALL {
            let img = render_card(
                "1-green-open-diamond".parse().unwrap(),
                &CardStyle::nominal(edition),
                64,
            );
            assert_eq!(img.get_pixel(0, 0).0[3], 0);
            assert_eq!(img.get_pixel(32, 10).0[3], 255);
        }
    }
}
