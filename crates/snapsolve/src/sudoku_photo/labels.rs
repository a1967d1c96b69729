//! The labelled sudoku photos (`sudoku/photos.jsonl`) and the fixed split that keeps
//! evaluation photos out of training.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use snapsolve_vision::grid::Quad;

/// What a photo shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PhotoKind {
    /// A printed puzzle; the label gives the printed givens.
    Printed,
    /// A printed puzzle filled in by hand; the label gives all 81 digits.
    Mixed,
    /// A grid filled with handwritten digits (not a valid sudoku).
    Handwritten,
}

impl PhotoKind {
    /// Every kind, in report order.
    pub const ALL: [PhotoKind; 3] = [PhotoKind::Printed, PhotoKind::Mixed, PhotoKind::Handwritten];

    /// The label's name for it.
    pub fn name(self) -> &'static str {
        match self {
            PhotoKind::Printed => "printed",
            PhotoKind::Mixed => "mixed",
            PhotoKind::Handwritten => "handwritten",
        }
    }

    /// Whether the grid should obey the sudoku rules (handwritten test grids do not).
    pub fn follows_rules(self) -> bool {
        self != PhotoKind::Handwritten
    }
}

/// One line of a labels file.
#[derive(Clone, Debug, Deserialize)]
pub struct LabelledPhoto {
    /// Image path, relative to the data root.
    pub image: String,
    /// What it shows.
    pub kind: PhotoKind,
    /// 81 characters, `.` for an empty cell.
    pub grid: String,
    /// Outer corners (top-left, top-right, bottom-right, bottom-left), where known.
    #[serde(default)]
    pub corners: Option<[[f32; 2]; 4]>,
}

impl LabelledPhoto {
    /// The labelled digits, 0 for empty; `None` when the grid text is malformed.
    pub fn digits(&self) -> Option<[u8; 81]> {
        parse_digits(&self.grid)
    }

    /// The labelled corners as a quadrilateral.
    pub fn quad(&self) -> Option<Quad> {
        self.corners.map(|c| c.map(|[x, y]| (x, y)))
    }
}

/// 81 characters (`1`-`9`, `.` or `0` for empty) as digits.
pub fn parse_digits(text: &str) -> Option<[u8; 81]> {
    let bytes = text.as_bytes();
    if bytes.len() != 81 {
        return None;
    }
    let mut out = [0u8; 81];
    for (slot, &b) in out.iter_mut().zip(bytes) {
        *slot = match b {
            b'1'..=b'9' => b - b'0',
            b'.' | b'0' => 0,
            _ => return None,
        };
    }
    Some(out)
}

/// Reads a labels file; errors name the line.
pub fn read_labels(path: &Path) -> Result<Vec<LabelledPhoto>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let photo: LabelledPhoto = serde_json::from_str(line)
            .map_err(|e| format!("{}:{}: {e}", path.display(), number + 1))?;
        if photo.digits().is_none() {
            return Err(format!(
                "{}:{}: the grid must be 81 characters of 1-9 or '.'",
                path.display(),
                number + 1
            ));
        }
        out.push(photo);
    }
    Ok(out)
}

/// FNV-1a, 64 bits: a fixed hash that never changes between Rust versions.
pub(crate) fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Which part of the data a photo belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Used to fit the weights.
    Train,
    /// Watched during training to report progress (never fitted on).
    Validation,
    /// Never used in training: the held-out evaluation photos.
    HeldOut,
}

/// The split of a photo, from the hash of its file name without folder or
/// extension: a printed photo and its filled-in twin (`images/image7.jpg` and
/// `mixed/image7.jpg`, the same puzzle page) always land in the same part.
/// One in five photos is held out, one in ten of the rest validates.
pub fn split_of(image: &str) -> Split {
    let stem = Path::new(image)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let h = fnv1a(&stem);
    if h.is_multiple_of(5) {
        Split::HeldOut
    } else if (h / 5).is_multiple_of(10) {
        Split::Validation
    } else {
        Split::Train
    }
}

/// Where the sudoku photos' labels lie in the shared data folder.
pub const PHOTOS_FILE: &str = "sudoku/photos.jsonl";

/// The files of the labelled sudoku photos in `split`, in the labels' order
/// (the training part gives the card network its not-a-card crops and the
/// card training its real backdrops, the validation part the stress suite's
/// pages).
pub fn photos_in_split(data_dir: &Path, split: Split) -> Result<Vec<PathBuf>, String> {
    Ok(read_labels(&data_dir.join(PHOTOS_FILE))?
        .iter()
        .filter(|photo| split_of(&photo.image) == split)
        .map(|photo| data_dir.join(&photo.image))
        .collect())
}

/// Photos whose label describes another page, with what shows it. Evaluation
/// and training leave them out: a reading scored against the wrong grid says
/// nothing about the reader. Each entry was checked cell by cell by eye.
const MISLABELLED: &[(&str, &str)] = &[(
    "sudoku/rozet-handwritten/sudoku_0271.jpg",
    "the photo's first row is 5 9 8 _ 2 5 6 4 _, the label's is _ _ 7 6 6 6 _ 5 _; \
     no row of the label matches the photo",
)];

/// Why the label of this image is known to be wrong, if it is.
pub fn mislabelled(image: &str) -> Option<&'static str> {
    MISLABELLED
        .iter()
        .find(|(path, _)| *path == image)
        .map(|(_, why)| *why)
}

/// Whether the digit model was trained on this labelled image: a photo of the
/// shared data set (`sudoku/wichtounet/…`, `sudoku/rozet-handwritten/…`) outside
/// the held-out part. Evaluation skips these.
pub fn trained_on(image: &str) -> bool {
    let shared =
        image.starts_with("sudoku/wichtounet/") || image.starts_with("sudoku/rozet-handwritten/");
    shared && split_of(image) != Split::HeldOut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_share_a_split_and_about_a_fifth_is_held_out() {
        assert_eq!(
            split_of("sudoku/wichtounet/images/image7.jpg"),
            split_of("sudoku/wichtounet/mixed/image7.jpg")
        );
        let held = (0..1000)
            .filter(|i| split_of(&format!("x/image{i}.jpg")) == Split::HeldOut)
            .count();
        assert!((150..250).contains(&held), "{held} of 1000 held out");
    }

    #[test]
    fn only_the_listed_photos_count_as_mislabelled() {
        assert!(mislabelled("sudoku/rozet-handwritten/sudoku_0271.jpg").is_some());
        assert!(mislabelled("sudoku/rozet-handwritten/sudoku_0273.jpg").is_none());
        assert!(mislabelled("rozet-handwritten/sudoku_0271.jpg").is_none());
    }

    #[test]
    fn digits_parse_and_reject_bad_text() {
        let line = format!("{}{}", "1.3", ".".repeat(78));
        let d = parse_digits(&line).expect("valid");
        assert_eq!(&d[..3], &[1, 0, 3]);
        assert!(parse_digits("123").is_none());
        assert!(parse_digits(&"x".repeat(81)).is_none());
    }
}
