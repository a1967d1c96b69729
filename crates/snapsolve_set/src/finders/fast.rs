//! Engine 4, the default: a compile-time table of third cards and a card-to-position array.
//!
//! Data layout of the hot loop:
//!
//! ```text
//!   THIRD: [[Card; 81]; 81]   6,561 bytes, fits in L1; row a = the completing card of (a, b) for every b
//!   slot:  [u8; 81]           slot[card] = position + 1 if the card is on the table, else 0
//!
//!   for i < j:   k = slot[THIRD[c_i][c_j]]     two dependent byte loads, no arithmetic
//!                k > j + 1  ⇔  the third card lies after j  (0 = absent fails for free)
//! ```
//!
//! Storing `position + 1` lets "absent" and "already counted" share one compare,
//! so the loop has a single, well-predicted branch. Alternatives measured in
//! `BENCHMARKS.md`: a hash map (engine 2) and attribute arithmetic per pair are
//! several times slower; counting without listing drops even that branch.

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

/// Card-to-position map: `position + 1`, or 0 for a card not on the table.
#[inline]
fn slots(cards: &[Card]) -> [u8; Card::COUNT] {
    let mut slot = [0u8; Card::COUNT];
    for (position, card) in cards.iter().enumerate() {
        slot[card.index() as usize] = position as u8 + 1;
    }
    slot
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

/// Number of SETs, without listing them: every SET is seen from its three pairs.
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

/// Whether at least one SET is present; stops at the first.
pub fn has_set(cards: &[Card]) -> bool {
    let slot = slots(cards);
    cards.iter().enumerate().any(|(i, &a)| {
        let row = Card::third_row(a);
        cards[i + 1..]
            .iter()
            .any(|&b| slot[row[b.index() as usize].index() as usize] != 0)
    })
}
