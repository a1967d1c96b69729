//! Writes rendered sudoku photos (as the digit network trains on) to look at:
//! `cargo run --release -p snapsolve_synth --example sudoku_page -- OUT_DIR [COUNT]`.

use rand::SeedableRng;
use rand::rngs::StdRng;
use snapsolve_synth::sudoku::{PhotoStyle, load_system_fonts, random_spec, render_sudoku};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(args.next().ok_or("usage: sudoku_page OUT_DIR [COUNT]")?);
    let count: usize = args
        .next()
        .map_or(Ok(6), |c| c.parse())
        .map_err(|e| format!("COUNT: {e}"))?;
    let fonts = load_system_fonts()?;
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
