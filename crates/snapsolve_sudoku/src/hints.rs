//! Hints for people: the next logical step and its reason, and the candidates of
//! every cell.
//!
//! Techniques are tried from the simplest: naked single, hidden single (box, row,
//! column), locked candidates (pointing, claiming), naked pair, hidden pair. A step
//! that only removes candidates does not change the grid, so [`hint`] keeps applying
//! such steps until one places a digit, and returns the whole chain: the placement and
//! the eliminations it needed.

use std::fmt;

use crate::diagnose::basic_candidates;
use crate::grid::{CELLS, Grid, Unit, box_of, cell_name, cell_names, col_of, row_of};
use crate::rules::{Clash, find_clashes};
use crate::solver::{Solver, Verdict};

/// The candidates of every cell: bit `d` set when digit `d` (1-9) still fits; 0 for a
/// filled cell.
pub type Candidates = [u16; CELLS];

/// The name of a logical technique.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Technique {
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit with one place left in a unit.
    HiddenSingle,
    /// A digit confined to one row or column inside a box.
    Pointing,
    /// A digit confined to one box inside a row or column.
    Claiming,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// Two digits that fit only the same two cells of a unit.
    HiddenPair,
}

impl Technique {
    /// Name as players know it.
    pub fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::Pointing => "locked candidates (pointing)",
            Technique::Claiming => "locked candidates (claiming)",
            Technique::NakedPair => "naked pair",
            Technique::HiddenPair => "hidden pair",
        }
    }
}

/// One logical step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// How it was found.
    pub technique: Technique,
    /// The digit it places, as `(cell, digit)`, if it places one.
    pub place: Option<(usize, u8)>,
    /// Candidates it removes, as `(cell, digit)`.
    pub eliminate: Vec<(usize, u8)>,
    /// The reason in words.
    pub reason: String,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.technique.name(), self.reason)
    }
}

/// What `hint` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// Logical steps; the last places a digit, the ones before only remove candidates.
    Steps(Vec<Step>),
    /// No technique known here applies; the solver's digit for one cell instead.
    FromSolution {
        /// The cell.
        cell: usize,
        /// Its digit in the (unique) solution.
        digit: u8,
    },
    /// The grid is already full.
    Solved,
}

/// Why no hint can be given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HintError {
    /// Givens clash.
    Clash(Clash),
    /// The puzzle has no solution.
    NoSolution,
    /// The puzzle has several solutions, so no step is forced.
    Multiple,
}

impl fmt::Display for HintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HintError::Clash(clash) => write!(f, "the givens clash: {clash}"),
            HintError::NoSolution => f.write_str("the puzzle has no solution"),
            HintError::Multiple => {
                f.write_str("the puzzle has several solutions, so no next step is forced")
            }
        }
    }
}

impl std::error::Error for HintError {}

/// The next logical step for `grid`, with the eliminations it needs.
///
/// # Errors
/// When the givens clash or the puzzle has no single solution (checked with `solver`).
pub fn hint(grid: &Grid, solver: &dyn Solver) -> Result<Hint, HintError> {
    if let Some(clash) = find_clashes(grid).first() {
        return Err(HintError::Clash(*clash));
    }
    let solution = match solver.verdict(grid) {
        Verdict::Unique(solution) => solution,
        Verdict::None => return Err(HintError::NoSolution),
        Verdict::Multiple(..) => return Err(HintError::Multiple),
    };
    if grid.is_full() {
        return Ok(Hint::Solved);
    }
    let mut candidates = basic_candidates(grid);
    let mut steps = Vec::new();
    while let Some(step) = next_step(grid, &candidates) {
        for &(cell, digit) in &step.eliminate {
            candidates[cell] &= !(1 << digit);
        }
        let places = step.place.is_some();
        steps.push(step);
        if places {
            return Ok(Hint::Steps(steps));
        }
    }
    let cell = (0..CELLS)
        .filter(|&c| grid.get(c) == 0)
        .min_by_key(|&c| candidates[c].count_ones())
        .unwrap_or(0);
    Ok(Hint::FromSolution {
        cell,
        digit: solution.get(cell),
    })
}

/// The first technique that applies to these candidates, simplest first.
pub fn next_step(grid: &Grid, candidates: &Candidates) -> Option<Step> {
    naked_single(grid, candidates)
        .or_else(|| hidden_single(candidates))
        .or_else(|| locked_candidates(candidates))
        .or_else(|| naked_pair(candidates))
        .or_else(|| hidden_pair(candidates))
}

fn digits_of(mask: u16) -> impl Iterator<Item = u8> {
    (1..=9u8).filter(move |d| mask & (1 << d) != 0)
}

fn names(cells: &[usize]) -> String {
    cell_names(cells, ", ")
}

/// Units in the order people scan them for hidden singles: boxes, rows, columns.
fn units_for_people() -> impl Iterator<Item = Unit> {
    (0..9)
        .map(Unit::Box)
        .chain((0..9).map(Unit::Row))
        .chain((0..9).map(Unit::Column))
}

fn naked_single(grid: &Grid, candidates: &Candidates) -> Option<Step> {
    let cell = (0..CELLS).find(|&c| grid.get(c) == 0 && candidates[c].count_ones() == 1)?;
    let digit = digits_of(candidates[cell]).next()?;
    Some(Step {
        technique: Technique::NakedSingle,
        place: Some((cell, digit)),
        eliminate: Vec::new(),
        reason: format!(
            "{} can only be {digit}: every other digit is ruled out in its row, column or box",
            cell_name(cell)
        ),
    })
}

fn hidden_single(candidates: &Candidates) -> Option<Step> {
    for unit in units_for_people() {
        for digit in 1..=9u8 {
            let mut places = unit
                .cells()
                .into_iter()
                .filter(|&c| candidates[c] & (1 << digit) != 0);
            let (Some(cell), None) = (places.next(), places.next()) else {
                continue;
            };
            let place = match unit {
                Unit::Row(_) => format!("column {} ({})", col_of(cell) + 1, cell_name(cell)),
                Unit::Column(_) => format!("row {} ({})", row_of(cell) + 1, cell_name(cell)),
                Unit::Box(_) => cell_name(cell),
            };
            return Some(Step {
                technique: Technique::HiddenSingle,
                place: Some((cell, digit)),
                eliminate: Vec::new(),
                reason: format!("{unit}: {digit} can only go in {place}"),
            });
        }
    }
    None
}

/// Pointing (a box's candidates for a digit in one line) and claiming (a line's
/// candidates for a digit in one box).
fn locked_candidates(candidates: &Candidates) -> Option<Step> {
    let has = |c: usize, d: u8| candidates[c] & (1 << d) != 0;
    for digit in 1..=9u8 {
        for b in 0..9 {
            let inside: Vec<usize> = Unit::Box(b)
                .cells()
                .into_iter()
                .filter(|&c| has(c, digit))
                .collect();
            if inside.len() < 2 {
                continue;
            }
            for line in [
                Unit::Row(row_of(inside[0])),
                Unit::Column(col_of(inside[0])),
            ] {
                if !inside.iter().all(|&c| line.cells().contains(&c)) {
                    continue;
                }
                let removed: Vec<usize> = line
                    .cells()
                    .into_iter()
                    .filter(|&c| box_of(c) != b && has(c, digit))
                    .collect();
                if !removed.is_empty() {
                    return Some(locked_step(
                        Technique::Pointing,
                        Unit::Box(b),
                        line,
                        digit,
                        removed,
                    ));
                }
            }
        }
        for line in (0..9).map(Unit::Row).chain((0..9).map(Unit::Column)) {
            let inside: Vec<usize> = line
                .cells()
                .into_iter()
                .filter(|&c| has(c, digit))
                .collect();
            let Some(&first) = inside.first() else {
                continue;
            };
            let b = box_of(first);
            if inside.len() < 2 || !inside.iter().all(|&c| box_of(c) == b) {
                continue;
            }
            let removed: Vec<usize> = Unit::Box(b)
                .cells()
                .into_iter()
                .filter(|&c| !line.cells().contains(&c) && has(c, digit))
                .collect();
            if !removed.is_empty() {
                return Some(locked_step(
                    Technique::Claiming,
                    line,
                    Unit::Box(b),
                    digit,
                    removed,
                ));
            }
        }
    }
    None
}

fn locked_step(
    technique: Technique,
    within: Unit,
    confined: Unit,
    digit: u8,
    removed: Vec<usize>,
) -> Step {
    let rest = if technique == Technique::Pointing {
        format!("{confined} outside {within}")
    } else {
        format!("the rest of {confined}")
    };
    Step {
        technique,
        place: None,
        reason: format!(
            "{within}: {digit} lies only in {confined}, so it is removed from {rest} ({})",
            names(&removed)
        ),
        eliminate: removed.into_iter().map(|c| (c, digit)).collect(),
    }
}

fn naked_pair(candidates: &Candidates) -> Option<Step> {
    for unit in Unit::all() {
        let cells = unit.cells();
        for (i, &a) in cells.iter().enumerate() {
            let pair = candidates[a];
            if pair.count_ones() != 2 {
                continue;
            }
            let Some(&b) = cells[i + 1..].iter().find(|&&b| candidates[b] == pair) else {
                continue;
            };
            let eliminate: Vec<(usize, u8)> = cells
                .iter()
                .filter(|&&c| c != a && c != b)
                .flat_map(|&c| digits_of(candidates[c] & pair).map(move |d| (c, d)))
                .collect();
            if eliminate.is_empty() {
                continue;
            }
            let [x, y] = pair_digits(pair);
            let mut affected: Vec<usize> = eliminate.iter().map(|&(c, _)| c).collect();
            affected.dedup();
            return Some(Step {
                technique: Technique::NakedPair,
                place: None,
                reason: format!(
                    "{unit}: {} and {} hold only {x} and {y}, so {x} and {y} are removed from the other cells ({})",
                    cell_name(a),
                    cell_name(b),
                    names(&affected)
                ),
                eliminate,
            });
        }
    }
    None
}

fn pair_digits(pair: u16) -> [u8; 2] {
    let mut digits = digits_of(pair);
    [digits.next().unwrap_or(0), digits.next().unwrap_or(0)]
}

fn hidden_pair(candidates: &Candidates) -> Option<Step> {
    for unit in Unit::all() {
        let cells = unit.cells();
        // Where each digit fits in this unit, as a 9-bit mask of positions.
        let spots: [u16; 10] = std::array::from_fn(|d| {
            (0..9)
                .filter(|&i| d > 0 && candidates[cells[i]] & (1 << d) != 0)
                .fold(0, |m, i| m | 1 << i)
        });
        for x in 1..=9u8 {
            if spots[usize::from(x)].count_ones() != 2 {
                continue;
            }
            for y in x + 1..=9 {
                if spots[usize::from(y)] != spots[usize::from(x)] {
                    continue;
                }
                let pair = (1u16 << x) | (1 << y);
                let both: Vec<usize> = (0..9)
                    .filter(|&i| spots[usize::from(x)] & (1 << i) != 0)
                    .map(|i| cells[i])
                    .collect();
                let eliminate: Vec<(usize, u8)> = both
                    .iter()
                    .flat_map(|&c| digits_of(candidates[c] & !pair).map(move |d| (c, d)))
                    .collect();
                if eliminate.is_empty() {
                    continue;
                }
                return Some(Step {
                    technique: Technique::HiddenPair,
                    place: None,
                    reason: format!(
                        "{unit}: {x} and {y} fit only {}, so every other digit is removed from those two cells",
                        names(&both)
                    ),
                    eliminate,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fast::FastSolver;
    use crate::generate::{random_puzzle, random_solution};
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn hidden_single_in_a_row() {
        // Row 1: columns 2-9 are blocked for 7 by sevens in their columns or boxes.
        let puzzle: Grid =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
                .parse()
                .unwrap();
        let Ok(Hint::Steps(steps)) = hint(&puzzle, &FastSolver) else {
            panic!("expected steps");
        };
        let last = steps.last().unwrap();
        let (cell, digit) = last.place.unwrap();
        let solution = FastSolver.verdict(&puzzle);
        assert_eq!(solution.solution().unwrap().get(cell), digit);
    }

    #[test]
    fn every_hint_is_right_along_whole_solves() {
        // Follow hints until the grid is full: each placed digit must be the solution's.
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let mut used = std::collections::HashSet::new();
        for _ in 0..10 {
            let solution = random_solution(&mut rng);
            let mut grid = random_puzzle(&solution, &mut rng);
            loop {
                match hint(&grid, &FastSolver).unwrap() {
                    Hint::Solved => break,
                    Hint::FromSolution { cell, digit } => grid.set(cell, digit),
                    Hint::Steps(steps) => {
                        for step in &steps {
                            used.insert(step.technique);
                            for &(cell, digit) in &step.eliminate {
                                assert_ne!(solution.get(cell), digit, "{step}");
                            }
                        }
                        let (cell, digit) = steps.last().unwrap().place.unwrap();
                        assert_eq!(solution.get(cell), digit, "{:?}", steps);
                        grid.set(cell, digit);
                    }
                }
            }
            assert_eq!(grid, solution);
        }
        assert!(used.contains(&Technique::HiddenSingle));
        assert!(used.contains(&Technique::NakedSingle));
    }

    #[test]
    fn refuses_clashes_and_ambiguity() {
        let mut grid = Grid::default();
        assert_eq!(hint(&grid, &FastSolver), Err(HintError::Multiple));
        grid.set(0, 4);
        grid.set(80, 4);
        grid.set(8, 4);
        assert!(matches!(hint(&grid, &FastSolver), Err(HintError::Clash(_))));
    }

    #[test]
    fn pointing_is_explained() {
        let mut candidates = [0u16; CELLS];
        // Box 1 has 5 only in r1c1 and r1c2; r1c7 also has 5.
        for cell in [0, 1, 6] {
            candidates[cell] = (1 << 5) | (1 << 3);
        }
        candidates[3] = 1 << 3 | 1 << 8;
        let step = locked_candidates(&candidates).unwrap();
        assert_eq!(step.technique, Technique::Pointing);
        assert_eq!(step.eliminate, vec![(3, 3), (6, 3)]);
        assert_eq!(
            step.reason,
            "box 1: 3 lies only in row 1, so it is removed from row 1 outside box 1 (r1c4, r1c7)"
        );
    }
}
