//! Random solved grids and random puzzles with one solution (for tests, and for
//! rendering training grids), from a small seeded generator so runs repeat.

use crate::fast::FastSolver;
use crate::grid::{CELLS, Grid};
use crate::solver::Solver;

/// SplitMix64 (Steele, Lea and Flood 2014): tiny, seedable, good enough for shuffling.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator with this seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`; the modulo bias is below 2^-50 for small `n`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// A random complete grid: random digits are dropped into random cells as long as the
/// grid keeps a solution, until exactly one solution is left, which is returned.
pub fn random_solution(rng: &mut SplitMix64) -> Grid {
    let mut grid = Grid::default();
    let mut cells: Vec<usize> = (0..CELLS).collect();
    rng.shuffle(&mut cells);
    for cell in cells {
        let mut digits: Vec<u8> = (1..=9).collect();
        rng.shuffle(&mut digits);
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
pub fn random_puzzle(solution: &Grid, rng: &mut SplitMix64) -> Grid {
    let mut puzzle = *solution;
    let mut cells: Vec<usize> = (0..CELLS).collect();
    rng.shuffle(&mut cells);
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
    use super::*;
    use crate::backtrack::BacktrackSolver;
    use crate::rules::check_solution;

    #[test]
    fn random_grids_round_trip_through_both_solvers() {
        let mut rng = SplitMix64::new(42);
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
                holes.set(rng.below(CELLS), 0);
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
