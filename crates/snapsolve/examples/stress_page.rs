//! Writes one rendered sudoku stress page as photographed, without anything
//! drawn on it, to study with `grid_debug` or `sudoku photo`:
//! `stress_page CONDITION INDEX OUT.png` (conditions as `eval sudoku-stress`).

use snapsolve::sudoku_photo::stress::{PageCondition, render_stress_page, stress_fonts};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [condition, index, out] = args.as_slice() else {
        return Err("usage: stress_page CONDITION INDEX OUT.png".into());
    };
    let condition =
        PageCondition::by_name(condition).ok_or_else(|| format!("no condition {condition}"))?;
    let index = index.parse().map_err(|e| format!("INDEX: {e}"))?;
    let page = render_stress_page(condition, index, &stress_fonts()?);
    page.photo.image.save(out).map_err(|e| e.to_string())
}
