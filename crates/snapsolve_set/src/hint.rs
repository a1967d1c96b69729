//! Hints in three steps, and the largest number of SETs that can be taken at once.

use crate::card::Card;
use crate::finders::find_sets;
use crate::layout::{Layout, Triple};

/// How much of a SET a hint reveals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HintLevel {
    /// One card that belongs to a SET.
    OneCard = 1,
    /// Two cards of the same SET.
    TwoCards = 2,
    /// The whole SET.
    WholeSet = 3,
}

/// A hint: the first cards of one SET, as positions in the layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Positions revealed, 1 to 3 of them.
    pub positions: Vec<usize>,
    /// How many SETs the layout holds in all.
    pub sets_on_table: usize,
}

/// A hint at the given level, or `None` when the layout holds no SET.
///
/// The SET revealed is the one containing the card that lies in the most SETs
/// (ties to the earliest position), so a one-card hint points where looking pays most;
/// the same layout always gets the same hint, so asking again for more reveals more of the same SET.
pub fn hint(layout: &Layout, level: HintLevel) -> Option<Hint> {
    let sets = find_sets(layout.cards());
    let mut membership = vec![0usize; layout.len()];
    for set in &sets {
        for &p in set {
            membership[p] += 1;
        }
    }
    let busiest = (0..layout.len()).max_by_key(|&p| (membership[p], std::cmp::Reverse(p)))?;
    let set = sets.iter().find(|s| s.contains(&busiest))?;
    let mut positions = vec![busiest];
    positions.extend(set.iter().copied().filter(|&p| p != busiest));
    positions.truncate(level as usize);
    Some(Hint {
        positions,
        sets_on_table: sets.len(),
    })
}

/// The largest collection of pairwise disjoint SETs (exact, branch and bound).
///
/// Cards are bits of a `u128`; the search takes the lowest card still in play and
/// either uses it in one of its SETs or sets it aside, pruning when even taking
/// every remaining card three at a time could not beat the best found. The whole
/// deck (27 disjoint SETs) is solved instantly because the first branch already
/// reaches the bound.
pub fn max_disjoint_sets(layout: &Layout) -> Vec<Triple> {
    let sets = find_sets(layout.cards());
    let mut by_card: Vec<Vec<(u128, Triple)>> = vec![Vec::new(); layout.len()];
    for &set in &sets {
        let mask = set.iter().fold(0u128, |m, &p| m | 1u128 << p);
        by_card[set[0]].push((mask, set));
    }
    // Only cards that are in some SET matter.
    let live = sets.iter().flatten().fold(0u128, |m, &p| m | 1u128 << p);
    let mut search = Packing {
        by_card: &by_card,
        best: Vec::new(),
        current: Vec::new(),
    };
    search.run(live);
    search.best
}

struct Packing<'a> {
    by_card: &'a [Vec<(u128, Triple)>],
    best: Vec<Triple>,
    current: Vec<Triple>,
}

impl Packing<'_> {
    fn run(&mut self, free: u128) {
        if self.current.len() > self.best.len() {
            self.best = self.current.clone();
        }
        if self.current.len() + (free.count_ones() as usize) / 3 <= self.best.len() {
            return;
        }
        let lowest = free.trailing_zeros() as usize;
        // SETs are listed under their lowest position, so every SET still possible
        // in `free` that uses `lowest` is in this list.
        for &(mask, set) in &self.by_card[lowest] {
            if mask & free == mask {
                self.current.push(set);
                self.run(free & !mask);
                self.current.pop();
            }
        }
        self.run(free & !(1u128 << lowest));
    }
}

/// The card names of a triple, for messages.
pub fn describe(layout: &Layout, triple: Triple) -> [Card; 3] {
    layout.triple_cards(triple)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_grow_inside_one_set() {
        let layout = Layout::parse(
            "1-red-solid-oval 2-red-solid-oval 3-red-solid-oval 1-green-open-diamond",
        )
        .unwrap();
        let one = hint(&layout, HintLevel::OneCard).unwrap();
        let three = hint(&layout, HintLevel::WholeSet).unwrap();
        assert_eq!(one.positions.len(), 1);
        assert_eq!(three.positions.len(), 3);
        assert_eq!(one.positions[0], three.positions[0]);
        assert_eq!(three.sets_on_table, 1);
        let mut p = three.positions.clone();
        p.sort();
        assert_eq!(p, vec![0, 1, 2]);
    }

    #[test]
    fn no_set_means_no_hint() {
        let layout = Layout::parse("1-red-solid-oval 2-red-solid-oval").unwrap();
        assert_eq!(hint(&layout, HintLevel::OneCard), None);
    }

    #[test]
    fn whole_deck_packs_into_27_sets() {
        let packing = max_disjoint_sets(&Layout::full_deck());
        assert_eq!(packing.len(), 27);
        let mut used = [false; 81];
        for set in packing {
            for p in set {
                assert!(!used[p]);
                used[p] = true;
            }
        }
    }

    #[test]
    fn packing_is_optimal_on_small_layouts() {
        // Four cards in two overlapping SETs sharing a card: only one can be taken.
        let layout = Layout::parse(
            "1-red-solid-oval 2-red-solid-oval 3-red-solid-oval 1-green-solid-oval 1-purple-solid-oval",
        )
        .unwrap();
        assert_eq!(find_sets(layout.cards()).len(), 2);
        assert_eq!(max_disjoint_sets(&layout).len(), 1);
    }
}
