//! Every puzzle file of the shared data set, solved and checked against the rules.
//! Skips (with a message) when the data is absent; fails under `CI=true`.

use std::path::{Path, PathBuf};

use snapsolve::data::shared_data_or_skip;
use snapsolve::sudoku::{Answer, solve_text};
use snapsolve_sudoku::{FastSolver, Grid, NoSolution, Unit, Verdict, check_solution};

fn puzzles_dir(test: &str) -> Option<PathBuf> {
    shared_data_or_skip(test).map(|d| d.join("sudoku/puzzles"))
}

fn solve_file(path: &Path) -> Vec<Answer> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    solve_text(&text, &FastSolver, 0).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every puzzle of the file has exactly one solution, which obeys the rules and the givens.
fn assert_all_unique(path: &Path, expected: usize) -> Vec<Grid> {
    let answers = solve_file(path);
    assert_eq!(answers.len(), expected, "{}", path.display());
    answers
        .iter()
        .map(|answer| match &answer.verdict {
            Verdict::Unique(solution) => {
                check_solution(&answer.puzzle.grid, solution).unwrap_or_else(|e| {
                    panic!("{} line {}: {e}", path.display(), answer.puzzle.line)
                });
                *solution
            }
            other => panic!(
                "{} line {}: expected one solution, got {}",
                path.display(),
                answer.puzzle.line,
                other.status()
            ),
        })
        .collect()
}

#[test]
fn tdoku_files_with_one_solution_each() {
    let Some(dir) = puzzles_dir("tdoku_files_with_one_solution_each") else {
        return;
    };
    for (file, count) in [
        ("puzzles2_17_clue.txt", 49_158),
        ("puzzles3_magictour_top1465.txt", 1_465),
        ("puzzles5_forum_hardest_1905_11+.txt", 48_766),
        ("puzzles6_forum_hardest_1106.txt", 375),
    ] {
        assert_all_unique(&dir.join("tdoku_data").join(file), count);
    }
}

#[test]
fn norvig_and_project_euler_files() {
    let Some(dir) = puzzles_dir("norvig_and_project_euler_files") else {
        return;
    };
    for (file, count) in [
        ("norvig/easy50.txt", 50),
        ("norvig/top95.txt", 95),
        ("norvig/hardest.txt", 11),
        ("emerentius_sudoku/p096_sudoku.txt", 50),
    ] {
        assert_all_unique(&dir.join(file), count);
    }
    // Project Euler 96: the sum of the three-digit numbers in the top left corners.
    let solutions = assert_all_unique(&dir.join("emerentius_sudoku/p096_sudoku.txt"), 50);
    let corner_sum: u32 = solutions
        .iter()
        .map(|s| s.cells()[..3].iter().fold(0, |n, &d| n * 10 + u32::from(d)))
        .sum();
    assert_eq!(corner_sum, 24_702);
}

#[test]
fn emerentius_files_match_their_solution_files() {
    let Some(dir) = puzzles_dir("emerentius_files_match_their_solution_files") else {
        return;
    };
    let dir = dir.join("emerentius_sudoku");
    for (level, count) in [("easy", 50), ("medium", 11), ("hard", 20)] {
        let ours = assert_all_unique(&dir.join(format!("{level}_sudokus.txt")), count);
        let path = dir.join(format!("solved_{level}_sudokus.txt"));
        let text = std::fs::read_to_string(&path).expect("solution file");
        let theirs: Vec<Grid> = snapsolve_sudoku::parse_puzzles(&text)
            .expect("solution file parses")
            .into_iter()
            .map(|p| p.grid)
            .collect();
        assert_eq!(ours, theirs, "{level}");
    }
}

#[test]
fn serg_benchmark_has_several_solutions_each() {
    let Some(dir) = puzzles_dir("serg_benchmark_has_several_solutions_each") else {
        return;
    };
    let answers = solve_file(&dir.join("tdoku_data/puzzles7_serg_benchmark.txt"));
    assert_eq!(answers.len(), 10_000);
    for answer in &answers {
        match &answer.verdict {
            Verdict::Multiple(a, b) => {
                assert_ne!(a, b);
                check_solution(&answer.puzzle.grid, a).expect("first solution");
                check_solution(&answer.puzzle.grid, b).expect("second solution");
            }
            other => panic!("line {}: {}", answer.puzzle.line, other.status()),
        }
    }
}

#[test]
fn invalid_puzzles_are_rejected_with_their_reason() {
    let Some(dir) = puzzles_dir("invalid_puzzles_are_rejected_with_their_reason") else {
        return;
    };
    let answers = solve_file(&dir.join("emerentius_sudoku/invalid_sudokus.txt"));
    assert_eq!(answers.len(), 7);
    for answer in &answers {
        let remark = answer
            .puzzle
            .remark
            .as_deref()
            .expect("the file gives a reason");
        assert_eq!(answer.verdict, Verdict::None, "{remark}");
        let said = |reason: &NoSolution| match (remark, reason) {
            ("row duplicate", NoSolution::Clash(c)) => matches!(c.unit, Unit::Row(_)),
            ("column duplicate", NoSolution::Clash(c)) => matches!(c.unit, Unit::Column(_)),
            ("box duplicate", NoSolution::Clash(c)) => matches!(c.unit, Unit::Box(_)),
            ("unsolvable square", NoSolution::DeadCell { .. }) => true,
            ("unsolvable row", NoSolution::NoPlace { unit, .. }) => matches!(unit, Unit::Row(_)),
            ("unsolvable column", NoSolution::NoPlace { unit, .. }) => {
                matches!(unit, Unit::Column(_))
            }
            ("unsolvable box", NoSolution::NoPlace { unit, .. }) => matches!(unit, Unit::Box(_)),
            _ => false,
        };
        let ours: Vec<String> = answer.reasons.iter().map(ToString::to_string).collect();
        assert!(
            answer.reasons.iter().any(said),
            "file says {remark:?}, we say {ours:?}"
        );
    }
}
