//! Where the grid really is inside a rough outline: the ten evenly spaced lines
//! of each direction, found as the comb of ten teeth that best matches a
//! profile of line strength across the rough warp.
//!
//! Needed when the outline takes in more than the grid: puzzle sheets that
//! print a grey drop shadow behind the grid, a page margin, a caption bar. The
//! outline then spans grid plus shadow, and a lattice spread evenly across it
//! misses the inner lines by up to a cell; the comb finds the span the lines
//! really cover, and the lattice is fitted again inside it.
//!
//! The profile is taken from the grey warp, not a thresholded one: a line is
//! darker than the paper on *both* sides, while the edge of a shadow is paper on
//! one side and as grey as the edge on the other, so it scores nothing. (In a
//! thresholded map a shadow's edge looks like a thick line, and a comb shifted
//! one cell onto it scored as well as the true one.)

use image::GrayImage;

use imageproc::geometric_transformations::Projection;

use super::Quad;
use super::lattice::{CELL, MARGIN};

/// Spacings tried, as shares of the warp's cell: the grid may fill the
/// outline or cover a little less of it (never more: the outline holds it).
const SPACINGS: std::ops::RangeInclusive<f32> = 0.72..=1.08;
/// Step of the spacing and offset search, warp pixels.
const STEP: f32 = 0.25;
/// How far to each side of a line the paper is looked at, warp pixels:
/// beyond the thickest border line, short of the next line.
const SIDE_GAP: usize = CELL / 3;
/// The span of the lines may differ from the outline's by this much (warp
/// pixels) before it is worth fitting again.
const SPAN_SLACK: f32 = CELL as f32 / 6.0;

/// The outline, in photo pixels, of the span the grid's lines cover in the
/// rough warp `warped` (whose pixels `to_photo` takes to the photo), when it is
/// clearly smaller than the warp's outline; `None` when it is not.
pub fn comb_quad(warped: &GrayImage, to_photo: &Projection) -> Option<Quad> {
    let (top, bottom) = comb_span(&line_profile(warped, true));
    let (left, right) = comb_span(&line_profile(warped, false));
    let (start, end) = (MARGIN as f32, (MARGIN + 9 * CELL) as f32);
    let inside = [top - start, end - bottom, left - start, end - right]
        .iter()
        .any(|&d| d > SPAN_SLACK);
    inside.then(|| {
        [(left, top), (right, top), (right, bottom), (left, bottom)].map(|p| *to_photo * p)
    })
}

/// The span `(first tooth, last tooth)` of the comb of ten evenly spaced teeth
/// with the largest summed `profile`.
///
/// Hot: about 60,000 teeth per call, two calls per fitted lattice (55 M, 14% of
/// a sudoku frame's instructions, before this loop was written out). The
/// profile is read through a copy padded with a zero at each end, so a tooth
/// always reads three rows `p - 1 ..= p + 1` at padded `p ..= p + 2` with no
/// range test; a zero row weighs nothing, exactly as a row outside the profile
/// that the first version skipped. The strongest row is kept with `>` instead
/// of `f32::max`, whose NaN handling cost three instructions a row: rows are
/// finite and 0 or more, weights positive, so both give the same float.
///
/// On x86-64, four combs one [`STEP`] apart are scored at once
/// ([`comb_scores4`]), then compared in order, so the first best comb still
/// wins a tie; the offsets are whole multiples of the step, exact in `f32`, so
/// each lane's offset is the very float the one-by-one loop reaches.
fn comb_span(profile: &[f32]) -> (f32, f32) {
    let mut padded = Vec::with_capacity(profile.len() + 2);
    padded.push(0.0f32);
    padded.extend_from_slice(profile);
    padded.push(0.0);
    let last = (profile.len() - 1) as f32;
    let mut best = (f32::MIN, 0.0, CELL as f32);
    let mut spacing = *SPACINGS.start() * CELL as f32;
    while spacing <= *SPACINGS.end() * CELL as f32 {
        let span = 9.0 * spacing;
        let mut offset = 0.0f32;
        #[cfg(target_arch = "x86_64")]
        while offset + 3.0 * STEP + span <= last {
            // SAFETY: SSE2 is part of baseline x86-64: every x86_64 CPU has it.
            let scores = unsafe { comb_scores4(&padded, offset, spacing) };
            for score in scores {
                if score > best.0 {
                    best = (score, offset, spacing);
                }
                offset += STEP;
            }
        }
        while offset + span <= last {
            let score = comb_score(&padded, offset, spacing);
            if score > best.0 {
                best = (score, offset, spacing);
            }
            offset += STEP;
        }
        spacing += STEP;
    }
    let (_, offset, spacing) = best;
    (offset, offset + 9.0 * spacing)
}

/// The summed teeth of the comb at `offset` with `spacing`, over the padded
/// profile (see [`comb_span`]).
fn comb_score(padded: &[f32], offset: f32, spacing: f32) -> f32 {
    let mut score = 0.0f32;
    for k in 0..10 {
        score += tooth(padded, offset + k as f32 * spacing);
    }
    score
}

/// A tooth at `pos` takes the strongest of the three rows around it (thick
/// lines, slightly tilted ones), a row a little less the farther it lies from
/// the tooth, so among combs that touch the same lines the one through their
/// middles wins.
#[inline(always)]
fn tooth(padded: &[f32], pos: f32) -> f32 {
    // `pos.round()` for `pos` >= 0 (teeth start at offset 0), without the
    // libm call `round` is on baseline x86-64: the fraction is exact.
    let whole = pos as i64;
    let p = whole + i64::from(pos - whole as f32 >= 0.5);
    // Teeth end at `profile.len() - 1` at most, so `p + 2` is in `padded`.
    let rows = &padded[p as usize..p as usize + 3];
    let mut best = 0.0f32;
    for (q, &row) in (p - 1..).zip(rows) {
        let v = row * (1.0 - 0.25 * (q as f32 - pos).abs());
        if v > best {
            best = v;
        }
    }
    best
}

/// [`comb_score`] of the four combs at `offset`, `offset + STEP`, `+ 2 STEP`
/// and `+ 3 STEP`, one SSE2 lane each, with [`tooth`]'s float operations in
/// its order; all four must lie within the profile.
///
/// ```text
///   lane:      0          1               2                 3
///   pos(k):  offset + k s, offset + STEP + k s, ...   (k = 0..9, s = spacing)
///   rows:    padded[p..p + 3] gathered lane by lane (p = pos rounded)
/// ```
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn comb_scores4(padded: &[f32], offset: f32, spacing: f32) -> [f32; 4] {
    use std::arch::x86_64::*;
    let offsets = _mm_add_ps(
        _mm_set1_ps(offset),
        _mm_setr_ps(0.0, STEP, 2.0 * STEP, 3.0 * STEP),
    );
    let (half, quarter, one) = (_mm_set1_ps(0.5), _mm_set1_ps(0.25), _mm_set1_ps(1.0));
    let abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff));
    let one_i = _mm_set1_epi32(1);
    let mut score = _mm_setzero_ps();
    for k in 0..10 {
        let pos = _mm_add_ps(offsets, _mm_set1_ps(k as f32 * spacing));
        // Truncation is `as` for 0 <= pos < 2^31; a true comparison is -1,
        // so subtracting it adds the rounding's 1.
        let whole = _mm_cvttps_epi32(pos);
        let fraction = _mm_sub_ps(pos, _mm_cvtepi32_ps(whole));
        let p = _mm_sub_epi32(whole, _mm_castps_si128(_mm_cmpge_ps(fraction, half)));
        let mut at = [0i32; 4];
        // SAFETY: `at` is 16 writable bytes; the store is unaligned.
        unsafe { _mm_storeu_si128(at.as_mut_ptr().cast(), p) };
        let mut rows = [[0.0f32; 4]; 3];
        for (lane, &p) in at.iter().enumerate() {
            let three = &padded[p as usize..p as usize + 3];
            for (row, &v) in rows.iter_mut().zip(three) {
                row[lane] = v;
            }
        }
        let mut q = _mm_cvtepi32_ps(_mm_sub_epi32(p, one_i));
        let mut best = _mm_setzero_ps();
        for row in rows {
            // SAFETY: `row` is four floats; the load is unaligned.
            let row = unsafe { _mm_loadu_ps(row.as_ptr()) };
            let distance = _mm_and_ps(_mm_sub_ps(q, pos), abs_mask);
            let v = _mm_mul_ps(row, _mm_sub_ps(one, _mm_mul_ps(quarter, distance)));
            // MAXPS keeps its first operand only when it is greater: `v > best`.
            best = _mm_max_ps(v, best);
            q = _mm_add_ps(q, one);
        }
        score = _mm_add_ps(score, best);
    }
    let mut out = [0.0f32; 4];
    // SAFETY: `out` is 16 writable bytes; the store is unaligned.
    unsafe { _mm_storeu_ps(out.as_mut_ptr(), score) };
    out
}

/// Line strength of each row (`horizontal`) or column of the warp: summed
/// along it, how much darker it is than the darker of the two points
/// [`SIDE_GAP`] away on either side.
///
/// Summed in integers: every term is a whole grey level, and a row's sum stays
/// far below 2^24 (at most 255 per pixel, a few hundred pixels), so the float
/// sum of the first version gave exactly these values. Both directions run
/// along the warp's rows (a column's sums gather row after row), so the loops
/// read memory in order and the compiler vectorises them.
fn line_profile(warped: &GrayImage, horizontal: bool) -> Vec<f32> {
    let side = warped.width() as usize;
    let raw = &warped.as_raw()[..side * side];
    let darker = |before: u8, at: u8, after: u8| u32::from(before.min(after).saturating_sub(at));
    let mut sums = vec![0u32; side];
    if side > 2 * SIDE_GAP {
        let inner = side - 2 * SIDE_GAP;
        let row = |q: usize| &raw[q * side..(q + 1) * side];
        if horizontal {
            for (p, sum) in sums.iter_mut().enumerate().skip(SIDE_GAP).take(inner) {
                let (before, at, after) = (row(p - SIDE_GAP), row(p), row(p + SIDE_GAP));
                *sum = before
                    .iter()
                    .zip(at)
                    .zip(after)
                    .map(|((&b, &a), &c)| darker(b, a, c))
                    .sum();
            }
        } else {
            for t in 0..side {
                let r = row(t);
                let (before, at, after) = (&r[..inner], &r[SIDE_GAP..], &r[2 * SIDE_GAP..]);
                for (((sum, &b), &a), &c) in sums[SIDE_GAP..SIDE_GAP + inner]
                    .iter_mut()
                    .zip(before)
                    .zip(at)
                    .zip(after)
                {
                    *sum += darker(b, a, c);
                }
            }
        }
    }
    sums.into_iter().map(|s| s as f32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::lattice::SIDE;

    /// A warp with ten dark lines from `first`, `spacing` apart, in both
    /// directions, on white paper; from `shadow` on (both directions) the paper
    /// is a grey drop shadow.
    fn page(first: usize, spacing: usize, shadow: usize) -> GrayImage {
        let mut img = GrayImage::from_fn(SIDE as u32, SIDE as u32, |x, y| {
            let shaded = x as usize >= shadow || y as usize >= shadow;
            image::Luma([if shaded { 150 } else { 230 }])
        });
        for k in 0..10 {
            let p = (first + k * spacing) as u32;
            for t in 0..SIDE as u32 {
                for q in p..p + 2 {
                    img.put_pixel(t, q, image::Luma([30]));
                    img.put_pixel(q, t, image::Luma([30]));
                }
            }
        }
        img
    }

    /// The first, plain versions of [`line_profile`] and [`comb_span`]: the
    /// fast ones must give the very same floats.
    fn plain_line_profile(warped: &GrayImage, horizontal: bool) -> Vec<f32> {
        let side = warped.width() as usize;
        let raw = warped.as_raw();
        let at = |p: usize, t: usize| {
            f32::from(if horizontal {
                raw[p * side + t]
            } else {
                raw[t * side + p]
            })
        };
        (0..side)
            .map(|p| {
                if p < SIDE_GAP || p + SIDE_GAP >= side {
                    return 0.0;
                }
                (0..side)
                    .map(|t| {
                        let paper = at(p - SIDE_GAP, t).min(at(p + SIDE_GAP, t));
                        (paper - at(p, t)).max(0.0)
                    })
                    .sum()
            })
            .collect()
    }

    fn plain_comb_span(profile: &[f32]) -> (f32, f32) {
        let tooth = |pos: f32| -> f32 {
            let whole = pos as i64;
            let p = whole + i64::from(pos - whole as f32 >= 0.5);
            (p - 1..=p + 1)
                .filter(|q| (0..profile.len() as i64).contains(q))
                .map(|q| profile[q as usize] * (1.0 - 0.25 * (q as f32 - pos).abs()))
                .fold(0.0, f32::max)
        };
        let mut best = (f32::MIN, 0.0, CELL as f32);
        let mut spacing = *SPACINGS.start() * CELL as f32;
        while spacing <= *SPACINGS.end() * CELL as f32 {
            let span = 9.0 * spacing;
            let mut offset = 0.0;
            while offset + span <= (profile.len() - 1) as f32 {
                let score: f32 = (0..10).map(|k| tooth(offset + k as f32 * spacing)).sum();
                if score > best.0 {
                    best = (score, offset, spacing);
                }
                offset += STEP;
            }
            spacing += STEP;
        }
        let (_, offset, spacing) = best;
        (offset, offset + 9.0 * spacing)
    }

    #[test]
    fn fast_profile_and_comb_give_the_plain_versions_floats() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        let mut warps = vec![page(8, 20, 200), page(MARGIN, CELL, SIDE)];
        for _ in 0..6 {
            // Noise, plus lines at random places, so combs tie and differ.
            let mut img = GrayImage::from_fn(SIDE as u32, SIDE as u32, |_, _| {
                image::Luma([rng.random_range(120..=255)])
            });
            for _ in 0..12 {
                let p = rng.random_range(0..SIDE as u32);
                for t in 0..SIDE as u32 {
                    img.put_pixel(t, p, image::Luma([rng.random_range(0..80)]));
                    img.put_pixel(p / 2, t, image::Luma([rng.random_range(0..80)]));
                }
            }
            warps.push(img);
        }
        for warped in &warps {
            for horizontal in [true, false] {
                let fast = line_profile(warped, horizontal);
                let plain = plain_line_profile(warped, horizontal);
                let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&fast), bits(&plain));
                let (a, b) = (comb_span(&fast), plain_comb_span(&plain));
                assert_eq!(
                    (a.0.to_bits(), a.1.to_bits()),
                    (b.0.to_bits(), b.1.to_bits())
                );
            }
        }
    }

    #[test]
    fn the_comb_finds_the_lines_not_the_shadow_beside_them() {
        // The grid covers 9 x 20 pixels from 8; a shadow from 200 on, about
        // half a cell beyond the last line.
        let warped = page(8, 20, 200);
        for horizontal in [true, false] {
            let (first, last) = comb_span(&line_profile(&warped, horizontal));
            assert!(
                (first - 8.5).abs() <= 1.0 && (last - 188.5).abs() <= 1.0,
                "{first}..{last}"
            );
        }
    }

    #[test]
    fn a_grid_filling_its_outline_keeps_its_span() {
        assert_eq!(SIDE, 9 * CELL + 2 * MARGIN);
        let warped = page(MARGIN, CELL, SIDE);
        let (first, last) = comb_span(&line_profile(&warped, true));
        let (start, end) = (MARGIN as f32 + 0.5, (MARGIN + 9 * CELL) as f32 + 0.5);
        assert!(
            (first - start).abs() <= 1.0 && (last - end).abs() <= 1.0,
            "{first}..{last}"
        );
    }
}
