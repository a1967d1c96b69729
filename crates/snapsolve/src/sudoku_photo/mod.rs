//! Reading a sudoku from a photo: the grid found by `snapsolve_vision`, its 81
//! cells read by the digit network of `snapsolve_nn`, then checked and solved by
//! the sudoku rules.

pub mod labels;
pub mod reader;
pub mod train;

use image::RgbImage;
use snapsolve_vision::grid::{Lattice, Quad, darkest_channel, find_grid, sample_cells};

pub use labels::{LabelledPhoto, PhotoKind, read_labels, split_of};
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

/// Finds the grid and reads its cells.
pub fn read_photo(photo: &RgbImage, reader: &DigitReader) -> Result<PhotoReading, ReaderError> {
    let gray = darkest_channel(photo);
    let Some(found) = find_grid(&gray) else {
        return Ok(PhotoReading {
            corners: None,
            lattice: None,
            probabilities: Vec::new(),
        });
    };
    let cells = sample_cells(&gray, &found.lattice);
    let probabilities = reader.probabilities(&cells)?;
    Ok(PhotoReading {
        corners: Some(found.corners),
        lattice: Some(found.lattice),
        probabilities,
    })
}
