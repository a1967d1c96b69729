//! The sudoku photo reader on the held-out photos of the shared data set, with
//! floors that fail the build if accuracy drops (figures in docs/evaluation.md).

use snapsolve::data::shared_data_or_skip;
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
        .map(|p| evaluate_photo(&data, p, &reader))
        .collect();
    let summary = summarize(&results);
    // (kind, least share of grids found, least cell accuracy, least share of grids exactly right)
    let floors = [
        (PhotoKind::Printed, 0.95, 0.983, 0.92),
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
