//! The hand-made classifier (seed 000's spirit): measures a card crop and
//! reads each attribute from one or two numbers a person can check.
//!
//! - **paper**: the median colour of the card's inner area (symbols cover less
//!   than half of it), so warm or dim light is divided out;
//! - **ink**: how far a pixel is below the paper in its darkest normalised
//!   channel; pixels above an Otsu level (never below [`MIN_INK`]) are ink;
//! - **number**: ink closed over stripes and stipples, then connected
//!   components at least a third the size of the largest;
//! - **shape**, from the largest symbol filled in: *extent* (area over its
//!   bounding box: diamond ~0.5, squiggle ~0.65, oval ~0.8-0.9, the other
//!   edition's rectangle ~0.95) and *solidity* (area over convex hull: the
//!   squiggle's dents make it ~0.85, every other shape ~0.97+);
//! - **shading**: the mean ink of the symbols' interiors over the outline's
//!   ink (solid ~1, striped or stippled in between, open ~0);
//! - **colour**: the hue of the strongest ink (red ~0°, green ~140°,
//!   purple ~270°, the other edition's navy ~230°).
//!
//! The thresholds were set by looking at the features of crops from the
//! tuning split only (see docs/evaluation.md); each attribute's probabilities
//! come from how far its number is from the nearest threshold, so a card on a
//! boundary says it is unsure.

use image::{GrayImage, Luma, RgbImage};
use imageproc::geometry::{contour_area, convex_hull};
use imageproc::point::Point;
use imageproc::region_labelling::{Connectivity, connected_components};
use snapsolve_vision::contours::outer_contours;
use snapsolve_vision::morphology::{close, erode};
use snapsolve_vision::threshold::otsu_level;

use super::classify::{CardClassifier, CardReading};

/// Ink must be at least this far below the paper (fraction of paper brightness).
pub const MIN_INK: f32 = 0.18;

/// What the features classifier measured on one crop.
#[derive(Clone, Debug, PartialEq)]
pub struct CardFeatures {
    /// Symbols counted.
    pub symbols: usize,
    /// Largest symbol's area over its bounding box.
    pub extent: f32,
    /// Largest symbol's area over its convex hull.
    pub solidity: f32,
    /// Share of the symbols' interiors that is ink.
    pub fill: f32,
    /// Hue of the strongest ink, degrees in `[0, 360)`.
    pub hue: f32,
    /// Saturation of the strongest ink, `0..1`.
    pub saturation: f32,
}

/// The hand-made features classifier.
#[derive(Clone, Copy, Debug, Default)]
pub struct FeaturesClassifier;

impl CardClassifier for FeaturesClassifier {
    fn name(&self) -> &'static str {
        "features"
    }

    fn classify(&self, crops: &[RgbImage]) -> Vec<CardReading> {
        crops
            .iter()
            .map(|crop| match measure(crop) {
                Some(features) => read(&features),
                None => CardReading {
                    attribute_probabilities: [[1.0 / 3.0; 3]; 4],
                    card_probability: None,
                },
            })
            .collect()
    }
}

/// Turns measurements into attribute probabilities.
pub fn read(f: &CardFeatures) -> CardReading {
    let number = match f.symbols {
        1 => [0.96, 0.03, 0.01],
        2 => [0.02, 0.96, 0.02],
        _ => [0.01, 0.03, 0.96],
    };
    // Hue: red wraps around 0; green 80..180; purple/navy 200..330.
    let colour = {
        let h = f.hue;
        let red =
            soft_inside(h.min(360.0 - h), -1.0, 40.0, 15.0).max(soft_inside(h, 330.0, 361.0, 15.0));
        let green = soft_inside(h, 70.0, 190.0, 15.0);
        let purple = soft_inside(h, 190.0, 345.0, 15.0);
        normalise([red, green, purple])
    };
    let shading = {
        let solid = soft_above(f.fill, 0.88, 0.025);
        let open = soft_below(f.fill, 0.05, 0.012);
        let striped = (1.0 - solid) * (1.0 - open);
        normalise([solid, striped, open])
    };
    let shape = {
        let squiggle = soft_below(f.solidity, 0.9, 0.02);
        let diamond = soft_below(f.extent, 0.66, 0.03).max(soft_above(f.extent, 0.93, 0.015));
        let oval = (1.0 - diamond) * (1.0 - squiggle);
        normalise([diamond * (1.0 - squiggle), oval, squiggle])
    };
    // Measurements of symbols cannot tell a card from other paper.
    CardReading {
        attribute_probabilities: [number, colour, shading, shape],
        card_probability: None,
    }
}

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Near 1 above `threshold`, near 0 below, `width` the softness.
fn soft_above(x: f32, threshold: f32, width: f32) -> f32 {
    logistic((x - threshold) / width)
}

fn soft_below(x: f32, threshold: f32, width: f32) -> f32 {
    1.0 - soft_above(x, threshold, width)
}

fn soft_inside(x: f32, low: f32, high: f32, width: f32) -> f32 {
    soft_above(x, low, width) * soft_below(x, high, width)
}

fn normalise(p: [f32; 3]) -> [f32; 3] {
    let p = p.map(|v| v.max(1e-4));
    let sum: f32 = p.iter().sum();
    p.map(|v| v / sum)
}

/// Measures one upright card crop; `None` when no ink is found.
pub fn measure(crop: &RgbImage) -> Option<CardFeatures> {
    let inner = inner_area(crop);
    let InkedSymbols {
        paper,
        ink,
        closed,
        symbols,
    } = inked_symbols(&inner, 2);
    let largest = symbols.first()?;
    let (extent, solidity) = shape_numbers(largest);
    let strong = outline_ink(&ink, &closed);
    let fill = interior_fill(&symbols, &ink, f32::from(strong));
    let (hue, saturation) = ink_hue(&inner, paper, &ink, &closed, strong);
    Some(CardFeatures {
        symbols: symbols.len().min(3),
        extent,
        solidity,
        fill,
        hue,
        saturation,
    })
}

/// A card's ink and symbols, as the features classifier finds them.
pub(super) struct InkedSymbols {
    /// The paper's median colour.
    pub paper: [f32; 3],
    /// How far each pixel is below the paper ([`ink_strength`]).
    pub ink: GrayImage,
    /// The pixels above the ink level, closed over stripes and stipples.
    pub closed: GrayImage,
    /// Filled masks of the symbols, largest first.
    pub symbols: Vec<GrayImage>,
}

/// Finds the ink of `inner` (a crop without its rim) above an Otsu level
/// (never below [`MIN_INK`]), closes it by `close_radius` and takes its
/// symbols.
pub(super) fn inked_symbols(inner: &RgbImage, close_radius: u8) -> InkedSymbols {
    let paper = median_colour(inner);
    let ink = ink_strength(inner, paper);
    let level = (otsu_level(&ink) as f32 / 255.0).max(MIN_INK);
    let cut = (level * 255.0) as u8;
    let closed = close(&binary(&ink, |v| v > cut), close_radius);
    let symbols = symbol_masks(&closed);
    InkedSymbols {
        paper,
        ink,
        closed,
        symbols,
    }
}

/// The crop without a 7% margin (rounded corners, table showing at the edges).
pub(super) fn inner_area(crop: &RgbImage) -> RgbImage {
    let (w, h) = crop.dimensions();
    let (mx, my) = ((w as f32 * 0.07) as u32, (h as f32 * 0.07) as u32);
    image::imageops::crop_imm(crop, mx, my, w - 2 * mx, h - 2 * my).to_image()
}

fn median_colour(image: &RgbImage) -> [f32; 3] {
    std::array::from_fn(|c| {
        let mut values: Vec<u8> = image.pixels().map(|p| p.0[c]).collect();
        let mid = values.len() / 2;
        let (_, m, _) = values.select_nth_unstable(mid);
        f32::from(*m).max(1.0)
    })
}

/// 255 x how far below the paper each pixel is, in its darkest normalised channel.
fn ink_strength(image: &RgbImage, paper: [f32; 3]) -> GrayImage {
    let mut out = GrayImage::new(image.width(), image.height());
    for (o, p) in out.pixels_mut().zip(image.pixels()) {
        let darkest = (0..3)
            .map(|c| f32::from(p.0[c]) / paper[c])
            .fold(f32::MAX, f32::min)
            .min(1.0);
        *o = Luma([((1.0 - darkest) * 255.0) as u8]);
    }
    out
}

fn binary(image: &GrayImage, keep: impl Fn(u8) -> bool) -> GrayImage {
    let mut out = GrayImage::new(image.width(), image.height());
    for (o, p) in out.pixels_mut().zip(image.pixels()) {
        *o = Luma([if keep(p.0[0]) { 255 } else { 0 }]);
    }
    out
}

/// Filled masks of the symbols, largest first.
fn symbol_masks(closed: &GrayImage) -> Vec<GrayImage> {
    let labels = connected_components(closed, Connectivity::Eight, Luma([0u8]));
    let mut sizes = std::collections::HashMap::<u32, usize>::new();
    for p in labels.pixels() {
        if p.0[0] != 0 {
            *sizes.entry(p.0[0]).or_default() += 1;
        }
    }
    let largest = sizes.values().copied().max().unwrap_or(0);
    // Specks and stray marks are far smaller than a symbol.
    let min_size = (largest / 3).max((closed.width() * closed.height()) as usize / 400);
    let mut kept: Vec<(u32, usize)> = sizes.into_iter().filter(|(_, s)| *s >= min_size).collect();
    kept.sort_by_key(|(label, size)| (std::cmp::Reverse(*size), *label));
    kept.into_iter()
        .map(|(label, _)| {
            let mut mask = GrayImage::new(closed.width(), closed.height());
            for (m, l) in mask.pixels_mut().zip(labels.pixels()) {
                if l.0[0] == label {
                    *m = Luma([255]);
                }
            }
            fill_holes(&mask)
        })
        .collect()
}

/// The region inside a symbol's outer border, holes filled.
fn fill_holes(mask: &GrayImage) -> GrayImage {
    let mut filled = GrayImage::new(mask.width(), mask.height());
    for points in outer_contours(mask) {
        if points.len() >= 3 {
            imageproc::drawing::draw_polygon_mut(&mut filled, &points, Luma([255]));
        }
    }
    // Keep the mask's own pixels too (the polygon misses a sliver of the border).
    for (f, m) in filled.pixels_mut().zip(mask.pixels()) {
        f.0[0] = f.0[0].max(m.0[0]);
    }
    filled
}

/// Extent and solidity of a filled symbol.
fn shape_numbers(symbol: &GrayImage) -> (f32, f32) {
    let points: Vec<Point<i32>> = symbol
        .enumerate_pixels()
        .filter(|(_, _, p)| p.0[0] > 0)
        .map(|(x, y, _)| Point::new(x as i32, y as i32))
        .collect();
    let area = points.len() as f32;
    let (x0, y0, x1, y1) = points
        .iter()
        .fold((i32::MAX, i32::MAX, i32::MIN, i32::MIN), |b, p| {
            (b.0.min(p.x), b.1.min(p.y), b.2.max(p.x), b.3.max(p.y))
        });
    let box_area = ((x1 - x0 + 1) * (y1 - y0 + 1)) as f32;
    // Pixel-corner hull, so a pixel-exact rectangle has solidity 1.
    let corners: Vec<Point<i32>> = points
        .iter()
        .flat_map(|p| {
            [
                *p,
                Point::new(p.x + 1, p.y),
                Point::new(p.x, p.y + 1),
                Point::new(p.x + 1, p.y + 1),
            ]
        })
        .collect();
    let hull_area = contour_area(&convex_hull(corners)) as f32;
    (
        area / box_area.max(1.0),
        (area / hull_area.max(1.0)).min(1.0),
    )
}

/// Mean ink strength of the symbols' interiors (eroded, away from the
/// outline) relative to the outline's ink: faint stripes count in proportion.
fn interior_fill(symbols: &[GrayImage], ink: &GrayImage, outline_ink: f32) -> f32 {
    let (mut inside, mut total) = (0usize, 0.0f32);
    for symbol in symbols {
        let interior = erode(symbol, 3);
        for (i, v) in interior.pixels().zip(ink.pixels()) {
            if i.0[0] > 0 {
                inside += 1;
                total += f32::from(v.0[0]);
            }
        }
    }
    if inside == 0 {
        // Symbols too thin to have an inside: only outlines, so open.
        return 0.0;
    }
    (total / inside as f32 / outline_ink.max(1.0)).min(1.0)
}

/// The ink strength that a third of the symbols' pixels reach: the outline's.
fn outline_ink(ink: &GrayImage, symbols: &GrayImage) -> u8 {
    let mut strengths: Vec<u8> = ink
        .pixels()
        .zip(symbols.pixels())
        .filter(|(_, s)| s.0[0] > 0)
        .map(|(i, _)| i.0[0])
        .collect();
    if strengths.is_empty() {
        return 0;
    }
    let cut_index = strengths.len() * 2 / 3;
    *strengths.select_nth_unstable(cut_index).1
}

/// Hue and saturation of the strongest third of the ink inside the symbols.
fn ink_hue(
    image: &RgbImage,
    paper: [f32; 3],
    ink: &GrayImage,
    symbols: &GrayImage,
    cut: u8,
) -> (f32, f32) {
    let mut sum = [0.0f32; 3];
    let mut n = 0.0f32;
    for ((p, i), s) in image.pixels().zip(ink.pixels()).zip(symbols.pixels()) {
        if s.0[0] > 0 && i.0[0] >= cut {
            for c in 0..3 {
                sum[c] += (f32::from(p.0[c]) / paper[c]).min(1.2);
            }
            n += 1.0;
        }
    }
    let [r, g, b] = sum.map(|v| v / n.max(1.0));
    hue_saturation(r, g, b)
}

/// Hue (degrees) of a crop's strongest ink, measured cheaply: the mean colour,
/// over the paper's, of the strongest third of the inner area's pixels that
/// are at least [`MIN_INK`] below the paper. [`measure`]'s hue takes the
/// strongest third inside the symbols it outlines first, which costs about a
/// millisecond a crop; this takes a tenth of that, for checks that look at
/// many cards. `None` where fewer than 20 pixels are ink.
pub fn strongest_ink_hue(crop: &RgbImage) -> Option<f32> {
    strongest_ink_hue_saturation(crop).map(|(hue, _)| hue)
}

/// [`strongest_ink_hue`] and the saturation of the same colour (0..1): how
/// far the hue can be trusted (grey ink has a hue of noise).
pub fn strongest_ink_hue_saturation(crop: &RgbImage) -> Option<(f32, f32)> {
    let inner = inner_area(crop);
    let paper = median_colour(&inner);
    let inks: Vec<([f32; 3], f32)> = inner
        .pixels()
        .map(|p| {
            let relative: [f32; 3] =
                std::array::from_fn(|c| (f32::from(p.0[c]) / paper[c]).min(1.2));
            (
                relative,
                1.0 - relative.iter().fold(f32::MAX, |a, &b| a.min(b)),
            )
        })
        .filter(|&(_, strength)| strength >= MIN_INK)
        .collect();
    if inks.len() < 20 {
        return None;
    }
    let mut strengths: Vec<f32> = inks.iter().map(|&(_, s)| s).collect();
    let cut_index = strengths.len() * 2 / 3;
    let cut = *strengths
        .select_nth_unstable_by(cut_index, f32::total_cmp)
        .1;
    let (mut sum, mut n) = ([0.0f32; 3], 0.0f32);
    for (relative, _) in inks.iter().filter(|&&(_, s)| s >= cut) {
        for c in 0..3 {
            sum[c] += relative[c];
        }
        n += 1.0;
    }
    let [r, g, b] = sum.map(|v| v / n);
    Some(hue_saturation(r, g, b))
}

/// A hue (degrees, `0..360`) as its distance from pure red in `-180..180`,
/// purple's side negative, so that reds either side of 0° sit together.
pub fn hue_from_red(hue: f32) -> f32 {
    (hue + 180.0).rem_euclid(360.0) - 180.0
}

/// HSV hue in degrees and saturation of a colour with channels in `0..~1`.
fn hue_saturation(r: f32, g: f32, b: f32) -> (f32, f32) {
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let delta = max - min;
    if delta <= f32::EPSILON {
        return (0.0, 0.0);
    }
    let hue = if max == r {
        60.0 * ((g - b) / delta).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / delta + 2.0)
    } else {
        60.0 * ((r - g) / delta + 4.0)
    };
    (hue, delta / max.max(f32::EPSILON))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hues_of_the_three_inks() {
        assert!(hue_saturation(0.9, 0.2, 0.2).0 < 5.0);
        assert!((hue_saturation(0.2, 0.6, 0.3).0 - 140.0).abs() < 10.0);
        assert!((hue_saturation(0.4, 0.1, 0.5).0 - 285.0).abs() < 10.0);
    }

    #[test]
    fn hues_from_red_keep_both_sides_of_red_together() {
        assert_eq!(hue_from_red(350.0), -10.0);
        assert_eq!(hue_from_red(10.0), 10.0);
        assert_eq!(hue_from_red(285.0), -75.0);
        assert_eq!(hue_from_red(140.0), 140.0);
    }

    #[test]
    fn a_blank_crop_reads_as_unsure() {
        let blank = RgbImage::from_pixel(96, 150, image::Rgb([240, 240, 240]));
        let reading = &FeaturesClassifier.classify(&[blank])[0];
        assert!(reading.confidence() < 0.05);
    }
}
