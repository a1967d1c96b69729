//! The fast solver: band-oriented bitboards, word-at-a-time triad filters, singles and
//! guessing (the design of JCZSolve as described by tdoku's write-up, in our own code).
//!
//! # Data layout
//!
//! The grid is three horizontal *bands* of 27 cells. For every band `b` and digit `d`
//! one `u32` *word* holds where `d` may still go in that band (`cand[9 * b + d]`):
//!
//! ```text
//!  bit:  26 .............. 18 17 .............. 9 8 ............... 0
//!        | row 2 of band      | row 1 of band     | row 0 of band     |
//!        | c8 c7 c6 ... c0    | c8 c7 c6 ... c0   | c8 c7 c6 ... c0   |
//! ```
//!
//! so a row is 9 contiguous bits, a box is three 3-bit groups 9 apart, and a column is
//! the same bit in each row. The nine words of a band are contiguous (band-major), so
//! removing a placed cell from every digit, and counting candidates per cell, touch one
//! 36-byte run. The whole search state (27 words, 3 words of unsolved cells, 1 word of
//! dirty flags) is 124 bytes and is copied by value at each guess: no undo log.
//!
//! # The hot loop: filtering one changed word
//!
//! Work is driven by a 27-bit *dirty* mask: a word is filtered only after it lost a
//! candidate, lowest index first ([`State::settle`]). Filtering word (b, d)
//! ([`State::filter_word`]) does, with table lookups only:
//!
//! 1. *Horizontal triads.* A triad is the three cells where a row crosses a box. In one
//!    band a digit sits once in each of the 3 rows and once in each of the 3 boxes, so
//!    its non-empty row/box triads form a 3x3 boolean matrix that must contain a
//!    permutation matrix. [`H_FILTER`] keeps exactly the triads lying on some
//!    permutation: pointing and claiming (locked candidates) inside the band, and Hall
//!    sets of two rows, in one lookup. An empty result is a contradiction.
//! 2. *Vertical triads.* The band's column set `s` updates the digit's two other bands:
//!    a stack where `s` has one column takes that column from them ([`V_SINGLE`]);
//!    a stack where this band and another use only two columns between them takes both
//!    from the third band ([`V_PAIR`]). Together these are the same permutation rule on
//!    band/column triads of a stack.
//! 3. *Hidden singles.* A row of the word with one cell left places the digit there;
//!    that cell is removed from the other eight digits of the band at once
//!    ([`remove_cells`], SSE2 on x86-64) and leaves `unsolved`.
//!
//! Every write sets the dirty bit of each word it changed, so propagation stops exactly
//! when nothing changes. Naked singles come from bit-sliced counts over the nine words
//! of a band (`one`, `two` = cells with at least 1, 2 candidates; a cell in `one` but not
//! `two` has one candidate) and are placed by emptying the rest of their row for their
//! digit, which the filter above turns into a placement ([`State::assign`]).
//!
//! # Guessing
//!
//! When nothing changes, the solver guesses on a cell with two candidates, taking the
//! first one in the band that has the most such cells (JCZSolve takes the first one in
//! the grid), else on the cell with fewest candidates; every alternative
//! but the last runs on a copy of the state, the last reuses the frame's own state.
//! Search stops as soon as `limit` solutions are found (2 for "is it unique?"); the
//! solutions go to a sink chosen by the caller, so a verdict (first two grids, kept in
//! place) or a count allocates nothing, and only enumeration builds a `Vec`.
//!
//! # Alternatives (figures and commands in BENCHMARKS.md, "Sudoku solvers")
//!
//! Measured and lost (instruction counts from callgrind on magictour top1465 and
//! forum_hardest_1106, same machine): filtering a whole digit (three bands,
//! horizontally and vertically to a fixpoint) per change, the previous design, ran at
//! about 0.55x the `sudoku` crate. Finding changed words by comparing every word with a
//! copy made when it was last filtered (JCZSolve's way) costs as much as the dirty mask
//! once the mask is updated with SSE2, and makes the state twice as big to copy; with
//! a scalar loop over the nine words the mask cost 15% more instructions. Dirty bits
//! in digit-major order (a digit's three bands in a row, JCZSolve's order): +5% to
//! +8%. Round-robin order over the dirty words instead of lowest first: within ±3%.
//! 27 copies of the filter with constant indices behind a jump table: 3% fewer
//! instructions but slower in time (the indirect jump mispredicts). Lone cells of a
//! word by three table lookups instead of the borrow-free arithmetic in
//! [`lone_cells`]: 2.5% more instructions.
//!
//! Guess cell (instructions for `--once fast`, millions; held out = files not among
//! the four reported in BENCHMARKS.md):
//!
//! | rule | magictour | hardest_1106 | serg_benchmark (held out) | norvig top95 (held out) |
//! |---|---:|---:|---:|---:|
//! | first two-candidate cell of the grid (JCZSolve) | 133 | 384 | 237 | 8.6 |
//! | last such cell of the first band that has one | 127 | 395 | 240 | 9.7 |
//! | first such cell of the band with the most (chosen) | 117 | 317 | 248 | 7.3 |
//! | same band, its box with the most | 116 | 325 | 254 | 6.9 |
//! | same band, its row with the most | 117 | 343 | 260 | 7.6 |
//!
//! Chosen by reasoning, not measured: one `u128` of 81 bits per digit would make every
//! shift and mask two instructions and split boxes across word halves, while 27-bit
//! band words keep rows and boxes inside one register (JCZSolve and tdoku both
//! band their bitboards).

use crate::grid::{CELLS, Grid};
use crate::solver::{Solver, Verdict};

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

/// Builds a 512-entry table: column set of a band → mask for another band of the same
/// digit that removes, in each stack where the set has exactly `count` columns, those
/// columns (and everything, when the stack has fewer than `count`: a contradiction).
const fn stack_mask(count: u32) -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut keep = ROW;
        let mut stack = 0;
        while stack < 3 {
            let cols = (s as u32 >> (3 * stack)) & 7;
            if cols.count_ones() == count {
                keep &= !(cols << (3 * stack));
            } else if cols.count_ones() < count {
                keep = 0;
            }
            stack += 1;
        }
        table[s] = columns_mask(keep);
        s += 1;
    }
    table
}

/// One band's digit sits in a single column of a stack: no other band may use that
/// column (vertical pointing).
const V_SINGLE: [u32; 512] = stack_mask(1);
/// Two bands' digits use only two columns of a stack between them: each takes one, so
/// the third band may use neither (vertical claiming, a Hall set of two bands).
const V_PAIR: [u32; 512] = stack_mask(2);

/// 9 column bits → the same columns in all three rows of a band.
const fn columns_mask(cols: u32) -> u32 {
    cols | (cols << 9) | (cols << 18)
}

/// The digit's two other band words of word `i`.
const OTHER_BANDS: [[usize; 2]; 27] = {
    let mut table = [[0; 2]; 27];
    let mut i = 0;
    while i < 27 {
        table[i] = [(i + 9) % 27, (i + 18) % 27];
        i += 1;
    }
    table
};

/// Row/box triad matrix of a band word: bit `3 * row + box`.
#[inline(always)]
fn triads(a: u32) -> usize {
    usize::from(ROW_BOXES[(a & ROW) as usize])
        | usize::from(ROW_BOXES[((a >> 9) & ROW) as usize]) << 3
        | usize::from(ROW_BOXES[(a >> 18) as usize]) << 6
}

/// Cells of a band word that are alone in their row.
#[inline(always)]
fn lone_cells(a: u32) -> u32 {
    // Every row of a filtered word is non-empty, so subtracting 1 from each row does
    // not borrow across rows: `a & (a - ones)` clears each row's lowest cell.
    const ONES: u32 = 1 | 1 << 9 | 1 << 18;
    const LOW8: u32 = 0xff | 0xff << 9 | 0xff << 18;
    const TOP: u32 = 1 << 8 | 1 << 17 | 1 << 26;
    debug_assert!((0..3).all(|row| a & (ROW << (9 * row)) != 0));
    let rest = a & a.wrapping_sub(ONES);
    // Top bit of each row of `busy`: the row has a second cell.
    let busy = ((rest & LOW8) + LOW8) | rest;
    let lone_rows = !busy & TOP;
    a & ((lone_rows >> 8) * ROW)
}

/// Columns (9 bits) where a band word has a candidate.
#[inline(always)]
fn columns(a: u32) -> usize {
    ((a | (a >> 9) | (a >> 18)) & ROW) as usize
}

/// Removes `cells` from the nine digit words of a band; bit `d` of the result says
/// whether digit `d`'s word lost any. Eight of the nine words go through two SSE2
/// compares (SSE2 is part of every x86-64), the last one is scalar.
#[inline(always)]
fn remove_cells(words: &mut [u32], cells: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_ps, _mm_cmpeq_epi32,
            _mm_loadu_si128, _mm_movemask_ps, _mm_set1_epi32, _mm_setzero_si128, _mm_storeu_si128,
        };
        assert!(words.len() == 9);
        // SAFETY: SSE2 is always present on x86-64; the slice holds 9 words, so both
        // unaligned 4-word accesses (words 0-3 and 4-7) are in bounds.
        unsafe {
            let mask = _mm_set1_epi32(cells as i32);
            let zero = _mm_setzero_si128();
            let p0 = words.as_mut_ptr().cast::<__m128i>();
            let p1 = words.as_mut_ptr().add(4).cast::<__m128i>();
            let (w0, w1) = (_mm_loadu_si128(p0), _mm_loadu_si128(p1));
            let miss0 = _mm_cmpeq_epi32(_mm_and_si128(w0, mask), zero);
            let miss1 = _mm_cmpeq_epi32(_mm_and_si128(w1, mask), zero);
            _mm_storeu_si128(p0, _mm_andnot_si128(mask, w0));
            _mm_storeu_si128(p1, _mm_andnot_si128(mask, w1));
            let miss = _mm_movemask_ps(_mm_castsi128_ps(miss0)) as u32
                | (_mm_movemask_ps(_mm_castsi128_ps(miss1)) as u32) << 4;
            let last = u32::from(words[8] & cells != 0) << 8;
            words[8] &= !cells;
            (!miss & 0xff) | last
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut hit = 0;
        for (d, word) in words.iter_mut().enumerate() {
            hit |= u32::from(*word & cells != 0) << d;
            *word &= !cells;
        }
        hit
    }
}

/// Search state; see the module documentation for the layout. 124 bytes, copied by
/// value at each guess.
#[derive(Clone, Copy)]
struct State {
    /// Where each digit may still go: `cand[9 * band + digit]`.
    cand: [u32; 27],
    /// Cells whose digit is not yet known, per band.
    unsolved: [u32; 3],
    /// Bit `9 * band + digit` set when that word changed since it was last filtered.
    dirty: u32,
}

/// What a search node ends with once propagation stops.
enum Node {
    Contradiction,
    Solved,
    /// Guess on this cell (`band`, one-bit `cell`) among the digits of `digits`.
    Guess {
        band: usize,
        cell: u32,
        digits: u32,
    },
}

impl State {
    /// Candidates of an empty grid with `puzzle`'s givens placed; `None` if two givens
    /// share a digit in a row (the other clashes surface in propagation).
    fn new(puzzle: &Grid) -> Option<State> {
        let mut state = State {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: (1 << 27) - 1,
        };
        for (cell, &digit) in puzzle.cells().iter().enumerate() {
            if digit != 0 {
                let (band, bit) = (cell / 27, 1u32 << (cell % 27));
                let digit = usize::from(digit - 1);
                for other in 0..9 {
                    if other != digit {
                        state.cand[9 * band + other] &= !bit;
                    }
                }
                if !state.assign(digit, band, bit) {
                    return None;
                }
            }
        }
        Some(state)
    }

    /// Puts `digit` in `cell` of `band` by emptying the rest of its row for that digit;
    /// filtering then sees a lone cell and does the rest. False if the digit was no
    /// longer possible there.
    #[inline(always)]
    fn assign(&mut self, digit: usize, band: usize, cell: u32) -> bool {
        let i = 9 * band + digit;
        if self.cand[i] & cell == 0 {
            return false;
        }
        let row = ROW << (9 * (cell.trailing_zeros() / 9));
        self.cand[i] &= !row | cell;
        self.dirty |= 1 << i;
        true
    }

    /// Filters word `i` (band `i / 9`, digit `i % 9`): the row/box triad filter of the
    /// band, the vertical filters it implies for the digit's two other bands, and, for
    /// every row left with one cell, removal of that cell from the other eight digits.
    /// False on a contradiction. This is the hot loop: about 100 instructions, no
    /// branch but the contradiction test and "a digit was placed".
    #[inline(always)]
    fn filter_word(&mut self, i: usize) -> bool {
        let band = i / 9;
        // Horizontal: keep the triads on some row→box permutation (idempotent, so one
        // lookup reaches this word's fixpoint).
        let a = self.cand[i] & H_FILTER[triads(self.cand[i])];
        if a == 0 {
            return false;
        }
        // Vertical: the other two bands of the digit, from column sets only. Their old
        // column sets are used (they may be a filter behind): weaker, never wrong.
        let [i1, i2] = OTHER_BANDS[i];
        let (b1, b2) = (self.cand[i1], self.cand[i2]);
        let s = columns(a);
        let single = V_SINGLE[s];
        let n1 = b1 & single & V_PAIR[s | columns(b2)];
        let n2 = b2 & single & V_PAIR[s | columns(b1)];
        self.cand[i1] = n1;
        self.cand[i2] = n2;
        // Branch-free: whether a band lost anything is data, not control flow.
        self.dirty |= u32::from(n1 != b1) << i1 | u32::from(n2 != b2) << i2;
        // Hidden singles: a lone cell in a row not yet counted as solved.
        let solved = lone_cells(a) & self.unsolved[band];
        if solved != 0 {
            self.unsolved[band] &= !solved;
            let hit = remove_cells(&mut self.cand[9 * band..9 * band + 9], solved);
            self.dirty |= hit << (9 * band);
        }
        // `remove_cells` also cleared the solved cells from this word and marked it;
        // writing `a` back restores them, and this word is at its fixpoint.
        self.cand[i] = a;
        self.dirty &= !(1 << i);
        true
    }

    /// Filters changed words, lowest index first, until none is left. False on a
    /// contradiction.
    #[inline(always)]
    fn settle(&mut self) -> bool {
        while self.dirty != 0 {
            let i = self.dirty.trailing_zeros() as usize;
            if !self.filter_word(i) {
                return false;
            }
        }
        true
    }

    /// After [`State::settle`]: assigns naked singles (then `None`: settle again), or
    /// says the node is solved, dead, or where to guess.
    #[inline(always)]
    fn scan(&mut self) -> Option<Node> {
        let mut assigned = false;
        for band in 0..3 {
            let open = self.unsolved[band];
            if open == 0 {
                continue;
            }
            let (mut one, mut two) = (0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[9 * band + d];
                two |= one & x;
                one |= x;
            }
            if open & !one != 0 {
                return Some(Node::Contradiction);
            }
            let mut singles = open & !two;
            while singles != 0 {
                let cell = singles & singles.wrapping_neg();
                singles &= singles - 1;
                // An earlier single of the same digit and row may have taken the cell's
                // only candidate away: then no digit is left.
                let Some(digit) = (0..9).find(|&d| self.cand[9 * band + d] & cell != 0) else {
                    return Some(Node::Contradiction);
                };
                self.assign(digit, band, cell);
                assigned = true;
            }
        }
        if assigned {
            return None;
        }
        if self.unsolved == [0; 3] {
            return Some(Node::Solved);
        }
        let (band, cell) = self.guess_cell();
        let mut digits = 0u32;
        for d in 0..9 {
            digits |= u32::from(self.cand[9 * band + d] & cell != 0) << d;
        }
        Some(Node::Guess { band, cell, digits })
    }

    /// The cell to guess on: `(band, bit)` of the first cell with two candidates in the
    /// band that has the most of them (a crowded band is the likeliest to collapse
    /// after the guess), else of an unsolved cell with the fewest candidates.
    fn guess_cell(&self) -> (usize, u32) {
        // (band, its cells with two candidates, how many)
        let mut pick = (0, 0, 0);
        for band in 0..3 {
            let open = self.unsolved[band];
            if open == 0 {
                continue;
            }
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[9 * band + d];
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let pairs = open & two & !three;
            if pairs.count_ones() > pick.2 {
                pick = (band, pairs, pairs.count_ones());
            }
        }
        if pick.2 > 0 {
            return (pick.0, pick.1 & pick.1.wrapping_neg());
        }
        // No cell with two candidates: count them all (rare: a few nodes per hard puzzle).
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut open = self.unsolved[band];
            while open != 0 {
                let bit = open & open.wrapping_neg();
                open &= open - 1;
                let count = (0..9)
                    .filter(|&d| self.cand[9 * band + d] & bit != 0)
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
                let mut bits = self.cand[9 * band + d];
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

/// Where the search puts the solutions it finds.
trait Solutions {
    /// Takes a solved state; true when the search should stop.
    fn found(&mut self, state: &State) -> bool;

    /// Told of every guess (an alternative tried on a copy of the state); only the
    /// benchmarks listen.
    #[inline(always)]
    fn guessed(&mut self) {}
}

/// Every solution as a grid, up to `limit` (for enumeration).
struct Collect {
    grids: Vec<Grid>,
    limit: usize,
}

impl Solutions for Collect {
    fn found(&mut self, state: &State) -> bool {
        self.grids.extend(state.solution());
        self.grids.len() >= self.limit
    }
}

/// Only how many, up to `limit`: no grid is built.
struct Count {
    count: usize,
    limit: usize,
}

impl Solutions for Count {
    #[inline]
    fn found(&mut self, _: &State) -> bool {
        self.count += 1;
        self.count >= self.limit
    }
}

/// A count up to `limit` and the number of guesses (for benchmarks).
struct CountGuesses {
    count: Count,
    guesses: usize,
}

impl Solutions for CountGuesses {
    fn found(&mut self, state: &State) -> bool {
        self.count.found(state)
    }

    fn guessed(&mut self) {
        self.guesses += 1;
    }
}

/// The first two solutions, in place: the verdict allocates nothing.
#[derive(Default)]
struct FirstTwo {
    first: Option<Grid>,
    second: Option<Grid>,
}

impl Solutions for FirstTwo {
    #[inline]
    fn found(&mut self, state: &State) -> bool {
        let grid = state.solution();
        if self.first.is_none() {
            self.first = grid;
            false
        } else {
            self.second = grid;
            true
        }
    }
}

/// Depth-first search from `puzzle`; stops when `out` says so.
fn solve_into(puzzle: &Grid, out: &mut impl Solutions) {
    if let Some(state) = State::new(puzzle) {
        search(state, out);
    }
}

/// Depth-first search; true once `out` wants no more solutions.
fn search(mut state: State, out: &mut impl Solutions) -> bool {
    loop {
        if !state.settle() {
            return false;
        }
        let (band, cell, mut digits) = match state.scan() {
            None => continue,
            Some(Node::Contradiction) => return false,
            Some(Node::Solved) => return out.found(&state),
            Some(Node::Guess { band, cell, digits }) => (band, cell, digits),
        };
        if digits == 0 {
            return false;
        }
        let last = 31 - digits.leading_zeros() as usize;
        digits &= !(1 << last);
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            out.guessed();
            let mut child = state;
            child.assign(digit, band, cell);
            if search(child, out) {
                return true;
            }
        }
        // The last alternative reuses this frame's state: no copy.
        state.assign(last, band, cell);
    }
}

/// The bit-parallel solver described in the module documentation.
#[derive(Debug, Default, Clone, Copy)]
pub struct FastSolver;

impl FastSolver {
    /// Solutions counted up to `limit`, and how many guesses the search made. A guess
    /// is one alternative tried on a copy of the state, so a cell with `k` candidates
    /// searched to the end costs `k - 1` guesses, as tdoku counts its binary branches.
    pub fn count_with_guesses(&self, puzzle: &Grid, limit: usize) -> (usize, usize) {
        let mut out = CountGuesses {
            count: Count { count: 0, limit },
            guesses: 0,
        };
        if limit > 0 {
            solve_into(puzzle, &mut out);
        }
        (out.count.count, out.guesses)
    }
}

impl Solver for FastSolver {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn solutions(&self, puzzle: &Grid, limit: usize) -> Vec<Grid> {
        let mut out = Collect {
            grids: Vec::new(),
            limit,
        };
        if limit > 0 {
            solve_into(puzzle, &mut out);
        }
        out.grids
    }

    fn count_solutions(&self, puzzle: &Grid, limit: usize) -> usize {
        let mut out = Count { count: 0, limit };
        if limit > 0 {
            solve_into(puzzle, &mut out);
        }
        out.count
    }

    fn verdict(&self, puzzle: &Grid) -> Verdict {
        let mut out = FirstTwo::default();
        solve_into(puzzle, &mut out);
        match (out.first, out.second) {
            (Some(a), Some(b)) => Verdict::Multiple(a, b),
            (Some(a), None) => Verdict::Unique(a),
            _ => Verdict::None,
        }
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
    fn lone_cells_of_words_with_non_empty_rows() {
        let rows: [u32; 7] = [0x1, 0x100, 0x3, 0x1ff, 0x10, 0x180, 0x101];
        for &r0 in &rows {
            for &r1 in &rows {
                for &r2 in &rows {
                    let word = r0 | r1 << 9 | r2 << 18;
                    let expected: u32 = [r0, r1, r2]
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.count_ones() == 1)
                        .map(|(row, r)| r << (9 * row))
                        .sum();
                    assert_eq!(lone_cells(word), expected, "{word:#x}");
                }
            }
        }
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
    fn verdict_and_count_agree_with_the_listed_solutions() {
        let unique: Grid =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
                .parse()
                .unwrap();
        let mut several = unique;
        several.set(0, 0);
        let mut clash = unique;
        clash.set(1, 4);
        for (puzzle, count) in [(unique, 1), (several, 2), (clash, 0)] {
            let listed = FastSolver.solutions(&puzzle, 2);
            assert_eq!(listed.len(), count);
            assert_eq!(FastSolver.count_solutions(&puzzle, 2), count);
            assert_eq!(FastSolver.verdict(&puzzle), Verdict::from_solutions(listed));
        }
        assert_eq!(FastSolver.count_solutions(&Grid::default(), 500), 500);
        assert_eq!(FastSolver.count_solutions(&unique, 0), 0);
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
