//! Using the sudoku rules to correct a reading.
//!
//! The network gives each cell a probability for empty and for 1-9. The most
//! likely reading may break the rules (two 5s in a row) or have no unique
//! solution. Then the readings closest to it are tried in order of likelihood:
//! the cheapest single changes first, then pairs and triples (each change costs
//! `ln p(best) - ln p(alternative)`; sets of changes are enumerated in
//! increasing total cost by the classic "replace the last / add the next" scheme),
//! and the first one that is a proper sudoku (no clash, exactly one solution) wins.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use snapsolve_sudoku::{Grid, Verdict, find_clashes, solve};

use super::CellProbabilities;
use super::most_likely;

/// Alternatives less likely than this (relative to the cell's best) are not tried.
const MIN_RELATIVE_PROBABILITY: f32 = 1e-4;
/// How many of the cheapest alternatives take part in the search.
const MAX_ALTERNATIVES: usize = 24;
/// At most this many cells are changed.
const MAX_CHANGES: usize = 3;
/// At most this many readings are checked with the solver.
const MAX_TRIES: usize = 4000;
/// A cell whose chosen class has a lower probability is reported as doubtful.
pub const DOUBT_BELOW: f32 = 0.9;

/// The reading chosen with the rules, and what the solver says about it.
#[derive(Clone, Debug)]
pub struct RuledReading {
    /// The digits (0 = empty).
    pub digits: [u8; 81],
    /// None, one or several solutions.
    pub verdict: Verdict,
    /// Cells whose digit differs from the network's first choice.
    pub changed: Vec<usize>,
    /// Cells changed or read with a probability under [`DOUBT_BELOW`].
    pub doubtful: Vec<usize>,
}

/// One possible change: cell `cell` read as `class` at `cost`.
#[derive(Clone, Copy, Debug)]
struct Change {
    cell: usize,
    class: u8,
    cost: f32,
}

/// A set of changes (indices into the sorted change list) waiting in the queue.
#[derive(Debug, PartialEq)]
struct Candidate {
    cost: f32,
    picks: Vec<usize>,
}

impl Eq for Candidate {}
impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        other.cost.total_cmp(&self.cost) // smallest cost first in the max-heap
    }
}
impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The verdict on a reading, `None` when its givens clash.
fn check(digits: &[u8; 81]) -> Option<Verdict> {
    let grid = Grid::from_cells(*digits)?;
    if !find_clashes(&grid).is_empty() {
        return None;
    }
    Some(solve(&grid))
}

/// The cheapest changes, cheapest first.
fn alternatives(probabilities: &[CellProbabilities]) -> Vec<Change> {
    let mut changes = Vec::new();
    for (cell, p) in probabilities.iter().enumerate() {
        let best = most_likely(p);
        for (class, &q) in p.iter().enumerate() {
            if class != best && q >= p[best] * MIN_RELATIVE_PROBABILITY {
                let cost = p[best].max(1e-12).ln() - q.max(1e-12).ln();
                changes.push(Change {
                    cell,
                    class: class as u8,
                    cost,
                });
            }
        }
    }
    changes.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    changes.truncate(MAX_ALTERNATIVES);
    changes
}

/// The most likely reading that is a proper sudoku, else the network's reading.
pub fn apply_rules(probabilities: &[CellProbabilities]) -> Option<RuledReading> {
    if probabilities.len() != 81 {
        return None;
    }
    let mut first = [0u8; 81];
    for (slot, p) in first.iter_mut().zip(probabilities) {
        *slot = most_likely(p) as u8;
    }
    let verdict = check(&first);
    if let Some(v @ Verdict::Unique(_)) = verdict {
        return Some(finish(first, v, probabilities, &first));
    }
    let changes = alternatives(probabilities);
    let mut queue = BinaryHeap::new();
    if let Some(c) = changes.first() {
        queue.push(Candidate {
            cost: c.cost,
            picks: vec![0],
        });
    }
    let mut tries = 0;
    while let Some(candidate) = queue.pop() {
        let last = *candidate.picks.last().unwrap_or(&0);
        if last + 1 < changes.len() {
            let mut replaced = candidate.picks.clone();
            replaced.pop();
            replaced.push(last + 1);
            queue.push(Candidate {
                cost: candidate.cost - changes[last].cost + changes[last + 1].cost,
                picks: replaced,
            });
            if candidate.picks.len() < MAX_CHANGES {
                let mut added = candidate.picks.clone();
                added.push(last + 1);
                queue.push(Candidate {
                    cost: candidate.cost + changes[last + 1].cost,
                    picks: added,
                });
            }
        }
        let mut cells_used = candidate
            .picks
            .iter()
            .map(|&i| changes[i].cell)
            .collect::<Vec<_>>();
        cells_used.sort_unstable();
        cells_used.dedup();
        if cells_used.len() != candidate.picks.len() {
            continue;
        }
        let mut digits = first;
        for &i in &candidate.picks {
            digits[changes[i].cell] = changes[i].class;
        }
        tries += 1;
        if let Some(v @ Verdict::Unique(_)) = check(&digits) {
            return Some(finish(digits, v, probabilities, &first));
        }
        if tries >= MAX_TRIES {
            break;
        }
    }
    let verdict = verdict.unwrap_or(Verdict::None);
    Some(finish(first, verdict, probabilities, &first))
}

fn finish(
    digits: [u8; 81],
    verdict: Verdict,
    probabilities: &[CellProbabilities],
    first: &[u8; 81],
) -> RuledReading {
    let changed: Vec<usize> = (0..81).filter(|&i| digits[i] != first[i]).collect();
    let doubtful = (0..81)
        .filter(|&i| {
            digits[i] != first[i] || probabilities[i][usize::from(digits[i])] < DOUBT_BELOW
        })
        .collect();
    RuledReading {
        digits,
        verdict,
        changed,
        doubtful,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn confident(digits: &[u8; 81]) -> Vec<CellProbabilities> {
        digits
            .iter()
            .map(|&d| {
                let mut p = [0.001; 10];
                p[usize::from(d)] = 0.991;
                p
            })
            .collect()
    }

    fn digits_of(text: &str) -> [u8; 81] {
        super::super::labels::parse_digits(text).expect("81 digits")
    }

    #[test]
    fn a_confident_valid_reading_is_kept() {
        let r = apply_rules(&confident(&digits_of(PUZZLE))).expect("81 cells");
        assert_eq!(r.digits, digits_of(PUZZLE));
        assert!(matches!(r.verdict, Verdict::Unique(_)));
        assert!(r.changed.is_empty() && r.doubtful.is_empty());
    }

    #[test]
    fn a_clash_is_fixed_by_the_likeliest_alternative() {
        let truth = digits_of(PUZZLE);
        let mut probabilities = confident(&truth);
        // Cell 0 holds a 5; the network prefers 3 (clashing with cell 1) but gives 5 some weight.
        probabilities[0] = [0.0, 0.0, 0.0, 0.6, 0.0, 0.35, 0.0, 0.0, 0.05, 0.0];
        let r = apply_rules(&probabilities).expect("81 cells");
        assert_eq!(r.digits, truth);
        assert_eq!(r.changed, vec![0]);
        assert!(r.doubtful.contains(&0));
    }
}
