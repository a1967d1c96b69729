//! Writes every cell the digit network reads from the labelled photos of one
//! part (train or validation, never the held-out photos), to study mistakes
//! away from the evaluation: `cell_dump LABELS ROOT train|validation OUT_DIR`;
//! or the cells of rendered photos (printed and handwriting fonts, and the
//! kept-back real handwritten digits): `cell_dump rendered ROOT PAGES OUT_DIR`.
//!
//! `OUT_DIR/cells.f32`: the cells' ink squares (28 x 28 little-endian f32 each,
//! in the puzzle's orientation, one after the other); `OUT_DIR/cells.csv`: one
//! row per cell with the photo, its kind, the cell, the label, the reading's
//! most likely class, the reading the evaluation scores and the ten
//! probabilities. Weights files given after `OUT_DIR` are read instead of the
//! committed ones (several: their probabilities averaged).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use snapsolve::sudoku_photo::eval::{EvalPhotos, selected};
use snapsolve::sudoku_photo::{
    CellProbabilities, DigitReader, empty_where_no_stroke, most_likely, read_labels, read_photo,
};
use snapsolve_vision::grid::{CellInk, darkest_channel, sample_cells};
use snapsolve_vision::{Limits, read_image};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [labels, root, part, out, weights @ ..] = args.as_slice() else {
        return Err(
            "usage: cell_dump LABELS ROOT train|validation OUT_DIR [WEIGHTS...], \
                    or cell_dump rendered ROOT PAGES OUT_DIR [WEIGHTS...]"
                .into(),
        );
    };
    let reader = if weights.is_empty() {
        DigitReader::embedded()
    } else {
        let files = weights
            .iter()
            .map(std::fs::read)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        DigitReader::ensemble(&files.iter().map(Vec::as_slice).collect::<Vec<_>>())
    }
    .map_err(|e| e.to_string())?;
    let mut dump = Dump::create(Path::new(out))?;
    if labels == "rendered" {
        let pages = part.parse().map_err(|e| format!("PAGES: {e}"))?;
        return dump_rendered(Path::new(root), pages, &reader, &mut dump);
    }
    let which = match part.as_str() {
        "train" => EvalPhotos::Train,
        "validation" => EvalPhotos::Validation,
        _ => return Err("the part is train or validation".into()),
    };
    let photos = read_labels(Path::new(labels))?;
    for photo in selected(&photos, which) {
        let Some(truth) = photo.digits() else {
            continue;
        };
        let rgb = read_image(&Path::new(root).join(&photo.image), Limits::default())
            .map_err(|e| e.to_string())?;
        let reading = read_photo(&rgb, &reader).map_err(|e| e.to_string())?;
        let (Some(lattice), Some(read)) = (
            &reading.lattice,
            reading.chosen_digits(photo.kind.follows_rules()),
        ) else {
            continue;
        };
        let cells = sample_cells(&darkest_channel(&rgb), lattice);
        for (i, p) in reading.probabilities.iter().enumerate() {
            let what = format!("{},{},{i},{}", photo.image, photo.kind.name(), truth[i]);
            dump.cell(&what, cells.cell(i), p, read[i])?;
        }
    }
    Ok(())
}

/// The two output files.
struct Dump {
    inks: BufWriter<File>,
    csv: BufWriter<File>,
}

impl Dump {
    fn create(out: &Path) -> Result<Dump, String> {
        std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
        let file = |name: &str| {
            File::create(out.join(name))
                .map(BufWriter::new)
                .map_err(|e| e.to_string())
        };
        let mut dump = Dump {
            inks: file("cells.f32")?,
            csv: file("cells.csv")?,
        };
        writeln!(
            dump.csv,
            "image,kind,cell,truth,first,read,p0,p1,p2,p3,p4,p5,p6,p7,p8,p9"
        )
        .map_err(|e| e.to_string())?;
        Ok(dump)
    }

    /// One cell: `what` is its image, kind, index and label, comma-separated.
    fn cell(
        &mut self,
        what: &str,
        ink: &[f32],
        p: &CellProbabilities,
        read: u8,
    ) -> Result<(), String> {
        for v in ink {
            self.inks
                .write_all(&v.to_le_bytes())
                .map_err(|e| e.to_string())?;
        }
        let q: Vec<String> = p.iter().map(|q| format!("{q:.5}")).collect();
        let first = most_likely(p);
        writeln!(self.csv, "{what},{first},{read},{}", q.join(",")).map_err(|e| e.to_string())
    }
}

/// Rendered pages of both kinds training validates on (printed givens with
/// handwriting, handwriting alone), handwritten cells from the handwriting
/// fonts and the kept-back real digits; the cells cut along the rendered
/// grid's corners, read as `read_photo` reads (doubtful cells read again
/// shifted, cells without a stroke long enough for a digit empty) but without
/// the rules; prints how many cells the network read right.
fn dump_rendered(
    root: &Path,
    pages: usize,
    reader: &DigitReader,
    dump: &mut Dump,
) -> Result<(), String> {
    let fonts = snapsolve_synth::sudoku::load_system_fonts()?;
    let written = snapsolve::sudoku_photo::handwriting::read_written_digits(root)?;
    let fonts = snapsolve_synth::sudoku::DigitFonts {
        written: written.validation,
        ..fonts
    };
    let (cells, _) = snapsolve::sudoku_photo::train::rendered_cells(
        &fonts,
        &[(0.35, 1.0), (0.0, 0.7)],
        pages,
        0x0065_6d70_7479_3137,
    );
    let mut right = 0;
    for (page, chunk) in cells.inputs.chunks(81 * 784).enumerate() {
        let ink = CellInk {
            values: chunk.to_vec(),
        };
        let mut probabilities = reader.probabilities(&ink).map_err(|e| e.to_string())?;
        reader
            .steadied(&ink, &mut probabilities)
            .map_err(|e| e.to_string())?;
        empty_where_no_stroke(&ink, 0, &mut probabilities);
        for (i, p) in probabilities.iter().enumerate() {
            let kind = if page % 2 == 0 {
                "mixed"
            } else {
                "handwritten"
            };
            let what = format!("page{page},{kind},{i},{}", cells.labels[page * 81 + i]);
            dump.cell(&what, ink.cell(i), p, most_likely(p) as u8)?;
            right += usize::from(most_likely(p) == cells.labels[page * 81 + i] as usize);
        }
    }
    println!("{right} of {} rendered cells read right", cells.len());
    Ok(())
}
