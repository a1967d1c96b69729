//! Perspective warps: cutting a quadrilateral out of a photo as an upright rectangle.

use image::RgbImage;
use imageproc::geometric_transformations::Projection;

use crate::quad::Quad;

/// Warps the inside of `quad` (corners in portrait order: top-left, top-right,
/// bottom-right, bottom-left) to a `width x height` image.
///
/// The warp samples at twice the output size and averages 2x2 blocks, so a
/// card that covers many more pixels in the photo than in the crop does not
/// alias (stripes and stipples would otherwise turn into moiré).
/// `None` when the corners are degenerate (three in a line).
///
/// Bilinear sampling with the border replicated, on the 2x grid, a row of
/// the crop at a time (no intermediate image):
/// - first where its two rows of samples read ([`locate_row`]): the
///   projective map is stepped along each (three additions and one division
///   per sample, Heckbert's square-to-quad form), positions fixed point with
///   8 fractional bits;
/// - then each 2x2 block blended in integers and averaged, rounding down
///   ([`blend_row`]); each of the two rows of a bilinear tap is read as one
///   six-byte pair (one bounds check instead of six; 15% faster), and where
///   the processor has SSE4.1 a sample's three channels are blended at once
///   ([`blend_row_sse41`], the same bytes; a crop a quarter faster).
///
/// Locating and blending in one loop took a fifth longer: 7.7 against 6.2 ms
/// for a webcam frame's 12 crops (`crops` in `benches/set_photo.rs`), the
/// same pixels.
///
/// It replaced imageproc's `warp_into` + `shrink_by(2)` (~4-7 ms a crop:
/// generic pixels, bounds checks and float blends per channel; an exact copy
/// of that arithmetic was no faster) and stays within 2 levels of it (test below).
pub fn warp_quad(image: &RgbImage, quad: &Quad, width: u32, height: u32) -> Option<RgbImage> {
    let (w2, h2) = ((2 * width) as f32, (2 * height) as f32);
    let to = [(0.0, 0.0), (w2, 0.0), (w2, h2), (0.0, h2)];
    let from = quad.corners.map(|p| (p[0], p[1]));
    // Same degenerate-corner rule as before (imageproc's solver decides).
    Projection::from_control_points(from, to)?;
    let map = SquareToQuad::new(quad)?;
    let mut out = RgbImage::new(width, height);
    if image.width() == 0 || image.height() == 0 || width == 0 || height == 0 {
        return Some(out);
    }
    // Each tap reads two neighbouring pixels of a row: an image one pixel wide
    // or high is widened by replicating it, which changes no sample.
    let widened;
    let image = if image.width() < 2 || image.height() < 2 {
        widened = replicate_to_two(image);
        &widened
    } else {
        image
    };
    let (iw, ih) = (image.width() as usize, image.height() as usize);
    let (max_x, max_y) = ((iw - 1) as f32, (ih - 1) as f32);
    let raw = image.as_raw();
    let stride = 3 * iw;
    // Photo-plane homogeneous coordinates step by (a, d, g) / w2 per sample.
    let (du, dv) = (1.0 / w2, 1.0 / h2);
    let step = [map.a * du, map.d * du, map.g * du];
    // The taps of the two rows of samples that make one row of the crop.
    let mut taps = [
        vec![Tap::default(); 2 * width as usize],
        vec![Tap::default(); 2 * width as usize],
    ];
    let blend = row_blender();
    for (y, out_row) in out.chunks_exact_mut(3 * width as usize).enumerate() {
        for (sub, row) in taps.iter_mut().enumerate() {
            let t = (2 * y + sub) as f32 * dv;
            let start = [map.b * t + map.c, map.e * t + map.f, map.h * t + 1.0];
            locate_row(row, start, step, (max_x, max_y), (iw, ih), stride);
        }
        blend(raw, stride, &taps, out_row);
    }
    Some(out)
}

/// Where one bilinear sample reads: the byte of its top-left pixel and the
/// weights (out of 256) of the pixels to its right and below.
#[derive(Clone, Copy, Default)]
struct Tap {
    at: usize,
    fx: u32,
    fy: u32,
}

/// The taps of one row of samples, the projective map stepped from `h` by
/// `step` per sample (float arithmetic, kept apart from the integer
/// blending of [`blend_row`]).
fn locate_row(
    taps: &mut [Tap],
    mut h: [f32; 3],
    step: [f32; 3],
    (max_x, max_y): (f32, f32),
    (iw, ih): (usize, usize),
    stride: usize,
) {
    for tap in taps {
        let inv = 1.0 / h[2];
        // Clamping replicates the border (and sends NaN to the edge).
        let sx = (h[0] * inv).max(0.0).min(max_x);
        let sy = (h[1] * inv).max(0.0).min(max_y);
        let (qx, qy) = ((sx * 256.0) as u32, (sy * 256.0) as u32);
        // On the last column or row, the pair before it with all the weight
        // on its second pixel: the same blend.
        let (x0, fx) = fraction_within(qx, iw);
        let (y0, fy) = fraction_within(qy, ih);
        *tap = Tap {
            at: y0 * stride + 3 * x0,
            fx,
            fy,
        };
        for (hk, sk) in h.iter_mut().zip(step) {
            *hk += sk;
        }
    }
}

/// One row of the crop: each pixel the average of its four samples' bilinear
/// blends (weights out of 256 each way, so a sample is scaled by 256 * 256;
/// the average rounds down).
fn blend_row(
    raw: &[u8],
    stride: usize,
    [upper_taps, lower_taps]: &[Vec<Tap>; 2],
    out_row: &mut [u8],
) {
    let blocks = upper_taps.chunks_exact(2).zip(lower_taps.chunks_exact(2));
    for (pixel, (upper, lower)) in out_row.chunks_exact_mut(3).zip(blocks) {
        let mut sum = [0u32; 3];
        for tap in upper.iter().chain(lower) {
            let top = pixel_pair(raw, tap.at);
            let bottom = pixel_pair(raw, tap.at + stride);
            for (c, total) in sum.iter_mut().enumerate() {
                // a (256 - f) + b f, written a 256 + (b - a) f: one product.
                let above = lerp(top[c], top[c + 3], tap.fx);
                let below = lerp(bottom[c], bottom[c + 3], tap.fx);
                *total += (above * 256 + (below - above) * tap.fy as i32) as u32;
            }
        }
        for (o, s) in pixel.iter_mut().zip(sum) {
            *o = (s >> 18) as u8;
        }
    }
}

/// A function blending one row of the crop ([`blend_row`]).
type RowBlender = fn(&[u8], usize, &[Vec<Tap>; 2], &mut [u8]);

/// [`blend_row_sse41`] where the processor has SSE4.1 (every x86-64 made
/// since about 2010), [`blend_row`] elsewhere.
fn row_blender() -> RowBlender {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sse4.1") {
        return |raw, stride, taps, out_row| {
            // SAFETY: SSE4.1 (and the SSSE3 it implies) was just detected.
            unsafe { blend_row_sse41(raw, stride, taps, out_row) }
        };
    }
    blend_row
}

/// [`blend_row`] a sample's three channels at a time. Each sample's two
/// pixel pairs are loaded whole, their bytes put side by side channel by
/// channel (`pshufb`: left and right pixel of each channel next to each
/// other, as 16-bit numbers), blended along the row by one multiply-add
/// (`pmaddwd`: `a (256 - fx) + b fx`) and between the two rows by two
/// products: the same whole numbers as the scalar blend, in a fifth of the
/// instructions (the blend was the larger half of a crop's time).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
fn blend_row_sse41(
    raw: &[u8],
    stride: usize,
    [upper_taps, lower_taps]: &[Vec<Tap>; 2],
    out_row: &mut [u8],
) {
    use std::arch::x86_64::{
        _mm_add_epi32, _mm_cvtsi128_si32, _mm_madd_epi16, _mm_mullo_epi32, _mm_packus_epi16,
        _mm_packus_epi32, _mm_set_epi64x, _mm_set1_epi32, _mm_setr_epi8, _mm_setzero_si128,
        _mm_shuffle_epi8, _mm_srli_epi32,
    };
    // Bytes 0-5 are the upper pair (r g b of the left pixel, then of the
    // right one), 8-13 the lower pair; -1 gives a zero byte.
    let upper = _mm_setr_epi8(0, -1, 3, -1, 1, -1, 4, -1, 2, -1, 5, -1, -1, -1, -1, -1);
    let lower = _mm_setr_epi8(8, -1, 11, -1, 9, -1, 12, -1, 10, -1, 13, -1, -1, -1, -1, -1);
    let blocks = upper_taps.chunks_exact(2).zip(lower_taps.chunks_exact(2));
    for (pixel, (up, low)) in out_row.chunks_exact_mut(3).zip(blocks) {
        let mut sum = _mm_setzero_si128();
        for tap in up.iter().chain(low) {
            let pairs = _mm_set_epi64x(
                eight_bytes(raw, tap.at + stride) as i64,
                eight_bytes(raw, tap.at) as i64,
            );
            let along = _mm_set1_epi32(((tap.fx << 16) | (256 - tap.fx)) as i32);
            let above = _mm_madd_epi16(_mm_shuffle_epi8(pairs, upper), along);
            let below = _mm_madd_epi16(_mm_shuffle_epi8(pairs, lower), along);
            let down = tap.fy as i32;
            let blended = _mm_add_epi32(
                _mm_mullo_epi32(above, _mm_set1_epi32(256 - down)),
                _mm_mullo_epi32(below, _mm_set1_epi32(down)),
            );
            sum = _mm_add_epi32(sum, blended);
        }
        let bytes = _mm_packus_epi16(_mm_packus_epi32(_mm_srli_epi32(sum, 18), sum), sum);
        let rgb = (_mm_cvtsi128_si32(bytes) as u32).to_le_bytes();
        pixel.copy_from_slice(&rgb[..3]);
    }
}

/// The six bytes of a pixel pair at `at` (and, where the picture goes on,
/// the two after them, which the blend leaves out) as one number.
#[cfg(target_arch = "x86_64")]
fn eight_bytes(raw: &[u8], at: usize) -> u64 {
    match raw.get(at..at + 8) {
        Some(bytes) => u64::from_le_bytes(bytes.try_into().unwrap_or([0; 8])),
        None => {
            let p = pixel_pair(raw, at);
            u64::from_le_bytes([p[0], p[1], p[2], p[3], p[4], p[5], 0, 0])
        }
    }
}

/// `a (256 - f) + b f` for bytes `a`, `b` and `f` in `0..=256`.
fn lerp(a: u8, b: u8, f: u32) -> i32 {
    i32::from(a) * 256 + (i32::from(b) - i32::from(a)) * f as i32
}

/// The first of two neighbouring pixels along a side of `len >= 2` pixels
/// and the weight of the second, from a position with 8 fractional bits.
fn fraction_within(q: u32, len: usize) -> (usize, u32) {
    let whole = (q >> 8) as usize;
    if whole + 1 < len {
        (whole, q & 255)
    } else {
        (len - 2, 256)
    }
}

/// Two neighbouring RGB pixels from byte `at` (one bounds check for six bytes).
fn pixel_pair(raw: &[u8], at: usize) -> &[u8; 6] {
    raw[at..at + 6]
        .try_into()
        .unwrap_or_else(|_| unreachable!("six bytes"))
}

/// An image at least two pixels wide and high, its last column and row repeated.
fn replicate_to_two(image: &RgbImage) -> RgbImage {
    let (w, h) = (image.width(), image.height());
    RgbImage::from_fn(w.max(2), h.max(2), |x, y| {
        *image.get_pixel(x.min(w - 1), y.min(h - 1))
    })
}

/// The projective map from the unit square to a quadrilateral (Heckbert,
/// "Fundamentals of Texture Mapping", 1989): `(s, t)` goes to
/// `((a s + b t + c) / w, (d s + e t + f) / w)` with `w = g s + h t + 1`;
/// `(0,0), (1,0), (1,1), (0,1)` go to the corners in order.
struct SquareToQuad {
    a: f32,
    b: f32,
    c: f32,
    d: f32,
    e: f32,
    f: f32,
    g: f32,
    h: f32,
}

impl SquareToQuad {
    fn new(quad: &Quad) -> Option<SquareToQuad> {
        let [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = quad.corners;
        let (dx3, dy3) = (x0 - x1 + x2 - x3, y0 - y1 + y2 - y3);
        let (g, h) = if dx3 == 0.0 && dy3 == 0.0 {
            (0.0, 0.0)
        } else {
            let (dx1, dx2, dy1, dy2) = (x1 - x2, x3 - x2, y1 - y2, y3 - y2);
            let det = dx1 * dy2 - dx2 * dy1;
            if det == 0.0 {
                return None;
            }
            ((dx3 * dy2 - dx2 * dy3) / det, (dx1 * dy3 - dx3 * dy1) / det)
        };
        Some(SquareToQuad {
            a: x1 - x0 + g * x1,
            b: x3 - x0 + h * x3,
            c: x0,
            d: y1 - y0 + g * y1,
            e: y3 - y0 + h * y3,
            f: y0,
            g,
            h,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;
    use imageproc::geometric_transformations::{Border, Interpolation, warp_into};
    use rand::{Rng, SeedableRng};

    #[test]
    fn warps_a_rotated_square_back_upright() {
        // Left half red, right half blue, then look at it through a quad that
        // starts at the top-right corner: the crop is the image turned a quarter.
        let mut image = RgbImage::from_pixel(40, 40, Rgb([0, 0, 255]));
        for y in 0..40 {
            for x in 0..20 {
                image.put_pixel(x, y, Rgb([255, 0, 0]));
            }
        }
        let quad = Quad {
            corners: [[40.0, 0.0], [40.0, 40.0], [0.0, 40.0], [0.0, 0.0]],
        };
        let crop = warp_quad(&image, &quad, 10, 10).unwrap();
        assert_eq!(crop.get_pixel(5, 1).0, [0, 0, 255]);
        assert_eq!(crop.get_pixel(5, 8).0, [255, 0, 0]);
    }

    /// The path this warp replaced: imageproc's warp at twice the size, then a 2x2 average.
    fn imageproc_warp(image: &RgbImage, quad: &Quad, width: u32, height: u32) -> RgbImage {
        let (w2, h2) = ((2 * width) as f32, (2 * height) as f32);
        let to = [(0.0, 0.0), (w2, 0.0), (w2, h2), (0.0, h2)];
        let from = quad.corners.map(|p| (p[0], p[1]));
        let projection = Projection::from_control_points(from, to).unwrap();
        let mut big = RgbImage::new(2 * width, 2 * height);
        warp_into(
            image,
            projection,
            Interpolation::Bilinear,
            Border::Replicate,
            &mut big,
        );
        crate::shrink::shrink_by(&big, 2)
    }

    #[test]
    fn matches_imageproc_on_random_images_and_quads() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        for _ in 0..200 {
            // From one pixel wide or high (widened inside the warp) up.
            let (w, h) = (rng.random_range(1..120), rng.random_range(1..120));
            let image = RgbImage::from_fn(w, h, |_, _| Rgb(rng.random()));
            // Corners around the image, some outside it (border replicated).
            let mut corner = |cx: f32, cy: f32| {
                [
                    cx * w as f32 + rng.random_range(-15.0..15.0),
                    cy * h as f32 + rng.random_range(-15.0..15.0),
                ]
            };
            let quad = Quad {
                corners: [
                    corner(0.1, 0.1),
                    corner(0.9, 0.1),
                    corner(0.9, 0.9),
                    corner(0.1, 0.9),
                ],
            };
            let (cw, ch) = (rng.random_range(3..40), rng.random_range(3..40));
            let ours = warp_quad(&image, &quad, cw, ch).unwrap();
            let theirs = imageproc_warp(&image, &quad, cw, ch);
            let worst = ours
                .as_raw()
                .iter()
                .zip(theirs.as_raw())
                .map(|(a, b)| a.abs_diff(*b))
                .max()
                .unwrap();
            assert!(worst <= 2, "differs by {worst} levels");
        }
    }

    /// The SSE4.1 blend gives the scalar blend's bytes, on taps anywhere in
    /// a picture (its last pixel pairs included, where fewer than eight
    /// bytes remain) with any weights from 0 to 256.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_sse41_blend_gives_the_scalar_blends_bytes() {
        if !std::arch::is_x86_feature_detected!("sse4.1") {
            eprintln!("no SSE4.1 here: nothing to compare");
            return;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(36);
        for _ in 0..200 {
            let (w, h) = (rng.random_range(2..40usize), rng.random_range(2..40usize));
            let raw: Vec<u8> = (0..3 * w * h).map(|_| rng.random()).collect();
            let stride = 3 * w;
            let width = rng.random_range(1..30);
            let mut tap = || {
                let (x0, y0) = (rng.random_range(0..w - 1), rng.random_range(0..h - 1));
                let weight = |rng: &mut rand_chacha::ChaCha8Rng| {
                    if rng.random_bool(0.1) {
                        256
                    } else {
                        rng.random_range(0..256)
                    }
                };
                Tap {
                    at: y0 * stride + 3 * x0,
                    fx: weight(&mut rng),
                    fy: weight(&mut rng),
                }
            };
            let taps = [
                (0..2 * width).map(|_| tap()).collect::<Vec<_>>(),
                (0..2 * width).map(|_| tap()).collect::<Vec<_>>(),
            ];
            let (mut scalar, mut sse) = (vec![0u8; 3 * width], vec![0u8; 3 * width]);
            blend_row(&raw, stride, &taps, &mut scalar);
            // SAFETY: SSE4.1 was detected above.
            unsafe { blend_row_sse41(&raw, stride, &taps, &mut sse) };
            assert_eq!(scalar, sse);
        }
    }
}
