//! `snapsolve set stats` as a user runs it: what `--json` counts, and what the text says.

use std::process::{Command, Output};

use serde_json::Value;

fn snapsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_snapsolve"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(args: &[&str]) -> Value {
    let output = snapsolve(args);
    assert!(output.status.success(), "{args:?}: {output:?}");
    serde_json::from_slice(&output.stdout).expect("one JSON document")
}

fn count(value: &Value) -> u64 {
    value["count"].as_u64().expect("an integer count")
}

/// Issue #3: `positions` counts every table in which players look for a SET,
/// after the deck is empty too, each game's final table included.
#[test]
fn game_positions_count_every_table_including_the_final_one() {
    let games = 3000;
    let report = json(&[
        "set", "stats", "game", "--games", "3000", "--seed", "7", "--json",
    ]);
    assert_eq!(report["games"], games);
    let positions = report["positions"].as_object().expect("positions");
    for size in ["12", "15", "18"] {
        let entry = &positions[size];
        let (n, k) = (count(entry), entry["no_set"].as_u64().expect("no_set"));
        assert!(k <= n, "{size}: {entry}");
        let p = entry["p_no_set"].as_f64().expect("p_no_set");
        let ci = entry["ci95"].as_array().expect("ci95");
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(
            0.0 <= lo && lo <= p && p <= hi && hi <= 1.0,
            "{size}: {entry}"
        );
    }
    // The sizes partition all positions.
    let by_size: u64 = positions
        .iter()
        .filter(|(key, _)| key.parse::<usize>().is_ok())
        .map(|(_, entry)| count(entry))
        .sum();
    let all = &positions["all"];
    assert_eq!(by_size, count(all));
    // Each game's final table (empty deck, no SET) is counted, once per game;
    // `before_end` is the same without it (as seed 003 counts).
    let before_end = &positions["before_end"];
    assert_eq!(count(all) - count(before_end), games);
    assert_eq!(
        all["no_set"].as_u64().unwrap() - before_end["no_set"].as_u64().unwrap(),
        games
    );
    // About 27 positions per game (69 cards dealt after the first 12, 3 per position, plus extras).
    assert!((25 * games..30 * games).contains(&count(all)), "{all}");
    let left = report["cards_left"]["distribution"].as_object().unwrap();
    let share: f64 = left.values().map(|p| p.as_f64().unwrap()).sum();
    assert!((share - 1.0).abs() < 1e-9);
    assert!(!left.contains_key("3"), "three cards left would be a SET");
}

#[test]
fn game_text_says_which_positions_are_counted() {
    let output = snapsolve(&["set", "stats", "game", "--games", "200", "--seed", "1"]);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("after the deck is empty too"), "{text}");
    assert!(text.contains("final table"), "{text}");
    assert!(text.contains("any position but the final"), "{text}");
}

#[test]
fn same_seed_same_json_whatever_the_thread_count() {
    let run = |threads: &str| {
        let output = Command::new(env!("CARGO_BIN_EXE_snapsolve"))
            .args([
                "set", "stats", "game", "--games", "5000", "--seed", "4", "--json",
            ])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .expect("the binary runs");
        assert!(output.status.success());
        let mut report: Value = serde_json::from_slice(&output.stdout).unwrap();
        report.as_object_mut().unwrap().remove("seconds");
        report
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn small_exact_deal_sums_to_every_deal() {
    let report = json(&["set", "stats", "deal", "--cards", "5", "--json"]);
    assert_eq!(report["exact"], true);
    let total: u64 = report["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(count)
        .sum();
    assert_eq!(total, 25_621_596); // C(81, 5)
    let mean = report["mean"].as_f64().unwrap();
    assert!((mean - 10.0 / 79.0).abs() < 1e-12, "C(5,3)/79");
}
