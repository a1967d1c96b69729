//! The fast solver: band-oriented bitboards (JCZSolve's layout), word-at-a-time filters
//! driven by a dirty mask, tdoku's triad rules and its branching on a digit's
//! configurations, one search body per instruction set. Our own code, after the designs
//! that tdoku's write-up describes; figures and commands in BENCHMARKS.md, "Sudoku
//! solvers".
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
//! the same bit in each row. A *triad* is the three cells where a row crosses a box (a
//! row triad), or where a column crosses a band (a column triad). The nine words of a
//! band are contiguous (band-major), so removing a placed cell from every digit touches
//! one 36-byte run. The whole search state (27 words, 3 words of unsolved cells, 1 word
//! of dirty flags) is 124 bytes and is copied by value at each guess: no undo log.
//!
//! # Propagation
//!
//! 1. *The hot loop* (`state.rs`): a word that lost a candidate is marked dirty and
//!    filtered: its row/box triads are cut to those on some row→box permutation (one
//!    table lookup: locked candidates and Hall pairs inside the band), its column set
//!    cuts the digit's other two bands (the same permutation rule on band/column
//!    triads), and a row left with one cell places the digit there (hidden single),
//!    removing the cell from the other eight digits. Its layout, the batches it takes
//!    words in, and what was tried are documented beside `State::settle`.
//! 2. *Stalls* (`stall.rs`): when no word is dirty, the three bands are processed side by
//!    side in SIMD lanes (`lanes.rs`): naked singles; then tdoku's triad rules (every
//!    triad holds exactly three digits: three possible means all three are there, three
//!    forced means no other is); and when nothing changes, the branch.
//!
//! # Branching
//!
//! A digit's *configuration* in a band is which box it takes in each row (a 3x3
//! permutation of the row/box triads); in a stack, which band it takes in each column.
//! As tdoku does, the search splits on the configurations of one digit in the band or
//! stack whose digits are closest to fixed (fewest triads left; tdoku counts
//! configurations, which cost ~1200 instructions per branch to count here for 2.6%
//! fewer guesses on held-out puzzles), taking the first digit with fewest triads there
//! (two configurations when there is one). With fewer than 30 cells unsolved it splits
//! on a two-candidate cell instead and skips the triad rules (see `CHEAP_BELOW`); so does
//! a whole search that starts with fewer than 55 cells unsolved after the givens'
//! propagation, until its first dead end (a *loose* start, see `LOOSE_BELOW`: puzzles
//! with several solutions mostly reach two without one).
//! Every alternative but the last runs on a copy of the state; the last reuses the
//! frame's own. Search stops as soon as `limit` solutions are found (2 for "is it
//! unique?"); solutions go to a sink chosen by the caller, so a verdict or a count
//! allocates nothing.
//!
//! # Instruction sets
//!
//! The search body is compiled for the portable instruction set, x86-64-v3 and
//! x86-64-v3 with AVX-512, and chosen at run time ([`Isa`]); a test checks that each one
//! the CPU runs searches exactly as the portable body does. x86-64-v3 is the default
//! where the CPU has it, AVX-512 only on request (`SNAPSOLVE_SUDOKU_ISA=avx512`): on
//! this machine's Sapphire Rapids-class core the x86-64-v3 body beat the AVX-512 one in
//! every alternated comparator run (two rounds, fast / best other, medians of three
//! runs: 17-clue 1.87x and 1.78x against 1.69x and 1.78x, magictour 1.28x and 1.34x
//! against 1.23x and 1.22x, forum_hardest 1.39x and 1.37x against 1.31x and 1.30x, 1106
//! 1.31x and 1.31x against 1.22x and 1.23x, serg 1.18x and 1.17x against 1.09x and
//! 1.09x; the measurement before this round saw the same, 6-9%, and called it noise).
//! The stall rules use 128-bit lanes, so AVX-512 adds little but three-input logic;
//! why it loses (frequency, port use) this KVM guest cannot say: it exposes no
//! hardware counters.
//!
//! # Alternatives measured and lost
//!
//! (Guesses per puzzle counting to 2; instructions from callgrind on the x86-64-v3
//! body; wall clock as medians of alternated runs on one core of the shared machine.
//! "Held out": norvig's top95 and hardest and the `sudoku` crate's hard set, 126
//! puzzles, and puzzles generated with several solutions; none of the five reported
//! files.)
//!
//! - Branching on a two-candidate cell of the most crowded band (the solver before
//!   tdoku's rules): 214.8 guesses on forum_hardest_1106 and 14.84 on magictour top1465
//!   without the triad rules, 196.7 on 1106 with them; configurations with the rules:
//!   110.8 and 8.87 (tdoku: 110.4 and 8.94).
//! - Parts of the triad rules (guesses on 1106 without them): the "three possible"
//!   rule +3%, the "three forced" rule +21%, column triads +18%, row triads +17%.
//! - The band or stack with fewest unfixed digits: 1106 98.6 guesses (-11%) but +3% on
//!   the held-out puzzles; not taken.
//! - Lanes as plain `[u32; 4]` left to the auto-vectoriser: LLVM mixed scalar and SIMD
//!   code, 2.6x the instructions of the explicit SSE2 in `lanes.rs`.
//! - For puzzles with several solutions (the serg round of issue 16; serg's first 3000
//!   puzzles, instructions): every search loose until its first dead end 56.8 -> 42.2 M
//!   but held-out hard puzzles +7.6% and forum_hardest +7.3% (the cell branches stay
//!   at the top of a hard puzzle's tree); loose, and at the first dead end a restart
//!   from the root, strict: serg 45.6 M, held-out hard +3.6%, magictour +7.9% (the
//!   wasted dive); the triad rules run but a quiet stall branching on a cell until the
//!   first dead end: serg 49.0 M, hard files worse; loose only after the first
//!   solution: no gain (the second solution is 13% of serg's work); loose when the
//!   root's triad rules change nothing: serg 44.6 M, held-out hard +6.5%. Taken: loose
//!   below 55 unsolved cells at the root (`LOOSE_BELOW`), 42.3 M.
//! - Counting the nine digits with saturating counters (63 operations per count)
//!   instead of carry-save adders (28): 1106 215.4 -> 208.4 M instructions.
//! - Filtering words of the 27-word state all at once (Jacobi rounds with AVX-512) was
//!   estimated, not built: about 70 vector operations per band per round against a
//!   scalar filter of ~100 instructions that runs only on changed words.
//!
//! Earlier designs (before issue 16): filtering a whole digit (three bands, to a
//! fixpoint) per change ran at about 0.55x the `sudoku` crate; finding changed words by
//! comparing every word with a copy (JCZSolve's way) cost as much as the dirty mask and
//! doubled the state; dirty bits in digit-major order +5% to +8% instructions; 27
//! copies of the filter behind a jump table 3% fewer instructions but slower (the
//! indirect jump mispredicts). Chosen by reasoning: one `u128` of 81 bits per digit
//! would make every shift and mask two instructions and split boxes across word halves,
//! while 27-bit band words keep rows and boxes inside one register (JCZSolve and tdoku
//! both band their bitboards).

mod isa;
mod lanes;
mod stall;
mod state;
mod tables;

use crate::grid::Grid;
use crate::solver::{Solver, Verdict};
use isa::Bits;
pub use isa::{ISA_ENV, Isa};
use state::State;

/// Depth-first search from `puzzle` on the chosen instruction set.
fn solve_into(puzzle: &Grid, out: &mut impl Solutions) {
    isa::solve_into(Isa::chosen(), puzzle, out);
}

/// Where the search puts the solutions it finds.
trait Solutions {
    /// Takes a solved state; true when the search should stop. `B` is the search
    /// body's, so that reading the grid out is compiled for its instruction set.
    fn found<B: Bits>(&mut self, state: &State) -> bool;

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
    #[inline(always)]
    fn found<B: Bits>(&mut self, state: &State) -> bool {
        self.grids.extend(state.solution::<B>());
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
    fn found<B: Bits>(&mut self, _: &State) -> bool {
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
    fn found<B: Bits>(&mut self, state: &State) -> bool {
        self.count.found::<B>(state)
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
    // Inlined into the search body, so that `pdep` in the grid's read-out is too.
    #[inline(always)]
    fn found<B: Bits>(&mut self, state: &State) -> bool {
        let grid = state.solution::<B>();
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
