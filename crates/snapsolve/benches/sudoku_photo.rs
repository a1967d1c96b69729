//! The sudoku photo path on real photos, read in place from
//! `../shared/data/sudoku/` (or `$SNAPSOLVE_DATA`); skipped with a message when the
//! data is absent.
//!
//! Each sample is one photo (sample size 1), taken in turn from the printed and
//! mixed photos of `photos.jsonl`, so divan's median is the median photo:
//! - `whole_photo`: the file's bytes (already in memory) to the solved answer:
//!   decode, grid finding, cell sampling, network, rules and solver;
//! - `decode`, `find_grid`, `read_cells`: the stages on their own.
//!
//! Run on one core: `taskset -c 1 cargo bench -p snapsolve --bench sudoku_photo`.

use std::sync::OnceLock;

use divan::{Bencher, black_box};
use image::RgbImage;
use snapsolve::sudoku_photo::{DigitReader, PhotoKind, read_labels, solve_photo};
use snapsolve_vision::grid::{darkest_channel, find_grid, sample_cells};
use snapsolve_vision::{Limits, decode_image};

/// At most this many photos (every fourth of the printed and mixed ones), so a run
/// stays short while covering all the phones.
const MAX_PHOTOS: usize = 80;
const SAMPLES: u32 = 240;

struct Photos {
    bytes: Vec<Vec<u8>>,
    decoded: Vec<RgbImage>,
}

fn photos() -> Option<&'static Photos> {
    static PHOTOS: OnceLock<Option<Photos>> = OnceLock::new();
    PHOTOS.get_or_init(load).as_ref()
}

fn load() -> Option<Photos> {
    let root = snapsolve::data::shared_data_dir()?;
    let labels = read_labels(&root.join("sudoku/photos.jsonl")).ok()?;
    let bytes: Vec<Vec<u8>> = labels
        .iter()
        .filter(|p| matches!(p.kind, PhotoKind::Printed | PhotoKind::Mixed))
        .step_by(4)
        .take(MAX_PHOTOS)
        .filter_map(|p| std::fs::read(root.join(&p.image)).ok())
        .collect();
    let decoded = bytes
        .iter()
        .filter_map(|b| decode_image(b, Limits::default()).ok())
        .collect();
    Some(Photos { bytes, decoded })
}

fn main() {
    match photos() {
        Some(p) => eprintln!("{} sudoku photos", p.bytes.len()),
        None => {
            eprintln!(
                "SKIPPED sudoku_photo bench: no shared data folder (../shared/data or SNAPSOLVE_DATA)"
            );
            return;
        }
    }
    divan::main();
}

/// Runs `f` on the photos in turn, one photo per sample.
fn each<T: Sync>(bencher: Bencher, items: &'static [T], f: impl Fn(&'static T) + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    bencher.bench(|| {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % items.len();
        f(&items[i]);
    });
}

#[divan::bench(sample_size = 1, sample_count = SAMPLES)]
fn whole_photo(bencher: Bencher) {
    let Some(p) = photos() else { return };
    let reader = DigitReader::embedded().expect("committed weights");
    each(bencher, &p.bytes, |bytes| {
        let answer = decode_image(bytes, Limits::default())
            .ok()
            .and_then(|rgb| solve_photo(&rgb, &reader).ok());
        black_box(answer);
    });
}

#[divan::bench(sample_size = 1, sample_count = SAMPLES)]
fn decode(bencher: Bencher) {
    let Some(p) = photos() else { return };
    each(bencher, &p.bytes, |bytes| {
        black_box(decode_image(bytes, Limits::default()).ok());
    });
}

#[divan::bench(sample_size = 1, sample_count = SAMPLES)]
fn find_grid_only(bencher: Bencher) {
    let Some(p) = photos() else { return };
    each(bencher, &p.decoded, |rgb| {
        black_box(find_grid(&darkest_channel(rgb)));
    });
}

#[divan::bench(sample_size = 1, sample_count = SAMPLES)]
fn read_cells(bencher: Bencher) {
    let Some(p) = photos() else { return };
    let found: &'static Vec<_> = Box::leak(Box::new(
        p.decoded
            .iter()
            .filter_map(|rgb| {
                let gray = darkest_channel(rgb);
                find_grid(&gray).map(|g| (gray, g))
            })
            .collect(),
    ));
    each(bencher, found, |(gray, grid)| {
        black_box(sample_cells(gray, &grid.lattice));
    });
}
