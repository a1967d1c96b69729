//! Reading a sudoku from a photo: the grid found by `snapsolve_vision`, its 81
//! cells read by the digit network of `snapsolve_nn`, then checked and solved by
//! the sudoku rules.

pub mod blank;
pub mod eval;
pub mod handwriting;
pub mod labels;
pub mod reader;
pub mod rules;
pub mod stress;
pub mod train;

use std::borrow::Cow;

use image::{GrayImage, RgbImage};
use snapsolve_vision::blur::gaussian_blur;
pub use snapsolve_vision::grid::Quad;
use snapsolve_vision::grid::{
    CellInk, Lattice, darkest_channel, find_grid, mean_sides, sample_cells, turn_cells,
};
use snapsolve_vision::noise::{NOISY, noise_level};

pub use labels::{LabelledPhoto, PhotoKind, mislabelled, read_labels, split_of};
pub use reader::{CellProbabilities, DigitReader, ReaderError};

/// What the network read in a photo, before the rules are applied.
#[derive(Clone, Debug)]
pub struct PhotoReading {
    /// The grid's outer corners, `None` when no grid was found.
    pub corners: Option<Quad>,
    /// All line crossings, when a grid was found.
    pub lattice: Option<Lattice>,
    /// Per cell, the probabilities of empty and 1-9 (81 rows when a grid was found).
    pub probabilities: Vec<CellProbabilities>,
}

impl PhotoReading {
    /// The digits, corrected with the sudoku rules when `use_rules` (`None` when
    /// no grid was found).
    pub fn chosen_digits(&self, use_rules: bool) -> Option<[u8; 81]> {
        if use_rules {
            rules::apply_rules(&self.probabilities).map(|r| r.digits)
        } else {
            self.digits()
        }
    }

    /// The most likely digit of each cell (0 = empty).
    pub fn digits(&self) -> Option<[u8; 81]> {
        if self.probabilities.len() != 81 {
            return None;
        }
        let mut out = [0u8; 81];
        for (slot, p) in out.iter_mut().zip(&self.probabilities) {
            *slot = most_likely(p) as u8;
        }
        Some(out)
    }
}

/// Index of the largest probability.
pub fn most_likely(p: &CellProbabilities) -> usize {
    let mut best = 0;
    for (i, v) in p.iter().enumerate() {
        if *v > p[best] {
            best = i;
        }
    }
    best
}

/// Finds the grid and reads its cells, in the quarter turn that reads best.
pub fn read_photo(photo: &RgbImage, reader: &DigitReader) -> Result<PhotoReading, ReaderError> {
    let gray = darkest_channel(photo);
    let Some(found) = find_grid(&gray) else {
        return Ok(PhotoReading {
            corners: None,
            lattice: None,
            probabilities: Vec::new(),
        });
    };
    let cells = sample_cells(&cells_source(photo, &gray, &found.lattice), &found.lattice);
    let (quarters, mut probabilities) = upright_reading(reader, &cells)?;
    let turned = match quarters {
        0 => Cow::Borrowed(&cells),
        _ => Cow::Owned(turn_cells(&cells, quarters)),
    };
    reader.steadied(&turned, &mut probabilities)?;
    empty_where_no_stroke(&cells, quarters, &mut probabilities);
    let lattice = found.lattice.turned(quarters);
    Ok(PhotoReading {
        corners: Some(lattice.corners()),
        lattice: Some(lattice),
        probabilities,
    })
}

/// How much a grainy photo's grey is smoothed before its cells are cut: a
/// Gaussian of this share of a cell's side (0.9 pixels in a 45-pixel cell).
/// Under `--distort grainy` the training photos' printed grids read 73 -> 94
/// right of 121, filled-in 98 -> 101, handwritten 130 -> 128, and the
/// rendered stress pages 400-499 lose a grid each of folded and dim; 1.5
/// pixels whatever the cell read 97 printed grids but smoothed the rendered
/// pages' small grainy cells into empty ones (dim 88 -> 82 grids); keeping the
/// surer of both readings per cell gained less (85). docs/evaluation.md,
/// session 56.
const GRAINY_CELL_SIGMA: f32 = 0.02;

/// The grey the cells are cut from: the photo's own, smoothed where the
/// photo is grainy ([`NOISY`]: a dim room's grain, into which a thin printed
/// stroke sinks; the shared sudoku photos measure 3.4 at most).
fn cells_source<'a>(
    photo: &RgbImage,
    gray: &'a GrayImage,
    lattice: &Lattice,
) -> Cow<'a, GrayImage> {
    if noise_level(photo) < NOISY {
        return Cow::Borrowed(gray);
    }
    let [across, down] = mean_sides(&lattice.corners());
    let cell = (across + down) / 18.0;
    Cow::Owned(gaussian_blur(gray, (GRAINY_CELL_SIGMA * cell).max(0.1)))
}

/// Reads as empty every cell whose ink is too little for any digit, whatever
/// the network says, and then every cell whose ink is too faint beside the
/// page's other digits where the network gives empty some weight (see
/// [`blank`]): `cells` in the photo's order, `probabilities` in the reading's,
/// `quarters` turns from one to the other.
pub fn empty_where_no_stroke(
    cells: &CellInk,
    quarters: usize,
    probabilities: &mut [CellProbabilities],
) {
    for i in 0..81 {
        let p = &mut probabilities[turned_index(i, quarters)];
        if most_likely(p) != 0 && blank::too_little_for_a_digit(blank::middle_ink(cells.cell(i)), p)
        {
            *p = blank::as_empty(p);
        }
    }
    // The ink of the cells read as digits (the page's empty cells need none).
    let digits: Vec<(usize, f32)> = (0..81)
        .filter(|&i| most_likely(&probabilities[turned_index(i, quarters)]) != 0)
        .map(|i| (i, blank::strength(cells.cell(i))))
        .collect();
    let Some(typical) = blank::typical_strength(digits.iter().map(|&(_, s)| s).collect()) else {
        return;
    };
    for (i, strength) in digits {
        let p = &mut probabilities[turned_index(i, quarters)];
        if blank::too_faint_for_the_page(strength, typical, p) {
            *p = blank::as_empty(p);
        }
    }
}

/// Another quarter turn must beat the photo's own by this much summed log
/// confidence per inked cell (and by [`MIN_TURN_MARGIN`] in all) to be taken:
/// upright is by far the commonest, and a full grid of uncertain handwriting can
/// read a little surer turned. On the training photos, pages really turned won
/// by 0.5-2 per cell, wrong turns by at most 0.1.
const TURN_MARGIN_PER_CELL: f32 = 0.25;
/// See [`TURN_MARGIN_PER_CELL`].
const MIN_TURN_MARGIN: f32 = 3.0;

/// Reads the cells as cut and, when some are inked, in the other three quarter
/// turns; returns the turn whose digits the network is surest of, and its reading.
///
/// Sureness is the summed log probability of each inked cell's likeliest digit: a
/// digit lying on its side matches no class well. (6 and 9 swap under a half turn,
/// the other digits do not, so every real puzzle page decides.)
fn upright_reading(
    reader: &DigitReader,
    cells: &CellInk,
) -> Result<(usize, Vec<CellProbabilities>), ReaderError> {
    let upright = reader.probabilities(cells)?;
    let inked: Vec<usize> = (0..81).filter(|&i| upright[i][0] < 0.5).collect();
    if inked.is_empty() {
        return Ok((0, upright));
    }
    let sureness = |p: &[CellProbabilities], cells: &[usize]| -> f32 {
        cells
            .iter()
            .map(|&i| {
                p[i][1..]
                    .iter()
                    .fold(0.0f32, |a, &b| a.max(b))
                    .max(1e-6)
                    .ln()
            })
            .sum()
    };
    let margin = (TURN_MARGIN_PER_CELL * inked.len() as f32).max(MIN_TURN_MARGIN);
    let mut best = (0, sureness(&upright, &inked) + margin, None);
    // A turn's sureness is a sum of logarithms, never above 0: when the upright
    // reading with its margin reaches 0, no turn can beat it, and the three
    // other readings (three quarters of the network's time) are skipped.
    if best.1 >= 0.0 {
        return Ok((0, upright));
    }
    for quarters in 1..4 {
        let turned = turn_cells(cells, quarters);
        let probabilities = reader.probabilities(&turned)?;
        // The same inked cells, at their turned places.
        let moved: Vec<usize> = inked.iter().map(|&i| turned_index(i, quarters)).collect();
        let score = sureness(&probabilities, &moved);
        if score > best.1 {
            best = (quarters, score, Some(probabilities));
        }
    }
    Ok(match best {
        (quarters, _, Some(probabilities)) => (quarters, probabilities),
        _ => (0, upright),
    })
}

/// Where cell `index` of the photo's order lands after `quarters` quarter turns
/// (see [`Lattice::turned`]).
fn turned_index(index: usize, quarters: usize) -> usize {
    let (mut r, mut c) = (index / 9, index % 9);
    for _ in 0..quarters % 4 {
        // New cell (r', c') holds old cell (c', 8 - r'): old (r, c) goes to (8 - c, r).
        (r, c) = (8 - c, r);
    }
    r * 9 + c
}

/// The digits of the grid in a photo (`None` when no grid is found), corrected
/// with the sudoku rules when `use_rules`.
pub fn read_digits(
    photo: &RgbImage,
    reader: &DigitReader,
    use_rules: bool,
) -> Result<Option<[u8; 81]>, ReaderError> {
    Ok(read_photo(photo, reader)?.chosen_digits(use_rules))
}

/// The answer for a photo: where the grid is, what it says, and its solution.
#[derive(Clone, Debug)]
pub struct PhotoAnswer {
    /// The grid's outer corners, `None` when no grid was found.
    pub corners: Option<Quad>,
    /// Line crossings (for drawing), when a grid was found.
    pub lattice: Option<Lattice>,
    /// The digits read, after the rules (0 = empty).
    pub digits: Option<[u8; 81]>,
    /// The solution, when there is one.
    pub solution: Option<[u8; 81]>,
    /// `"unique"`, `"multiple"` or `"none"`.
    pub status: &'static str,
    /// Cells changed by the rules or read with low confidence.
    pub doubtful: Vec<usize>,
    /// Cells whose digit the rules changed from the network's first choice.
    pub changed: Vec<usize>,
    /// Why no valid sudoku lies behind the reading (empty when one does):
    /// then `digits` are the network's most likely digits, unchanged.
    pub not_a_sudoku: Vec<String>,
}

/// At most this many reasons are given for a reading that is no sudoku.
const MAX_REASONS: usize = 3;

/// Why `digits` are no proper sudoku (clashes, no solution, several solutions);
/// empty when they have exactly one solution.
pub fn sudoku_problems(digits: &[u8; 81], verdict: &snapsolve_sudoku::Verdict) -> Vec<String> {
    use snapsolve_sudoku::{Grid, Verdict, explain_no_solution};
    match verdict {
        Verdict::Unique(_) => Vec::new(),
        Verdict::Multiple(..) => vec!["the digits read leave several solutions".into()],
        Verdict::None => {
            let Some(grid) = Grid::from_cells(*digits) else {
                return vec!["the digits read are no grid".into()];
            };
            let reasons = explain_no_solution(&grid);
            let mut out: Vec<String> = reasons
                .iter()
                .take(MAX_REASONS)
                .map(ToString::to_string)
                .collect();
            if reasons.len() > MAX_REASONS {
                out.push(format!("and {} more", reasons.len() - MAX_REASONS));
            }
            if out.is_empty() {
                out.push("the digits read have no solution".into());
            }
            out
        }
    }
}

/// Reads a photo and solves the sudoku in it.
pub fn solve_photo(photo: &RgbImage, reader: &DigitReader) -> Result<PhotoAnswer, ReaderError> {
    let reading = read_photo(photo, reader)?;
    let Some(ruled) = rules::apply_rules(&reading.probabilities) else {
        return Ok(PhotoAnswer {
            corners: None,
            lattice: None,
            digits: None,
            solution: None,
            status: "none",
            doubtful: Vec::new(),
            changed: Vec::new(),
            not_a_sudoku: Vec::new(),
        });
    };
    Ok(PhotoAnswer {
        corners: reading.corners,
        lattice: reading.lattice,
        digits: Some(ruled.digits),
        solution: ruled.verdict.solution().map(|g| *g.cells()),
        status: ruled.verdict.status(),
        not_a_sudoku: sudoku_problems(&ruled.digits, &ruled.verdict),
        doubtful: ruled.doubtful,
        changed: ruled.changed,
    })
}

/// Digits as 81 characters, `.` for empty.
pub fn digits_text(digits: &[u8; 81]) -> String {
    digits
        .iter()
        .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
        .collect()
}

/// The photo with the missing digits of the solution written into their
/// cells; where the reading has no single solution, its doubtful cells
/// outlined instead (the cells to check: a reading that is no sudoku, or
/// leaves several, drew nothing at all before).
pub fn draw_answer(photo: &RgbImage, answer: &PhotoAnswer) -> RgbImage {
    let mut out = photo.clone();
    let Some(lattice) = &answer.lattice else {
        return out;
    };
    if let (Some(digits), Some(solution)) = (&answer.digits, &answer.solution) {
        let mut missing = [0u8; 81];
        for i in 0..81 {
            if digits[i] == 0 {
                missing[i] = solution[i];
            }
        }
        snapsolve_vision::grid::overlay::write_digits(
            &mut out,
            lattice,
            &missing,
            snapsolve_vision::grid::overlay::ANSWER_COLOUR,
        );
    } else {
        for &cell in &answer.doubtful {
            snapsolve_vision::grid::overlay::outline_cell(&mut out, lattice, cell, DOUBT_COLOUR);
        }
    }
    out
}

/// The outline of a doubtful cell: amber, apart from print, pen and the
/// answers' blue-green.
const DOUBT_COLOUR: image::Rgb<u8> = image::Rgb([245, 150, 0]);

#[cfg(test)]
mod tests {
    use super::*;
    use snapsolve_sudoku::Verdict;

    /// An answer on a 9x9 grid of 20-pixel cells from (10, 10), with one
    /// doubtful cell (row 2, column 3) and, if given, a solution.
    fn answer_on_a_grid(solution: Option<[u8; 81]>) -> PhotoAnswer {
        let corners = [(10.0, 10.0), (190.0, 10.0), (190.0, 190.0), (10.0, 190.0)];
        PhotoAnswer {
            corners: Some(corners),
            lattice: snapsolve_vision::grid::Lattice::even(&corners),
            digits: Some([0; 81]),
            solution,
            status: if solution.is_some() { "unique" } else { "none" },
            doubtful: vec![11],
            changed: Vec::new(),
            not_a_sudoku: Vec::new(),
        }
    }

    #[test]
    fn without_a_single_solution_the_doubtful_cells_are_outlined() {
        let photo = RgbImage::from_pixel(200, 200, image::Rgb([255, 255, 255]));
        let amber = |out: &RgbImage| out.pixels().filter(|p| **p == DOUBT_COLOUR).count();
        let unsure = draw_answer(&photo, &answer_on_a_grid(None));
        // Cell 11 spans x 50-70, y 30-50: its outline lies inside that, none beyond.
        assert!(amber(&unsure) > 40, "{}", amber(&unsure));
        let outside = unsure
            .enumerate_pixels()
            .filter(|(x, y, p)| {
                **p == DOUBT_COLOUR && !((50..70).contains(x) && (30..50).contains(y))
            })
            .count();
        assert_eq!(outside, 0);
        // With a solution, the answers are drawn and nothing is outlined.
        let solved = draw_answer(&photo, &answer_on_a_grid(Some([5; 81])));
        assert_eq!(amber(&solved), 0);
        assert_ne!(solved, photo);
    }

    #[test]
    fn a_reading_that_is_no_sudoku_says_why() {
        let mut digits = [0u8; 81];
        digits[0] = 5;
        digits[3] = 5; // same row, another box: one clash
        let problems = sudoku_problems(&digits, &Verdict::None);
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("5 appears twice"), "{problems:?}");
        let empty = [0u8; 81];
        let grid = snapsolve_sudoku::Grid::from_cells(empty).expect("grid");
        let several = sudoku_problems(&empty, &Verdict::Multiple(grid, grid));
        assert_eq!(several, vec!["the digits read leave several solutions"]);
    }
}
