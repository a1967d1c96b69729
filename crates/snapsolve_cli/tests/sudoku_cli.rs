//! `snapsolve sudoku solve | hint | bench`, run as a user would: arguments, files,
//! standard input, JSON, exit codes and error messages.

mod support;

use std::io::Write;
use std::process::{Command, Output, Stdio};
use support::TempFile;

use serde_json::Value;
use snapsolve_sudoku::{Grid, check_solution};

/// The first puzzle of Norvig's top95 (also in the crate docs): one solution.
const UNIQUE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// The same with the first given removed: several solutions.
const SEVERAL: &str =
    "......8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// Two 4s in row 1 (r1c1 and r1c2).
const CLASH: &str =
    "44....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const EMPTY: &str =
    ".................................................................................";

fn snapsolve(args: &[&str]) -> Output {
    snapsolve_with_stdin(args, None)
}

fn snapsolve_with_stdin(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snapsolve"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    if let Some(text) = stdin {
        pipe.write_all(text.as_bytes())
            .expect("stdin accepts the text");
    }
    drop(pipe);
    child.wait_with_output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Every stdout line parsed as one JSON object.
fn json_lines(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}")))
        .collect()
}

/// A JSON answer's solution is a full grid that keeps the puzzle's givens and the rules.
fn assert_solves(answer: &Value, puzzle: &str) {
    let solution: Grid = answer["solution"]
        .as_str()
        .unwrap_or_else(|| panic!("no solution in {answer}"))
        .parse()
        .expect("the solution is a grid");
    let puzzle: Grid = puzzle.parse().expect("test puzzles parse");
    check_solution(&puzzle, &solution).expect("the solution keeps the givens and the rules");
}

#[test]
fn solve_an_argument_as_text_and_json() {
    let output = snapsolve(&["sudoku", "solve", UNIQUE]);
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    assert!(text.starts_with("one solution"), "{text}");

    let output = snapsolve(&["sudoku", "solve", "--json", UNIQUE]);
    assert!(output.status.success(), "{output:?}");
    let answers = json_lines(&output);
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0]["puzzle"], UNIQUE);
    assert_eq!(answers[0]["status"], "unique");
    assert_solves(&answers[0], UNIQUE);
    // The pictured solution is the JSON one.
    let solution = answers[0]["solution"].as_str().unwrap_or_default();
    let first_row: Vec<String> = solution[..9].chars().map(String::from).collect();
    let pictured = format!(
        "| {} | {} | {} |",
        first_row[..3].join(" "),
        first_row[3..6].join(" "),
        first_row[6..].join(" ")
    );
    assert!(text.contains(&pictured), "{pictured} not in\n{text}");
}

#[test]
fn solve_a_file_gives_one_json_object_per_puzzle_in_order() {
    let file = TempFile::new(
        "mixed.txt",
        format!("# unique, several, clashing\n{UNIQUE}\n{SEVERAL}\n{CLASH}\n"),
    );
    let output = snapsolve(&["sudoku", "solve", "--json", "--file", file.path()]);
    assert!(output.status.success(), "{output:?}");
    let answers = json_lines(&output);
    let statuses: Vec<&str> = answers
        .iter()
        .filter_map(|a| a["status"].as_str())
        .collect();
    assert_eq!(statuses, ["unique", "multiple", "none"]);
    assert_solves(&answers[0], UNIQUE);
    assert_solves(&answers[1], SEVERAL);
    let second: Grid = answers[1]["second_solution"]
        .as_str()
        .expect("two solutions are shown")
        .parse()
        .expect("a grid");
    check_solution(&SEVERAL.parse().expect("parses"), &second).expect("a real solution");
    assert_ne!(answers[1]["solution"], answers[1]["second_solution"]);
    assert_eq!(answers[2]["solution"], Value::Null);

    // Text output ends with a summary of the file.
    let output = snapsolve(&["sudoku", "solve", "-f", file.path()]);
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    assert!(text.contains("line 2: one solution"), "{text}");
    assert!(text.contains("line 3: several solutions"), "{text}");
    assert!(text.contains("line 4: no solution"), "{text}");
    assert!(
        text.contains("3 puzzles: 1 with one solution, 1 with several, 1 with none"),
        "{text}"
    );
}

#[test]
fn solve_reads_standard_input_with_a_dash() {
    let input = format!("{UNIQUE}\n{SEVERAL}\n");
    let output = snapsolve_with_stdin(&["sudoku", "solve", "--json", "-"], Some(&input));
    assert!(output.status.success(), "{output:?}");
    let answers = json_lines(&output);
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0]["status"], "unique");
    assert_eq!(answers[1]["status"], "multiple");

    // The 9-line block format too.
    let block: String = UNIQUE
        .as_bytes()
        .chunks(9)
        .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
        .collect();
    let output = snapsolve_with_stdin(&["sudoku", "solve", "--json", "-"], Some(&block));
    assert!(output.status.success(), "{output:?}");
    assert_eq!(json_lines(&output)[0]["puzzle"], UNIQUE);
}

#[test]
fn count_stops_at_the_limit() {
    let output = snapsolve(&[
        "sudoku", "solve", "--json", "--count", "--limit", "7", EMPTY,
    ]);
    assert!(output.status.success(), "{output:?}");
    let answer = &json_lines(&output)[0];
    assert_eq!(answer["count"], 7);
    assert_eq!(answer["status"], "multiple");

    let output = snapsolve(&["sudoku", "solve", "--count", UNIQUE]);
    assert!(output.status.success(), "{output:?}");
    assert!(
        stdout(&output).contains("\n1 solution\n"),
        "{}",
        stdout(&output)
    );

    let output = snapsolve(&["sudoku", "solve", "--count", "--limit", "3", SEVERAL]);
    assert!(
        stdout(&output).contains("at least 3 solutions (counting stopped at --limit 3)"),
        "{}",
        stdout(&output)
    );
}

/// A grid from a JSON answer's field.
fn grid_of(value: &Value) -> Grid {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a grid: {value}"))
        .parse()
        .unwrap_or_else(|e| panic!("not a grid: {value}: {e}"))
}

/// Every puzzle of tdoku's five files (about 110,000), through the command as a user
/// runs it: one answer per puzzle, in order, with the puzzle's own givens; every
/// solution keeps the givens and the rules; the four files of proper puzzles are
/// "unique" throughout and serg's file is "multiple" throughout, with two different
/// solutions. Reads the shared data in place (skipped with a message without it, a
/// failure under `CI=true`); about a second in release mode.
#[test]
fn every_answer_for_the_tdoku_files_keeps_the_givens_and_the_rules() {
    let test = "every_answer_for_the_tdoku_files_keeps_the_givens_and_the_rules";
    let Some(data) = snapsolve::data::shared_data_or_skip(test) else {
        return;
    };
    let dir = data.join("sudoku/puzzles/tdoku_data");
    for (file, count, status) in [
        ("puzzles2_17_clue.txt", 49_158, "unique"),
        ("puzzles3_magictour_top1465.txt", 1_465, "unique"),
        ("puzzles5_forum_hardest_1905_11+.txt", 48_766, "unique"),
        ("puzzles6_forum_hardest_1106.txt", 375, "unique"),
        ("puzzles7_serg_benchmark.txt", 10_000, "multiple"),
    ] {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let puzzles = snapsolve_sudoku::parse_puzzles(&text).expect("the file parses");
        assert_eq!(puzzles.len(), count, "{file}");
        let path = path.to_str().expect("a UTF-8 path");
        let output = snapsolve(&["sudoku", "solve", "--json", "--file", path]);
        assert!(output.status.success(), "{file}: {}", stderr(&output));
        let answers = json_lines(&output);
        assert_eq!(answers.len(), count, "{file}");
        for (puzzle, answer) in puzzles.iter().zip(&answers) {
            let at = format!("{file} line {}", puzzle.line);
            assert_eq!(grid_of(&answer["puzzle"]), puzzle.grid, "{at}");
            assert_eq!(answer["status"], status, "{at}");
            let mut solutions = vec![grid_of(&answer["solution"])];
            if status == "multiple" {
                solutions.push(grid_of(&answer["second_solution"]));
                assert_ne!(solutions[0], solutions[1], "{at}");
            }
            for solution in &solutions {
                check_solution(&puzzle.grid, solution).unwrap_or_else(|e| panic!("{at}: {e}"));
            }
        }
    }
}

#[test]
fn threads_do_not_change_the_answers() {
    let lines: Vec<&str> = [UNIQUE, SEVERAL, CLASH, EMPTY].repeat(5);
    let file = TempFile::new("threads.txt", &(lines.join("\n") + "\n"));
    let one = snapsolve(&[
        "sudoku",
        "solve",
        "--json",
        "--threads",
        "1",
        "-f",
        file.path(),
    ]);
    let two = snapsolve(&[
        "sudoku",
        "solve",
        "--json",
        "--threads",
        "2",
        "-f",
        file.path(),
    ]);
    assert!(
        one.status.success() && two.status.success(),
        "{one:?} {two:?}"
    );
    assert_eq!(json_lines(&one).len(), 20);
    assert_eq!(stdout(&one), stdout(&two));
}

#[test]
fn clashing_givens_are_named() {
    let output = snapsolve(&["sudoku", "solve", "--json", CLASH]);
    assert!(output.status.success(), "{output:?}");
    let answer = &json_lines(&output)[0];
    assert_eq!(answer["status"], "none");
    let reasons = answer["reasons"].to_string();
    assert!(
        reasons.contains("r1c1") && reasons.contains("r1c2"),
        "{reasons}"
    );

    let text = stdout(&snapsolve(&["sudoku", "solve", CLASH]));
    assert!(
        text.contains("4 appears twice in row 1 (r1c1 and r1c2)"),
        "{text}"
    );
}

#[test]
fn malformed_puzzles_exit_2_naming_line_and_character() {
    let mut bad = UNIQUE.to_string();
    bad.replace_range(77..78, "x");
    let file = TempFile::new("bad.txt", format!("{UNIQUE}\n{bad}\n"));
    let output = snapsolve(&["sudoku", "solve", "-f", file.path()]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let message = stderr(&output);
    assert!(message.contains("line 2, character 78"), "{message}");
    assert!(message.contains("'x'"), "{message}");

    let output = snapsolve(&["sudoku", "solve", &UNIQUE[..80]]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("line 1: only 80 cells"),
        "{}",
        stderr(&output)
    );

    let output = snapsolve(&["sudoku", "hint", "12x"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");

    let output = snapsolve(&["sudoku", "solve", "--solver", "nope", UNIQUE]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        stderr(&output).contains("unknown solver"),
        "{}",
        stderr(&output)
    );
    // No panic message anywhere.
    assert!(!stderr(&output).contains("panicked"));
}

#[test]
fn hint_gives_a_step_that_agrees_with_the_solution() {
    let output = snapsolve(&["sudoku", "hint", UNIQUE]);
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    assert!(text.contains("Next: ") && text.contains("Why: "), "{text}");
    assert!(text.contains("Candidates of every empty cell"), "{text}");

    let output = snapsolve(&["sudoku", "hint", "--json", UNIQUE]);
    assert!(output.status.success(), "{output:?}");
    let hint: Value = serde_json::from_str(&stdout(&output)).expect("one JSON object");
    let candidates = hint["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 81);
    let solved = json_lines(&snapsolve(&["sudoku", "solve", "--json", UNIQUE]))[0]["solution"]
        .as_str()
        .map(str::to_owned)
        .expect("a solution");
    let last = hint["steps"]
        .as_array()
        .and_then(|steps| steps.last())
        .expect("at least one step");
    let cell = last["place"]["cell"]
        .as_u64()
        .expect("the step places a digit") as usize;
    let digit = last["place"]["digit"].as_u64().expect("a digit");
    assert_eq!(
        UNIQUE.as_bytes()[cell],
        b'.',
        "the hint fills an empty cell"
    );
    assert_eq!(u64::from(solved.as_bytes()[cell] - b'0'), digit);
    // The placed digit is among the cell's listed candidates.
    let listed = candidates[cell].as_str().expect("a candidate string");
    assert!(listed.contains(&digit.to_string()), "{listed}");

    // Clashes and ambiguity are refused with a reason (exit 1: the input is well formed).
    let output = snapsolve(&["sudoku", "hint", CLASH]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(
        stderr(&output).contains("r1c1 and r1c2"),
        "{}",
        stderr(&output)
    );
    let output = snapsolve(&["sudoku", "hint", SEVERAL]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    assert!(
        stderr(&output).contains("several solutions"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bench_measures_a_small_file() {
    let file = TempFile::new("bench.txt", format!("{UNIQUE}\n{SEVERAL}\n"));
    let output = snapsolve(&[
        "sudoku",
        "bench",
        "--json",
        "--seconds",
        "0.05",
        "--solver",
        "fast",
        file.path(),
    ]);
    assert!(output.status.success(), "{output:?}");
    let results = json_lines(&output);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["solver"], "fast");
    assert_eq!(results[0]["puzzles"], 2);
    assert!(results[0]["solved"].as_u64().unwrap_or(0) >= 1);
    assert!(results[0]["puzzles_per_second"].as_f64().unwrap_or(0.0) > 0.0);

    let output = snapsolve(&[
        "sudoku",
        "bench",
        "--seconds",
        "0.05",
        "--solver",
        "fast",
        file.path(),
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).contains("puzzles/s"), "{}", stdout(&output));

    let output = snapsolve(&["sudoku", "bench", "--seconds", "0", file.path()]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
}
