//! Why a puzzle has no solution, in words a person can check.
//!
//! The cheapest proofs are named: givens that clash; else empty cells that no digit
//! fits and digits with no place left in a row, column or box (both judged from the
//! givens alone, without any deduction); only when there are none, "search".

use std::fmt;

use crate::grid::{CELLS, Grid, Unit, cell_name};
use crate::rules::{Clash, find_clashes};

/// A reason for "no solution".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSolution {
    /// Two givens clash.
    Clash(Clash),
    /// An empty cell sees all nine digits among its peers.
    DeadCell {
        /// The cell.
        cell: usize,
    },
    /// A digit missing from a unit fits none of the unit's empty cells.
    NoPlace {
        /// The digit.
        digit: u8,
        /// The row, column or box.
        unit: Unit,
    },
    /// The contradiction lies deeper: every way of filling the grid fails.
    Search,
}

impl fmt::Display for NoSolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoSolution::Clash(clash) => write!(f, "the givens clash: {clash}"),
            NoSolution::DeadCell { cell } => {
                write!(
                    f,
                    "no digit fits {}: its row, column and box already hold 1-9",
                    cell_name(*cell)
                )
            }
            NoSolution::NoPlace { digit, unit } => {
                write!(f, "{digit} has no place left in {unit}")
            }
            NoSolution::Search => write!(
                f,
                "no solution: every way of filling the empty cells leads to a contradiction"
            ),
        }
    }
}

/// Digits (bit d for digit d) that fit each cell given the placed digits alone; 0 for
/// a filled cell.
pub fn basic_candidates(grid: &Grid) -> [u16; CELLS] {
    let mut seen = [0u16; 27];
    for cell in 0..CELLS {
        let digit = grid.get(cell);
        if digit != 0 {
            for unit in units_of(cell) {
                seen[unit] |= 1 << digit;
            }
        }
    }
    std::array::from_fn(|cell| {
        if grid.get(cell) != 0 {
            return 0;
        }
        let [a, b, c] = units_of(cell);
        0x3fe & !(seen[a] | seen[b] | seen[c])
    })
}

/// Index (0-26: rows, columns, boxes) of the three units of a cell.
fn units_of(cell: usize) -> [usize; 3] {
    [cell / 9, 9 + cell % 9, 18 + crate::grid::box_of(cell)]
}

/// Why `grid` (already known to have no solution) has none: every clash if the
/// givens clash, else every dead cell and every digit without a place, else `[Search]`.
pub fn explain_no_solution(grid: &Grid) -> Vec<NoSolution> {
    let clashes: Vec<_> = find_clashes(grid)
        .into_iter()
        .map(NoSolution::Clash)
        .collect();
    if !clashes.is_empty() {
        return clashes;
    }
    let candidates = basic_candidates(grid);
    let mut reasons: Vec<_> = (0..CELLS)
        .filter(|&c| grid.get(c) == 0 && candidates[c] == 0)
        .map(|cell| NoSolution::DeadCell { cell })
        .collect();
    for unit in Unit::all() {
        let cells = unit.cells();
        for digit in 1..=9u8 {
            let placed = cells.iter().any(|&c| grid.get(c) == digit);
            let fits = cells.iter().any(|&c| candidates[c] & (1 << digit) != 0);
            if !placed && !fits {
                reasons.push(NoSolution::NoPlace { digit, unit });
            }
        }
    }
    if reasons.is_empty() {
        reasons.push(NoSolution::Search);
    }
    reasons
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dead_cell_and_no_place() {
        // r1c1 sees 1-8 in its row and 9 in its column.
        let mut grid = Grid::default();
        for (i, d) in (1..=8).enumerate() {
            grid.set(i + 1, d);
        }
        grid.set(9 * 5, 9);
        assert_eq!(
            explain_no_solution(&grid),
            [
                NoSolution::DeadCell { cell: 0 },
                NoSolution::NoPlace {
                    digit: 9,
                    unit: Unit::Row(0)
                }
            ]
        );
        assert!(explain_no_solution(&grid)[0].to_string().contains("r1c1"));

        // Box 1: row 1 and columns 1-2 see a 1, and its other two cells are filled,
        // which also leaves column 3 no place for 1.
        let mut grid = Grid::default();
        for (cell, digit) in [(5, 1), (36, 1), (64, 1), (11, 2), (20, 3)] {
            grid.set(cell, digit);
        }
        let reasons = explain_no_solution(&grid);
        assert_eq!(
            reasons,
            [
                NoSolution::NoPlace {
                    digit: 1,
                    unit: Unit::Column(2)
                },
                NoSolution::NoPlace {
                    digit: 1,
                    unit: Unit::Box(0)
                },
            ]
        );
        assert_eq!(reasons[0].to_string(), "1 has no place left in column 3");
        let mut clash = grid;
        clash.set(1, 1);
        assert!(matches!(
            explain_no_solution(&clash)[..],
            [NoSolution::Clash(_), ..]
        ));
    }
}
