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
/// "confidence"}], "sets", "duplicates", "unsure", "partial": [{"corners", "cut_by"}],
/// "warnings", "not_cards"}`; corners are in the pixels of the image as stored in the file, to
/// a tenth of a pixel; `partial` lists cards cut off by the edge of the photo (`"cut_by":
/// "edge"`) or by the part of the picture a file that ends early lacks (`"missing part"`);
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
            "cut_by": p.cut_by.name(),
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

/// One puzzle solved, as one line of JSON text (no newline): `{"puzzle", "status",
/// "solution"}`, plus `"second_solution"` when there are several, `"reasons"` in
/// words and `"clashes"` (pairs of cells holding the same given in one unit) when
/// there is none, and `"count"` when solutions were counted.
pub fn sudoku_answer(answer: &Answer, count: Option<usize>) -> Vec<u8> {
    let mut out = Vec::with_capacity(300);
    write_sudoku_answer(&mut out, answer, count);
    out
}

/// Appends [`sudoku_answer`]'s text to `out`.
///
/// Written straight from the grids rather than through a `serde_json::Value`: the CLI
/// writes tens of thousands of these per file, and building a map of strings per
/// puzzle cost more than solving serg's puzzles (callgrind, the CLI on
/// `puzzles7_serg_benchmark`: 88 M instructions for the values, 220 M for the solving).
/// The bytes are the ones serde_json gives for the same map, keys in its sorted
/// order (a test pins that against a serde-built value).
pub fn write_sudoku_answer(out: &mut Vec<u8>, answer: &Answer, count: Option<usize>) {
    out.push(b'{');
    if answer.verdict == Verdict::None {
        let clashes = clash_pairs(&answer.puzzle.grid);
        if !clashes.is_empty() {
            out.extend_from_slice(b"\"clashes\":");
            out.extend_from_slice(json!(clashes).to_string().as_bytes());
            out.push(b',');
        }
    }
    if let Some(count) = count {
        out.extend_from_slice(b"\"count\":");
        out.extend_from_slice(count.to_string().as_bytes());
        out.push(b',');
    }
    write_line_field(out, b"\"puzzle\":", &answer.puzzle.grid);
    if !answer.reasons.is_empty() {
        // Rare (puzzles with no solution) and free text: serde_json escapes it.
        let reasons: Vec<String> = answer.reasons.iter().map(ToString::to_string).collect();
        out.extend_from_slice(b",\"reasons\":");
        out.extend_from_slice(json!(reasons).to_string().as_bytes());
    }
    if let Verdict::Multiple(_, second) = &answer.verdict {
        write_line_field(out, b",\"second_solution\":", second);
    }
    match answer.verdict.solution() {
        Some(solution) => write_line_field(out, b",\"solution\":", solution),
        None => out.extend_from_slice(b",\"solution\":null"),
    }
    out.extend_from_slice(b",\"status\":\"");
    out.extend_from_slice(answer.verdict.status().as_bytes());
    out.extend_from_slice(b"\"}");
}

/// `key"81 characters"`: a grid's line needs no escaping (digits and dots).
fn write_line_field(out: &mut Vec<u8>, key: &[u8], grid: &Grid) {
    out.extend_from_slice(key);
    out.push(b'"');
    out.extend_from_slice(&grid.line_bytes());
    out.push(b'"');
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
    let clashes = clash_pairs(grid);
    if !clashes.is_empty() {
        value["clashes"] = json!(clashes);
    }
}

/// The pairs of cells whose givens clash, sorted, each pair once (two cells in one
/// row and one box clash in both).
fn clash_pairs(grid: &Grid) -> Vec<[usize; 2]> {
    let mut clashes: Vec<[usize; 2]> = find_clashes(grid).iter().map(|c| c.cells).collect();
    clashes.sort_unstable();
    clashes.dedup();
    clashes
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::solve_puzzle;
    use snapsolve_sudoku::{FastSolver, parse_puzzles};

    /// The answer built as a serde_json map, as it was before the writer: the form
    /// the writer's bytes must equal.
    fn serde_form(answer: &Answer, count: Option<usize>) -> Value {
        let mut value = json!({
            "puzzle": answer.puzzle.grid.to_line(),
            "status": answer.verdict.status(),
            "solution": answer.verdict.solution().map(Grid::to_line),
        });
        if let Verdict::Multiple(_, second) = &answer.verdict {
            value["second_solution"] = json!(second.to_line());
        }
        if !answer.reasons.is_empty() {
            let reasons: Vec<String> = answer.reasons.iter().map(ToString::to_string).collect();
            value["reasons"] = json!(reasons);
        }
        if answer.verdict == Verdict::None {
            add_clashes(&mut value, &answer.puzzle.grid);
        }
        if let Some(count) = count {
            value["count"] = json!(count);
        }
        value
    }

    #[test]
    fn sudoku_answer_bytes_equal_the_serde_form() {
        let text = "\
# unique (a remark after the cells)
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... top95 #1
# several solutions
8.........95.......76.........426798...571243...893165......916....3.487....1.532
# no solution, givens clash in a row and a box, and in a column
11.................1.............................................................
# no solution, no clash: r1c9 has no candidate
12345678.........9...............................................................
Grid 01
003020600
900305001
001806400
008102900
700000008
006708200
002609500
800203009
005010300
";
        let puzzles = parse_puzzles(text).unwrap();
        assert_eq!(puzzles.len(), 5);
        let mut statuses = Vec::new();
        for puzzle in puzzles {
            let answer = solve_puzzle(puzzle, &FastSolver);
            statuses.push(answer.verdict.status());
            for count in [None, Some(0), Some(2), Some(1000)] {
                let bytes = sudoku_answer(&answer, count);
                // The same keys and values (maps compare without order:
                // serde_json keeps insertion order when a dev-dependency of the
                // workspace turns on `preserve_order`, and sorts keys otherwise,
                // as in the shipped binary, whose order the writer follows).
                let written: Value = serde_json::from_slice(&bytes).unwrap();
                assert_eq!(written, serde_form(&answer, count));
                assert!(!bytes.contains(&b'\n'), "one line per answer");
            }
        }
        assert_eq!(statuses, ["unique", "multiple", "none", "none", "unique"]);
        // Both kinds of "none" are covered: with clashes and with reasons only.
        let clash = solve_puzzle(parse_puzzles(text).unwrap().remove(2), &FastSolver);
        let written = String::from_utf8(sudoku_answer(&clash, None)).unwrap();
        assert!(written.starts_with(r#"{"clashes":[[0,1],"#), "{written}");
        assert!(written.contains(r#""reasons":["#), "{written}");
    }
}
