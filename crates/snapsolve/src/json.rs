//! The JSON shapes of the answers that both the CLI (`--json`) and the web API
//! give, in one copy, so a program reads the same fields from both.

use serde_json::{Value, json};
use snapsolve_set::finders::SetFinder;
use snapsolve_set::{Card, Layout, Triple};
use snapsolve_sudoku::hints::Hint;
use snapsolve_sudoku::{Grid, Verdict, cell_name, find_clashes};

use crate::set_photo::TableReading;
use crate::sudoku::Answer;
use crate::sudoku_photo::{PhotoAnswer, digits_text};

/// A SET photo read: `{"image": {"width", "height"}, "cards": [{"card", "corners",
/// "confidence"}], "sets", "duplicates", "unsure", "partial": [{"corners"}],
/// "warnings", "not_cards"}`; corners are in the pixels of the image as stored in the file, to
/// a tenth of a pixel; `partial` lists cards cut off by the edge of the photo;
/// `not_cards` counts candidates the card network took for something else.
pub fn set_photo(reading: &TableReading) -> Value {
    json!({
        "image": {"width": reading.width, "height": reading.height},
        "cards": reading.cards.iter().map(|c| json!({
            "card": c.card.to_string(),
            "corners": c.stored.corners.iter().map(|p| [round1(p[0]), round1(p[1])]).collect::<Vec<_>>(),
            "confidence": round3(c.confidence()),
        })).collect::<Vec<_>>(),
        "sets": reading.sets,
        "duplicates": reading.duplicates,
        "unsure": reading.unsure,
        "partial": reading.partial.iter().map(|p| json!({
            "corners": p.stored.corners.iter().map(|q| [round1(q[0]), round1(q[1])]).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "warnings": reading.warnings,
        "not_cards": reading.not_cards,
    })
}

/// SETs among named cards: `{"cards", "sets", "count", "engine"}`, plus `"solver"`
/// (the outside solver that answered, for engines `sat` and `ilp`) and
/// `"disjoint"` (the most SETs sharing no card) when it was asked for.
pub fn set_solve(
    layout: &Layout,
    sets: &[Triple],
    engine: &dyn SetFinder,
    disjoint: Option<&[Triple]>,
) -> Value {
    let mut value = json!({
        "cards": card_names(layout.cards()),
        "sets": sets,
        "count": sets.len(),
        "engine": engine.name(),
    });
    if let Some(solver) = engine.solver() {
        value["solver"] = json!(solver);
    }
    if let Some(disjoint) = disjoint {
        value["disjoint"] = json!(disjoint);
    }
    value
}

/// The names of cards, as `2-red-striped-oval`.
pub fn card_names(cards: &[Card]) -> Vec<String> {
    cards.iter().map(Card::to_string).collect()
}

/// One puzzle solved: `{"puzzle", "status", "solution"}`, plus `"second_solution"`
/// when there are several, `"reasons"` in words and `"clashes"` (pairs of cells
/// holding the same given in one unit) when there is none, and `"count"` when
/// solutions were counted.
pub fn sudoku_answer(answer: &Answer, count: Option<usize>) -> Value {
    let mut value = json!({
        "puzzle": answer.puzzle.grid.to_line(),
        "status": answer.verdict.status(),
        "solution": answer.verdict.solution().map(Grid::to_line),
    });
    if let Verdict::Multiple(_, second) = &answer.verdict {
        value["second_solution"] = json!(second.to_line());
    }
    if !answer.reasons.is_empty() {
        value["reasons"] = json!(
            answer
                .reasons
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        );
    }
    if answer.verdict == Verdict::None {
        add_clashes(&mut value, &answer.puzzle.grid);
    }
    if let Some(count) = count {
        value["count"] = json!(count);
    }
    value
}

/// A sudoku photo read and solved: `{"corners", "digits", "solution", "status",
/// "is_sudoku", "not_a_sudoku", "doubtful", "changed"}` (`not_a_sudoku`: why the digits read are no valid sudoku, empty when they are), plus `"clashes"` when the digits read have no solution
/// because givens clash. Corners (top-left, top-right, bottom-right, bottom-left)
/// are in upright pixels, to a tenth of a pixel.
pub fn sudoku_photo(answer: &PhotoAnswer) -> Value {
    let corners = answer
        .corners
        .map(|q| q.map(|(x, y)| [round1(x), round1(y)]));
    let mut value = json!({
        "corners": corners,
        "digits": answer.digits.as_ref().map(digits_text),
        "solution": answer.solution.as_ref().map(digits_text),
        "status": answer.status,
        "is_sudoku": answer.digits.is_some() && answer.not_a_sudoku.is_empty(),
        "not_a_sudoku": answer.not_a_sudoku,
        "doubtful": answer.doubtful,
        "changed": answer.changed,
    });
    if let (Some(digits), None) = (&answer.digits, &answer.solution)
        && let Some(grid) = Grid::from_cells(*digits)
    {
        add_clashes(&mut value, &grid);
    }
    value
}

/// Adds `"clashes": [[cell, cell], ...]` when givens of `grid` clash.
fn add_clashes(value: &mut Value, grid: &Grid) {
    // Two cells in one row and one box clash in both: list each pair once.
    let mut clashes: Vec<[usize; 2]> = find_clashes(grid).iter().map(|c| c.cells).collect();
    clashes.sort_unstable();
    clashes.dedup();
    if !clashes.is_empty() {
        value["clashes"] = json!(clashes);
    }
}

/// The next step for a puzzle: `{"puzzle", "steps": [{"technique", "place",
/// "eliminate", "reason"}], "candidates"}`; the last step places a digit, and
/// `candidates` holds every cell's candidates before it (empty for a given).
pub fn sudoku_hint(grid: &Grid, hint: &Hint, candidates: &[u16; 81]) -> Value {
    let steps = match hint {
        Hint::Steps(steps) => steps
            .iter()
            .map(|s| {
                json!({
                    "technique": s.technique.name(),
                    "place": s.place.map(|(cell, digit)| json!({"cell": cell, "digit": digit})),
                    "eliminate": s.eliminate.iter().map(|&(cell, digit)| json!({"cell": cell, "digit": digit})).collect::<Vec<_>>(),
                    "reason": s.reason,
                })
            })
            .collect(),
        Hint::FromSolution { cell, digit } => vec![json!({
            "technique": "solution",
            "place": {"cell": cell, "digit": digit},
            "eliminate": [],
            "reason": format!("no simple technique applies; the solution has {digit} at {}", cell_name(*cell)),
        })],
        Hint::Solved => Vec::new(),
    };
    let cells: Vec<String> = candidates.iter().map(|&m| candidate_digits(m)).collect();
    json!({"puzzle": grid.to_line(), "steps": steps, "candidates": cells})
}

/// The digits set in a candidate mask (bit `d` for digit `d`), as text: `"139"`.
pub fn candidate_digits(mask: u16) -> String {
    (1..=9u8)
        .filter(|d| mask & (1 << d) != 0)
        .map(|d| char::from(b'0' + d))
        .collect()
}

/// A pixel coordinate to a tenth (more would be noise).
fn round1(v: f32) -> f64 {
    (f64::from(v) * 10.0).round() / 10.0
}

/// A confidence to three places.
fn round3(v: f32) -> f64 {
    (f64::from(v) * 1000.0).round() / 1000.0
}
