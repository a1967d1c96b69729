//! `snapsolve set solve` with the solver-backed engines and `--export`, run as a user would.

use std::process::{Command, Output};

const TABLE: [&str; 6] = [
    "1-red-solid-oval",
    "2-green-striped-diamond",
    "3-purple-open-squiggle",
    "1-red-open-oval",
    "2-red-striped-oval",
    "3-red-open-oval",
];

fn snapsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_snapsolve"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The outside solver that answers for an engine in this build: the C++
/// solvers when built with `--features cadical,highs`, the Rust ones otherwise.
fn expected_solver(engine: &str) -> serde_json::Value {
    let solver = match engine {
        "sat" if cfg!(feature = "cadical") => "CaDiCaL 2.1 (C++)",
        "sat" => "BatSat 0.6 (Rust)",
        "ilp" if cfg!(feature = "highs") => "HiGHS 1.x (C++)",
        "ilp" => "microlp 0.7 (Rust)",
        _ => return serde_json::Value::Null,
    };
    solver.into()
}

#[test]
fn sat_and_ilp_engines_answer_like_the_default() {
    let mut expected = None;
    for engine in ["fast", "sat", "ilp"] {
        let mut args = vec!["set", "solve", "--json", "--engine", engine];
        args.extend(TABLE);
        let output = snapsolve(&args);
        assert!(output.status.success(), "{engine}: {output:?}");
        let json: serde_json::Value =
            serde_json::from_str(&stdout(&output)).expect("one line of JSON");
        assert_eq!(json["engine"], engine);
        assert_eq!(json["solver"], expected_solver(engine), "{engine}");
        let sets = json["sets"].clone();
        assert_eq!(sets, serde_json::json!([[0, 1, 2], [0, 4, 5]]), "{engine}");
        if let Some(expected) = &expected {
            assert_eq!(&sets, expected);
        }
        expected = Some(sets);
    }
}

#[test]
fn export_writes_dimacs_and_lp_to_stdout_or_a_file() {
    let mut args = vec!["set", "solve", "--export", "dimacs", "-"];
    args.extend(TABLE);
    let output = snapsolve(&args);
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    assert!(text.contains("p cnf "), "{text}");
    // Only the model: the answer would corrupt a piped DIMACS stream.
    assert!(!text.contains("(engine "), "{text}");

    let path = std::env::temp_dir().join(format!("snapsolve-cli-{}.lp", std::process::id()));
    let path_text = path.to_string_lossy().into_owned();
    let mut args = vec![
        "set", "solve", "--engine", "ilp", "--export", "LP", &path_text,
    ];
    args.extend(TABLE);
    let output = snapsolve(&args);
    assert!(output.status.success(), "{output:?}");
    let solved_by = format!(
        "2 SETs (engine ilp, solved by {})",
        expected_solver("ilp").as_str().expect("a solver name")
    );
    assert!(stdout(&output).contains(&solved_by), "{output:?}");
    let lp = std::fs::read_to_string(&path).expect("the LP file exists");
    std::fs::remove_file(&path).expect("removed");
    assert!(
        lp.contains("Subject To") && lp.trim_end().ends_with("End"),
        "{lp}"
    );
}

#[test]
fn bad_export_arguments_are_usage_errors() {
    let output = snapsolve(&["set", "solve", "--export", "mps", "-", "1-red-solid-oval"]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("dimacs, lp"), "{message}");
    let output = snapsolve(&["set", "solve", "--export", "dimacs"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn fewer_than_three_cards_have_no_sets_with_every_solver() {
    for engine in ["sat", "ilp"] {
        let output = snapsolve(&[
            "set",
            "solve",
            "--json",
            "--engine",
            engine,
            "1-red-solid-oval",
        ]);
        assert!(output.status.success(), "{output:?}");
        assert!(stdout(&output).contains("\"sets\":[]"), "{output:?}");
    }
}
