//! Writes tables of the rendered stress suite as they are rendered, before
//! any reading (`eval set-stress --pictures` draws the answers on them), to
//! feed the card finder's debugging tools:
//! `stress_tables CONDITION FIRST COUNT OUT_DIR [WIDTHxHEIGHT]` writes
//! `CONDITION-INDEX.png`, resized (Lanczos) when a size is given: a webcam's
//! 960x720, say, which the finder works at full size.

use image::imageops::FilterType;
use snapsolve::set_photo::stress::Condition;
use snapsolve_synth::render_table;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, first, count, out, size) = match args.as_slice() {
        [name, first, count, out] => (name, first, count, out, None),
        [name, first, count, out, size] => (name, first, count, out, Some(parse_size(size)?)),
        _ => {
            return Err("usage: stress_tables CONDITION FIRST COUNT OUT_DIR [WIDTHxHEIGHT]".into());
        }
    };
    let condition = Condition::by_name(name).ok_or(format!("no condition {name}"))?;
    let number = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let first = number(first)?;
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    for index in first..first + number(count)? {
        let mut image = render_table(&condition.spec(index)).image;
        if let Some((width, height)) = size {
            image = image::imageops::resize(&image, width, height, FilterType::Lanczos3);
        }
        let path = std::path::Path::new(out).join(format!("{name}-{index}.png"));
        image.save(&path).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `WIDTHxHEIGHT` as two numbers.
fn parse_size(size: &str) -> Result<(u32, u32), String> {
    let (width, height) = size
        .split_once('x')
        .ok_or(format!("{size}: not WIDTHxHEIGHT"))?;
    let number = |s: &str| s.parse::<u32>().map_err(|e| format!("{size}: {e}"));
    Ok((number(width)?, number(height)?))
}
