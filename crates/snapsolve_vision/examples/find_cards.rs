//! Finds cards in photos and writes each photo, shrunk, with the cards outlined:
//! `cargo run --release -p snapsolve_vision --example find_cards -- OUT_DIR PHOTO...`

use std::path::{Path, PathBuf};

use image::Rgb;
use imageproc::drawing::draw_line_segment_mut;
use snapsolve_vision::{Limits, find_cards, read_photo};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(out_dir) = args.next().map(PathBuf::from) else {
        eprintln!("usage: find_cards OUT_DIR PHOTO...");
        std::process::exit(2);
    };
    for path in args {
        let photo = match read_photo(Path::new(&path), Limits::default()) {
            Ok(photo) => photo,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let start = std::time::Instant::now();
        let quads = find_cards(&photo.image);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        println!("{path}: {} cards in {ms:.1} ms", quads.len());
        let factor =
            snapsolve_vision::shrink::shrink_factor(photo.image.width(), photo.image.height(), 800);
        let mut small = snapsolve_vision::shrink::shrink_by(&photo.image, factor);
        for quad in &quads {
            for i in 0..4 {
                let (a, b) = (quad.corners[i], quad.corners[(i + 1) % 4]);
                let colour = if i == 0 {
                    Rgb([255, 0, 0])
                } else {
                    Rgb([0, 255, 0])
                };
                let s = factor as f32;
                draw_line_segment_mut(
                    &mut small,
                    (a[0] / s, a[1] / s),
                    (b[0] / s, b[1] / s),
                    colour,
                );
            }
        }
        let name = Path::new(&path)
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        if let Err(e) = small.save(out_dir.join(format!("{name}.png"))) {
            eprintln!("{e}");
        }
    }
}
