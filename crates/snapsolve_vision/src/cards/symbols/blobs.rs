//! The ink blobs shaped like a symbol, and their grouping into cards.

use image::{GrayImage, RgbImage};
use imageproc::geometry::contour_area;
use imageproc::point::Point;

use super::{MIDDLE, Point2, across, dot, sub};
use crate::contours::outer_contours_above;

/// A symbol's length over its thickness (an oval 2.1, the second edition's
/// symbols 2.3; foreshortening changes both ways).
const ELONGATION: (f32, f32) = (1.4, 3.5);
/// Shortest symbol, in working pixels (a card about 12 pixels wide).
const MIN_SYMBOL_LENGTH: f32 = 8.0;
/// Longest symbol, as a share of the picture's longer side: a card filling
/// the frame holds symbols up to 0.43 of it (a portrait or square frame; a
/// third in a landscape one). 0.2 left a close-up card's symbols out, and the
/// card unfound where its paper met something as pale; 0.3 and then 0.45 found
/// more close-ups with no false card more on clutter or the card-free photos
/// (docs/evaluation.md, session 20).
const MAX_SYMBOL_SHARE: f32 = 0.45;
/// Share of its bounding box a symbol's outline fills (a diamond 0.5).
const MIN_SYMBOL_FILL: f32 = 0.4;
/// SET inks are red, green and purple: the mean colour along a symbol's
/// outline spreads its channels by at least this many levels (black print,
/// pencil and grey pen do not).
const MIN_CHROMA: f32 = 15.0;
/// A washed-out ink (a faded purple under cold light) spreads them less:
/// greyer blobs down to this spread are symbols where two or three are
/// stacked as on a card ([`stacks`]); a lone one is too like print.
/// (Photographed-cards tables 462 and 674: purple symbols of 6-8 and 12-15.)
const MIN_STACK_CHROMA: f32 = 6.0;
/// Symbols of one card: lengths within this ratio, axes within this angle
/// (radians), centres apart along the card by this range of symbol lengths
/// (the standard deck 0.64, the second edition 0.57, give or take a print)
/// and across it by at most this share of a symbol's length.
const MATE_LENGTH_RATIO: f32 = 1.3;
const MATE_ANGLE: f32 = 0.2;
const MATE_PITCH: (f32, f32) = (0.3, 0.85);
const MATE_ACROSS: f32 = 0.2;

/// One symbol-shaped blob of ink.
#[derive(Clone, Copy, Debug)]
pub(super) struct Symbol {
    pub centre: Point2,
    /// Unit vector along its length (across the card).
    pub axis: Point2,
    /// Half its extent along `axis` and across it.
    pub half_length: f32,
    pub half_thickness: f32,
}

impl Symbol {
    /// Whether either symbol's middle lies within the other's extent: the
    /// same blob of ink, cut at another level.
    pub(super) fn overlaps(&self, other: &Symbol) -> bool {
        self.covers(other.centre) || other.covers(self.centre)
    }

    /// Whether the symbol overlaps any of `others` ([`Symbol::overlaps`]).
    pub(super) fn overlaps_any(&self, others: &[Symbol]) -> bool {
        others.iter().any(|other| other.overlaps(self))
    }

    /// Whether paper lies all round the symbol (`above_paper`: whiteness
    /// over the local paper, centred on [`MIDDLE`]): on a ring
    /// [`RING_SCALE`] times its extent (plus [`RING_MARGIN`] pixels) out
    /// from its middle, at most [`MOST_OFF_PAPER`] of the points darker
    /// than the paper by half an ink's `depth`, points within one of the
    /// `others` left out (a card's other symbols lie beside it). A SET
    /// symbol is printed on its card; a piece of a checked cloth's coloured
    /// square, cut to a symbol's shape by what lies on the cloth, has the
    /// cloth's other dark squares about it. (A leaf of a flowered cloth
    /// lying on white petals passes: busy-surface table 418 reads one as a
    /// card beside twelve real ones; the card network must doubt it.)
    pub(super) fn on_paper(&self, above_paper: &GrayImage, depth: u8, others: &[Symbol]) -> bool {
        let (width, height) = (above_paper.width() as f32, above_paper.height() as f32);
        let side = across(self.axis);
        let (a, b) = (
            RING_SCALE * self.half_length + RING_MARGIN,
            RING_SCALE * self.half_thickness + RING_MARGIN,
        );
        let dark = (0..RING_POINTS)
            .filter(|&k| {
                // Half the points beyond one end, half beyond the other.
                let half = RING_POINTS / 2;
                let quarter = std::f32::consts::FRAC_PI_4;
                let angle = -quarter + 2.0 * quarter * (k % half) as f32 / (half - 1) as f32;
                let angle = if k < half {
                    angle
                } else {
                    angle + std::f32::consts::PI
                };
                let (s, c) = angle.sin_cos();
                let p = [
                    self.centre[0] + a * c * self.axis[0] + b * s * side[0],
                    self.centre[1] + a * c * self.axis[1] + b * s * side[1],
                ];
                let inside = (0.0..width).contains(&p[0]) && (0.0..height).contains(&p[1]);
                inside
                    && !others.iter().any(|o| o.covers(p))
                    && above_paper.get_pixel(p[0] as u32, p[1] as u32)[0] < MIDDLE - depth / 2
            })
            .count();
        dark as f32 <= MOST_OFF_PAPER * RING_POINTS as f32
    }

    /// Whether `p` lies within the symbol's extent (its box along its axes).
    fn covers(&self, p: Point2) -> bool {
        self.covers_within(p, 0.0)
    }

    /// Whether `p` lies within the symbol's box grown by `margin` pixels.
    pub(super) fn covers_within(&self, p: Point2, margin: f32) -> bool {
        let d = sub(p, self.centre);
        dot(d, self.axis).abs() <= self.half_length + margin
            && dot(d, across(self.axis)).abs() <= self.half_thickness + margin
    }
}

/// The ring [`Symbol::on_paper`] reads: its size over the symbol's, its
/// margin in pixels, its points, and the share of them that may be dark.
const RING_SCALE: f32 = 1.2;
const RING_MARGIN: f32 = 2.0;
const RING_POINTS: usize = 24;
const MOST_OFF_PAPER: f32 = 0.2;

/// The ink blobs shaped like a symbol, ink being `depth` levels of
/// whiteness below the local mean or more.
pub(super) fn symbols(image: &RgbImage, above_mean: &GrayImage, depth: u8) -> Vec<Symbol> {
    shaped_blobs(image, above_mean, depth).coloured
}

/// The blobs shaped like a symbol, parted by the colour of their outline.
pub(super) struct ShapedBlobs {
    /// In a SET ink's colour ([`MIN_CHROMA`]): symbols.
    pub coloured: Vec<Symbol>,
    /// Greyer, but not grey ([`MIN_STACK_CHROMA`]): symbols only where two
    /// or three lie stacked as on a card (see [`stacks`]).
    pub greyish: Vec<Symbol>,
}

/// [`symbols`], and the greyish blobs shaped like them.
pub(super) fn shaped_blobs(image: &RgbImage, above_mean: &GrayImage, depth: u8) -> ShapedBlobs {
    let inverted = above_mean.as_raw().iter().map(|&v| 255 - v).collect();
    let ink = GrayImage::from_raw(above_mean.width(), above_mean.height(), inverted)
        .unwrap_or_else(|| unreachable!("one byte a pixel"));
    let (width, height) = (ink.width() as i32, ink.height() as i32);
    let longest = MAX_SYMBOL_SHARE * width.max(height) as f32;
    let mut blobs = ShapedBlobs {
        coloured: Vec::new(),
        greyish: Vec::new(),
    };
    for points in outer_contours_above(&ink, 255 - MIDDLE + depth) {
        // Not cut by the picture's edge.
        let inside = |p: &Point<i32>| p.x > 0 && p.y > 0 && p.x < width - 1 && p.y < height - 1;
        if points.len() < 8 || !points.iter().all(inside) {
            continue;
        }
        let symbol = measure(&points);
        let length = 2.0 * symbol.half_length;
        let elongation = symbol.half_length / symbol.half_thickness.max(0.5);
        let fill = contour_area(&points) as f32
            / (4.0 * symbol.half_length * symbol.half_thickness).max(1.0);
        let shaped = (MIN_SYMBOL_LENGTH..=longest).contains(&length)
            && (ELONGATION.0..=ELONGATION.1).contains(&elongation)
            && fill >= MIN_SYMBOL_FILL;
        if !shaped {
            continue;
        }
        let chroma = chroma(image, &points);
        if chroma >= MIN_CHROMA {
            blobs.coloured.push(symbol);
        } else if chroma >= MIN_STACK_CHROMA {
            blobs.greyish.push(symbol);
        }
    }
    blobs
}

/// The spread of the channels of the mean colour along an outline.
fn chroma(image: &RgbImage, points: &[Point<i32>]) -> f32 {
    let mut sum = [0.0f32; 3];
    for p in points {
        let pixel = image.get_pixel(p.x as u32, p.y as u32).0;
        for (s, v) in sum.iter_mut().zip(pixel) {
            *s += f32::from(v);
        }
    }
    let (low, high) = sum
        .iter()
        .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
    (high - low) / points.len() as f32
}

/// A blob's centre and axis from the second moments of its outline, and its
/// extent along and across the axis.
fn measure(points: &[Point<i32>]) -> Symbol {
    let n = points.len() as f32;
    let mean = |f: fn(&Point<i32>) -> f32| points.iter().map(f).sum::<f32>() / n;
    let centre = [mean(|p| p.x as f32), mean(|p| p.y as f32)];
    let (mut xx, mut xy, mut yy) = (0.0f32, 0.0f32, 0.0f32);
    for p in points {
        let (dx, dy) = (p.x as f32 - centre[0], p.y as f32 - centre[1]);
        (xx, xy, yy) = (xx + dx * dx, xy + dx * dy, yy + dy * dy);
    }
    let angle = 0.5 * (2.0 * xy).atan2(xx - yy);
    let axis = [angle.cos(), angle.sin()];
    let extent = |direction: Point2| {
        points
            .iter()
            .map(|p| {
                ((p.x as f32 - centre[0]) * direction[0] + (p.y as f32 - centre[1]) * direction[1])
                    .abs()
            })
            .fold(0.0f32, f32::max)
    };
    Symbol {
        centre,
        axis,
        half_length: extent(axis) + 0.5,
        half_thickness: extent(across(axis)) + 0.5,
    }
}

/// Whether two symbols can lie on one card: alike, side by side along the card.
fn mates(a: &Symbol, b: &Symbol) -> bool {
    let ratio = a.half_length.max(b.half_length) / a.half_length.min(b.half_length);
    let parallel = dot(a.axis, b.axis).abs() >= MATE_ANGLE.cos();
    let length = 2.0 * a.half_length;
    let offset = sub(b.centre, a.centre);
    let along = dot(offset, across(a.axis)).abs() / length;
    let aside = dot(offset, a.axis).abs() / length;
    ratio <= MATE_LENGTH_RATIO
        && parallel
        && (MATE_PITCH.0..=MATE_PITCH.1).contains(&along)
        && aside <= MATE_ACROSS
}

/// The symbols of each card: groups of mates of one to three symbols (a
/// longer chain is something else: print, a pattern).
pub(super) fn groups(symbols: &[Symbol]) -> Vec<Vec<Symbol>> {
    let mut parent: Vec<usize> = (0..symbols.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..symbols.len() {
        for j in i + 1..symbols.len() {
            if mates(&symbols[i], &symbols[j]) {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                parent[a] = b;
            }
        }
    }
    let mut by_root: Vec<Vec<Symbol>> = vec![Vec::new(); symbols.len()];
    for (i, symbol) in symbols.iter().enumerate() {
        let r = root(&mut parent, i);
        by_root[r].push(*symbol);
    }
    by_root
        .into_iter()
        .filter(|group| (1..=3).contains(&group.len()))
        .collect()
}

/// The groups of two or three mates among `symbols` ([`groups`] without
/// the lone ones).
pub(super) fn stacks(symbols: &[Symbol]) -> Vec<Vec<Symbol>> {
    let mut stacks = groups(symbols);
    stacks.retain(|group| group.len() >= 2);
    stacks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{above_local_mean, local_mean_radius};
    use crate::threshold::balanced_whiteness_with_histogram;
    use image::Rgb;
    use imageproc::drawing::draw_filled_ellipse_mut;

    /// Columns of ovals on white paper: (centre x, how many, ink).
    fn page(columns: &[(i32, i32, [u8; 3])]) -> RgbImage {
        let mut page = RgbImage::from_pixel(400, 300, Rgb([240, 240, 236]));
        for &(x, count, ink) in columns {
            for k in 0..count {
                draw_filled_ellipse_mut(&mut page, (x, 60 + 34 * k), 26, 12, Rgb(ink));
            }
        }
        page
    }

    fn groups_on(image: &RgbImage) -> Vec<usize> {
        let (white, _) = balanced_whiteness_with_histogram(image);
        let found = symbols(
            image,
            &above_local_mean(&white, local_mean_radius(&white)),
            super::super::INK_DEPTH,
        );
        groups(&found).iter().map(Vec::len).collect()
    }

    #[test]
    fn stacked_coloured_symbols_group_into_a_card_but_a_longer_chain_does_not() {
        let three = groups_on(&page(&[(100, 3, [30, 140, 60])]));
        assert_eq!(three, vec![3]);
        let four = groups_on(&page(&[(100, 4, [30, 140, 60])]));
        assert_eq!(four, Vec::<usize>::new());
    }

    #[test]
    fn grey_print_is_no_symbol() {
        let grey = groups_on(&page(&[(100, 2, [50, 50, 50]), (250, 1, [90, 90, 90])]));
        assert_eq!(grey, Vec::<usize>::new());
        let coloured = groups_on(&page(&[(100, 2, [110, 40, 150]), (250, 1, [220, 30, 40])]));
        assert_eq!(coloured.len(), 2, "{coloured:?}");
    }
}
