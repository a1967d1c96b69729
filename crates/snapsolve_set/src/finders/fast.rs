//! Engine 4, the default: third-card tables and a card-to-position map, one row of pairs at a time.
//!
//! Three implementations of the same idea, chosen at run time:
//!
//! - [`grid16`] (x86-64 with AVX-512 VBMI, tables of up to 16 cards, which is
//!   every table of a real game): all pairs of the table, four rows to a
//!   register, the third card by bit logic on a 2-bit-per-attribute code;
//! - [`vbmi`] (the same CPUs, 17..64 cards): all pairs `(i, j > i)` of a row in
//!   one register, two byte permutes per row;
//! - [`portable`] everywhere else (other CPUs, the 65..81-card layouts): the same
//!   tables, one pair at a time.
//!
//! The data layouts and the measurements are beside each loop. All return
//! exactly what engine 1 returns; the tests at the bottom of this file check
//! each against it, so the fallbacks stay tested on machines that would never
//! run them.

#[cfg(target_arch = "x86_64")]
mod grid16;
#[cfg(target_arch = "x86_64")]
mod vbmi;

#[cfg(target_arch = "x86_64")]
pub(crate) use vbmi::available as vbmi_available;

use super::{EngineError, SetFinder};
use crate::card::Card;
use crate::layout::{Layout, Triple};

/// The table-driven finder; the default engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fast;

impl SetFinder for Fast {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn find_sets(&self, layout: &Layout) -> Result<Vec<Triple>, EngineError> {
        Ok(find_sets(layout.cards()))
    }
}

/// Which core takes a layout of `n` cards on this CPU.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Core {
    Grid16,
    Rows,
    Portable,
}

#[inline]
fn core_for(n: usize) -> Core {
    #[cfg(target_arch = "x86_64")]
    if n <= vbmi::MAX_CARDS && vbmi::available() {
        return if n <= grid16::MAX_CARDS {
            Core::Grid16
        } else {
            Core::Rows
        };
    }
    let _ = n;
    Core::Portable
}

/// All SETs among distinct cards, sorted. Cards must be distinct (a [`Layout`] is).
pub fn find_sets(cards: &[Card]) -> Vec<Triple> {
    let mut sets = Vec::new();
    find_sets_into(cards, &mut sets);
    sets
}

/// Like [`find_sets`], appending to a buffer the caller reuses (no allocation once warm).
pub fn find_sets_into(cards: &[Card], sets: &mut Vec<Triple>) {
    debug_assert!(cards.len() <= Card::COUNT);
    match core_for(cards.len()) {
        // SAFETY (both vectorised cores): `core_for` checked the CPU features and the size limit.
        #[cfg(target_arch = "x86_64")]
        Core::Grid16 => unsafe { grid16::find_sets_into(cards, sets) },
        #[cfg(target_arch = "x86_64")]
        Core::Rows => unsafe { vbmi::find_sets_into(cards, sets) },
        _ => portable::find_sets_into(cards, sets),
    }
}

/// Number of SETs, without listing them.
pub fn count_sets(cards: &[Card]) -> usize {
    match core_for(cards.len()) {
        // SAFETY: as in `find_sets_into`.
        #[cfg(target_arch = "x86_64")]
        Core::Grid16 => unsafe { grid16::count_sets(cards) },
        #[cfg(target_arch = "x86_64")]
        Core::Rows => unsafe { vbmi::count_sets(cards) },
        _ => portable::count_sets(cards),
    }
}

/// Whether at least one SET is present; stops at the first row that has one.
pub fn has_set(cards: &[Card]) -> bool {
    match core_for(cards.len()) {
        // SAFETY: as in `find_sets_into`.
        #[cfg(target_arch = "x86_64")]
        Core::Grid16 => unsafe { grid16::has_set(cards) },
        #[cfg(target_arch = "x86_64")]
        Core::Rows => unsafe { vbmi::has_set(cards) },
        _ => portable::has_set(cards),
    }
}

/// The portable core: one pair at a time (the fallback, public so it can be measured).
///
/// ```text
///   THIRD: [[Card; 81]; 81]   6,561 bytes, fits in L1; row a = the completing card of (a, b) for every b
///   slot:  [u8; 81]           slot[card] = position + 1 if the card is on the table, else 0
///
///   for i < j:   k = slot[THIRD[c_i][c_j]]     two dependent byte loads, no arithmetic
///                k > j + 1  ⇔  the third card lies after j  (0 = absent fails for free)
/// ```
///
/// Storing `position + 1` lets "absent" and "already counted" share one compare,
/// so the loop has a single branch, taken only on a SET.
pub mod portable {
    use crate::card::Card;
    use crate::layout::Triple;

    /// Card-to-position map: `position + 1`, or 0 for a card not on the table.
    #[inline]
    fn slots(cards: &[Card]) -> [u8; Card::COUNT] {
        let mut slot = [0u8; Card::COUNT];
        for (position, card) in cards.iter().enumerate() {
            slot[card.index() as usize] = position as u8 + 1;
        }
        slot
    }

    /// All SETs, appended to `sets` (see [`super::find_sets_into`]).
    pub fn find_sets_into(cards: &[Card], sets: &mut Vec<Triple>) {
        let slot = slots(cards);
        for (i, &a) in cards.iter().enumerate() {
            let row = Card::third_row(a);
            for (j, &b) in cards.iter().enumerate().skip(i + 1) {
                let k = slot[row[b.index() as usize].index() as usize] as usize;
                if k > j + 1 {
                    sets.push([i, j, k - 1]);
                }
            }
        }
    }

    /// Number of SETs: every SET is seen from its three pairs.
    pub fn count_sets(cards: &[Card]) -> usize {
        let slot = slots(cards);
        let mut hits = 0usize;
        for (i, &a) in cards.iter().enumerate() {
            let row = Card::third_row(a);
            for &b in &cards[i + 1..] {
                hits += (slot[row[b.index() as usize].index() as usize] != 0) as usize;
            }
        }
        hits / 3
    }

    /// Whether at least one SET is present.
    pub fn has_set(cards: &[Card]) -> bool {
        let slot = slots(cards);
        cards.iter().enumerate().any(|(i, &a)| {
            let row = Card::third_row(a);
            cards[i + 1..]
                .iter()
                .any(|&b| slot[row[b.index() as usize].index() as usize] != 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finders::find_sets_brute;

    /// Seeded layouts of every size 0..=81 (xorshift, so the test needs no generator crate).
    fn sample_layouts() -> Vec<Vec<Card>> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut layouts = Vec::new();
        for round in 0..40 {
            for n in 0..=Card::COUNT {
                let mut deck: Vec<Card> = Card::all().collect();
                for k in (1..deck.len()).rev() {
                    deck.swap(k, (next() % (k as u64 + 1)) as usize);
                }
                deck.truncate(if round % 2 == 0 { n } else { n.min(21) });
                layouts.push(deck);
            }
        }
        layouts
    }

    #[test]
    fn portable_core_matches_brute_force() {
        for cards in sample_layouts() {
            let expected = find_sets_brute(&cards);
            let mut found = Vec::new();
            portable::find_sets_into(&cards, &mut found);
            assert_eq!(found, expected, "{cards:?}");
            assert_eq!(portable::count_sets(&cards), expected.len());
            assert_eq!(portable::has_set(&cards), !expected.is_empty());
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vectorised_core_matches_brute_force() {
        if !vbmi::available() {
            eprintln!("skipped: this CPU lacks AVX-512 VBMI (the portable core is tested instead)");
            return;
        }
        for cards in sample_layouts() {
            if cards.len() > vbmi::MAX_CARDS {
                continue;
            }
            let expected = find_sets_brute(&cards);
            let mut found = Vec::new();
            // SAFETY: features checked above, size limit checked in the loop.
            unsafe { vbmi::find_sets_into(&cards, &mut found) };
            assert_eq!(found, expected, "{cards:?}");
            assert_eq!(unsafe { vbmi::count_sets(&cards) }, expected.len());
            assert_eq!(unsafe { vbmi::has_set(&cards) }, !expected.is_empty());
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn small_table_core_matches_brute_force() {
        if !vbmi::available() {
            eprintln!("skipped: this CPU lacks AVX-512 VBMI (the portable core is tested instead)");
            return;
        }
        for cards in sample_layouts() {
            if cards.len() > grid16::MAX_CARDS {
                continue;
            }
            let expected = find_sets_brute(&cards);
            let mut found = Vec::new();
            // SAFETY: features checked above, size limit checked in the loop.
            unsafe { grid16::find_sets_into(&cards, &mut found) };
            assert_eq!(found, expected, "{cards:?}");
            assert_eq!(unsafe { grid16::count_sets(&cards) }, expected.len());
            assert_eq!(unsafe { grid16::has_set(&cards) }, !expected.is_empty());
        }
    }
}
