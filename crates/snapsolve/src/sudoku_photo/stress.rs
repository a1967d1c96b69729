//! Sudoku pages rendered under named hard conditions (a page that curls or
//! folds, a steep angle, dim light) and read by the whole photo path, so that
//! each condition has its own figure and its own floor in the tests.
//!
//! The digits are drawn with the DejaVu fonts (embedded by the `dejavu`
//! crate), none of which the digit network trained on: even pages are printed
//! puzzles, odd pages the same kind of puzzle filled in by "hand" (DejaVu's
//! oblique and extra-light faces), so a figure is about finding and cutting
//! the grid under the condition, not about fonts the network knows.

use ab_glyph::FontArc;
use image::{Rgb, RgbImage};
use imageproc::drawing::draw_hollow_polygon_mut;
use imageproc::point::Point;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand_pcg::Pcg64Mcg;
use snapsolve_sudoku::generate::{random_puzzle, random_solution};
use snapsolve_synth::sudoku::{DigitFonts, PhotoStyle, SudokuPhoto, SudokuSpec, render_sudoku};

use super::eval::{Confusion, corner_error_cells};
use super::{DigitReader, PhotoAnswer, ReaderError, solve_photo};

/// A named hard condition for sudoku photos.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageCondition {
    /// A phone held over a flat page: small tilt and perspective.
    Flat,
    /// One side of the page curls or folds away from the camera (a book's
    /// spine, a folded newspaper): the grid lines come out bowed or kinked.
    CurledPage,
    /// A sheet folded in half and opened again: beyond the fold the grid
    /// lines turn by up to 20 degrees.
    FoldedPage,
    /// Tilted up to 15 degrees with strong perspective.
    Steep,
    /// Under a lamp at night: exposure cut to 30-60%, more sensor noise.
    Dim,
}

impl PageCondition {
    /// Every condition, in the order they are reported.
    pub const ALL: [PageCondition; 5] = [
        PageCondition::Flat,
        PageCondition::CurledPage,
        PageCondition::FoldedPage,
        PageCondition::Steep,
        PageCondition::Dim,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            PageCondition::Flat => "flat",
            PageCondition::CurledPage => "curled-page",
            PageCondition::FoldedPage => "folded-page",
            PageCondition::Steep => "steep",
            PageCondition::Dim => "dim",
        }
    }

    /// The condition called `name`.
    pub fn by_name(name: &str) -> Option<PageCondition> {
        PageCondition::ALL.into_iter().find(|c| c.name() == name)
    }

    fn style(self) -> PhotoStyle {
        match self {
            PageCondition::Flat => PhotoStyle::handheld(),
            PageCondition::CurledPage => PhotoStyle::curled_page(),
            PageCondition::FoldedPage => PhotoStyle::folded_page(),
            PageCondition::Steep => PhotoStyle {
                dim_share: 0.0,
                ..PhotoStyle::training()
            },
            PageCondition::Dim => PhotoStyle {
                dim_share: 1.0,
                ..PhotoStyle::handheld()
            },
        }
    }

    /// Seeds differ per condition (flat pages keep the seeds the first
    /// rendered tests used).
    fn seed_offset(self) -> u64 {
        match self {
            PageCondition::Flat => 0,
            PageCondition::CurledPage => 1_000_000,
            PageCondition::Steep => 2_000_000,
            PageCondition::Dim => 3_000_000,
            PageCondition::FoldedPage => 4_000_000,
        }
    }
}

/// The DejaVu faces the stress pages are drawn with.
pub fn stress_fonts() -> Result<DigitFonts, String> {
    let font = |bytes: &'static [u8]| {
        FontArc::try_from_slice(bytes).map_err(|e| format!("an embedded DejaVu font: {e}"))
    };
    Ok(DigitFonts {
        printed: vec![
            font(dejavu::sans::regular())?,
            font(dejavu::sans::bold())?,
            font(dejavu::sans_condensed::regular())?,
        ],
        handwriting: vec![
            font(dejavu::sans::oblique())?,
            font(dejavu::sans::extra_light())?,
        ],
        written: Default::default(),
    })
}

/// One rendered page and what it should read as.
pub struct StressPage {
    /// The photo and its truth (corners, the digit seen in each cell).
    pub photo: SudokuPhoto,
    /// The puzzle's solution.
    pub solution: [u8; 81],
}

/// Page `index` of `condition`: a printed puzzle when `index` is even, the
/// puzzle filled in by hand when odd.
pub fn render_stress_page(condition: PageCondition, index: u64, fonts: &DigitFonts) -> StressPage {
    let seed = condition.seed_offset() + index;
    let mut grids = Pcg64Mcg::seed_from_u64(seed);
    let solution = random_solution(&mut grids);
    let puzzle = random_puzzle(&solution, &mut grids);
    let mut spec = SudokuSpec {
        printed: *puzzle.cells(),
        handwritten: [0; 81],
    };
    if index % 2 == 1 {
        spec.handwritten = *solution.cells();
    }
    let mut rng = StdRng::seed_from_u64(1000 + seed);
    let photo = render_sudoku(&spec, fonts, condition.style(), (800, 600), &mut rng);
    StressPage {
        photo,
        solution: *solution.cells(),
    }
}

/// How one condition's pages were read.
#[derive(Clone, Debug, Default)]
pub struct StressScore {
    /// Pages rendered.
    pub pages: usize,
    /// Grids found with every corner within half a cell of the truth.
    pub found: usize,
    /// Cells read right over all pages (81 a page; none on a page without a grid).
    pub cells_right: usize,
    /// Pages whose 81 cells were all read right.
    pub grids_right: usize,
    /// Printed puzzles whose solution came out right.
    pub solved: usize,
    /// Printed puzzles among the pages.
    pub puzzles: usize,
    /// Cells by truth and reading, over the pages whose grid was read.
    pub confusion: Confusion,
}

impl StressScore {
    /// Share of all cells read right.
    pub fn cell_accuracy(&self) -> f64 {
        self.cells_right as f64 / (81 * self.pages).max(1) as f64
    }
}

/// Reads the pages `indices` of `condition` drawn with `fonts` (see
/// [`stress_fonts`]), calling `look` with each page and its answer (to draw
/// or list them).
pub fn run_page_condition(
    condition: PageCondition,
    indices: std::ops::Range<u64>,
    fonts: &DigitFonts,
    reader: &DigitReader,
    mut look: impl FnMut(u64, &StressPage, &PhotoAnswer),
) -> Result<StressScore, ReaderError> {
    let mut score = StressScore::default();
    for index in indices {
        let page = render_stress_page(condition, index, fonts);
        let answer = solve_photo(&page.photo.image, reader)?;
        score.pages += 1;
        let truth = page.photo.corners.map(|[x, y]| (x, y));
        if answer
            .corners
            .is_some_and(|found| corner_error_cells(&found, &truth) < 0.5)
        {
            score.found += 1;
        }
        if let Some(digits) = &answer.digits {
            let right = digits.iter().zip(&page.photo.digits);
            let right = right.filter(|(a, b)| a == b).count();
            score.cells_right += right;
            score.grids_right += usize::from(right == 81);
            score.confusion.add(&page.photo.digits, digits);
        }
        if index % 2 == 0 {
            score.puzzles += 1;
            score.solved += usize::from(answer.solution == Some(page.solution));
        }
        look(index, &page, &answer);
    }
    Ok(score)
}

/// The photo with the true grid outlined in magenta, the lattice read drawn
/// as crosses and every cell read wrong given its reading in red.
pub fn draw_page_reading(page: &StressPage, answer: &PhotoAnswer) -> RgbImage {
    let mut out = page.photo.image.clone();
    let truth: Vec<Point<f32>> = page
        .photo
        .corners
        .iter()
        .map(|p| Point::new(p[0], p[1]))
        .collect();
    draw_hollow_polygon_mut(&mut out, &truth, Rgb([255, 0, 255]));
    let (Some(lattice), Some(digits)) = (&answer.lattice, &answer.digits) else {
        return out;
    };
    for &(x, y) in lattice.points.iter().flatten() {
        imageproc::drawing::draw_cross_mut(&mut out, Rgb([0, 160, 255]), x as i32, y as i32);
    }
    let mut wrong = [0u8; 81];
    for (i, w) in wrong.iter_mut().enumerate() {
        if digits[i] != page.photo.digits[i] {
            // (A digit read as empty draws nothing: the cell stays as photographed.)
            *w = digits[i];
        }
    }
    snapsolve_vision::grid::overlay::write_digits(&mut out, lattice, &wrong, Rgb([220, 0, 0]));
    out
}
