//! Engine 2: every pair and the one card that completes it, looked up.
//!
//! Seed 000's second approach ("the SET key") and seed 003's `find_sets2`: two
//! cards determine the third attribute by attribute (equal values stay, two
//! different values call for the remaining one); a hash map from card to
//! position says whether it lies on the table after the pair. O(n²) lookups.

use std::collections::HashMap;

use super::{EngineError, SetFinder};
use crate::card::Card;
use crate::layout::{Layout, Triple};

/// Every pair and its completing card, looked up in a hash map.
#[derive(Clone, Copy, Debug, Default)]
pub struct PairLookup;

impl SetFinder for PairLookup {
    fn name(&self) -> &'static str {
        "pairs"
    }

    fn find_sets(&self, layout: &Layout) -> Result<Vec<Triple>, EngineError> {
        Ok(find_sets_pairs(layout.cards()))
    }
}

/// All SETs by completing every pair (cards must be distinct).
pub fn find_sets_pairs(cards: &[Card]) -> Vec<Triple> {
    let position: HashMap<[u8; 4], usize> = cards
        .iter()
        .enumerate()
        .map(|(i, c)| (c.values(), i))
        .collect();
    let mut sets = Vec::new();
    for i in 0..cards.len() {
        for j in i + 1..cards.len() {
            let missing = completing_values(cards[i].values(), cards[j].values());
            // Only look after j, so each SET is reported once, from its first pair.
            if let Some(&k) = position.get(&missing)
                && k > j
            {
                sets.push([i, j, k]);
            }
        }
    }
    sets
}

/// The attribute values of the card completing two others.
fn completing_values(a: [u8; 4], b: [u8; 4]) -> [u8; 4] {
    std::array::from_fn(|d| if a[d] == b[d] { a[d] } else { 3 - a[d] - b[d] })
}
