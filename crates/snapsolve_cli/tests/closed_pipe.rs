//! A reader that stops early (`snapsolve set photo | head -1`) has read all it
//! wanted: the command ends quietly and successfully, with no panic message.

use std::process::{Command, Stdio};

/// Runs the command with its standard output a pipe whose reader is already gone.
fn run_into_closed_pipe(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snapsolve"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(output.status.success(), "{args:?}: {output:?}");
}

#[test]
fn commands_that_print_text_end_quietly_when_the_reader_has_gone() {
    run_into_closed_pipe(&["set", "photo"]);
    run_into_closed_pipe(&[
        "set",
        "solve",
        "1-red-solid-oval",
        "2-red-solid-oval",
        "3-red-solid-oval",
    ]);
    run_into_closed_pipe(&["set", "stats", "deal", "--cards", "6"]);
    run_into_closed_pipe(&[
        "sudoku",
        "solve",
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
    ]);
}

#[test]
fn json_ends_quietly_when_the_reader_has_gone() {
    run_into_closed_pipe(&["set", "photo", "--json"]);
    run_into_closed_pipe(&["set", "stats", "deal", "--cards", "6", "--json"]);
}
