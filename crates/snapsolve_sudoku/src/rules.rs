//! The rules: which givens clash, and whether a filled grid is a solution of a puzzle.

use std::fmt;

use crate::grid::{CELLS, Grid, Unit, cell_name};

/// Two givens with the same digit in one row, column or box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clash {
    /// The repeated digit.
    pub digit: u8,
    /// Where it repeats.
    pub unit: Unit,
    /// The two cells (indices 0-80, the first one first).
    pub cells: [usize; 2],
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} appears twice in {} ({} and {})",
            self.digit,
            self.unit,
            cell_name(self.cells[0]),
            cell_name(self.cells[1])
        )
    }
}

/// Every pair of clashing givens, unit by unit (rows, columns, boxes).
pub fn find_clashes(grid: &Grid) -> Vec<Clash> {
    let mut clashes = Vec::new();
    for unit in Unit::all() {
        let mut first_at: [Option<usize>; 10] = [None; 10];
        for cell in unit.cells() {
            let digit = grid.get(cell);
            if digit == 0 {
                continue;
            }
            match first_at[usize::from(digit)] {
                Some(first) => clashes.push(Clash {
                    digit,
                    unit,
                    cells: [first, cell],
                }),
                None => first_at[usize::from(digit)] = Some(cell),
            }
        }
    }
    clashes
}

/// Why a grid is not a solution of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotASolution {
    /// A cell is still empty.
    Empty(usize),
    /// A given of the puzzle was changed.
    ChangedGiven(usize),
    /// A digit repeats.
    Clash(Clash),
}

impl fmt::Display for NotASolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotASolution::Empty(cell) => write!(f, "{} is empty", cell_name(*cell)),
            NotASolution::ChangedGiven(cell) => {
                write!(f, "the given at {} changed", cell_name(*cell))
            }
            NotASolution::Clash(clash) => clash.fmt(f),
        }
    }
}

/// Checks `solution` against the rules and against the givens of `puzzle`.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> Result<(), NotASolution> {
    for cell in 0..CELLS {
        if solution.get(cell) == 0 {
            return Err(NotASolution::Empty(cell));
        }
        if puzzle.get(cell) != 0 && puzzle.get(cell) != solution.get(cell) {
            return Err(NotASolution::ChangedGiven(cell));
        }
    }
    match find_clashes(solution).first() {
        Some(clash) => Err(NotASolution::Clash(*clash)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLVED: &str =
        "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

    #[test]
    fn a_solution_passes_and_a_broken_one_is_named() {
        let solution: Grid = SOLVED.parse().unwrap();
        let mut puzzle = solution;
        puzzle.set(0, 0);
        assert_eq!(check_solution(&puzzle, &solution), Ok(()));

        let mut swapped = solution;
        swapped.set(0, 9);
        swapped.set(1, 4);
        assert!(matches!(
            check_solution(&puzzle, &swapped),
            Err(NotASolution::ChangedGiven(1))
        ));
        assert_eq!(
            check_solution(&swapped, &swapped).unwrap_err().to_string(),
            "9 appears twice in row 1 (r1c1 and r1c4)"
        );
    }

    #[test]
    fn clashes_name_both_cells() {
        let mut grid = Grid::default();
        grid.set(0, 5);
        grid.set(80, 5);
        assert!(find_clashes(&grid).is_empty());
        grid.set(72, 5);
        let clashes = find_clashes(&grid);
        assert_eq!(clashes.len(), 2);
        assert_eq!(
            clashes[0].to_string(),
            "5 appears twice in row 9 (r9c1 and r9c9)"
        );
        assert_eq!(clashes[1].cells, [0, 72]);
    }
}
