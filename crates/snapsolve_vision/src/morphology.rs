//! Binary morphology on masks (any non-zero pixel is foreground, results are 0/255):
//! erosion, dilation, opening and closing by a `(2k+1) x (2k+1)` square (the
//! L∞ ball of radius `k`), and dilation by the L1 ball of radius 1; and grey
//! erosion, dilation, opening and closing by the same square (minimum and maximum).
//!
//! Results are identical to imageproc's `morphology` functions with
//! `Norm::LInf` (and `dilate` with `Norm::L1, 1`), which go through a distance
//! transform; here a square is separable, so a row pass then a column pass
//! suffice:
//! - radius up to [`DIRECT_MAX`]: each pass ORs `2k + 1` shifted copies of a
//!   row (or rows) of 0/1 bytes, which the compiler vectorises;
//! - larger radii: each pass runs the distance to the nearest foreground pixel
//!   forward and backward (O(1) per pixel whatever `k`).
//!
//! Border semantics (as imageproc's): pixels outside the image count as
//! neither foreground nor background, so the square is clipped to the image.
//! One imageproc quirk is kept so that the two stay interchangeable: with no
//! foreground pixel at all, its distances are capped at `min(w + h, 255)`, so a
//! dilation by at least that radius turns the whole image white (and the same,
//! mirrored, for an erosion of an image without background).

use image::GrayImage;

/// Largest radius done by ORing shifted copies; beyond it the distance passes win.
pub const DIRECT_MAX: u8 = 4;

/// Pixels within L∞ distance `k` of a foreground pixel become 255, the others 0.
pub fn dilate(mask: &GrayImage, k: u8) -> GrayImage {
    square(mask, k, Spread::Foreground)
}

/// Pixels farther than `k` (L∞) from every background pixel stay 255, the others become 0.
pub fn erode(mask: &GrayImage, k: u8) -> GrayImage {
    square(mask, k, Spread::Background)
}

/// Erosion then dilation: removes specks and bridges thinner than `2k + 1` pixels.
pub fn open(mask: &GrayImage, k: u8) -> GrayImage {
    dilate(&erode(mask, k), k)
}

/// Dilation then erosion: fills gaps and holes thinner than `2k + 1` pixels.
pub fn close(mask: &GrayImage, k: u8) -> GrayImage {
    erode(&dilate(mask, k), k)
}

/// Dilation by the L1 ball of radius 1 (a pixel and its four neighbours).
pub fn dilate_cross(mask: &GrayImage) -> GrayImage {
    let (w, h) = (mask.width() as usize, mask.height() as usize);
    let src: Vec<u8> = mask.as_raw().iter().map(|&p| u8::from(p != 0)).collect();
    let mut rows = src.clone();
    if w > 1 {
        for (r, s) in rows.chunks_exact_mut(w).zip(src.chunks_exact(w)) {
            or_shifted(r, s, 1);
        }
    }
    let mut out = rows;
    for y in 0..h {
        for yy in [y.wrapping_sub(1), y + 1] {
            if yy < h {
                let (a, b) = (y * w, yy * w);
                for x in 0..w {
                    out[a + x] |= src[b + x];
                }
            }
        }
    }
    to_mask(out, mask.width(), mask.height(), false)
}

/// Grey erosion: each pixel becomes the darkest of its `(2k+1) x (2k+1)`
/// square (clipped to the image).
pub fn erode_gray(image: &GrayImage, k: u8) -> GrayImage {
    extreme_in_square(image, k, u8::min)
}

/// Grey dilation: each pixel becomes the brightest of its square.
pub fn dilate_gray(image: &GrayImage, k: u8) -> GrayImage {
    extreme_in_square(image, k, u8::max)
}

/// Grey opening: erosion then dilation. Thresholding commutes with it:
/// `mask_above(&open_gray(g, k), level) == open(&mask_above(g, level), k)` for
/// every level, so several thresholds of one image are opened for the price of one.
pub fn open_gray(image: &GrayImage, k: u8) -> GrayImage {
    dilate_gray(&erode_gray(image, k), k)
}

/// Grey closing: dilation then erosion; fills dark details thinner than the square.
pub fn close_gray(image: &GrayImage, k: u8) -> GrayImage {
    erode_gray(&dilate_gray(image, k), k)
}

/// Minimum or maximum (`pick`) over the clipped square, a row pass then a
/// column pass of `2k + 1` shifted copies each (meant for small `k`).
fn extreme_in_square(image: &GrayImage, k: u8, pick: impl Fn(u8, u8) -> u8 + Copy) -> GrayImage {
    let (width, height) = image.dimensions();
    let (w, h, k) = (width as usize, height as usize, usize::from(k));
    if w == 0 || h == 0 {
        return image.clone();
    }
    let src = image.as_raw();
    let mut rows = src.clone();
    for (r, s) in rows.chunks_exact_mut(w).zip(src.chunks_exact(w)) {
        for d in 1..=k.min(w - 1) {
            for (a, &b) in r[..w - d].iter_mut().zip(&s[d..]) {
                *a = pick(*a, b);
            }
            for (a, &b) in r[d..].iter_mut().zip(&s[..w - d]) {
                *a = pick(*a, b);
            }
        }
    }
    let mut out = rows.clone();
    for (y, o) in out.chunks_exact_mut(w).enumerate() {
        for row in rows[y.saturating_sub(k) * w..(y + k + 1).min(h) * w].chunks_exact(w) {
            for (a, &b) in o.iter_mut().zip(row) {
                *a = pick(*a, b);
            }
        }
    }
    GrayImage::from_raw(width, height, out).unwrap_or_else(|| unreachable!("sized w * h"))
}

/// Which pixels spread over the square: foreground (dilation) or background (erosion).
#[derive(Clone, Copy, PartialEq)]
enum Spread {
    Foreground,
    Background,
}

fn square(mask: &GrayImage, k: u8, spread: Spread) -> GrayImage {
    let (width, height) = mask.dimensions();
    let (w, h) = (width as usize, height as usize);
    let erode = spread == Spread::Background;
    let src: Vec<u8> = mask
        .as_raw()
        .iter()
        .map(|&p| u8::from((p != 0) != erode))
        .collect();
    if w == 0 || h == 0 {
        return mask.clone();
    }
    if !src.contains(&1) {
        // imageproc's capped distance (see the module doc).
        let everywhere = u32::from(k) >= (width + height).min(255);
        return to_mask(vec![u8::from(everywhere); w * h], width, height, erode);
    }
    let near = if k <= DIRECT_MAX {
        near_direct(&src, w, h, usize::from(k))
    } else {
        near_by_distance(&src, w, h, u16::from(k))
    };
    to_mask(near, width, height, erode)
}

/// 1 where some 1 of `src` lies within the clipped square of radius `k`: ORs of shifted copies.
fn near_direct(src: &[u8], w: usize, h: usize, k: usize) -> Vec<u8> {
    let mut rows = src.to_vec();
    for (r, s) in rows.chunks_exact_mut(w).zip(src.chunks_exact(w)) {
        for d in 1..=k.min(w - 1) {
            or_shifted(r, s, d);
        }
    }
    let mut out = vec![0u8; w * h];
    for (y, o) in out.chunks_exact_mut(w).enumerate() {
        for row in rows[y.saturating_sub(k) * w..(y + k + 1).min(h) * w].chunks_exact(w) {
            for (a, b) in o.iter_mut().zip(row) {
                *a |= b;
            }
        }
    }
    out
}

/// `r[x] |= s[x - d] | s[x + d]` where those exist (`0 < d < len`).
fn or_shifted(r: &mut [u8], s: &[u8], d: usize) {
    let n = r.len();
    for (a, b) in r[..n - d].iter_mut().zip(&s[d..]) {
        *a |= b;
    }
    for (a, b) in r[d..].iter_mut().zip(&s[..n - d]) {
        *a |= b;
    }
}

/// Same as [`near_direct`] for any `k`: per pass, the distance to the nearest 1
/// before and after each pixel (saturating; "no 1 yet" starts far away).
fn near_by_distance(src: &[u8], w: usize, h: usize, k: u16) -> Vec<u8> {
    const FAR: u16 = u16::MAX;
    let step = |d: u16, one: u8| if one != 0 { 0 } else { d.saturating_add(1) };
    let mut rows = vec![0u8; w * h];
    let mut before = vec![0u16; w];
    for (r, s) in rows.chunks_exact_mut(w).zip(src.chunks_exact(w)) {
        let mut d = FAR;
        for (b, &one) in before.iter_mut().zip(s) {
            d = step(d, one);
            *b = d;
        }
        d = FAR;
        for x in (0..w).rev() {
            d = step(d, s[x]);
            r[x] = u8::from(before[x].min(d) <= k);
        }
    }
    // Columns: one counter per column, rows visited in order so memory is read sequentially.
    let mut down = vec![0u16; w * h];
    let mut d = vec![FAR; w];
    for (dn, r) in down.chunks_exact_mut(w).zip(rows.chunks_exact(w)) {
        for x in 0..w {
            d[x] = step(d[x], r[x]);
            dn[x] = d[x];
        }
    }
    let mut out = vec![0u8; w * h];
    d.fill(FAR);
    for y in (0..h).rev() {
        let (r, dn, o) = (
            &rows[y * w..][..w],
            &down[y * w..][..w],
            &mut out[y * w..][..w],
        );
        for x in 0..w {
            d[x] = step(d[x], r[x]);
            o[x] = u8::from(dn[x].min(d[x]) <= k);
        }
    }
    out
}

/// 0/1 "near" flags to a 0/255 mask (inverted for an erosion: near background means 0).
fn to_mask(mut near: Vec<u8>, width: u32, height: u32, invert: bool) -> GrayImage {
    for p in &mut near {
        *p = if (*p != 0) != invert { 255 } else { 0 };
    }
    GrayImage::from_raw(width, height, near).unwrap_or_else(|| unreachable!("sized w * h"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threshold::mask_above;
    use image::Luma;
    use imageproc::distance_transform::Norm;
    use rand::{Rng, SeedableRng};

    fn random_mask(rng: &mut impl Rng, w: u32, h: u32, density: f64) -> GrayImage {
        GrayImage::from_fn(w, h, |_, _| {
            Luma([if rng.random_bool(density) {
                // Any non-zero value is foreground, as for imageproc.
                rng.random_range(1..=255)
            } else {
                0
            }])
        })
    }

    #[test]
    fn matches_imageproc_on_random_masks() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for round in 0..300 {
            let (w, h) = (rng.random_range(1..40), rng.random_range(1..40));
            let density = [0.0, 0.02, 0.3, 0.7, 0.97, 1.0][round % 6];
            let mask = random_mask(&mut rng, w, h, density);
            for k in [0, 1, 2, 3, 4, 5, 7, 12, 40, 90] {
                use imageproc::morphology as ip;
                let what = format!("{w}x{h} density {density} k {k}");
                assert_eq!(
                    dilate(&mask, k),
                    ip::dilate(&mask, Norm::LInf, k),
                    "dilate {what}"
                );
                assert_eq!(
                    erode(&mask, k),
                    ip::erode(&mask, Norm::LInf, k),
                    "erode {what}"
                );
                assert_eq!(
                    open(&mask, k),
                    ip::open(&mask, Norm::LInf, k),
                    "open {what}"
                );
                assert_eq!(
                    close(&mask, k),
                    ip::close(&mask, Norm::LInf, k),
                    "close {what}"
                );
            }
            let cross = imageproc::morphology::dilate(&mask, Norm::L1, 1);
            assert_eq!(
                dilate_cross(&mask),
                cross,
                "cross {w}x{h} density {density}"
            );
        }
    }

    #[test]
    fn grey_opening_and_closing_commute_with_thresholds() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..200 {
            let (w, h) = (rng.random_range(1..40), rng.random_range(1..40));
            let image = GrayImage::from_fn(w, h, |_, _| Luma([rng.random()]));
            for k in [0, 1, 2, 3] {
                let (opened, closed) = (open_gray(&image, k), close_gray(&image, k));
                for level in [0, 1, 60, 127, 200, 254, 255] {
                    let mask = mask_above(&image, level);
                    let what = format!("{w}x{h} k {k} level {level}");
                    assert_eq!(mask_above(&opened, level), open(&mask, k), "{what}");
                    assert_eq!(mask_above(&closed, level), close(&mask, k), "{what}");
                }
            }
        }
    }

    #[test]
    fn the_square_is_clipped_at_the_border() {
        // A full image does not erode from its edges; one pixel dilates to a clipped square.
        let full = GrayImage::from_pixel(6, 5, Luma([255]));
        assert_eq!(erode(&full, 2), full);
        let mut dot = GrayImage::new(6, 5);
        dot.put_pixel(0, 0, Luma([255]));
        let grown = dilate(&dot, 1);
        let white: Vec<(u32, u32)> = grown
            .enumerate_pixels()
            .filter(|(_, _, p)| p.0[0] == 255)
            .map(|(x, y, _)| (x, y))
            .collect();
        assert_eq!(white, vec![(0, 0), (1, 0), (0, 1), (1, 1)]);
    }
}
