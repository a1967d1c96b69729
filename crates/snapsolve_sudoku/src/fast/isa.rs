//! The instruction sets the search is compiled for, and the choice among them at run
//! time. The whole search (filters, stall rules, recursion) is one body compiled once
//! per instruction set, so that every helper inlined into it uses the wider
//! instructions: on x86-64-v3 three-operand AVX encodings, `popcnt`, `andn`, `blsr`,
//! `shlx`; with AVX-512 also `vpternlogd`, which does any three-input logic in one
//! instruction. The portable body is the reference the others are tested against.

use std::sync::OnceLock;

use super::Solutions;
use super::stall::{LOOSE_BELOW, Stall};
use super::state::State;
use super::tables;
use crate::grid::Grid;

/// An instruction set the fast solver's search is compiled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Isa {
    /// Any CPU (SSE2 on x86-64).
    Portable,
    /// x86-64-v3: AVX2, BMI1, BMI2, POPCNT, LZCNT.
    Avx2,
    /// x86-64-v3 and AVX-512 F, VL, BW, DQ.
    Avx512,
}

/// Environment variable that forces an instruction set (`portable`, `avx2`,
/// `avx512`) for measurements; ignored when this CPU lacks it.
pub const ISA_ENV: &str = "SNAPSOLVE_SUDOKU_ISA";

impl Isa {
    /// Every instruction set, narrowest first.
    pub const ALL: [Isa; 3] = [Isa::Portable, Isa::Avx2, Isa::Avx512];

    /// Short name, as `SNAPSOLVE_SUDOKU_ISA` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// Whether this CPU runs it.
    pub fn available(self) -> bool {
        match self {
            Isa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("bmi1")
                    && is_x86_feature_detected!("bmi2")
                    && is_x86_feature_detected!("popcnt")
                    && is_x86_feature_detected!("lzcnt")
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                Isa::Avx2.available()
                    && is_x86_feature_detected!("avx512f")
                    && is_x86_feature_detected!("avx512vl")
                    && is_x86_feature_detected!("avx512bw")
                    && is_x86_feature_detected!("avx512dq")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The instruction set in use: x86-64-v3 where this CPU runs it, else the
    /// portable one, unless [`ISA_ENV`] names another one it runs. Decided once per
    /// process. Not the widest: the AVX-512 body measured slower than the x86-64-v3
    /// one (see the module documentation of `fast`), so it runs only when asked for.
    pub fn chosen() -> Isa {
        static CHOSEN: OnceLock<Isa> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let forced = std::env::var(ISA_ENV).ok();
            let default = [Isa::Avx2, Isa::Portable]
                .into_iter()
                .find(|isa| isa.available());
            Isa::ALL
                .into_iter()
                .find(|isa| forced.as_deref() == Some(isa.name()) && isa.available())
                .or(default)
                .unwrap_or(Isa::Portable)
        })
    }
}

/// Bit operations whose best form depends on the instruction set.
pub(super) trait Bits {
    /// Row/box triad matrix of a band word: bit `3 * row + box`.
    fn triads(a: u32) -> usize;

    /// The low eight bits of `bits`, bit `k` to the low bit of byte `k`.
    fn spread(bits: u32) -> u64;
}

/// Table lookups: any CPU.
pub(super) struct Lookup;

impl Bits for Lookup {
    #[inline(always)]
    fn triads(a: u32) -> usize {
        tables::triads(a)
    }

    #[inline(always)]
    fn spread(bits: u32) -> u64 {
        tables::SPREAD[(bits & 0xff) as usize]
    }
}

/// BMI2's `pext` gathers the nine triad bits in one instruction.
#[cfg(target_arch = "x86_64")]
pub(super) struct Pext;

#[cfg(target_arch = "x86_64")]
impl Bits for Pext {
    #[inline(always)]
    fn triads(a: u32) -> usize {
        let any = a | (a >> 1) | (a >> 2);
        // SAFETY: `Pext` is only used by the searches compiled with BMI2 enabled,
        // which run only where `Isa::available` found BMI2. The mask has nine bits,
        // so the result is below 512: told to the compiler, the tables indexed by it
        // need no bounds check (two instructions a filter).
        unsafe {
            let matrix = std::arch::x86_64::_pext_u32(any, tables::TRIAD_STARTS);
            std::hint::assert_unchecked(matrix < 512);
            matrix as usize
        }
    }

    #[inline(always)]
    fn spread(bits: u32) -> u64 {
        // SAFETY: as above (BMI2).
        unsafe { std::arch::x86_64::_pdep_u64(u64::from(bits & 0xff), tables::BYTE_LOWS) }
    }
}

/// Depth-first search, compiled once per instruction set: true once `out` wants no
/// more solutions.
macro_rules! search_on {
    ($solve:ident, $name:ident, $bits:ty $(, $features:literal)?) => {
        /// Sets the givens, settles them and searches, loose or strict by how many
        /// cells are left (`LOOSE_BELOW`); all compiled for this instruction set.
        $(#[target_feature(enable = $features)])?
        fn $solve(puzzle: &Grid, out: &mut impl Solutions) {
            if let Some(mut state) = State::new::<$bits>(puzzle) {
                if !state.settle::<$bits>() {
                    return;
                }
                let mut strict = state.open() >= LOOSE_BELOW;
                $name(state, out, &mut strict);
            }
        }

        /// `strict`: whether stalls run the triad rules (see `LOOSE_BELOW`); set
        /// for good at the search's first dead end.
        $(#[target_feature(enable = $features)])?
        fn $name(mut state: State, out: &mut impl Solutions, strict: &mut bool) -> bool {
            loop {
                if !state.settle::<$bits>() {
                    *strict = true;
                    return false;
                }
                let branch = match state.stall(*strict) {
                    Stall::Changed => continue,
                    Stall::Contradiction => {
                        *strict = true;
                        return false;
                    }
                    Stall::Solved => return out.found::<$bits>(&state),
                    Stall::Branch(branch) => branch,
                };
                let mut alternatives = branch.alternatives();
                if alternatives == 0 {
                    *strict = true;
                    return false;
                }
                let last = 31 - alternatives.leading_zeros() as usize;
                alternatives &= !(1 << last);
                while alternatives != 0 {
                    let alternative = alternatives.trailing_zeros() as usize;
                    alternatives &= alternatives - 1;
                    out.guessed();
                    let mut child = state;
                    child.take(branch, alternative);
                    if $name(child, out, strict) {
                        return true;
                    }
                }
                // The last alternative reuses this frame's state: no copy.
                state.take(branch, last);
            }
        }
    };
}

search_on!(solve_portable, search_portable, Lookup);
#[cfg(target_arch = "x86_64")]
search_on!(solve_avx2, search_avx2, Pext, "avx2,bmi1,bmi2,popcnt,lzcnt");
#[cfg(target_arch = "x86_64")]
search_on!(
    solve_avx512,
    search_avx512,
    Pext,
    "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw,avx512dq"
);

/// Depth-first search from `puzzle` on `isa` (which this CPU must run); stops when
/// `out` says so.
pub(super) fn solve_into(isa: Isa, puzzle: &Grid, out: &mut impl Solutions) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: callers pass an instruction set that `Isa::available` confirmed.
        Isa::Avx512 => unsafe { solve_avx512(puzzle, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Isa::Avx2 => unsafe { solve_avx2(puzzle, out) },
        _ => solve_portable(puzzle, out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_by_table_and_by_pdep_agree() {
        for bits in 0..256u32 {
            let spread = Lookup::spread(bits | 0x300);
            for k in 0..8 {
                assert_eq!(
                    spread >> (8 * k) & 0xff,
                    u64::from(bits >> k & 1),
                    "{bits:#x}"
                );
            }
            #[cfg(target_arch = "x86_64")]
            if Isa::Avx2.available() {
                assert_eq!(Pext::spread(bits | 0x300), spread, "{bits:#x}");
            }
        }
    }
}
