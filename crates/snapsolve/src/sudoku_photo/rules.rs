//! Using the sudoku rules to correct a reading.
//!
//! The network gives each cell a probability for empty and for 1-9. The most
//! likely reading may break the rules (two 5s in a row) or have no unique
//! solution. Then the readings closest to it are tried in order of likelihood:
//! the cheapest single changes first, then pairs and triples (each change costs
//! `ln p(best) - ln p(alternative)`; sets of changes are enumerated in
//! increasing total cost by the classic "replace the last / add the next" scheme),
//! and the first one that is a proper sudoku (no clash, exactly one solution) wins.
//!
//! A grid read with (nearly) every cell filled, a puzzle completed by hand, must
//! be a valid complete grid: then the cells are taken as givens from the most
//! confident down, skipping any that would leave no solution, until the givens
//! have one solution, which is the reading (see [`complete_reading`]). The
//! confident printed givens thus decide the untidy handwritten digits. That
//! greedy answer then bounds a branch-and-bound search for the likeliest valid
//! complete grid ([`likeliest_complete_grid`]), which replaces it when cheaper.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use snapsolve_sudoku::{Grid, Verdict, count_solutions, find_clashes, solve};

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
/// A reading with at least this many cells likelier filled than empty is taken
/// for a completed grid (a printed puzzle has far fewer givens; a few
/// handwritten digits may be read as empty).
pub const COMPLETED_FROM: usize = 72;
/// Fewer givens than this never have one solution (McGuire et al. 2012), so
/// uniqueness is not checked before.
const FEWEST_GIVENS: usize = 17;

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
    if first.iter().filter(|&&d| d != 0).count() >= COMPLETED_FROM
        && let Some(solution) =
            likeliest_complete_grid(probabilities, complete_reading(probabilities))
    {
        let digits = *solution.cells();
        return Some(finish(
            digits,
            Verdict::Unique(solution),
            probabilities,
            &first,
        ));
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

/// The complete grid of a filled-in reading: cells become givens from the most
/// confident digit down (a cell read as empty offers its likeliest digit), a
/// given that would leave no solution is skipped as misread, and once the givens
/// have exactly one solution that solution is the reading. `None` if they never
/// do.
pub fn complete_reading(probabilities: &[CellProbabilities]) -> Option<Grid> {
    let mut order: Vec<(usize, u8, f32)> = probabilities
        .iter()
        .enumerate()
        .map(|(cell, p)| {
            let digit = (1..10).max_by(|&a, &b| p[a].total_cmp(&p[b])).unwrap_or(1);
            (cell, digit as u8, p[digit])
        })
        .collect();
    order.sort_by(|a, b| b.2.total_cmp(&a.2));
    let mut givens = [0u8; 81];
    let mut placed = 0;
    for (cell, digit, _) in order {
        givens[cell] = digit;
        let grid = Grid::from_cells(givens)?;
        if !find_clashes(&grid).is_empty() || count_solutions(&grid, 1) == 0 {
            givens[cell] = 0;
            continue;
        }
        placed += 1;
        if placed >= FEWEST_GIVENS
            && let Verdict::Unique(solution) = solve(&grid)
        {
            return Some(solution);
        }
    }
    None
}

/// Search nodes allowed to [`likeliest_complete_grid`] (a few milliseconds at most).
const MAX_NODES: usize = 20_000;

/// Depth-first branch and bound over complete grids, cost `sum -ln p(digit)`.
struct Completion {
    costs: Vec<[f32; 10]>,
    best: Option<[u8; 81]>,
    best_cost: f32,
    nodes: usize,
}

const fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

impl Completion {
    fn cost_of(&self, grid: &[u8; 81]) -> f32 {
        grid.iter()
            .enumerate()
            .map(|(i, &d)| self.costs[i][usize::from(d)])
            .sum()
    }

    /// `used[0..9]` rows, `[9..18]` columns, `[18..27]` boxes: digit bits in use.
    fn search(&mut self, grid: &mut [u8; 81], used: &mut [u16; 27], cost: f32) {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return;
        }
        let mut bound = cost;
        let mut pick: Option<(usize, u16, f32)> = None;
        for cell in (0..81).filter(|&c| grid[c] == 0) {
            let free = !(used[cell / 9] | used[9 + cell % 9] | used[18 + box_of(cell)]) & 0x3fe;
            if free == 0 {
                return;
            }
            let (cheapest, runner_up) = (1..10)
                .filter(|d| free & (1 << d) != 0)
                .map(|d| self.costs[cell][d])
                .fold((f32::INFINITY, f32::INFINITY), |(a, b), c| {
                    if c < a { (c, a) } else { (a, b.min(c)) }
                });
            bound += cheapest;
            // A forced cell first, else the one whose likeliest digit leads the
            // runner-up most: the confident cells constrain the doubtful ones
            // before any doubtful guess is made.
            let regret = runner_up - cheapest;
            if pick.is_none_or(|(_, _, r)| regret > r) {
                pick = Some((cell, free, regret));
            }
        }
        if bound >= self.best_cost {
            return;
        }
        let Some((cell, free, _)) = pick else {
            self.best_cost = cost;
            self.best = Some(*grid);
            return;
        };
        let mut digits: Vec<usize> = (1..10).filter(|d| free & (1 << d) != 0).collect();
        digits.sort_by(|&a, &b| self.costs[cell][a].total_cmp(&self.costs[cell][b]));
        let units = [cell / 9, 9 + cell % 9, 18 + box_of(cell)];
        for d in digits {
            grid[cell] = d as u8;
            units.iter().for_each(|&u| used[u] |= 1 << d);
            self.search(grid, used, cost + self.costs[cell][d]);
            units.iter().for_each(|&u| used[u] &= !(1 << d));
        }
        grid[cell] = 0;
    }
}

/// The valid complete grid with the highest probability under the network
/// (each cell's digit probabilities, empty excluded), searched from `start`
/// (a valid complete grid, e.g. [`complete_reading`]'s) as the first bound;
/// within [`MAX_NODES`] nodes the best found so far, never worse than `start`.
pub fn likeliest_complete_grid(
    probabilities: &[CellProbabilities],
    start: Option<Grid>,
) -> Option<Grid> {
    let costs = probabilities
        .iter()
        .map(|p| {
            let mut c = [f32::INFINITY; 10];
            for (slot, q) in c.iter_mut().zip(p).skip(1) {
                *slot = -q.max(1e-9).ln();
            }
            c
        })
        .collect();
    let mut search = Completion {
        costs,
        best: start.map(|g| *g.cells()),
        best_cost: f32::INFINITY,
        nodes: 0,
    };
    if let Some(grid) = &search.best {
        search.best_cost = search.cost_of(grid);
    }
    search.search(&mut [0; 81], &mut [0; 27], 0.0);
    Grid::from_cells(search.best?)
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

    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn a_completed_grid_is_read_as_the_solution_of_its_confident_cells() {
        let truth = digits_of(SOLUTION);
        let mut probabilities = confident(&truth);
        // Five untidy handwritten cells: misread with some doubt, one read as empty.
        for (cell, wrong) in [(2, 8u8), (10, 1), (40, 3), (60, 4), (80, 0)] {
            let mut p = [0.02; 10];
            p[usize::from(wrong)] = 0.55;
            p[usize::from(truth[cell])] = 0.25;
            probabilities[cell] = p;
        }
        let r = apply_rules(&probabilities).expect("81 cells");
        assert_eq!(r.digits, truth);
        assert!(matches!(r.verdict, Verdict::Unique(_)));
        assert_eq!(r.changed, vec![2, 10, 40, 60, 80]);
        assert!(r.changed.iter().all(|c| r.doubtful.contains(c)));
    }

    #[test]
    fn the_search_alone_finds_the_likeliest_complete_grid() {
        let truth = digits_of(SOLUTION);
        let mut probabilities = confident(&truth);
        // A swap of two digits in a row is the runner-up in both cells.
        for (cell, other) in [(0, 3u8), (1, 5)] {
            let mut p = [0.01; 10];
            p[usize::from(other)] = 0.5;
            p[usize::from(truth[cell])] = 0.4;
            probabilities[cell] = p;
        }
        let grid = likeliest_complete_grid(&probabilities, None).expect("a grid");
        assert_eq!(*grid.cells(), truth);
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

    #[test]
    fn the_search_settles_the_confident_cells_before_the_doubtful_ones() {
        // A filled-in grid photographed badly: 27 cells sure, the other 54 with
        // their likeliest digit wrong in every third one (the truth the runner-up).
        // Filling cells in index order, the search spent its nodes on guesses
        // in the doubtful cells and stopped far from the truth.
        let truth = digits_of(SOLUTION);
        let mut probabilities = confident(&truth);
        let mut doubtful = 0;
        for cell in (0..81).filter(|c| c % 3 != 0) {
            let t = usize::from(truth[cell]);
            let wrong = t % 9 + 1;
            let mut p = [0.03; 10];
            p[0] = 0.0;
            if doubtful % 3 == 0 {
                (p[wrong], p[t]) = (0.45, 0.3);
            } else {
                (p[t], p[wrong]) = (0.45, 0.3);
            }
            probabilities[cell] = p;
            doubtful += 1;
        }
        assert_eq!(doubtful, 54);
        let grid = likeliest_complete_grid(&probabilities, None).expect("a grid");
        assert_eq!(*grid.cells(), truth);
    }
}
