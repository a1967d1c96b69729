//! Writes rendered sudoku photos (as the digit network trains on) to look at:
//! `cargo run --release -p snapsolve_synth --example sudoku_page -- OUT_DIR [COUNT] [DIGITS_DIR]`.
//! With DIGITS_DIR (the shared `digits/` folder of MNIST IDX files), cells are
//! also filled in with real handwritten digits.

use rand::SeedableRng;
use rand::rngs::StdRng;
use snapsolve_synth::sudoku::written::parse_idx;
use snapsolve_synth::sudoku::{PhotoStyle, load_system_fonts, random_spec, render_sudoku};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: sudoku_page OUT_DIR [COUNT] [DIGITS_DIR]";
    let out = std::path::PathBuf::from(args.next().ok_or(usage)?);
    let count: usize = args
        .next()
        .map_or(Ok(6), |c| c.parse())
        .map_err(|e| format!("COUNT: {e}"))?;
    let mut fonts = load_system_fonts()?;
    if let Some(dir) = args.next().map(std::path::PathBuf::from) {
        let read = |name: &str| std::fs::read(dir.join(name)).map_err(|e| format!("{name}: {e}"));
        let images = read("mnist10k-images.idx3-ubyte")?;
        let labels = read("mnist10k-labels.idx1-ubyte")?;
        for (digit, bitmap) in parse_idx(&images, &labels)? {
            fonts.written.push(digit, bitmap);
        }
    }
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let start = std::time::Instant::now();
    for i in 0..count {
        let mut rng = StdRng::seed_from_u64(i as u64);
        let spec = random_spec(0.35, if i % 2 == 0 { 1.0 } else { 0.0 }, &mut rng);
        let photo = render_sudoku(&spec, &fonts, PhotoStyle::training(), (800, 600), &mut rng);
        let path = out.join(format!("sudoku-{i}.png"));
        photo.image.save(&path).map_err(|e| e.to_string())?;
        println!("{} corners {:?}", path.display(), photo.corners);
    }
    eprintln!(
        "{:.1} ms per photo",
        start.elapsed().as_secs_f64() * 1000.0 / count as f64
    );
    Ok(())
}
