//! Finding a sudoku grid in a photo and cutting out its 81 cells.
//!
//! The steps, each in its own module:
//! 1. [`outline`]: seed 002's method on a shrunken copy (blur, adaptive threshold,
//!    dilate, outer contours), but every large convex four-sided contour is a
//!    candidate, not only the largest, and besides its corners each outline also
//!    offers the quadrilateral of its four longest sides (a grid with a printed
//!    drop shadow) and the corners of its cell-sized holes (a shadow on a
//!    curled page, where no four sides are long); each is scored by how well
//!    a 10 x 10 line lattice fits inside it, so a page border or a photo
//!    beside the grid loses.
//! 2. [`lattice`]: after a rough perspective warp, the ten horizontal and ten
//!    vertical lines are located strip by strip and fitted with quadratic curves, so
//!    bent pages, thick, faint or broken lines still give every cell's own corners.
//!    The outer corners reported are the lattice's, refined this way. When the
//!    outline took in more than the grid (a printed drop shadow, a margin),
//!    [`comb`] finds the span the ten lines really cover and the lattice is
//!    fitted again inside it; when the lattice sits a cell off (its first line
//!    on a shadow's edge), [`shift`] moves it over.
//!    Then [`follow`] traces each line strip by strip at any slant, for a page
//!    folded across the grid, whose lines turn at the fold.
//! 3. [`orientation`]: a page shot sideways or upside down is read in all four
//!    quarter turns of its cut cells; the caller keeps the turn its reader trusts.
//! 4. [`cells`]: each cell is resampled from the full-resolution photo through its
//!    own four corners into a small square of ink values (0 = paper, 1 = ink).

pub mod cells;
pub mod comb;
pub mod follow;
pub mod lattice;
pub mod orientation;
pub mod outline;
pub mod overlay;
pub mod sample;
pub mod shift;

use image::{GrayImage, RgbImage};

pub use cells::{CELL_INPUT_SIDE, CellInk, sample_cells};
pub use lattice::{Greys, Lattice};
pub use orientation::turn_cells;

/// A point in photo pixel coordinates.
pub type Point = (f32, f32);

/// Four corners: top-left, top-right, bottom-right, bottom-left.
pub type Quad = [Point; 4];

/// A grid found in a photo.
#[derive(Clone, Debug)]
pub struct FoundGrid {
    /// The outer corners (top-left, top-right, bottom-right, bottom-left), in photo pixels.
    pub corners: Quad,
    /// All 10 x 10 line crossings, in photo pixels.
    pub lattice: Lattice,
    /// Share of the inner line samples that were found (0..1): how grid-like it is.
    pub line_score: f32,
    /// Share of the four outer lines' samples that were found (0..1): low
    /// when the lattice sits a cell off the grid (its eight inner lines may
    /// still all lie on real lines).
    pub outer_line_score: f32,
    /// Share of dark pixels just beside the lines (0..1): near 0 for print on paper.
    pub beside_ink: f32,
}

/// The grey used for finding and reading: the darkest of the three channels.
///
/// Coloured print and ink (red digits, blue ballpoint) stay dark, where plain luma
/// would turn red into a middle grey.
pub fn darkest_channel(image: &RgbImage) -> GrayImage {
    let (width, height) = image.dimensions();
    let raw = image.as_raw();
    let mut data = vec![0u8; raw.len() / 3];
    // Block by block: first the least of every three consecutive bytes (three
    // shifted slices, which the compiler vectorises), then every third of
    // those, which starts at a pixel. (Pixel by pixel, the three-byte stride
    // kept it scalar: 13 instructions a pixel, 4% of a sudoku frame.)
    const BLOCK: usize = 256;
    let mut least = [0u8; 3 * BLOCK];
    for (bytes, out) in raw.chunks(3 * BLOCK).zip(data.chunks_mut(BLOCK)) {
        let n = bytes.len() - 2;
        for (((m, &a), &b), &c) in least[..n]
            .iter_mut()
            .zip(bytes)
            .zip(&bytes[1..])
            .zip(&bytes[2..])
        {
            *m = a.min(b).min(c);
        }
        for (o, &m) in out.iter_mut().zip(least.iter().step_by(3)) {
            *o = m;
        }
    }
    GrayImage::from_raw(width, height, data).unwrap_or_else(|| GrayImage::new(width, height))
}

/// Finds the sudoku grid in a grey photo, or `None` when nothing grid-like is there.
///
/// Candidates are found and weighed on the shrunken copy (see
/// [`outline::shrink_for_outlines`]); only the winner's lattice is fitted again on
/// the full photo, for precise corners.
///
/// Each candidate is weighed by its lattice's line score times its side: an
/// outline that takes in a margin or a neighbouring puzzle puts its lattice
/// between the real lines and loses on score, while a small grid-like box beside
/// the puzzle (a kakuro, a 3 x 3 block) loses on size. (Score times area, the
/// first rule, let a margin-wide outline win; score alone let small boxes win.)
/// Then, among the winner and the smaller outlines around the same place
/// ([`FoundGrid::within`]), the line contrast ([`FoundGrid::line_contrast`])
/// times the side decides: a page outline whose lattice found most inner lines
/// (0.83-0.95) in a thick margin and among large digits has ink beside them
/// (0.16-0.26, the true grid inside it 1.0 and 0.03-0.08), and of two nearly
/// equal outlines of a curled page the one whose lattice reaches into the curl
/// finds lines where there are none. Only around the same place: a
/// neighbouring puzzle without handwriting has cleaner lines than a filled-in
/// grid and must not win on them. (Rendered pages 400-599, grids right: flat
/// 189 → 196, curled 182 → 190, steep 192 → 193, dim 174 → 178.)
///
/// A candidate whose fitted lattice is not grid-like but finds at least 0.4
/// of the lines is followed ([`follow`]) and weighed by its followed lattice:
/// a grid folded across its middle. Only those: followed lattices of grid-like
/// outlines (a filled-in grid's large digits) let page outlines win on
/// rendered flat and steep pages. Whatever wins is followed once more on the
/// full photo.
pub fn find_grid(gray: &GrayImage) -> Option<FoundGrid> {
    let (small, factor) = outline::shrink_for_outlines(gray);
    let quads = outline::candidate_quads_in(&small);
    let fit_all = |greys| -> Vec<FoundGrid> {
        quads
            .iter()
            .filter_map(|quad| lattice::fit_lattice(&small, quad, greys))
            .filter_map(|fitted| {
                if fitted.is_grid_like() {
                    return Some(fitted);
                }
                // A folded grid's kinked lines are missed by the fit; followed,
                // they may show the grid.
                if fitted.line_score < FOLLOW_FROM {
                    return None;
                }
                let followed = followed(&small, fitted, greys);
                followed.is_grid_like().then_some(followed)
            })
            .collect()
    };
    // Stretched greys only where the photo's own show no grid at all (a dim
    // lamp) or only weak ones ([`STRETCH_BELOW`]): the digit network learnt
    // its cells from lattices fitted on the photo's greys, and print cut by
    // stretched ones loses a few blurred 6s
    // to 5 (training photos: 2 printed grids fewer, though their corners
    // come closer); stretched greys for each outline whose own show too few
    // lines let a box beside two filled-in grids win.
    let mut greys = Greys::AsTheyAre;
    let mut fitted = fit_all(greys);
    let by = |weight: fn(&FoundGrid) -> f32| {
        move |a: &&FoundGrid, b: &&FoundGrid| weight(a).total_cmp(&weight(b))
    };
    let weight = |f: &FoundGrid| f.line_score * f.area().sqrt();
    let strongest = fitted.iter().map(|f| f.line_score).fold(0.0f32, f32::max);
    if fitted.is_empty() {
        greys = Greys::Stretched;
        fitted = fit_all(greys);
    } else if strongest < STRETCH_BELOW {
        let stretched = fit_all(Greys::Stretched);
        let heaviest = |grids: &[FoundGrid]| grids.iter().map(weight).fold(0.0f32, f32::max);
        if heaviest(&stretched) > heaviest(&fitted) {
            greys = Greys::Stretched;
            fitted = stretched;
        }
    }
    let first = fitted.iter().max_by(by(weight))?;
    let best = fitted
        .iter()
        .filter(|f| f.within(first))
        .max_by(by(|f| f.line_contrast() * f.area().sqrt()))
        .unwrap_or(first)
        .clone();
    if factor == 1 {
        return Some(followed(gray, best, greys));
    }
    let scaled = best.corners.map(|p| outline::to_photo(p, factor));
    let refined = match lattice::fit_lattice(gray, &scaled, greys) {
        // The full photo shows the same lines, only sharper; a much lower score
        // means the fit slipped, and the shrunken copy's lattice is kept.
        Some(r) if r.line_score >= best.line_score - REFINE_SLACK => r,
        _ => best.scaled(factor),
    };
    Some(followed(gray, refined, greys))
}

/// The mean lengths of an outline's top and bottom sides, and of its left and
/// right ones, in its pixels (corners clockwise from the top left).
pub fn mean_sides(quad: &Quad) -> [f32; 2] {
    let [a, b, c, d] = *quad;
    let side = |p: Point, q: Point| (p.0 - q.0).hypot(p.1 - q.1);
    [
        (side(a, b) + side(d, c)) / 2.0,
        (side(a, d) + side(b, c)) / 2.0,
    ]
}

/// The grid with its lines followed across a fold ([`follow`]), again from
/// each followed lattice (its outline, warped again, shows more of the lines
/// beyond the fold) while its lines grow stronger.
fn followed(gray: &GrayImage, found: FoundGrid, greys: Greys) -> FoundGrid {
    let mut last: Option<follow::Followed> = None;
    for _ in 0..MAX_FOLLOWS {
        let from = last.as_ref().map_or(&found.lattice, |f| &f.lattice);
        let Some(next) = follow::follow_grid(gray, from, greys) else {
            break;
        };
        if last.as_ref().is_some_and(|l| next.strength <= l.strength) {
            break;
        }
        last = Some(next);
    }
    last.map_or(found, follow::Followed::into_grid)
}

/// An outline whose lattice is not grid-like is followed when its fit finds
/// at least this share of the lines (fewer: no grid there).
const FOLLOW_FROM: f32 = 0.4;

/// How many times the lines are followed again from a followed lattice.
const MAX_FOLLOWS: usize = 3;

/// At most this share of the pixels beside the lines may be dark. (Training
/// photos: sudoku grids up to 0.26, lattices forced onto SET table photos 0.31 and up.)
const MAX_BESIDE_INK: f32 = 0.3;
/// The line score must exceed the ink beside the lines by this much. (Training
/// photos: sudoku grids 0.42 and up, SET table photos at most 0.34.)
const MIN_LINE_CONTRAST: f32 = 0.38;

/// A sudoku grid is square: its outline's narrower mean side is at least
/// this share of its wider one, as seen 60 degrees off straight down. (A
/// page's second puzzle cut by the photo's edge, four columns wide, was fitted
/// as a whole grid of tall thin cells: validation photo mixed/image96 under a
/// cold cast, whose own grid's faint inner lines then fell short.)
const MIN_SQUARENESS: f32 = 0.5;

/// Where no lattice on the photo's own greys finds this share of its lines,
/// the stretched greys are tried too, and win where their heaviest grid
/// outweighs the own greys' (line score times side): a dark photo's thin
/// inner lines step too little from the paper, and a wrong outline may
/// score higher than the grid's own (validation mixed/image204 under
/// `--distort dark`: the own outline 0.43, a trapezoid over six of its rows
/// 0.54). Training photos under dark, grainy and tiny: 7 grids more, none
/// fewer; rendered pages 400-499 the same grids (docs/evaluation.md,
/// session 56).
const STRETCH_BELOW: f32 = 0.7;

/// How much lower the line score of the full-resolution refit may be.
const REFINE_SLACK: f32 = 0.1;

/// The least area, as a share of the outline it lies in, of an outline
/// [`FoundGrid::within`] it (a 3 x 3 block of the grid is a ninth).
const WITHIN_AREA_SHARE: f32 = 0.25;

impl FoundGrid {
    /// Whether the lattice looks like printed grid lines on paper: enough lines
    /// found, clear paper beside them, and about square.
    pub fn is_grid_like(&self) -> bool {
        self.squareness() >= MIN_SQUARENESS
            && self.line_score >= lattice::MIN_LINE_SCORE
            && self.beside_ink <= MAX_BESIDE_INK
            && self.line_score - self.beside_ink >= MIN_LINE_CONTRAST
    }

    /// The narrower mean of two opposite sides over the wider.
    fn squareness(&self) -> f32 {
        let [across, down] = mean_sides(&self.corners);
        across.min(down) / across.max(down).max(f32::EPSILON)
    }

    /// The weaker of the inner and the outer lines' share of samples found,
    /// less the ink beside the lines: of outlines around one place, the
    /// lattice on the grid's own lines. (Inner lines alone cannot tell a
    /// lattice a row off the grid, whose first line lies on blank paper and
    /// whose eight inner lines all lie on real lines: a curled held-out photo
    /// was read a row off with them.)
    fn line_contrast(&self) -> f32 {
        self.line_score.min(self.outer_line_score) - self.beside_ink
    }

    /// Whether this lattice is no larger than `outer`'s, at least a quarter
    /// of it, and centred inside it (its corners may stick out a little where
    /// both are fitted): another outline of the same grid, or the grid inside
    /// a page's outline. (Itself included.)
    fn within(&self, outer: &FoundGrid) -> bool {
        let outline = crate::quad::Quad {
            corners: outer.corners.map(|(x, y)| [x, y]),
        };
        let own = crate::quad::Quad {
            corners: self.corners.map(|(x, y)| [x, y]),
        };
        (WITHIN_AREA_SHARE * outer.area()..=outer.area()).contains(&self.area())
            && outline.contains(own.centre())
    }

    /// The grid found in a copy shrunken by `factor`, in the photo's pixels.
    fn scaled(&self, factor: u32) -> FoundGrid {
        let mut lattice = self.lattice.clone();
        for row in lattice.points.iter_mut() {
            for p in row.iter_mut() {
                *p = outline::to_photo(*p, factor);
            }
        }
        FoundGrid {
            corners: lattice.corners(),
            lattice,
            line_score: self.line_score,
            outer_line_score: self.outer_line_score,
            beside_ink: self.beside_ink,
        }
    }

    /// Area of the outer quadrilateral, in square pixels.
    pub fn area(&self) -> f32 {
        quad_area(&self.corners)
    }
}

/// Area of a quadrilateral (shoelace formula; corners in order).
pub fn quad_area(q: &Quad) -> f32 {
    let mut twice = 0.0;
    for i in 0..4 {
        let (x0, y0) = q[i];
        let (x1, y1) = q[(i + 1) % 4];
        twice += x0 * y1 - x1 * y0;
    }
    twice.abs() / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use imageproc::geometric_transformations::{Border, Interpolation, Projection, warp};

    #[test]
    fn a_lattice_of_tall_thin_cells_is_no_grid_however_clear_its_lines() {
        // A page's second puzzle cut by the photo's edge, four of its columns
        // in the picture, fitted as nine: every line found, clean paper.
        let found = |width: f32| FoundGrid {
            corners: [(0.0, 0.0), (width, 0.0), (width, 400.0), (0.0, 400.0)],
            lattice: Lattice {
                points: [[(0.0, 0.0); 10]; 10],
            },
            line_score: 0.9,
            outer_line_score: 1.0,
            beside_ink: 0.02,
        };
        assert_eq!(mean_sides(&found(180.0).corners), [180.0, 400.0]);
        assert!(!found(180.0).is_grid_like(), "0.45 as wide as tall");
        assert!(found(220.0).is_grid_like(), "0.55: a grid seen steeply");
        assert!(found(400.0).is_grid_like());
    }

    /// A white page with a 9 x 9 grid (thick box lines) drawn flat, then put in
    /// perspective; returns the photo and where its outer corners went.
    fn tilted_grid() -> (GrayImage, Quad) {
        tilted_grid_in(235, 30, 90)
    }

    /// [`tilted_grid`] with its paper, line and table greys.
    fn tilted_grid_in(paper: u8, line: u8, table: u8) -> (GrayImage, Quad) {
        let mut flat = GrayImage::from_pixel(400, 400, image::Luma([paper]));
        for k in 0..10u32 {
            let pos = 20 + k * 40;
            let thick = if k % 3 == 0 { 2 } else { 0 };
            for t in pos - thick..=pos + thick {
                for s in 20..=380 {
                    flat.put_pixel(s, t, image::Luma([line]));
                    flat.put_pixel(t, s, image::Luma([line]));
                }
            }
        }
        let from = [(20.0, 20.0), (380.0, 20.0), (380.0, 380.0), (20.0, 380.0)];
        let to = [(70.0, 40.0), (350.0, 60.0), (370.0, 330.0), (40.0, 350.0)];
        let projection = Projection::from_control_points(from, to).expect("a valid projection");
        let photo = warp(
            &flat,
            projection,
            Interpolation::Bilinear,
            Border::Constant(image::Luma([table])),
        );
        (photo, to)
    }

    #[test]
    fn finds_a_tilted_grid_and_its_corners() {
        let (photo, truth) = tilted_grid();
        let found = find_grid(&photo).expect("a grid");
        for (got, want) in found.corners.iter().zip(truth) {
            let error = (got.0 - want.0).hypot(got.1 - want.1);
            assert!(error < 3.0, "corner {got:?} is {error:.1} px from {want:?}");
        }
        assert!(found.line_score > 0.9, "score {}", found.line_score);
    }

    #[test]
    fn a_grid_under_a_dim_lamp_is_found_in_stretched_greys() {
        // Lines 5 levels under the paper: less than the threshold's 6.
        let (photo, truth) = tilted_grid_in(40, 35, 10);
        let small = outline::shrink_for_outlines(&photo).0;
        let as_they_are = outline::candidate_quads_in(&small)
            .iter()
            .filter_map(|q| lattice::fit_lattice(&small, q, Greys::AsTheyAre))
            .any(|f| f.is_grid_like());
        assert!(!as_they_are, "the plain greys should show no grid here");
        let found = find_grid(&photo).expect("a grid in stretched greys");
        for (got, want) in found.corners.iter().zip(truth) {
            let error = (got.0 - want.0).hypot(got.1 - want.1);
            assert!(error < 3.0, "corner {got:?} is {error:.1} px from {want:?}");
        }
    }

    #[test]
    fn darkest_channel_takes_each_pixels_least_channel() {
        for (w, h) in [(1, 1), (3, 2), (97, 61), (300, 7)] {
            let image = RgbImage::from_fn(w, h, |x, y| {
                image::Rgb([
                    (x * 37 + y) as u8,
                    (x * y * 13) as u8,
                    (y * 91 + x * 5) as u8,
                ])
            });
            let gray = darkest_channel(&image);
            assert_eq!(gray.dimensions(), (w, h));
            for (p, q) in image.pixels().zip(gray.pixels()) {
                assert_eq!(q.0[0], p.0[0].min(p.0[1]).min(p.0[2]));
            }
        }
    }

    #[test]
    fn a_blank_page_has_no_grid() {
        let blank = GrayImage::from_pixel(300, 200, image::Luma([200]));
        assert!(find_grid(&blank).is_none());
    }
}
