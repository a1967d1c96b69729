//! `snapsolve eval sudoku-photos`: how well photos are read, per kind.
//!
//! For each photo: was a grid found, how many of the 81 cells were read right, was
//! the whole grid right, and how long decoding plus reading took. Printed and
//! mixed grids are read with the rules ([`super::rules`]); handwritten test grids
//! are not sudokus, so they are read without.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use snapsolve_vision::{Limits, read_image};

use super::labels::{LabelledPhoto, PhotoKind, Split, split_of, trained_on};
use super::{DigitReader, read_digits};

/// Which labelled photos to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalPhotos {
    /// Every photo the model was not trained on (the default).
    Untrained,
    /// Only the validation photos of the shared data (watched during training).
    Validation,
}

/// The outcome for one photo.
#[derive(Clone, Debug)]
pub struct PhotoResult {
    /// The image path from the labels.
    pub image: String,
    /// Its kind.
    pub kind: PhotoKind,
    /// Whether a grid was found.
    pub found: bool,
    /// Cells read right (0 when no grid was found).
    pub cells_right: usize,
    /// Milliseconds from the file's bytes to the digits.
    pub millis: f64,
    /// The digits read (empty when no grid).
    pub read: String,
}

/// Totals for one kind of photo.
#[derive(Clone, Debug, Default)]
pub struct KindSummary {
    /// Photos read.
    pub photos: usize,
    /// Photos where a grid was found.
    pub grids_found: usize,
    /// Cells read right, over all photos (81 per photo).
    pub cells_right: usize,
    /// Photos with all 81 cells right.
    pub grids_right: usize,
    /// Milliseconds per photo, sorted.
    pub millis: Vec<f64>,
}

impl KindSummary {
    /// Share of cells right.
    pub fn cell_accuracy(&self) -> f64 {
        self.cells_right as f64 / (81 * self.photos.max(1)) as f64
    }

    /// Median milliseconds per photo.
    pub fn median_millis(&self) -> f64 {
        self.millis
            .get(self.millis.len() / 2)
            .copied()
            .unwrap_or(0.0)
    }
}

/// Reads one labelled photo.
pub fn evaluate_photo(root: &Path, photo: &LabelledPhoto, reader: &DigitReader) -> PhotoResult {
    let truth = photo.digits().unwrap_or([0; 81]);
    let start = Instant::now();
    let read = read_image(&root.join(&photo.image), Limits::default())
        .ok()
        .and_then(|rgb| read_digits(&rgb, reader, photo.kind.follows_rules()).ok())
        .flatten();
    let millis = start.elapsed().as_secs_f64() * 1000.0;
    let (found, cells_right, text) = match read {
        Some(digits) => (
            true,
            digits
                .iter()
                .zip(truth.iter())
                .filter(|(a, b)| a == b)
                .count(),
            digits
                .iter()
                .map(|&d| if d == 0 { '.' } else { char::from(b'0' + d) })
                .collect(),
        ),
        None => (false, 0, String::new()),
    };
    PhotoResult {
        image: photo.image.clone(),
        kind: photo.kind,
        found,
        cells_right,
        millis,
        read: text,
    }
}

/// The photos of a labels file that an evaluation may read.
pub fn selected(photos: &[LabelledPhoto], which: EvalPhotos) -> Vec<&LabelledPhoto> {
    photos
        .iter()
        .filter(|p| match which {
            EvalPhotos::Untrained => !trained_on(&p.image),
            EvalPhotos::Validation => split_of(&p.image) == Split::Validation,
        })
        .collect()
}

/// Totals per kind.
pub fn summarize(results: &[PhotoResult]) -> BTreeMap<PhotoKind, KindSummary> {
    let mut out: BTreeMap<PhotoKind, KindSummary> = BTreeMap::new();
    for r in results {
        let s = out.entry(r.kind).or_default();
        s.photos += 1;
        s.grids_found += usize::from(r.found);
        s.cells_right += r.cells_right;
        s.grids_right += usize::from(r.cells_right == 81);
        s.millis.push(r.millis);
    }
    for s in out.values_mut() {
        s.millis.sort_by(f64::total_cmp);
    }
    out
}
