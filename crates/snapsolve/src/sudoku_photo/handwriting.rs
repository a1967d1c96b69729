//! The real handwritten digits of the shared data (`digits/`, 10,000 MNIST
//! digits as IDX files) and their fixed split into digits to train on and
//! digits kept back for validation.
//!
//! The files come sorted by digit, so the split shuffles first, with a fixed
//! seed of its own: the validation digits are the same whatever seed a
//! training run is given.
//!
//! MNIST's writers are American and never cross a 7; many players do, and a
//! crossed 7 read as a 4 was the reader's largest mistake on handwritten
//! photos. So every other 7 kept for training gets a crossbar; the validation
//! digits stay as written.

use std::path::Path;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use snapsolve_synth::sudoku::written::parse_idx;
use snapsolve_synth::sudoku::{InkBitmap, WrittenDigits};

/// The image file, relative to the shared data folder.
pub const IMAGES: &str = "digits/mnist10k-images.idx3-ubyte";
/// The label file, relative to the shared data folder.
pub const LABELS: &str = "digits/mnist10k-labels.idx1-ubyte";
/// One digit in this many is kept back for validation.
pub const VALIDATION_ONE_IN: usize = 10;
/// Seed of the shuffle that splits the digits (never change it: it decides
/// which digits validate).
const SPLIT_SEED: u64 = 0x6d6e_6973_7431_3030;
/// Seed of the crossbars' heights, lengths and tilts.
const CROSSBAR_SEED: u64 = 0x6372_6f73_7365_6437;

/// The written digits, split.
#[derive(Clone, Debug, Default)]
pub struct WrittenSplit {
    /// Digits to train on.
    pub train: WrittenDigits,
    /// Digits kept back for validation, never trained on.
    pub validation: WrittenDigits,
}

/// Reads and splits the written digits of `data_dir`; errors name the file.
pub fn read_written_digits(data_dir: &Path) -> Result<WrittenSplit, String> {
    let read = |name: &str| {
        let path = data_dir.join(name);
        std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    };
    let digits = parse_idx(&read(IMAGES)?, &read(LABELS)?)
        .map_err(|e| format!("{}: {e}", data_dir.join(IMAGES).display()))?;
    Ok(split_digits(digits))
}

/// Shuffles with the fixed seed and keeps every [`VALIDATION_ONE_IN`]th for validation.
/// Every other training 7 is crossed.
pub fn split_digits(mut digits: Vec<(u8, InkBitmap)>) -> WrittenSplit {
    digits.shuffle(&mut Pcg64Mcg::seed_from_u64(SPLIT_SEED));
    let mut crossbars = Pcg64Mcg::seed_from_u64(CROSSBAR_SEED);
    let mut sevens = 0;
    let mut split = WrittenSplit::default();
    for (i, (label, bitmap)) in digits.into_iter().enumerate() {
        if i % VALIDATION_ONE_IN == 0 {
            split.validation.push(label, bitmap);
            continue;
        }
        let bitmap = match label {
            7 => {
                sevens += 1;
                if sevens % 2 == 0 {
                    crossed(&bitmap, &mut crossbars).unwrap_or(bitmap)
                } else {
                    bitmap
                }
            }
            _ => bitmap,
        };
        split.train.push(label, bitmap);
    }
    split
}

/// A 7 with a crossbar about halfway down, as continental writers draw it.
fn crossed(seven: &InkBitmap, rng: &mut Pcg64Mcg) -> Option<InkBitmap> {
    seven.with_crossbar(
        rng.random_range(0.45..0.62),
        rng.random_range(0.4..0.7),
        rng.random_range(-0.15..0.15),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(at: usize) -> InkBitmap {
        let mut ink = vec![0u8; 16];
        ink[at] = 255;
        InkBitmap::new(4, 4, ink).expect("inked")
    }

    #[test]
    fn split_is_fixed_disjoint_and_shuffled_across_digits() {
        // Sorted by digit, as the files come.
        let digits: Vec<(u8, InkBitmap)> = (1..=9u8)
            .flat_map(|d| (0..20).map(move |i| (d, dot(i % 16))))
            .collect();
        let a = split_digits(digits.clone());
        let b = split_digits(digits);
        assert_eq!(a.train.len() + a.validation.len(), 180);
        assert_eq!(a.validation.len(), 18);
        for d in 1..=9 {
            assert_eq!(a.validation.of(d), b.validation.of(d));
        }
        // Not the first digits of the file only: several digits validate.
        let kinds = (1..=9).filter(|&d| !a.validation.of(d).is_empty()).count();
        assert!(kinds >= 5, "{kinds} digits among the validation examples");
        // Half the training 7s are crossed (a dot grows a bar), no other digit.
        let grown = |d: u8| a.train.of(d).iter().filter(|b| b.size() != (1, 1)).count();
        assert_eq!(grown(7), a.train.of(7).len() / 2);
        assert_eq!(grown(1) + grown(4), 0);
        assert!(a.validation.of(7).iter().all(|b| b.size() == (1, 1)));
    }
}
