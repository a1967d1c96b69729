//! The fast solver: band-oriented bitboards, triad filters, singles and guessing.
//!
//! # Data layout
//!
//! The grid is three horizontal *bands* of 27 cells. For every digit `d` and band `b`
//! one `u32` holds where `d` may still go (`cand[3 * d + b]`):
//!
//! ```text
//!  bit:  26 .............. 18 17 .............. 9 8 ............... 0
//!        | row 2 of band      | row 1 of band     | row 0 of band     |
//!        | c8 c7 c6 ... c0    | c8 c7 c6 ... c0   | c8 c7 c6 ... c0   |
//! ```
//!
//! so a row is 9 contiguous bits, a box is three 3-bit groups 9 apart, and a column is
//! the same bit in each row. 27 words = 108 bytes of candidates; the whole search state
//! (plus 3 words of unplaced cells and 3 of placed digit-rows) is 136 bytes and is
//! copied by value at each guess: no undo log.
//!
//! # Propagation, per digit
//!
//! A *triad* is the three cells where a row (or column) crosses a box. Inside one band a
//! digit must sit once in each of the 3 rows and once in each of the 3 boxes, so its
//! non-empty row/box triads form a 3x3 boolean matrix that must contain a permutation
//! matrix. [`PERM_KEEP`] (512 entries) keeps exactly the triads lying on some
//! permutation; this one lookup does pointing *and* claiming (locked candidates) inside
//! the band, and more (Hall sets of two rows). The same table applied to the 3x3 matrix
//! of band/column triads of a *stack* does the vertical locked candidates across bands.
//! A digit is filtered horizontally and vertically until it stops changing.
//!
//! Singles: a digit-row reduced to one bit is a hidden single; the cell is taken from
//! the other eight digits. Naked singles come from bit-sliced counts over the nine
//! digit words of a band (`one`, `two`, `three` = cells with at least 1, 2, 3
//! candidates). When nothing changes, the solver guesses on a cell with two candidates
//! (the first found, as JCZSolve does), else on the cell with fewest candidates.
//!
//! # Alternatives (figures and commands in BENCHMARKS.md, "Sudoku solvers")
//!
//! Measured and lost: re-filtering all three bands of a dirty digit horizontally and
//! vertically until a full pass changes nothing (always at least two passes): about
//! 0.7x the speed of the current loop, which relies on both filters being idempotent
//! to skip unchanged bands, skips the vertical pass when no band's column set changed,
//! returns at once for a digit whose words are unchanged, and scans for naked singles
//! only in bands touched since the last scan.
//!
//! Chosen by reasoning, not measured: one `u128` of 81 bits per digit would make every
//! shift and mask two instructions and split boxes across word halves, while 27-bit
//! band words keep rows and boxes inside one register (JCZSolve and tdoku both
//! band their bitboards).
//!
//! This solver is still about half as fast as the registry crate `sudoku` (a JCZSolve
//! port) on the hard files; see BENCHMARKS.md for what remains to try.

use crate::grid::{CELLS, Grid};
use crate::solver::Solver;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// One row of a band.
const ROW: u32 = 0x1ff;

/// Which of the 3 boxes a 9-bit row touches: bit k set if columns 3k..3k+2 are not empty.
const ROW_BOXES: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut row = 0;
    while row < 512 {
        let mut k = 0;
        while k < 3 {
            if (row >> (3 * k)) & 7 != 0 {
                table[row] |= 1 << k;
            }
            k += 1;
        }
        row += 1;
    }
    table
};

/// For a 3x3 boolean matrix (bit `3i + j` = entry (i, j)), the entries that lie on at
/// least one permutation contained in the matrix; 0 when the matrix contains none.
const PERM_KEEP: [u16; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            let bits = (1 << PERMS[p][0]) | (1 << (3 + PERMS[p][1])) | (1 << (6 + PERMS[p][2]));
            if m & bits == bits {
                table[m] |= bits as u16;
            }
            p += 1;
        }
        m += 1;
    }
    table
};

/// Row/box triad matrix of a band → mask of the band's cells in the triads kept by
/// [`PERM_KEEP`]; 0 when the digit cannot be placed in the band at all.
const H_FILTER: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let keep = PERM_KEEP[m] as u32;
        let mut t = 0;
        while t < 9 {
            if keep & (1 << t) != 0 {
                let (row, bx) = (t / 3, t % 3);
                table[m] |= 7 << (9 * row + 3 * bx);
            }
            t += 1;
        }
        m += 1;
    }
    table
};

/// 9 column bits → the same columns in all three rows of a band.
const fn columns_mask(cols: u32) -> u32 {
    cols | (cols << 9) | (cols << 18)
}

/// Search state; see the module documentation for the layout.
#[derive(Clone, Copy)]
struct State {
    cand: [u32; 27],
    /// `cand` as it was after the digit's last filter (skips unchanged bands).
    seen: [u32; 27],
    /// Cells not yet placed, per band.
    unplaced: [u32; 3],
    /// Digit-rows already placed, per band: bit `3 * digit + row`.
    placed_rows: [u32; 3],
    /// Digits whose candidates changed since they were last filtered.
    dirty: u32,
    /// Bands whose candidates changed since the last search for naked singles.
    touched: u32,
}

/// Outcome of propagation.
#[derive(PartialEq, Eq)]
enum Progress {
    Contradiction,
    Solved,
    Stuck,
}

impl State {
    /// Candidates of an empty grid with `puzzle`'s givens placed; `None` if two givens
    /// already take the same cell's digit away (a clash found without propagating).
    fn new(puzzle: &Grid) -> Option<State> {
        let mut state = State {
            cand: [BAND; 27],
            seen: [0; 27],
            unplaced: [BAND; 3],
            placed_rows: [0; 3],
            dirty: 0,
            touched: 0b111,
        };
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                let (band, bit) = (cell / 27, 1u32 << (cell % 27));
                if !state.place(usize::from(digit - 1), band, bit) {
                    return None;
                }
            }
        }
        Some(state)
    }

    /// Puts `digit` (0-8) in the cell `bit` of `band`: removes the cell from every other
    /// digit and the digit from the rest of its row; the triad filters do the rest.
    /// False if the digit was no longer possible there.
    #[inline]
    fn place(&mut self, digit: usize, band: usize, bit: u32) -> bool {
        let own = 3 * digit + band;
        if self.cand[own] & bit == 0 {
            return false;
        }
        for d in 0..9 {
            let i = 3 * d + band;
            self.dirty |= u32::from(self.cand[i] & bit != 0) << d;
            self.cand[i] &= !bit;
        }
        self.cand[own] |= bit;
        let row = bit.trailing_zeros() / 9;
        self.cand[own] &= !(ROW << (9 * row)) | bit;
        self.unplaced[band] &= !bit;
        self.touched |= 1 << band;
        self.placed_rows[band] |= 1 << (3 * digit as u32 + row);
        self.dirty |= 1 << digit;
        true
    }

    /// Horizontal and vertical triad filters of one digit until it stops changing, then
    /// its hidden singles (digit-rows down to one cell). False on a contradiction.
    ///
    /// Both filters are idempotent, so the horizontal one runs only on bands that
    /// changed since this digit was last filtered (or since the vertical pass), and the
    /// loop ends as soon as a vertical pass removes nothing.
    #[inline]
    fn filter_digit(&mut self, digit: usize) -> bool {
        let base = 3 * digit;
        let mut a = [self.cand[base], self.cand[base + 1], self.cand[base + 2]];
        let mut todo = 0u32;
        for (band, (word, seen)) in a.iter().zip(&self.seen[base..base + 3]).enumerate() {
            todo |= u32::from(word != seen) << band;
        }
        if todo == 0 {
            // Unchanged since its last filter, which ended at a fixpoint.
            return true;
        }
        let mut changed = todo;
        // The vertical filter sees only which columns each band still has: if the
        // horizontal pass leaves those as they were at the last fixpoint, skip it.
        let old_columns = [
            columns(self.seen[base]),
            columns(self.seen[base + 1]),
            columns(self.seen[base + 2]),
        ];
        loop {
            for (band, word) in a.iter_mut().enumerate() {
                if todo & (1 << band) != 0 {
                    *word &= H_FILTER[triads(*word)];
                    if *word == 0 {
                        return false;
                    }
                }
            }
            let s = [columns(a[0]), columns(a[1]), columns(a[2])];
            if s == old_columns {
                break;
            }
            let mut m = [0u32; 3];
            for stack in 0..3 {
                let shift = 3 * stack;
                let matrix = ((s[0] >> shift) & 7)
                    | (((s[1] >> shift) & 7) << 3)
                    | (((s[2] >> shift) & 7) << 6);
                let keep = u32::from(PERM_KEEP[matrix as usize]);
                if keep == 0 {
                    return false;
                }
                m[0] |= (keep & 7) << shift;
                m[1] |= ((keep >> 3) & 7) << shift;
                m[2] |= ((keep >> 6) & 7) << shift;
            }
            todo = 0;
            for band in 0..3 {
                if m[band] != s[band] {
                    a[band] &= columns_mask(m[band]);
                    todo |= 1 << band;
                }
            }
            if todo == 0 {
                break;
            }
            changed |= todo;
        }
        self.cand[base..base + 3].copy_from_slice(&a);
        self.seen[base..base + 3].copy_from_slice(&a);
        self.touched |= changed;
        (0..3).all(|band| changed & (1 << band) == 0 || self.hidden_singles(digit, band, a[band]))
    }

    /// Places `digit` wherever one of its not-yet-placed rows in `band` has one cell left.
    #[inline]
    fn hidden_singles(&mut self, digit: usize, band: usize, word: u32) -> bool {
        let open = !(self.placed_rows[band] >> (3 * digit)) & 7;
        if open == 0 {
            return true;
        }
        for row in 0..3 {
            if open & (1 << row) != 0 {
                let bits = (word >> (9 * row)) & ROW;
                if bits & (bits - 1) == 0 && !self.place(digit, band, bits << (9 * row)) {
                    return false;
                }
            }
        }
        true
    }

    /// Filters dirty digits and places singles until nothing changes.
    fn propagate(&mut self) -> Progress {
        loop {
            while self.dirty != 0 {
                let digit = self.dirty.trailing_zeros() as usize;
                self.dirty &= self.dirty - 1;
                if !self.filter_digit(digit) {
                    return Progress::Contradiction;
                }
            }
            match self.naked_singles() {
                None => return Progress::Contradiction,
                Some(true) => continue,
                Some(false) => {}
            }
            if self.dirty == 0 {
                return if self.unplaced == [0; 3] {
                    Progress::Solved
                } else {
                    Progress::Stuck
                };
            }
        }
    }

    /// Places every unplaced cell that has one candidate left. `None` on an empty cell,
    /// else whether anything was placed.
    fn naked_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        let touched = std::mem::take(&mut self.touched);
        for band in 0..3 {
            let open = self.unplaced[band];
            if open == 0 || touched & (1 << band) == 0 {
                continue;
            }
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[3 * d + band];
                two |= one & x;
                one |= x;
            }
            if open & !one != 0 {
                return None;
            }
            let mut singles = open & !two;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles &= singles - 1;
                let digit = (0..9).find(|&d| self.cand[3 * d + band] & bit != 0)?;
                if !self.place(digit, band, bit) {
                    return None;
                }
                placed = true;
            }
        }
        Some(placed)
    }

    /// The cell to guess on: `(band, bit)` of the first cell with two candidates, else of
    /// an unplaced cell with the fewest.
    fn guess_cell(&self) -> (usize, u32) {
        for band in 0..3 {
            let open = self.unplaced[band];
            if open == 0 {
                continue;
            }
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[3 * d + band];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let pairs = open & two & !three;
            if pairs != 0 {
                return (band, pairs & pairs.wrapping_neg());
            }
        }
        // No cell with two candidates: count them all (rare: a few nodes per hard puzzle).
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut open = self.unplaced[band];
            while open != 0 {
                let bit = open & open.wrapping_neg();
                open &= open - 1;
                let count = (0..9)
                    .filter(|&d| self.cand[3 * d + band] & bit != 0)
                    .count() as u32;
                if count < best.2 {
                    best = (band, bit, count);
                }
            }
        }
        (best.0, best.1)
    }

    fn solution(&self) -> Option<Grid> {
        let mut cells = [0u8; CELLS];
        for d in 0..9 {
            for band in 0..3 {
                let mut bits = self.cand[3 * d + band];
                while bits != 0 {
                    let pos = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    cells[27 * band + pos] = d as u8 + 1;
                }
            }
        }
        Grid::from_cells(cells)
    }
}

/// Row/box triad matrix of a band word: bit `3 * row + box`.
#[inline]
fn triads(a: u32) -> usize {
    usize::from(ROW_BOXES[(a & ROW) as usize])
        | usize::from(ROW_BOXES[((a >> 9) & ROW) as usize]) << 3
        | usize::from(ROW_BOXES[(a >> 18) as usize]) << 6
}

/// Columns (9 bits) where a band word has a candidate.
#[inline]
fn columns(a: u32) -> u32 {
    (a | (a >> 9) | (a >> 18)) & ROW
}

/// Depth-first search; stops once `found` holds `limit` solutions.
fn search(mut state: State, limit: usize, found: &mut Vec<Grid>) {
    loop {
        match state.propagate() {
            Progress::Contradiction => return,
            Progress::Solved => {
                if let Some(grid) = state.solution() {
                    found.push(grid);
                }
                return;
            }
            Progress::Stuck => {}
        }
        let (band, bit) = state.guess_cell();
        let mut digits = 0u32;
        for d in 0..9 {
            if state.cand[3 * d + band] & bit != 0 {
                digits |= 1 << d;
            }
        }
        if digits == 0 {
            return;
        }
        let last = 31 - digits.leading_zeros() as usize;
        digits &= !(1 << last);
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let mut child = state;
            if child.place(digit, band, bit) {
                search(child, limit, found);
                if found.len() >= limit {
                    return;
                }
            }
        }
        // The last alternative reuses this frame's state: no copy.
        if !state.place(last, band, bit) {
            return;
        }
    }
}

/// The bit-parallel solver described in the module documentation.
#[derive(Debug, Default, Clone, Copy)]
pub struct FastSolver;

impl Solver for FastSolver {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn solutions(&self, puzzle: &Grid, limit: usize) -> Vec<Grid> {
        let mut found = Vec::new();
        if limit == 0 {
            return found;
        }
        if let Some(state) = State::new(puzzle) {
            search(state, limit, &mut found);
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::check_solution;

    #[test]
    fn permutation_table() {
        // Identity only.
        assert_eq!(PERM_KEEP[0b100_010_001], 0b100_010_001);
        // Full matrix keeps everything; an empty row keeps nothing.
        assert_eq!(PERM_KEEP[0x1ff], 0x1ff);
        assert_eq!(PERM_KEEP[0b111_111_000], 0);
        // Row 0 only in column 0: column 0 is taken from rows 1 and 2.
        assert_eq!(PERM_KEEP[0b111_111_001], 0b110_110_001);
    }

    #[test]
    fn solves_hard_puzzles_and_checks_them() {
        for line in [
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
            ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
        ] {
            let puzzle: Grid = line.parse().unwrap();
            let found = FastSolver.solutions(&puzzle, 2);
            assert_eq!(found.len(), 1, "{line}");
            check_solution(&puzzle, &found[0]).unwrap();
        }
    }

    #[test]
    fn counts_many_solutions_of_a_sparse_grid() {
        let found = FastSolver.solutions(&Grid::default(), 50);
        assert_eq!(found.len(), 50);
        for (i, grid) in found.iter().enumerate() {
            check_solution(&Grid::default(), grid).unwrap();
            assert!(found[..i].iter().all(|other| other != grid));
        }
    }
}
