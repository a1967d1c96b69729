//! Held-out puzzles for tuning the fast solver's thresholds without looking at the
//! five reported files: generated from random grids with a fixed seed
//! (`--held-out DIR` writes them). Norvig's and the crate's hard sets, the rest of the
//! held-out puzzles, are in the shared data (BENCHMARKS.md, "Sudoku solvers").

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use snapsolve_sudoku::Grid;
use snapsolve_sudoku::generate::{random_puzzle, random_solution};

/// Seed of the generated held-out files (the date of the round: 2026-11-24).
const SEED: u64 = 20_261_124;

/// Writes `gen_holes.txt` (2000 grids with 45-60 random cells emptied: mostly
/// several solutions), `gen_boxes.txt` (2000 grids with four random boxes and up to
/// ten more cells emptied: several solutions) and `gen_unique.txt` (1000 minimal
/// puzzles with one solution) to `dir`.
pub fn write(dir: &str) -> Result<(), String> {
    let mut rng = Pcg64Mcg::seed_from_u64(SEED);
    let (mut unique, mut holes, mut boxes) = (String::new(), String::new(), String::new());
    for i in 0..2000 {
        let solution = random_solution(&mut rng);
        if i < 1000 {
            push_line(&mut unique, &random_puzzle(&solution, &mut rng));
        }
        let mut grid = solution;
        let count = rng.random_range(45..=60);
        let mut emptied = 0;
        while emptied < count {
            let cell = rng.random_range(0..81);
            if grid.get(cell) != 0 {
                grid.set(cell, 0);
                emptied += 1;
            }
        }
        push_line(&mut holes, &grid);
        let mut grid = solution;
        let mut cleared = 0u32;
        while cleared.count_ones() < 4 {
            cleared |= 1 << rng.random_range(0..9);
        }
        for cell in 0..81 {
            let in_box = (cell / 27) * 3 + (cell % 9) / 3;
            if cleared >> in_box & 1 == 1 {
                grid.set(cell, 0);
            }
        }
        for _ in 0..10 {
            grid.set(rng.random_range(0..81), 0);
        }
        push_line(&mut boxes, &grid);
    }
    for (name, text) in [
        ("gen_holes.txt", holes),
        ("gen_boxes.txt", boxes),
        ("gen_unique.txt", unique),
    ] {
        let path = std::path::Path::new(dir).join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn push_line(text: &mut String, grid: &Grid) {
    text.push_str(&grid.to_line());
    text.push('\n');
}
