//! Engine 1: every triple, checked attribute by attribute.
//!
//! Seed 000's first approach and seed 003's `find_sets`: for each of the C(n,3)
//! triples, every attribute must be all equal or all different, which is the
//! same as the three values summing to a multiple of 3. Slow and obviously
//! right: it is the reference the other engines are tested against.

use super::{EngineError, SetFinder};
use crate::card::Card;
use crate::layout::{Layout, Triple};

/// All triples, checked attribute by attribute.
#[derive(Clone, Copy, Debug, Default)]
pub struct BruteForce;

impl SetFinder for BruteForce {
    fn name(&self) -> &'static str {
        "brute"
    }

    fn find_sets(&self, layout: &Layout) -> Result<Vec<Triple>, EngineError> {
        Ok(find_sets_brute(layout.cards()))
    }
}

/// All SETs by checking every triple.
pub fn find_sets_brute(cards: &[Card]) -> Vec<Triple> {
    let values: Vec<[u8; 4]> = cards.iter().map(|c| c.values()).collect();
    let n = values.len();
    let mut sets = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                let forms_set =
                    (0..4).all(|a| (values[i][a] + values[j][a] + values[k][a]).is_multiple_of(3));
                if forms_set {
                    sets.push([i, j, k]);
                }
            }
        }
    }
    sets
}
