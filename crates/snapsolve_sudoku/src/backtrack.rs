//! The plain reference solver of seed 002: take the first empty cell in reading
//! order, try 1 to 9, check each against its row, column and box by scanning, recurse.
//!
//! It is slow on hard puzzles (hundreds of thousands of nodes) and kept on purpose: it
//! shares no code with the fast solver, so tests compare the two, and the benchmark
//! shows what the bit-parallel work buys.

use crate::grid::{CELLS, Grid};
use crate::rules::find_clashes;
use crate::solver::Solver;

/// Seed 002's backtracking solver.
#[derive(Debug, Default, Clone, Copy)]
pub struct BacktrackSolver;

impl Solver for BacktrackSolver {
    fn name(&self) -> &'static str {
        "backtrack"
    }

    fn solutions(&self, puzzle: &Grid, limit: usize) -> Vec<Grid> {
        let mut found = Vec::new();
        // The seed's validity check only looks at new digits: clashing givens would
        // otherwise come back as a "solution".
        if limit == 0 || !find_clashes(puzzle).is_empty() {
            return found;
        }
        let mut cells = *puzzle.cells();
        search(&mut cells, limit, &mut found);
        found
    }
}

fn search(cells: &mut [u8; CELLS], limit: usize, found: &mut Vec<Grid>) {
    let Some(cell) = cells.iter().position(|&v| v == 0) else {
        if let Some(grid) = Grid::from_cells(*cells) {
            found.push(grid);
        }
        return;
    };
    for digit in 1..=9 {
        if allowed(cells, cell, digit) {
            cells[cell] = digit;
            search(cells, limit, found);
            cells[cell] = 0;
            if found.len() >= limit {
                return;
            }
        }
    }
}

fn allowed(cells: &[u8; CELLS], cell: usize, digit: u8) -> bool {
    let (row, col) = (cell / 9, cell % 9);
    let (top, left) = (row / 3 * 3, col / 3 * 3);
    (0..9).all(|i| {
        cells[row * 9 + i] != digit
            && cells[i * 9 + col] != digit
            && cells[(top + i / 3) * 9 + left + i % 3] != digit
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_an_easy_puzzle_and_counts_an_empty_grid() {
        let puzzle: Grid =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
                .parse()
                .unwrap();
        let found = BacktrackSolver.solutions(&puzzle, 2);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].to_line(),
            "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
        );
        assert_eq!(BacktrackSolver.count_solutions(&Grid::default(), 5), 5);
    }

    #[test]
    fn clashing_givens_have_no_solution() {
        let mut puzzle = Grid::default();
        puzzle.set(0, 1);
        puzzle.set(1, 1);
        assert_eq!(BacktrackSolver.count_solutions(&puzzle, 2), 0);
    }
}
