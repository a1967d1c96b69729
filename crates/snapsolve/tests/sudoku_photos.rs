//! The sudoku photo reader on the held-out photos of the shared data set, with
//! floors that fail the build if accuracy drops (figures in docs/evaluation.md).

use snapsolve::data::shared_data_or_skip;
use snapsolve::distort::Distortion;
use snapsolve::sudoku_photo::eval::{EvalPhotos, evaluate_photo, selected, summarize};
use snapsolve::sudoku_photo::{DigitReader, PhotoKind, read_labels};

#[test]
fn held_out_sudoku_photos_are_read_at_least_as_well_as_recorded() {
    let Some(data) = shared_data_or_skip("held_out_sudoku_photos") else {
        return;
    };
    let photos = read_labels(&data.join("sudoku/photos.jsonl")).expect("labels");
    let reader = DigitReader::embedded().expect("committed weights");
    let chosen = selected(&photos, EvalPhotos::Untrained);
    assert!(chosen.len() >= 60, "only {} held-out photos", chosen.len());
    let results: Vec<_> = chosen
        .iter()
        .map(|p| evaluate_photo(&data, p, &reader, None))
        .collect();
    let summary = summarize(&results);
    // (kind, least share of grids found, least cell accuracy, least share of grids exactly right).
    // Printed cells 0.983 until session 56: image1049's grid is found 4.5 cells off
    // before and after, and the stretched greys tried on weak lattices
    // (`grid::STRETCH_BELOW`) read 43 of its misplaced cells right instead of 54.
    let floors = [
        (PhotoKind::Printed, 0.95, 0.978, 0.92),
        (PhotoKind::Mixed, 0.92, 0.95, 0.92),
        (PhotoKind::Handwritten, 0.97, 0.989, 0.76),
    ];
    for (kind, found, cells, right) in floors {
        let s = &summary[&kind];
        let n = s.photos as f64;
        eprintln!(
            "{}: {} photos, {} grids found, cell accuracy {:.4}, {} grids right",
            kind.name(),
            s.photos,
            s.grids_found,
            s.cell_accuracy(),
            s.grids_right
        );
        assert!(
            s.grids_found as f64 / n >= found,
            "{}: grids found",
            kind.name()
        );
        assert!(s.cell_accuracy() >= cells, "{}: cell accuracy", kind.name());
        if s.with_corners > 0 {
            // Printed labels give corners: most found ones within a fifth of a cell.
            let precise = s.corners_precise as f64 / s.with_corners as f64;
            assert!(
                precise >= 0.75,
                "{}: corners precise {precise}",
                kind.name()
            );
        }
        assert!(
            s.grids_right as f64 / n >= right,
            "{}: grids right",
            kind.name()
        );
    }
}

/// Grids read exactly right of the 44 validation photos, spoilt by each
/// distortion, at least: a grid right or two under the reading of session 56
/// (`snapsolve eval sudoku-photos ../shared/data/sudoku/photos.jsonl --root
/// ../shared/data --validation --distort NAME`; docs/evaluation.md). The
/// validation photos, not the held-out ones: where a spoiler shows a
/// weakness, it is looked at and mended on these.
const SPOILT_VALIDATION_FLOORS: [(Distortion, usize); 13] = [
    (Distortion::Warm, 40),
    (Distortion::Cold, 41), // image96: its cut second puzzle is no grid (MIN_SQUARENESS)
    (Distortion::Dark, 40),
    (Distortion::Small, 40),
    (Distortion::Turned, 39),
    (Distortion::Jpeg, 40),
    (Distortion::Bright, 40),
    (Distortion::Defocused, 37),
    (Distortion::Shaken, 33),
    (Distortion::Tiny, 40),
    (Distortion::Grainy, 38), // 37 before cells were cut from smoothed grey
    (Distortion::Tilted, 36),
    (Distortion::LongLens, 38),
];

#[test]
fn validation_sudoku_photos_are_read_when_spoilt() {
    let Some(data) = shared_data_or_skip("spoilt_validation_sudoku_photos") else {
        return;
    };
    let photos = read_labels(&data.join("sudoku/photos.jsonl")).expect("labels");
    let reader = DigitReader::embedded().expect("committed weights");
    let chosen = selected(&photos, EvalPhotos::Validation);
    assert_eq!(chosen.len(), 44, "the validation photos");
    let mut failed = Vec::new();
    for (distortion, floor) in SPOILT_VALIDATION_FLOORS {
        let right = chosen
            .iter()
            .map(|p| evaluate_photo(&data, p, &reader, Some(distortion)))
            .filter(|r| r.cells_right == 81)
            .count();
        eprintln!("{}: {right} of 44 grids right", distortion.name());
        if right < floor {
            failed.push(format!("{}: {right} < {floor}", distortion.name()));
        }
    }
    assert!(failed.is_empty(), "grids right under {failed:?}");
}
