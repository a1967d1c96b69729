//! Stripes looked for at the picture's own resolution.
//!
//! A standard card has about fifty stripes across it: on a card 130 pixels
//! wide a stripe comes every 2.6 pixels, and the card network's crop (96
//! pixels wide) averages them into a tint. Washed out by over-exposure the
//! tint is nearly paper and the card is named open, while the stripes
//! themselves, faint lines, still show in the picture. Stripes run across a
//! symbol (upright in the upright crop), so each column of a symbol's inside
//! is one stripe or the gap between two: averaged down each column they
//! stand out, while averaged along each row they cancel. Open paper and a
//! solid fill are the same down the columns and along the rows; so the
//! columns' ripple over the rows' ripple says "stripes" without a threshold
//! on ink, whose level over-exposure moves.

use image::{GrayImage, RgbImage};
use snapsolve_vision::Quad;
use snapsolve_vision::morphology::erode;
use snapsolve_vision::warp::warp_quad;

use super::features::{InkedSymbols, inked_symbols, inner_area};

/// The crop is cut at least this wide (the network's crop)...
const LEAST_WIDTH: f32 = 96.0;
/// ...and at most this wide: there a stripe spans 3.2 pixels, and the
/// check mends the same cards as at 256 for about half the time (2.5-4 ms a
/// card; docs/evaluation.md, session 51).
const MOST_WIDTH: f32 = 160.0;
/// Height over width of the crop (the network's crop's).
const CROP_ASPECT: f32 = 150.0 / 96.0;
/// A column or row counts where the symbol's inside holds this many pixels.
const LEAST_RUN: usize = 4;

/// The ripple of a card's symbols' insides, down the columns and along the
/// rows (mean square of each profile about its local mean, in squared ink).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ripple {
    /// Down the columns: stripes.
    pub columns: f32,
    /// Along the rows: noise and stipples only.
    pub rows: f32,
    /// Share of the columns' ripple in their largest tenth: stripes spread
    /// it over every column, one edge (something lying over the card) holds
    /// it in a few.
    pub columns_peak: f32,
}

impl Ripple {
    /// Columns over rows: near 1 for open or solid symbols, well above for
    /// stripes.
    pub fn stripe_ratio(&self) -> f32 {
        self.columns / self.rows.max(1e-3)
    }
}

/// Measures the ripple of the card at `quad` in `image` (portrait order),
/// cut at the picture's own resolution; `None` where no symbol has an inside.
pub fn symbol_ripple(image: &RgbImage, quad: &Quad) -> Option<Ripple> {
    let sides = quad.side_lengths();
    let width = ((sides[0] + sides[2]) / 2.0).clamp(LEAST_WIDTH, MOST_WIDTH);
    let crop = warp_quad(image, quad, width as u32, (width * CROP_ASPECT) as u32)?;
    let scale = width / LEAST_WIDTH;
    let InkedSymbols { ink, symbols, .. } =
        inked_symbols(&inner_area(&crop), (2.0 * scale).round() as u8);
    let insides: Vec<GrayImage> = symbols
        .iter()
        .map(|symbol| erode(symbol, (3.0 * scale).round() as u8))
        .collect();
    let window = (2.0 * scale).round().max(2.0) as usize;
    let (mut columns, mut rows) = (Vec::new(), Vec::new());
    for inside in &insides {
        columns.extend(profile_ripple(&mean_profile(inside, &ink, true), window));
        rows.extend(profile_ripple(&mean_profile(inside, &ink, false), window));
    }
    if columns.is_empty() || rows.is_empty() {
        return None;
    }
    let mut squares: Vec<f32> = columns.iter().map(|r| r * r).collect();
    squares.sort_by(|a, b| b.total_cmp(a));
    let total: f32 = squares.iter().sum();
    let peak: f32 = squares[..squares.len().div_ceil(10)].iter().sum();
    Some(Ripple {
        columns: total / squares.len() as f32,
        rows: rows.iter().map(|r| r * r).sum::<f32>() / rows.len() as f32,
        columns_peak: peak / total.max(1e-6),
    })
}

/// The mean ink of `inside` down each column (`down`) or along each row,
/// over the runs of at least [`LEAST_RUN`] pixels (in order, gaps left out).
fn mean_profile(inside: &GrayImage, ink: &GrayImage, down: bool) -> Vec<f32> {
    let (w, h) = inside.dimensions();
    let (lines, along) = if down { (w, h) } else { (h, w) };
    (0..lines)
        .filter_map(|line| {
            let (mut sum, mut n) = (0.0f32, 0usize);
            for t in 0..along {
                let (x, y) = if down { (line, t) } else { (t, line) };
                if inside.get_pixel(x, y).0[0] > 0 {
                    sum += f32::from(ink.get_pixel(x, y).0[0]);
                    n += 1;
                }
            }
            (n >= LEAST_RUN).then(|| sum / n as f32)
        })
        .collect()
}

/// Each value of `profile` less the mean of its neighbours within `window`
/// (so shading across the card and the symbol's ends drop out).
fn profile_ripple(profile: &[f32], window: usize) -> Vec<f32> {
    if profile.len() <= 2 * window {
        return Vec::new();
    }
    (window..profile.len() - window)
        .map(|i| {
            let around = &profile[i - window..=i + window];
            profile[i] - around.iter().sum::<f32>() / around.len() as f32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;
    use imageproc::drawing::{draw_filled_ellipse_mut, draw_hollow_ellipse_mut};
    use rand::{Rng, SeedableRng};

    /// A white card 120 pixels wide filling its picture, with one oval
    /// outlined in purple and filled by `fill(x)` (column x of the picture),
    /// every pixel then a little noisy (as a camera's).
    fn card(fill: impl Fn(u32) -> Option<Rgb<u8>>) -> (RgbImage, Quad) {
        let (w, h) = (120u32, 188u32);
        let mut image = RgbImage::from_pixel(w, h, Rgb([250, 250, 250]));
        let mut inside = RgbImage::from_pixel(w, h, Rgb([0, 0, 0]));
        draw_filled_ellipse_mut(&mut inside, (60, 94), 38, 18, Rgb([255, 255, 255]));
        for (x, y, p) in image.enumerate_pixels_mut() {
            if inside.get_pixel(x, y).0[0] > 0
                && let Some(ink) = fill(x)
            {
                *p = ink;
            }
        }
        for t in 0..3 {
            draw_hollow_ellipse_mut(&mut image, (60, 94), 38 - t, 18 - t, Rgb([110, 40, 160]));
        }
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for p in image.pixels_mut() {
            let noise: i16 = rng.random_range(-6..=6);
            p.0 = p.0.map(|v| (i16::from(v) + noise).clamp(0, 255) as u8);
        }
        let (w, h) = (w as f32, h as f32);
        let quad = Quad {
            corners: [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]],
        };
        (image, quad)
    }

    fn ripple(fill: impl Fn(u32) -> Option<Rgb<u8>>) -> Option<Ripple> {
        let (image, quad) = card(fill);
        symbol_ripple(&image, &quad)
    }

    fn ratio(fill: impl Fn(u32) -> Option<Rgb<u8>>) -> f32 {
        ripple(fill).map_or(0.0, |r| r.stripe_ratio())
    }

    #[test]
    fn stripes_ripple_down_the_columns_and_open_or_solid_insides_do_not() {
        let faint = Rgb([225, 205, 235]);
        let striped = ratio(|x| (x % 3 == 0).then_some(faint));
        let open = ratio(|_| None);
        let solid = ratio(|_| Some(Rgb([110, 40, 160])));
        assert!(striped > 8.0, "striped {striped}");
        assert!(open < 3.0, "open {open}");
        assert!(solid < 3.0, "solid {solid}");
    }

    #[test]
    fn one_edge_across_a_symbol_holds_its_ripple_in_a_few_columns() {
        let faint = Rgb([225, 205, 235]);
        let striped = ripple(|x| (x % 3 == 0).then_some(faint));
        let edge = ripple(|x| (x < 60).then_some(faint));
        let peak = |r: Option<Ripple>| r.map_or(0.0, |r| r.columns_peak);
        assert!(peak(striped) < 0.5, "striped {:?}", striped);
        assert!(peak(edge) > 0.9, "edge {:?}", edge);
    }
}
