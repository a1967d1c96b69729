//! Overlays drawn onto photos: thick quadrilateral outlines and labels.

use ab_glyph::{FontRef, PxScale};
use image::{Rgb, RgbImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_polygon_mut, draw_text_mut, text_size};
use imageproc::point::Point;
use imageproc::rect::Rect;

use crate::quad::Quad;

/// The embedded font (DejaVu Sans Bold), so drawing needs no system fonts.
fn font() -> Option<FontRef<'static>> {
    FontRef::try_from_slice(dejavu::sans::bold()).ok()
}

/// Draws the outline of `quad`, `thickness` pixels wide, just outside it.
pub fn draw_quad_outline_mut(image: &mut RgbImage, quad: &Quad, thickness: f32, colour: Rgb<u8>) {
    let outer = quad.expanded(thickness);
    for i in 0..4 {
        let j = (i + 1) % 4;
        // Each side as a filled four-sided band between the quad and its grown copy.
        let band = [
            quad.corners[i],
            quad.corners[j],
            outer.corners[j],
            outer.corners[i],
        ];
        let points: Vec<Point<i32>> = band
            .iter()
            .map(|p| Point::new(p[0].round() as i32, p[1].round() as i32))
            .collect();
        if points.first() != points.last() && distinct(&points) {
            draw_polygon_mut(image, &points, colour);
        }
    }
}

/// `draw_polygon_mut` refuses polygons whose first and last points coincide.
fn distinct(points: &[Point<i32>]) -> bool {
    points.windows(2).all(|w| w[0] != w[1])
}

/// Writes `text` with its top-left corner at `(x, y)` on a dark box, `height` pixels tall.
pub fn draw_label_mut(
    image: &mut RgbImage,
    text: &str,
    x: i32,
    y: i32,
    height: f32,
    colour: Rgb<u8>,
) {
    let Some(font) = font() else {
        return;
    };
    let scale = PxScale::from(height.max(6.0));
    let (w, h) = text_size(scale, &font, text);
    let pad = (height / 6.0).ceil() as i32;
    draw_filled_rect_mut(
        image,
        Rect::at(x - pad, y - pad).of_size(w + 2 * pad as u32, h + 2 * pad as u32),
        Rgb([20, 20, 20]),
    );
    draw_text_mut(image, colour, x, y, scale, &font, text);
}

/// Width and height of `text` drawn `height` pixels tall.
pub fn label_size(text: &str, height: f32) -> (u32, u32) {
    font().map_or((0, 0), |font| {
        text_size(PxScale::from(height.max(6.0)), &font, text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outlines_and_labels_change_pixels() {
        let mut image = RgbImage::new(100, 100);
        let quad = Quad {
            corners: [[30.0, 20.0], [70.0, 20.0], [70.0, 80.0], [30.0, 80.0]],
        };
        draw_quad_outline_mut(&mut image, &quad, 4.0, Rgb([255, 0, 0]));
        assert_eq!(image.get_pixel(28, 50).0, [255, 0, 0]);
        assert_eq!(image.get_pixel(50, 50).0, [0, 0, 0]);
        draw_label_mut(&mut image, "no SET", 5, 5, 12.0, Rgb([255, 255, 255]));
        assert!(image.pixels().any(|p| p.0 == [255, 255, 255]));
    }
}
