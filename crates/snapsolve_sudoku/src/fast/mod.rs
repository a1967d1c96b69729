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

mod isa;
mod lanes;
mod stall;
mod state;
mod tables;

use crate::grid::Grid;
use crate::solver::{Solver, Verdict};
pub use isa::{ISA_ENV, Isa};
use state::State;

/// Depth-first search from `puzzle` on the chosen instruction set.
fn solve_into(puzzle: &Grid, out: &mut impl Solutions) {
    isa::solve_into(Isa::chosen(), puzzle, out);
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
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    use super::*;
    use crate::generate::{random_puzzle, random_solution};
    use crate::rules::check_solution;

    const HARD: [&str; 3] = [
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
        ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
    ];

    /// Solutions (up to 300) and guesses of one search on one instruction set.
    fn search_on(isa: Isa, puzzle: &Grid) -> (Vec<Grid>, usize) {
        let mut out = CountGuesses {
            count: Count {
                count: 0,
                limit: usize::MAX,
            },
            guesses: 0,
        };
        let mut listed = Collect {
            grids: Vec::new(),
            limit: 300,
        };
        isa::solve_into(isa, puzzle, &mut listed);
        out.count.limit = 300;
        isa::solve_into(isa, puzzle, &mut out);
        assert_eq!(out.count.count, listed.grids.len());
        (listed.grids, out.guesses)
    }

    #[test]
    fn every_instruction_set_searches_as_the_portable_one() {
        let available: Vec<Isa> = Isa::ALL.into_iter().filter(|i| i.available()).collect();
        eprintln!("instruction sets on this CPU: {available:?}");
        let mut rng = Pcg64Mcg::seed_from_u64(16);
        let mut puzzles: Vec<Grid> = HARD.iter().map(|l| l.parse().unwrap()).collect();
        for _ in 0..30 {
            let solution = random_solution(&mut rng);
            puzzles.push(random_puzzle(&solution, &mut rng));
            // Several solutions; and a clash (no solution).
            let mut holes = solution;
            for _ in 0..rng.random_range(40..70) {
                holes.set(rng.random_range(0..81), 0);
            }
            puzzles.push(holes);
            let mut clash = holes;
            let (a, b) = (rng.random_range(0..81), rng.random_range(0..81));
            clash.set(a, clash.get(b).max(1));
            puzzles.push(clash);
        }
        for puzzle in &puzzles {
            let reference = search_on(Isa::Portable, puzzle);
            for &isa in &available {
                assert_eq!(search_on(isa, puzzle), reference, "{isa:?} on {puzzle}");
            }
        }
    }

    #[test]
    fn the_chosen_instruction_set_is_available() {
        assert!(Isa::chosen().available());
        assert!(Isa::Portable.available());
    }

    #[test]
    fn solves_hard_puzzles_and_checks_them() {
        for line in HARD {
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
