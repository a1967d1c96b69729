//! Placing a flat card into a picture and cutting it back out: homographies
//! from four corner pairs, bilinear compositing and warping.

use image::{Rgb, RgbImage, RgbaImage};
use imageproc::geometric_transformations::Projection;

/// Four corners of a card in picture pixels, in the card's own order:
/// top-left, top-right, bottom-right, bottom-left of the upright (portrait) card.
pub type Quad = [[f32; 2]; 4];

/// The corners of an axis-aligned `width` x `height` rectangle, in [`Quad`] order.
pub fn rect_quad(width: f32, height: f32) -> Quad {
    [[0.0, 0.0], [width, 0.0], [width, height], [0.0, height]]
}

/// The homography taking `from` corners to `to` corners, if the corners are in general position.
pub fn homography(from: &Quad, to: &Quad) -> Option<Projection> {
    let f = from.map(|p| (p[0], p[1]));
    let t = to.map(|p| (p[0], p[1]));
    Projection::from_control_points(f, t)
}

/// Draws `card` (straight alpha) into `dst` so that its corners land on `quad`.
///
/// Inverse mapping over the quad's bounding box with bilinear sampling; the
/// card's alpha (rounded corners, anti-aliased edges) blends with the background.
pub fn composite_card(dst: &mut RgbImage, card: &RgbaImage, quad: &Quad) {
    let source = rect_quad(card.width() as f32, card.height() as f32);
    let Some(to_card) = homography(quad, &source) else {
        return;
    };
    let (x0, y0, x1, y1) = bounds(quad, dst.width(), dst.height());
    for y in y0..y1 {
        for x in x0..x1 {
            let (u, v) = to_card * (x as f32 + 0.5, y as f32 + 0.5);
            let Some(c) = sample_rgba(card, u - 0.5, v - 0.5) else {
                continue;
            };
            let alpha = c[3] / 255.0;
            if alpha <= 0.0 {
                continue;
            }
            let px = dst.get_pixel_mut(x, y);
            for (out, src) in px.0.iter_mut().zip(c) {
                *out = (src * alpha + *out as f32 * (1.0 - alpha)).round() as u8;
            }
        }
    }
}

/// Cuts the region inside `quad` out of `src` into an upright `width` x `height` image.
pub fn warp_quad(src: &RgbImage, quad: &Quad, width: u32, height: u32) -> RgbImage {
    let mut out = RgbImage::new(width, height);
    let target = rect_quad(width as f32, height as f32);
    let Some(to_src) = homography(&target, quad) else {
        return out;
    };
    for (x, y, px) in out.enumerate_pixels_mut() {
        let (u, v) = to_src * (x as f32 + 0.5, y as f32 + 0.5);
        *px = sample_rgb_clamped(src, u - 0.5, v - 0.5);
    }
    out
}

/// The pixel rows and columns a quad touches, clipped to the picture.
fn bounds(quad: &Quad, width: u32, height: u32) -> (u32, u32, u32, u32) {
    let fold =
        |i: usize, f: fn(f32, f32) -> f32, init: f32| quad.iter().map(|p| p[i]).fold(init, f);
    let clip = |v: f32, max: u32| v.clamp(0.0, max as f32) as u32;
    (
        clip(fold(0, f32::min, f32::MAX).floor(), width),
        clip(fold(1, f32::min, f32::MAX).floor(), height),
        clip(fold(0, f32::max, f32::MIN).ceil() + 1.0, width),
        clip(fold(1, f32::max, f32::MIN).ceil() + 1.0, height),
    )
}

/// Bilinear sample of a straight-alpha image; transparent outside it.
fn sample_rgba(img: &RgbaImage, u: f32, v: f32) -> Option<[f32; 4]> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    if u < -1.0 || v < -1.0 || u > w as f32 || v > h as f32 {
        return None;
    }
    let (x0, y0) = (u.floor() as i64, v.floor() as i64);
    let (fx, fy) = (u - x0 as f32, v - y0 as f32);
    let mut acc = [0.0f32; 4];
    for (dx, dy, wgt) in [
        (0, 0, (1.0 - fx) * (1.0 - fy)),
        (1, 0, fx * (1.0 - fy)),
        (0, 1, (1.0 - fx) * fy),
        (1, 1, fx * fy),
    ] {
        let (x, y) = (x0 + dx, y0 + dy);
        if x < 0 || y < 0 || x >= w || y >= h {
            continue;
        }
        let p = img.get_pixel(x as u32, y as u32).0;
        let a = p[3] as f32;
        // Premultiply while interpolating so transparent pixels add no colour.
        for k in 0..3 {
            acc[k] += wgt * p[k] as f32 * a / 255.0;
        }
        acc[3] += wgt * a;
    }
    if acc[3] <= 0.0 {
        return Some([0.0; 4]);
    }
    let scale = 255.0 / acc[3];
    Some([acc[0] * scale, acc[1] * scale, acc[2] * scale, acc[3]])
}

/// Bilinear sample with coordinates clamped to the picture's edge.
fn sample_rgb_clamped(img: &RgbImage, u: f32, v: f32) -> Rgb<u8> {
    let (w, h) = (img.width() as f32 - 1.0, img.height() as f32 - 1.0);
    let (u, v) = (u.clamp(0.0, w.max(0.0)), v.clamp(0.0, h.max(0.0)));
    let (x0, y0) = (u.floor() as u32, v.floor() as u32);
    let (x1, y1) = (
        (x0 + 1).min(img.width() - 1),
        (y0 + 1).min(img.height() - 1),
    );
    let (fx, fy) = (u - x0 as f32, v - y0 as f32);
    let (a, b, c, d) = (
        img.get_pixel(x0, y0).0,
        img.get_pixel(x1, y0).0,
        img.get_pixel(x0, y1).0,
        img.get_pixel(x1, y1).0,
    );
    Rgb(std::array::from_fn(|k| {
        let top = a[k] as f32 * (1.0 - fx) + b[k] as f32 * fx;
        let bottom = c[k] as f32 * (1.0 - fx) + d[k] as f32 * fx;
        (top * (1.0 - fy) + bottom * fy).round() as u8
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warping_a_composited_card_back_recovers_it() {
        let mut card = RgbaImage::from_pixel(40, 60, image::Rgba([200, 10, 10, 255]));
        for y in 0..30 {
            for x in 0..40 {
                card.put_pixel(x, y, image::Rgba([10, 10, 200, 255]));
            }
        }
        let mut scene = RgbImage::from_pixel(200, 200, Rgb([0, 90, 0]));
        let quad = [[60.0, 40.0], [140.0, 55.0], [130.0, 170.0], [50.0, 150.0]];
        composite_card(&mut scene, &card, &quad);
        let back = warp_quad(&scene, &quad, 40, 60);
        assert!(
            back.get_pixel(20, 10).0[2] > 180,
            "{:?}",
            back.get_pixel(20, 10)
        );
        assert!(
            back.get_pixel(20, 50).0[0] > 180,
            "{:?}",
            back.get_pixel(20, 50)
        );
        // Outside the quad stays background.
        assert_eq!(scene.get_pixel(5, 5).0, [0, 90, 0]);
    }
}
