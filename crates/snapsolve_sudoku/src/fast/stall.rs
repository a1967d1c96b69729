//! What the search does when filtering stops changing words (a *stall*): naked singles,
//! the triad rules that need all nine digits at once, and, when nothing else is left,
//! the choice of a branch. The work runs on the three bands side by side ([`Lanes`]:
//! one SSE2 register per value on x86-64).

use super::lanes::Lanes;
use super::state::State;
use super::tables::{BAND, PERMS, ROW, ROW_STARTS, TRIAD_STARTS};
use super::tables::{columns, columns_mask, triad_cells, triads};

/// How many of nine sets hold each bit, as far as the triad rules ask: a bit-sliced
/// binary sum by carry-save adders (about 30 operations for all nine, where adding
/// the sets one by one to a counter saturating at four took 63).
struct Tally {
    at_least_3: Lanes,
    exactly_3: Lanes,
    at_least_4: Lanes,
    /// The count itself: bit planes of weight 1, 2, 4 and 8.
    planes: [Lanes; 4],
}

impl Tally {
    #[inline(always)]
    fn of(v: &[Lanes; 9]) -> Tally {
        // Full adder: sum and carry of three bits.
        let add3 = |a: Lanes, b: Lanes, c: Lanes| {
            let t = a.xor(b);
            (t.xor(c), a.and(b).or(c.and(t)))
        };
        let (s1, c1) = add3(v[0], v[1], v[2]);
        let (s2, c2) = add3(v[3], v[4], v[5]);
        let (s3, c3) = add3(v[6], v[7], v[8]);
        let (ones, c4) = add3(s1, s2, s3);
        // The carries c1-c4 weigh two.
        let (t, c5) = add3(c1, c2, c3);
        let twos = t.xor(c4);
        let c6 = t.and(c4);
        let fours = c5.or(c6);
        let three = ones.and(twos);
        Tally {
            at_least_3: three.or(fours),
            exactly_3: three.and_not(fours),
            at_least_4: fours,
            planes: [ones, twos, c5.xor(c6), c5.and(c6)],
        }
    }
}

/// The bits of `x` alone in their group of three bits `SPACING` apart (a row's triad
/// starts: 3; a stack's columns: 1), for words whose groups are all non-empty, which
/// holds after filtering (every row and box of a digit's band word has a cell).
#[inline(always)]
fn alone_in_group<const SPACING: i32, const DOUBLE: i32>(x: Lanes, firsts: u32) -> Lanes {
    // Clearing each group's lowest bit (no borrow crosses a non-empty group) leaves a
    // bit exactly in the groups with two or more.
    let rest = x.and(x.sub(Lanes::splat(firsts)));
    let crowded = rest
        .or(rest.shr::<SPACING>())
        .or(rest.shr::<DOUBLE>())
        .and(Lanes::splat(firsts));
    // Each crowded group's first bit times 2^(3 * SPACING) - 1: the whole group.
    let groups = match SPACING {
        3 => crowded.shl::<9>().sub(crowded),
        _ => crowded.shl::<3>().sub(crowded),
    };
    x.and_not(groups)
}

/// How many triad starts each band holds (at most 9): summed per row at the row's
/// first bit (at most 3), then over the rows.
#[inline(always)]
fn triad_starts_per_band(x: Lanes) -> Lanes {
    let rows = x
        .add(x.shr::<3>())
        .add(x.shr::<6>())
        .and(Lanes::splat(3 * ROW_STARTS));
    rows.add(rows.shr::<9>())
        .add(rows.shr::<18>())
        .and(Lanes::splat(0xf))
}

/// How many columns of each stack a 9-bit column set holds, in byte `k` for stack `k`:
/// counted in place in 3-bit groups, then moved to bytes (room for sums).
#[inline(always)]
fn columns_per_stack(y: Lanes) -> Lanes {
    let groups = y
        .sub(y.shr::<1>().and(Lanes::splat(0o333)))
        .sub(y.shr::<2>().and(Lanes::splat(0o111)));
    groups
        .and(Lanes::splat(0o7))
        .or(groups.and(Lanes::splat(0o70)).shl::<5>())
        .or(groups.and(Lanes::splat(0o700)).shl::<10>())
}

/// Each set bit widened to itself and the two bits above (a triad start → its cells,
/// a stack's first column → the stack).
#[inline(always)]
fn times7(x: Lanes) -> Lanes {
    x.or(x.shl::<1>()).or(x.shl::<2>())
}

/// Column bits → those columns in all three rows.
#[inline(always)]
fn lanes_columns(y: Lanes) -> Lanes {
    y.or(y.shl::<9>()).or(y.shl::<18>())
}

/// The end of a stall.
pub(super) enum Stall {
    Contradiction,
    /// Something was placed or removed: filter again.
    Changed,
    Solved,
    Branch(Branch),
}

/// What the triad rules did.
enum Rules {
    /// Found a contradiction, or changed words.
    Acted(Stall),
    /// Nothing to do; how many digits each triad may hold, as bit planes of weight 1,
    /// 2, 4, 8 (row triads at their first cell, then column triads at their column).
    Quiet([[Lanes; 4]; 2]),
}

/// A split of the search, one alternative per set bit; exactly one alternative holds
/// in any solution.
#[derive(Clone, Copy)]
pub(super) enum Branch {
    /// The configurations of `digit` in `band` still possible: bit `p` of `perms` for
    /// permutation `PERMS[p]` (row → box).
    Band {
        band: usize,
        digit: usize,
        perms: u32,
    },
    /// The same in `stack` (column → band).
    Stack {
        stack: usize,
        digit: usize,
        perms: u32,
    },
    /// The candidates of one cell (its bit `cell` in `band`): bit `d` for digit `d`.
    Cell { band: usize, cell: u32, digits: u32 },
}

impl Branch {
    /// The alternatives, one bit each.
    #[inline(always)]
    pub(super) fn alternatives(&self) -> u32 {
        match *self {
            Branch::Band { perms, .. } | Branch::Stack { perms, .. } => perms,
            Branch::Cell { digits, .. } => digits,
        }
    }
}

/// The cells of each permutation's triads in a band.
const PERM_CELLS: [u32; 6] = {
    let mut table = [0; 6];
    let mut p = 0;
    while p < 6 {
        table[p] = triad_cells(PERMS[p] as u32);
        p += 1;
    }
    table
};

/// Bit `p` set for each permutation `PERMS[p]` inside a 3x3 matrix.
#[inline(always)]
fn permutations_in(matrix: u16) -> u32 {
    let mut perms = 0;
    for (p, &perm) in PERMS.iter().enumerate() {
        perms |= u32::from(matrix & perm == perm) << p;
    }
    perms
}

/// Below this many unsolved cells a stall skips the triad rules and branches on a
/// cell with two candidates, as the solver did before them: so late in a search they
/// rarely fire (measured: under 2% of passes below 20 cells, under 6% below 30, on
/// held-out files) and cost more than they save. Chosen on held-out puzzles (norvig's
/// top95 and hardest, the crate's hard set, and generated ones with several
/// solutions), where 30 cut instructions by 15-18% with several solutions and
/// changed the unique ones by 1%; see the module documentation.
const CHEAP_BELOW: u32 = 30;

/// A search whose puzzle has fewer than this many cells unsolved after the givens'
/// propagation starts *loose*: its stalls skip the triad rules and branch on a cell
/// with two candidates, as below `CHEAP_BELOW`, until its first dead end (a
/// contradiction anywhere); from then on it is strict. Puzzles with several solutions
/// (and easy ones) mostly reach their solutions without a dead end, and the triad
/// rules and the choice of a configuration cost them more than they save; a hard
/// puzzle meets a dead end within a few guesses, and its search above that point
/// keeps the cell branches (so the threshold keeps hard puzzles strict from the
/// start). Chosen on held-out puzzles, none of the five reported files (callgrind,
/// instructions, strict -> loose below 55): 2000 generated with 45-60 random holes
/// (several solutions) 39.5 -> 34.7 M, 2000 generated with four boxes and ten more
/// cells emptied 29.0 -> 25.5 M, 1000 generated minimal unique puzzles 14.8 -> 14.5 M,
/// norvig's top95 and hardest and the crate's hard set (126, unique) 13.68 -> 13.64 M;
/// the largest threshold that kept the last set from losing (56: +0.7%, 58: +2.5%, 60:
/// +5.5%, loose always: +7.8%). See BENCHMARKS.md for the five files.
pub(super) const LOOSE_BELOW: u32 = 55;

impl State {
    /// Cells whose digit is not yet known.
    #[inline(always)]
    pub(super) fn open(&self) -> u32 {
        let [u0, u1, u2] = self.unsolved;
        u0.count_ones() + u1.count_ones() + u2.count_ones()
    }

    /// Naked singles; then, with few cells left or when not `strict` (see
    /// [`LOOSE_BELOW`]), a branch on a cell with two candidates; else the triad rules,
    /// and when they change nothing, the branch on a digit's configurations.
    #[inline(always)]
    pub(super) fn stall(&mut self, strict: bool) -> Stall {
        // Each digit's words of the three bands; lane 3 holds a full band, which no
        // rule acts on.
        let words = Lanes::digits(&self.cand, BAND);
        let mut pairs = Lanes::zero();
        if let Some(end) = self.naked_singles(&words, &mut pairs) {
            return end;
        }
        if (self.open() < CHEAP_BELOW || !strict)
            && let Some(branch) = self.cell_branch(pairs)
        {
            return Stall::Branch(branch);
        }
        let mut x = [Lanes::zero(); 9];
        let mut y = [Lanes::zero(); 9];
        match self.triad_rules(&words, &mut x, &mut y) {
            Rules::Acted(end) => end,
            Rules::Quiet(counts) => self.branch(&x, &y, &counts),
        }
    }

    /// Places the cells left with one candidate. `None` when there is none and the
    /// grid is neither solved nor dead; then `pairs` gets the cells with two.
    #[inline(always)]
    fn naked_singles(&mut self, words: &[Lanes; 9], pairs: &mut Lanes) -> Option<Stall> {
        let (mut one, mut two, mut three) = (Lanes::zero(), Lanes::zero(), Lanes::zero());
        for &a in words {
            three = three.or(two.and(a));
            two = two.or(one.and(a));
            one = one.or(a);
        }
        let u = self.unsolved;
        let open = Lanes::new([u[0], u[1], u[2], 0]);
        if open.and_not(one).any() {
            return Some(Stall::Contradiction);
        }
        if !open.any() {
            return Some(Stall::Solved);
        }
        let singles = open.and_not(two);
        if !singles.any() {
            *pairs = open.and(two).and_not(three);
            return None;
        }
        for (band, &in_band) in singles.to_array()[..3].iter().enumerate() {
            let mut cells = in_band;
            while cells != 0 {
                let cell = cells & cells.wrapping_neg();
                cells &= cells - 1;
                // An earlier single of the same digit and row may have taken the cell's
                // only candidate away: then no digit is left.
                let Some(digit) = (0..9).find(|&d| self.cand[9 * band + d] & cell != 0) else {
                    return Some(Stall::Contradiction);
                };
                self.assign(digit, band, cell);
            }
        }
        Some(Stall::Changed)
    }

    /// The triad rules: a triad (three cells of a row in a box, or of a column in a
    /// band) holds exactly three digits. So a triad with three possible digits holds
    /// them all (each is forced there in its row and box, or column and band), one
    /// with three forced digits holds no other, and fewer possible or more forced is a
    /// contradiction. A digit is forced into a triad when it is the only triad of its
    /// row (or, for columns, of its stack) the digit may use: in a closed matrix that
    /// is every triad on all its configurations. `x` and `y` receive each digit's
    /// triad starts and column sets for the branch choice.
    #[inline(always)]
    fn triad_rules(&mut self, words: &[Lanes; 9], x: &mut [Lanes; 9], y: &mut [Lanes; 9]) -> Rules {
        let (mut forced_x, mut forced_y) = ([Lanes::zero(); 9], [Lanes::zero(); 9]);
        for (d, &a) in words.iter().enumerate() {
            x[d] = a
                .or(a.shr::<1>())
                .or(a.shr::<2>())
                .and(Lanes::splat(TRIAD_STARTS));
            y[d] = a.or(a.shr::<9>()).or(a.shr::<18>()).and(Lanes::splat(ROW));
            forced_x[d] = alone_in_group::<3, 6>(x[d], ROW_STARTS);
            forced_y[d] = alone_in_group::<1, 2>(y[d], 0o111);
        }
        let (possible, forced) = (Tally::of(x), Tally::of(&forced_x));
        let (col_possible, col_forced) = (Tally::of(y), Tally::of(&forced_y));
        let dead = Lanes::splat(TRIAD_STARTS)
            .and_not(possible.at_least_3)
            .or(forced.at_least_4)
            .or(Lanes::splat(ROW).and_not(col_possible.at_least_3))
            .or(col_forced.at_least_4);
        if dead.any() {
            return Rules::Acted(Stall::Contradiction);
        }
        let fill = possible.exactly_3.and_not(forced.at_least_3);
        let close = forced.at_least_3.and(possible.at_least_4);
        let col_fill = col_possible.exactly_3.and_not(col_forced.at_least_3);
        let col_close = col_forced.at_least_3.and(col_possible.at_least_4);
        if !fill.or(close).or(col_fill).or(col_close).any() {
            return Rules::Quiet([possible.planes, col_possible.planes]);
        }
        for d in 0..9 {
            // Row triads: a filled triad start `q` keeps the digit out of the rest of
            // its row and box; a closed one `e` loses the digit.
            let q = x[d].and(fill);
            let e = x[d].and(close).and_not(forced_x[d]);
            let row_starts = q
                .or(q.shr::<3>())
                .or(q.shr::<6>())
                .and(Lanes::splat(ROW_STARTS));
            // Each start times 0x1ff: the whole row (starts are 9 bits apart).
            let rows = row_starts.shl::<9>().sub(row_starts);
            let box_starts = q
                .or(q.shr::<9>())
                .or(q.shr::<18>())
                .and(Lanes::splat(0o111));
            let boxes = lanes_columns(times7(box_starts));
            let mut kill = rows.or(boxes).and_not(times7(q)).or(times7(e));
            // Column triads: a filled one keeps the digit out of the other columns of
            // its stack in this band and out of its column in the other bands.
            let qv = y[d].and(col_fill);
            let ev = y[d].and(col_close).and_not(forced_y[d]);
            let stack_starts = qv
                .or(qv.shr::<1>())
                .or(qv.shr::<2>())
                .and(Lanes::splat(0o111));
            let taken = lanes_columns(qv);
            kill = kill
                .or(lanes_columns(times7(stack_starts).and_not(qv).or(ev)))
                .or(taken.rotate1())
                .or(taken.rotate2());
            for (band, &lost) in kill.to_array()[..3].iter().enumerate() {
                self.restrict(9 * band + d, !lost);
            }
        }
        Rules::Acted(Stall::Changed)
    }

    /// The branch (after tdoku's choice, with triads counted instead of
    /// configurations): among bands and stacks whose digits are not all fixed, the one
    /// with the fewest triads left in all; in it, the first digit with the fewest
    /// triads (five or six: two configurations, when there is one); one alternative
    /// per configuration. A digit fixed in a unit has 3 triads there, so a unit with
    /// all nine fixed has 27.
    #[inline(always)]
    fn branch(&self, x: &[Lanes; 9], y: &[Lanes; 9], counts: &[[Lanes; 4]; 2]) -> Stall {
        // Triads per band and per stack, from the count planes (weights 1, 2, 4, 8).
        // (No `array::map` here or below: it is not inlined into the search body, so
        // it would run without the body's instruction set.)
        let [ones, twos, fours, eights] = counts[0];
        let band_totals = triad_starts_per_band(ones)
            .add(triad_starts_per_band(twos).shl::<1>())
            .add(triad_starts_per_band(fours).shl::<2>())
            .add(triad_starts_per_band(eights).shl::<3>());
        let [ones, twos, fours, eights] = counts[1];
        let stack_bytes = columns_per_stack(ones)
            .add(columns_per_stack(twos).shl::<1>())
            .add(columns_per_stack(fours).shl::<2>())
            .add(columns_per_stack(eights).shl::<3>());
        let stack_totals = stack_bytes
            .add(stack_bytes.rotate1())
            .add(stack_bytes.rotate2())
            .first();
        // (triads, stack?, index) of the best unit so far.
        let mut best = (u32::MAX, false, 0);
        for (k, &band) in band_totals.to_array()[..3].iter().enumerate() {
            if band > 27 && band < best.0 {
                best = (band, false, k);
            }
        }
        for k in 0..3 {
            let stack = stack_totals >> (8 * k) & 0xff;
            if stack > 27 && stack < best.0 {
                best = (stack, true, k);
            }
        }
        let (total, vertical, k) = best;
        if total == u32::MAX {
            return Stall::Contradiction;
        }
        let stack = Lanes::splat(7 << (3 * k));
        let (mut digit, mut fewest) = (0, u32::MAX);
        for d in 0..9 {
            let n = if vertical {
                let [a, b, c, _] = y[d].and(stack).to_array();
                a.count_ones() + b.count_ones() + c.count_ones()
            } else {
                x[d].to_array()[k].count_ones()
            };
            if n > 3 && n < fewest {
                (digit, fewest) = (d, n);
            }
        }
        Stall::Branch(if vertical {
            self.stack_branch(k, digit)
        } else {
            self.band_branch(k, digit)
        })
    }

    /// A cell with two candidates (`pairs`: such cells per band): the first of the
    /// band with most, as the solver chose before the triad rules (a crowded band is
    /// the likeliest to collapse after the guess).
    #[inline(always)]
    fn cell_branch(&self, pairs: Lanes) -> Option<Branch> {
        let pairs = pairs.to_array();
        let mut best = (0, 0);
        for (band, &cells) in pairs[..3].iter().enumerate() {
            if cells.count_ones() > best.1 {
                best = (band, cells.count_ones());
            }
        }
        if best.1 == 0 {
            return None;
        }
        let band = best.0;
        let cell = pairs[band] & pairs[band].wrapping_neg();
        let mut digits = 0;
        for d in 0..9 {
            digits |= u32::from(self.cand[9 * band + d] & cell != 0) << d;
        }
        Some(Branch::Cell { band, cell, digits })
    }

    /// The configurations of `digit` in `band`.
    #[inline(always)]
    fn band_branch(&self, band: usize, digit: usize) -> Branch {
        let matrix = triads(self.cand[9 * band + digit]) as u16;
        Branch::Band {
            band,
            digit,
            perms: permutations_in(matrix),
        }
    }

    /// The configurations of `digit` in `stack`: which band each of the stack's
    /// columns holds it in.
    #[inline(always)]
    fn stack_branch(&self, stack: usize, digit: usize) -> Branch {
        let mut matrix = 0u16;
        for band in 0..3 {
            let cols = (columns(self.cand[9 * band + digit]) >> (3 * stack)) & 7;
            matrix |= (cols as u16) << (3 * band);
        }
        Branch::Stack {
            stack,
            digit,
            perms: permutations_in(matrix),
        }
    }

    /// Takes alternative `alternative` (a bit of [`Branch::alternatives`]) of `branch`.
    #[inline(always)]
    pub(super) fn take(&mut self, branch: Branch, alternative: usize) {
        match branch {
            Branch::Band { band, digit, .. } => {
                self.restrict(9 * band + digit, PERM_CELLS[alternative]);
            }
            Branch::Stack { stack, digit, .. } => {
                let other_stacks = !columns_mask(7 << (3 * stack));
                for band in 0..3 {
                    let col = u32::from(PERMS[alternative] >> (3 * band)) & 7;
                    let keep = other_stacks | columns_mask(col << (3 * stack));
                    self.restrict(9 * band + digit, keep);
                }
            }
            Branch::Cell { band, cell, .. } => {
                self.assign(alternative, band, cell);
            }
        }
    }
}
