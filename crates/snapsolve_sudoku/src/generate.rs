//! Random solved grids and random puzzles with one solution (for tests, and for
//! rendering training grids), from any `rand` generator; seed one (for example
//! `rand_pcg::Pcg64Mcg::seed_from_u64`) and runs repeat.

use rand::Rng;
use rand::seq::SliceRandom;

use crate::fast::FastSolver;
use crate::grid::{CELLS, Grid};
use crate::solver::Solver;

/// A random complete grid: random digits are dropped into random cells as long as the
/// grid keeps a solution, until exactly one solution is left, which is returned.
pub fn random_solution<R: Rng + ?Sized>(rng: &mut R) -> Grid {
    let mut grid = Grid::default();
    let mut cells: Vec<usize> = (0..CELLS).collect();
    cells.shuffle(rng);
    for cell in cells {
        let mut digits: Vec<u8> = (1..=9).collect();
        digits.shuffle(rng);
        for digit in digits {
            grid.set(cell, digit);
            match FastSolver.solutions(&grid, 2).as_slice() {
                [] => continue,
                [only] => return *only,
                _ => break,
            }
        }
    }
    grid
}

/// A puzzle whose only solution is `solution`: cells are emptied in random order,
/// each kept empty only if the solution stays unique (so the result is minimal).
pub fn random_puzzle<R: Rng + ?Sized>(solution: &Grid, rng: &mut R) -> Grid {
    let mut puzzle = *solution;
    let mut cells: Vec<usize> = (0..CELLS).collect();
    cells.shuffle(rng);
    for cell in cells {
        let digit = puzzle.get(cell);
        puzzle.set(cell, 0);
        if FastSolver.count_solutions(&puzzle, 2) != 1 {
            puzzle.set(cell, digit);
        }
    }
    puzzle
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    use super::*;
    use crate::backtrack::BacktrackSolver;
    use crate::rules::check_solution;

    #[test]
    fn random_grids_round_trip_through_both_solvers() {
        let mut rng = Pcg64Mcg::seed_from_u64(42);
        for _ in 0..20 {
            let solution = random_solution(&mut rng);
            check_solution(&Grid::default(), &solution).unwrap();
            let puzzle = random_puzzle(&solution, &mut rng);
            assert!(puzzle.givens() < 40, "{puzzle}");
            assert_eq!(FastSolver.solutions(&puzzle, 2), vec![solution]);
            // Minimal: emptying any further given makes the solution ambiguous.
            let given = (0..CELLS).find(|&c| puzzle.get(c) != 0).unwrap();
            let mut looser = puzzle;
            looser.set(given, 0);
            assert_eq!(FastSolver.count_solutions(&looser, 2), 2);
            // Cells removed at random (not necessarily unique): every solution found by
            // one solver is found by the other, and the original is among them.
            let mut holes = solution;
            for _ in 0..45 {
                holes.set(rng.random_range(0..CELLS), 0);
            }
            let mut fast = FastSolver.solutions(&holes, 1000);
            let mut reference = BacktrackSolver.solutions(&holes, 1000);
            fast.sort_by_key(Grid::to_line);
            reference.sort_by_key(Grid::to_line);
            assert_eq!(fast, reference);
            assert!(fast.contains(&solution));
        }
    }
}
