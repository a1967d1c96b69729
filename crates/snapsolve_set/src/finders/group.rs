//! Engine 3: recursive grouping on one attribute at a time.
//!
//! Seed 003's `find_sets3`: split the cards by their value of the first
//! remaining attribute. A SET either lies inside one group (recurse on the next
//! attribute) or takes one card from each of the three groups (check those
//! triples in full). This is how many people search by eye.

use super::{EngineError, SetFinder};
use crate::card::Card;
use crate::layout::{Layout, Triple};

/// Recursive grouping on the first attribute, as people do.
#[derive(Clone, Copy, Debug, Default)]
pub struct Grouping;

impl SetFinder for Grouping {
    fn name(&self) -> &'static str {
        "group"
    }

    fn find_sets(&self, layout: &Layout) -> Result<Vec<Triple>, EngineError> {
        Ok(find_sets_grouping(layout.cards()))
    }
}

/// All SETs by recursive grouping, sorted.
pub fn find_sets_grouping(cards: &[Card]) -> Vec<Triple> {
    let positions: Vec<usize> = (0..cards.len()).collect();
    let mut sets = Vec::new();
    search(cards, &positions, 0, &mut sets);
    for set in &mut sets {
        set.sort_unstable();
    }
    sets.sort_unstable();
    sets
}

fn search(cards: &[Card], positions: &[usize], attribute: usize, sets: &mut Vec<Triple>) {
    if positions.len() < 3 {
        return;
    }
    if attribute == 4 {
        // Cards agreeing on all four attributes are the same card: impossible in a layout.
        return;
    }
    let mut groups: [Vec<usize>; 3] = Default::default();
    for &p in positions {
        groups[cards[p].values()[attribute] as usize].push(p);
    }
    for group in &groups {
        search(cards, group, attribute + 1, sets);
    }
    for &a in &groups[0] {
        for &b in &groups[1] {
            for &c in &groups[2] {
                if Card::is_set(cards[a], cards[b], cards[c]) {
                    sets.push([a, b, c]);
                }
            }
        }
    }
}
