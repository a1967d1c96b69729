//! `snapsolve eval sudoku-photos`: how well photos are read, per kind.
//!
//! For each photo: was a grid found, how many of the 81 cells were read right, was
//! the whole grid right, and how long decoding plus reading took. Printed and
//! mixed grids are read with the rules ([`super::rules`]); handwritten test grids
//! are not sudokus, so they are read without.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use snapsolve_vision::{Limits, Photo, read_image};

use crate::distort::Distortion;

use super::labels::{LabelledPhoto, PhotoKind, Split, mislabelled, split_of, trained_on};
use super::{DigitReader, Quad, read_photo};

/// Which labelled photos to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalPhotos {
    /// Every photo the model was not trained on (the default).
    Untrained,
    /// Only the training photos of the shared data (for tuning grid finding: never a result).
    Train,
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
    /// The labelled digits (0 = empty).
    pub truth: [u8; 81],
    /// The digits read (0 = empty), when a grid was found.
    pub digits: Option<[u8; 81]>,
    /// Farthest found corner from its labelled place, in cells (the labelled grid's
    /// side / 9); `None` without labelled corners or without a found grid.
    pub corner_error: Option<f32>,
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
    /// Photos with labelled corners.
    pub with_corners: usize,
    /// Of those, photos whose found corners are all within [`PRECISE_CORNER_CELLS`]
    /// of the labelled ones.
    pub corners_precise: usize,
    /// Cells of the photos whose grid was found, by labelled class (row) and
    /// class read (column); class 0 = empty.
    pub confusion: Confusion,
}

/// Counts of cells by labelled class (row) and class read (column), 0 = empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Confusion {
    /// `counts[truth][read]`.
    pub counts: [[usize; 10]; 10],
}

impl Confusion {
    /// Adds the cells of one grid.
    pub fn add(&mut self, truth: &[u8; 81], read: &[u8; 81]) {
        for (&t, &r) in truth.iter().zip(read) {
            self.counts[usize::from(t)][usize::from(r)] += 1;
        }
    }

    /// The mistakes, largest first: `(truth, read, cells)`, ties in class order.
    pub fn mistakes(&self) -> Vec<(u8, u8, usize)> {
        let mut out: Vec<(u8, u8, usize)> = (0..10u8)
            .flat_map(|t| (0..10u8).map(move |r| (t, r)))
            .filter(|(t, r)| t != r)
            .map(|(t, r)| (t, r, self.counts[usize::from(t)][usize::from(r)]))
            .filter(|m| m.2 > 0)
            .collect();
        out.sort_by_key(|m| std::cmp::Reverse(m.2));
        out
    }
}

/// A found corner this close to the labelled one (in cells) counts as precise:
/// a fifth of a cell shifts the cell cut by less than its inset plus a stroke.
pub const PRECISE_CORNER_CELLS: f32 = 0.2;

/// The farthest of the four corners from its labelled place, in cells of the
/// labelled grid (its mean side / 9). The labels name the corners in photo order
/// and a grid shot sideways is reported in the puzzle's order, so the corners are
/// matched in the cyclic order that fits best.
pub fn corner_error_cells(found: &Quad, truth: &Quad) -> f32 {
    let side = (0..4)
        .map(|i| {
            let (a, b) = (truth[i], truth[(i + 1) % 4]);
            (a.0 - b.0).hypot(a.1 - b.1)
        })
        .sum::<f32>()
        / 4.0;
    let cell = (side / 9.0).max(1.0);
    let worst = |shift: usize| {
        (0..4)
            .map(|i| {
                let (f, t) = (found[(i + shift) % 4], truth[i]);
                (f.0 - t.0).hypot(f.1 - t.1)
            })
            .fold(0.0f32, f32::max)
    };
    (0..4).map(worst).fold(f32::INFINITY, f32::min) / cell
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

/// Reads one labelled photo, spoilt first by `distortion` where one is
/// given. The time is the file's decoding and the reading, not the spoiling.
/// A spoilt photo's corners are not compared: the label's are the
/// unspoilt photo's.
pub fn evaluate_photo(
    root: &Path,
    photo: &LabelledPhoto,
    reader: &DigitReader,
    distortion: Option<Distortion>,
) -> PhotoResult {
    let truth = photo.digits().unwrap_or([0; 81]);
    let start = Instant::now();
    let decoded = read_image(&root.join(&photo.image), Limits::default()).ok();
    let mut elapsed = start.elapsed();
    let decoded = match (decoded, distortion) {
        (Some(rgb), Some(distortion)) => Some(distortion.apply(Photo::from_upright(rgb)).image),
        (decoded, _) => decoded,
    };
    let start = Instant::now();
    let reading = decoded.and_then(|rgb| read_photo(&rgb, reader).ok());
    let read = reading
        .as_ref()
        .and_then(|r| r.chosen_digits(photo.kind.follows_rules()));
    elapsed += start.elapsed();
    let millis = elapsed.as_secs_f64() * 1000.0;
    let corner_error = match (reading.and_then(|r| r.corners), photo.quad()) {
        (Some(found), Some(truth)) if distortion.is_none() => {
            Some(corner_error_cells(&found, &truth))
        }
        _ => None,
    };
    let (found, cells_right, text) = match &read {
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
        truth,
        digits: read,
        corner_error,
    }
}

/// The photos of a labels file that an evaluation may read (never one whose
/// label is known to be wrong, see [`mislabelled`]).
pub fn selected(photos: &[LabelledPhoto], which: EvalPhotos) -> Vec<&LabelledPhoto> {
    photos
        .iter()
        .filter(|p| mislabelled(&p.image).is_none())
        .filter(|p| match which {
            EvalPhotos::Untrained => !trained_on(&p.image),
            EvalPhotos::Validation => split_of(&p.image) == Split::Validation,
            EvalPhotos::Train => trained_on(&p.image) && split_of(&p.image) == Split::Train,
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
        if let Some(digits) = &r.digits {
            s.confusion.add(&r.truth, digits);
        }
        if let Some(error) = r.corner_error {
            s.with_corners += 1;
            s.corners_precise += usize::from(error <= PRECISE_CORNER_CELLS);
        }
    }
    for s in out.values_mut() {
        s.millis.sort_by(f64::total_cmp);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confusion_counts_cells_and_ranks_mistakes() {
        let mut truth = [0u8; 81];
        let mut read = [0u8; 81];
        truth[..4].copy_from_slice(&[1, 1, 4, 0]);
        read[..4].copy_from_slice(&[7, 7, 9, 5]);
        let mut c = Confusion::default();
        c.add(&truth, &read);
        assert_eq!(c.counts[0][0], 77);
        assert_eq!(c.mistakes(), vec![(1, 7, 2), (0, 5, 1), (4, 9, 1)]);
    }
}
