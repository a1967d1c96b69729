//! Writing digits into the cells of a photographed grid, in perspective.
//!
//! Each digit is rasterised (DejaVu Sans Bold, embedded by the `dejavu` crate, so
//! no system font is needed) into a square bitmap finer than the cell appears in
//! the photo, then every covered bitmap pixel is carried through the cell's own
//! four corners (bilinear, so bent cells bend the digit too) and blended into the
//! photo.

use ab_glyph::{Font, FontRef, PxScale, point};
use image::{Rgb, RgbImage};

use super::Lattice;

/// The colour of written answers: a strong blue-green that newspaper print and
/// ballpoint ink rarely have.
pub const ANSWER_COLOUR: Rgb<u8> = Rgb([0, 150, 200]);

/// Writes `digits[i]` (1-9; 0 = leave alone) into cell `i` of the lattice.
pub fn write_digits(photo: &mut RgbImage, lattice: &Lattice, digits: &[u8; 81], colour: Rgb<u8>) {
    let Ok(font) = FontRef::try_from_slice(dejavu::sans::bold()) else {
        return;
    };
    for (cell, &digit) in digits.iter().enumerate() {
        if (1..=9).contains(&digit) {
            write_one(
                photo,
                lattice,
                cell,
                char::from(b'0' + digit),
                &font,
                colour,
            );
        }
    }
}

/// Outlines cell `cell` (0-80, row by row) of the lattice a little inside
/// its grid lines, so that the line itself stays in view.
pub fn outline_cell(photo: &mut RgbImage, lattice: &Lattice, cell: usize, colour: Rgb<u8>) {
    let corners = lattice.cell_quad(cell / 9, cell % 9);
    // A tenth of the way in, the outline a twelfth of the cell thick.
    let quad = crate::quad::Quad {
        corners: corners.map(|(x, y)| [x, y]),
    }
    .scaled(0.8);
    let side = (corners[1].0 - corners[0].0).hypot(corners[1].1 - corners[0].1);
    crate::draw::draw_quad_outline_mut(photo, &quad, (side / 12.0).max(1.0), colour);
}

fn write_one(
    photo: &mut RgbImage,
    lattice: &Lattice,
    cell: usize,
    digit: char,
    font: &FontRef,
    colour: Rgb<u8>,
) {
    let quad = lattice.cell_quad(cell / 9, cell % 9);
    let side_px = (quad[1].0 - quad[0].0)
        .hypot(quad[1].1 - quad[0].1)
        .max((quad[3].0 - quad[0].0).hypot(quad[3].1 - quad[0].1));
    // Two bitmap pixels per photo pixel: no holes after the forward mapping.
    let bitmap = ((side_px * 2.0).ceil() as u32).clamp(8, 512);
    let glyph = font
        .glyph_id(digit)
        .with_scale_and_position(PxScale::from(bitmap as f32 * 0.75), point(0.0, 0.0));
    let Some(outlined) = font.outline_glyph(glyph) else {
        return;
    };
    let bounds = outlined.px_bounds();
    let (gw, gh) = (bounds.width(), bounds.height());
    let (ox, oy) = ((bitmap as f32 - gw) / 2.0, (bitmap as f32 - gh) / 2.0);
    let (w, h) = (photo.width() as i64, photo.height() as i64);
    outlined.draw(|x, y, coverage| {
        if coverage <= 0.05 {
            return;
        }
        let u = (ox + x as f32 + 0.5) / bitmap as f32;
        let v = (oy + y as f32 + 0.5) / bitmap as f32;
        let (px, py) = super::cells::bilinear_point(&quad, u, v);
        let (px, py) = (px.round() as i64, py.round() as i64);
        if px < 0 || py < 0 || px >= w || py >= h {
            return;
        }
        let pixel = photo.get_pixel_mut(px as u32, py as u32);
        for c in 0..3 {
            let old = f32::from(pixel[c]);
            pixel[c] = (old + (f32::from(colour[c]) - old) * coverage.min(1.0)).round() as u8;
        }
    });
}
