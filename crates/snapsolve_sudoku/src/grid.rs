//! The 9x9 grid: 81 cells in row-major order, each empty (0) or holding a digit 1-9.

use std::fmt;

/// Number of cells.
pub const CELLS: usize = 81;

/// A sudoku grid, row by row; `0` is an empty cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

impl Default for Grid {
    fn default() -> Self {
        Grid { cells: [0; CELLS] }
    }
}

impl Grid {
    /// A grid from 81 cell values (0 = empty). `None` if a value is above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Grid> {
        // A fold rather than `all`, which stops early and so cannot be vectorised.
        let valid = cells.iter().fold(true, |ok, &v| ok & (v <= 9));
        valid.then_some(Grid { cells })
    }

    /// The 81 cell values, row by row (0 = empty).
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// Value of one cell (0 = empty).
    ///
    /// # Panics
    /// If `cell >= 81`.
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets one cell (0 empties it).
    ///
    /// # Panics
    /// If `cell >= 81` or `digit > 9`.
    pub fn set(&mut self, cell: usize, digit: u8) {
        assert!(digit <= 9, "a sudoku digit is 0..=9, got {digit}");
        self.cells[cell] = digit;
    }

    /// How many cells hold a digit.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The 81-character line form, `.` for an empty cell.
    pub fn to_line(&self) -> String {
        self.line_bytes().iter().map(|&b| char::from(b)).collect()
    }

    /// The line form as ASCII bytes, without allocating (for writers of many
    /// answers); a plain map over the cells, which compiles to vector code.
    pub fn line_bytes(&self) -> [u8; CELLS] {
        self.cells.map(|v| if v == 0 { b'.' } else { b'0' + v })
    }

    /// A framed 9x9 picture for people, boxes separated by lines.
    pub fn to_pretty(&self) -> String {
        let mut out = String::new();
        let rule = "+-------+-------+-------+\n";
        for row in 0..9 {
            if row % 3 == 0 {
                out.push_str(rule);
            }
            for col in 0..9 {
                if col % 3 == 0 {
                    out.push_str("| ");
                }
                let v = self.cells[row * 9 + col];
                out.push(if v == 0 { '.' } else { char::from(b'0' + v) });
                out.push(' ');
            }
            out.push_str("|\n");
        }
        out.push_str(rule);
        out
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

/// Row (0-8) of a cell.
pub const fn row_of(cell: usize) -> usize {
    cell / 9
}

/// Column (0-8) of a cell.
pub const fn col_of(cell: usize) -> usize {
    cell % 9
}

/// Box (0-8, row-major) of a cell.
pub const fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// The people's name of a cell: `r4c2` is row 4, column 2 (both counted from 1).
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", row_of(cell) + 1, col_of(cell) + 1)
}

/// Cells (0-80, row by row) named as [`cell_name`] does, joined by `separator`.
pub fn cell_names(cells: &[usize], separator: &str) -> String {
    cells
        .iter()
        .map(|&cell| cell_name(cell))
        .collect::<Vec<_>>()
        .join(separator)
}

/// A row, column or box: the 27 groups of nine cells that must hold 1-9 once each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Row 0-8.
    Row(usize),
    /// Column 0-8.
    Column(usize),
    /// Box 0-8, numbered row by row.
    Box(usize),
}

impl Unit {
    /// All 27 units: rows, then columns, then boxes.
    pub fn all() -> impl Iterator<Item = Unit> {
        (0..9)
            .map(Unit::Row)
            .chain((0..9).map(Unit::Column))
            .chain((0..9).map(Unit::Box))
    }

    /// The nine cells of this unit, in reading order.
    pub fn cells(self) -> [usize; 9] {
        std::array::from_fn(|i| match self {
            Unit::Row(r) => r * 9 + i,
            Unit::Column(c) => i * 9 + c,
            Unit::Box(b) => (b / 3) * 27 + (b % 3) * 3 + (i / 3) * 9 + i % 3,
        })
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(r) => write!(f, "row {}", r + 1),
            Unit::Column(c) => write!(f, "column {}", c + 1),
            Unit::Box(b) => write!(f, "box {}", b + 1),
        }
    }
}

/// The 20 cells that share a row, column or box with `cell`.
pub fn peers(cell: usize) -> impl Iterator<Item = usize> {
    (0..CELLS).filter(move |&other| {
        other != cell
            && (row_of(other) == row_of(cell)
                || col_of(other) == col_of(cell)
                || box_of(other) == box_of(cell))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_cover_every_cell_three_times() {
        let mut seen = [0; CELLS];
        for unit in Unit::all() {
            for cell in unit.cells() {
                seen[cell] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 3));
        assert_eq!(Unit::Box(4).cells()[0], 30);
        assert_eq!(box_of(80), 8);
        assert_eq!(box_of(33), 5);
    }

    #[test]
    fn every_cell_has_twenty_peers() {
        for cell in 0..CELLS {
            assert_eq!(peers(cell).count(), 20);
        }
    }

    #[test]
    fn line_and_pretty_forms() {
        let mut grid = Grid::default();
        grid.set(0, 5);
        grid.set(80, 9);
        let line = grid.to_line();
        assert_eq!(line.len(), 81);
        assert!(line.starts_with("5.") && line.ends_with(".9"));
        assert_eq!(grid.to_pretty().lines().count(), 13);
        assert_eq!(cell_name(10), "r2c2");
    }
}
