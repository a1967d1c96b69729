//! Draws the grid lattice found in each photo given: `grid_debug OUT_DIR IMAGE...`.
//! A developer's eye check of grid finding; writes `OUT_DIR/<name>.png`.

use std::path::Path;

use image::Rgb;
use snapsolve_vision::grid::{CELL_INPUT_SIDE, darkest_channel, find_grid, sample_cells};
use snapsolve_vision::{Limits, read_image};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out_dir, images)) = args.split_first() else {
        eprintln!("usage: grid_debug OUT_DIR IMAGE...");
        std::process::exit(2);
    };
    for path in images {
        let Ok(mut rgb) = read_image(Path::new(path), Limits::default()) else {
            eprintln!("{path}: unreadable");
            continue;
        };
        let start = std::time::Instant::now();
        let found = find_grid(&darkest_channel(&rgb));
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        if std::env::var_os("GRID_DEBUG_CANDIDATES").is_some() {
            // As `find_grid` weighs them: on the shrunken copy, score times side.
            let gray = darkest_channel(&rgb);
            let (small, factor) = snapsolve_vision::grid::outline::shrink_for_outlines(&gray);
            for quad in snapsolve_vision::grid::outline::candidate_quads_in(&small) {
                match snapsolve_vision::grid::lattice::fit_lattice(
                    &small,
                    &quad,
                    snapsolve_vision::grid::Greys::AsTheyAre,
                ) {
                    Some(f) => println!(
                        "  candidate {quad:?} (shrunk {factor}x): score {:.3} outer {:.3} beside {:.3} \
                         grid-like {} weight {:.1} fitted corners {:?}",
                        f.line_score,
                        f.outer_line_score,
                        f.beside_ink,
                        f.is_grid_like(),
                        f.line_score * f.area().sqrt(),
                        f.corners
                    ),
                    None => println!("  candidate {quad:?}: no lattice"),
                }
                if let Some(f) = snapsolve_vision::grid::lattice::fit_lattice(
                    &small,
                    &quad,
                    snapsolve_vision::grid::Greys::Stretched,
                ) {
                    println!(
                        "    in stretched greys: score {:.3} outer {:.3} beside {:.3} grid-like {}",
                        f.line_score,
                        f.outer_line_score,
                        f.beside_ink,
                        f.is_grid_like()
                    );
                }
            }
        }
        match &found {
            None => println!("{path}: no grid ({ms:.1} ms)"),
            Some(g) => {
                let cells = sample_cells(&darkest_channel(&rgb), &g.lattice);
                let side = CELL_INPUT_SIDE as u32;
                let mut mosaic = image::GrayImage::new(9 * (side + 2), 9 * (side + 2));
                for i in 0..81u32 {
                    for (k, v) in cells.cell(i as usize).iter().enumerate() {
                        let (x, y) = (
                            (i % 9) * (side + 2) + k as u32 % side,
                            (i / 9) * (side + 2) + k as u32 / side,
                        );
                        mosaic.put_pixel(x, y, image::Luma([(255.0 * (1.0 - v)) as u8]));
                    }
                }
                let stem = Path::new(path)
                    .file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_default();
                let _ = mosaic.save(Path::new(out_dir).join(format!("cells_{stem}.png")));
                println!(
                    "{path}: score {:.2} beside {:.3} corners {:?} ({ms:.1} ms)",
                    g.line_score, g.beside_ink, g.corners
                );
                for row in &g.lattice.points {
                    for &(x, y) in row {
                        for d in -3i32..=3 {
                            for (dx, dy) in [(d, 0), (0, d)] {
                                let (px, py) = (x as i32 + dx, y as i32 + dy);
                                if px >= 0
                                    && py >= 0
                                    && (px as u32) < rgb.width()
                                    && (py as u32) < rgb.height()
                                {
                                    rgb.put_pixel(px as u32, py as u32, Rgb([255, 0, 255]));
                                }
                            }
                        }
                    }
                }
            }
        }
        let name = Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let parent = Path::new(path)
            .parent()
            .and_then(|p| p.file_name())
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let small = image::imageops::thumbnail(
            &rgb,
            640.min(rgb.width()),
            640.min(rgb.width()) * rgb.height() / rgb.width(),
        );
        let _ = small.save(Path::new(out_dir).join(format!("{parent}_{name}.png")));
    }
}
