//! Tries ways of reading again the doubtful cells dumped by `cell_dump`
//! (test-time views: shifts, diagonal shifts, zooms), without the rules and
//! without the page-level faint-ink rule: `tta_lab DIR [WEIGHTS]`. Prints, per
//! variant and kind, cells right of all and the mistakes by sort (e>d empty
//! read as a digit, d>e a digit read empty, d>d a digit read as another).
//! Session 16 chose `DigitReader::steadied`'s views with it
//! (docs/evaluation.md).

use std::collections::BTreeMap;
use std::path::Path;

use snapsolve::sudoku_photo::blank::{as_empty, middle_ink, too_little_for_a_digit};
use snapsolve::sudoku_photo::reader::transformed;
use snapsolve::sudoku_photo::{CellProbabilities, DigitReader, most_likely};
use snapsolve_vision::grid::CellInk;

const SIDE: usize = 28;

struct Row {
    kind: String,
    truth: usize,
}

/// Each view of every cell: `out[view][cell]`.
fn read_views(
    reader: &DigitReader,
    cells: &[Vec<f32>],
    views: &[(f32, f32, f32)],
) -> Result<Vec<Vec<CellProbabilities>>, String> {
    views
        .iter()
        .map(|&(s, dx, dy)| {
            let mut all = Vec::with_capacity(cells.len());
            for chunk in cells.chunks(81) {
                let values: Vec<f32> = chunk
                    .iter()
                    .flat_map(|c| {
                        if s == 1.0 && dx == 0.0 && dy == 0.0 {
                            c.clone()
                        } else {
                            transformed(c, s, dx, dy)
                        }
                    })
                    .collect();
                all.extend(
                    reader
                        .probabilities(&CellInk { values })
                        .map_err(|e| e.to_string())?,
                );
            }
            Ok(all)
        })
        .collect()
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().map(Path::new) else {
        return Err("usage: tta_lab DIR [WEIGHTS] (DIR written by cell_dump)".into());
    };
    let reader = match args.get(1) {
        Some(w) => DigitReader::from_safetensors(&std::fs::read(w).map_err(|e| e.to_string())?),
        None => DigitReader::embedded(),
    }
    .map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(dir.join("cells.csv")).map_err(|e| e.to_string())?;
    let rows = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let truth = f.get(3).and_then(|t| t.parse().ok());
            match (f.get(1), truth) {
                (Some(kind), Some(truth)) => Ok(Row {
                    kind: kind.to_string(),
                    truth,
                }),
                _ => Err(format!("not a cell_dump row: {l}")),
            }
        })
        .collect::<Result<Vec<Row>, String>>()?;
    let bytes = std::fs::read(dir.join("cells.f32")).map_err(|e| e.to_string())?;
    let values: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let cells: Vec<Vec<f32>> = values.chunks(SIDE * SIDE).map(<[f32]>::to_vec).collect();
    if cells.len() != rows.len() || !cells.len().is_multiple_of(81) {
        return Err("cells.f32 and cells.csv disagree".into());
    }
    let inks: Vec<_> = cells.iter().map(|c| middle_ink(c)).collect();

    let shifts = [
        (1.0, 1.0, 0.0),
        (1.0, -1.0, 0.0),
        (1.0, 0.0, 1.0),
        (1.0, 0.0, -1.0),
    ];
    let mut all_views = vec![(1.0f32, 0.0f32, 0.0f32)];
    all_views.extend(shifts);
    let extra = [
        (0.9, 0.0, 0.0),
        (1.1, 0.0, 0.0),
        (1.0, 1.0, 1.0),
        (1.0, -1.0, -1.0),
        (1.0, 1.0, -1.0),
        (1.0, -1.0, 1.0),
        (0.85, 0.0, 0.0),
        (1.15, 0.0, 0.0),
        (1.0, 0.5, 0.0),
        (1.0, -0.5, 0.0),
        (1.0, 0.0, 0.5),
        (1.0, 0.0, -0.5),
    ];
    all_views.extend(extra);
    let read_owned = read_views(&reader, &cells, &all_views)?;
    let read = &read_owned;
    let inks = &inks;

    let mean = move |i: usize, vs: &[usize]| -> CellProbabilities {
        let mut p = [0.0f32; 10];
        for &v in vs {
            p.iter_mut().zip(&read[v][i]).for_each(|(a, b)| *a += b);
        }
        p.iter_mut().for_each(|a| *a /= vs.len() as f32);
        p
    };
    let blank = move |i: usize, mut p: CellProbabilities| -> CellProbabilities {
        if most_likely(&p) != 0 && too_little_for_a_digit(inks[i], &p) {
            p = as_empty(&p);
        }
        p
    };
    // (name, closure giving the final probabilities of cell i)
    type Variant<'a> = (String, Box<dyn Fn(usize) -> CellProbabilities + 'a>);
    let mut variants: Vec<Variant> = Vec::new();
    variants.push(("raw".into(), Box::new(|i| read[0][i])));
    variants.push(("raw+blank".into(), Box::new(|i| blank(i, read[0][i]))));
    for below in [0.9f32, 0.95, 0.99, 1.01] {
        variants.push((
            format!("steady<{below}(shifts4)+blank"),
            Box::new(move |i| {
                let p = read[0][i];
                let p = if p.iter().all(|&q| q < below) {
                    mean(i, &[0, 1, 2, 3, 4])
                } else {
                    p
                };
                blank(i, p)
            }),
        ));
    }
    let sets: Vec<(&str, Vec<usize>)> = vec![
        ("sh4+sc0.9,1.1", vec![0, 1, 2, 3, 4, 5, 6]),
        ("sh4+diag4", vec![0, 1, 2, 3, 4, 7, 8, 9, 10]),
        ("sh4+diag4+sc", vec![0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        ("sc0.9,1.1", vec![0, 5, 6]),
        ("sc.85-1.15", vec![0, 5, 6, 11, 12]),
        ("half-shifts", vec![0, 13, 14, 15, 16]),
        ("sh4+sc.85-1.15", vec![0, 1, 2, 3, 4, 5, 6, 11, 12]),
    ];
    for (name, vs) in sets {
        for below in [0.9f32, 0.99, 1.01] {
            let vs = vs.clone();
            variants.push((
                format!("steady<{below}({name})+blank"),
                Box::new(move |i| {
                    let p = read[0][i];
                    let p = if p.iter().all(|&q| q < below) {
                        mean(i, &vs)
                    } else {
                        p
                    };
                    blank(i, p)
                }),
            ));
        }
    }
    for (name, f) in &variants {
        let mut stats: BTreeMap<String, [usize; 5]> = BTreeMap::new();
        for (i, row) in rows.iter().enumerate() {
            let p = f(i);
            let got = most_likely(&p);
            let t = row.truth;
            let s = stats.entry(row.kind.clone()).or_default();
            s[0] += 1;
            if got == t {
                s[1] += 1;
            } else if t == 0 {
                s[2] += 1;
            } else if got == 0 {
                s[3] += 1;
            } else {
                s[4] += 1;
            }
        }
        let line: Vec<String> = stats
            .iter()
            .map(|(k, s)| {
                format!(
                    "{k} {}/{} e>d {} d>e {} d>d {}",
                    s[1], s[0], s[2], s[3], s[4]
                )
            })
            .collect();
        println!("{name:40} | {}", line.join(" | "));
    }
    Ok(())
}
