//! Where the shared data set of real photos and puzzles lives.
//!
//! It is read in place, never copied into the repository: `$SNAPSOLVE_DATA` if
//! set, else `../shared/data` beside the workspace root.

use std::path::PathBuf;

/// Environment variable that points at the shared data folder.
pub const DATA_ENV: &str = "SNAPSOLVE_DATA";

/// The shared data folder, if it exists.
pub fn shared_data_dir() -> Option<PathBuf> {
    let candidate = match std::env::var_os(DATA_ENV) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    };
    candidate.is_dir().then_some(candidate)
}

/// For tests that need the shared data: the folder, or `None` after printing why
/// the test is skipped. Under `CI=true` a missing folder is a failure, not a skip.
///
/// # Panics
/// When the folder is missing and the environment variable `CI` is `true`.
pub fn shared_data_or_skip(test: &str) -> Option<PathBuf> {
    let found = shared_data_dir();
    if found.is_none() {
        skip_unless_ci(
            test,
            &format!("no shared data folder (set {DATA_ENV} or put it at ../shared/data)"),
        );
    }
    found
}

/// For a test whose input is missing: prints that `test` is skipped and
/// `why`, or fails under `CI=true`, where every input must be there.
///
/// # Panics
/// When the environment variable `CI` is `true`.
pub fn skip_unless_ci(test: &str, why: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(!ci, "{test}: {why}; CI=true requires it");
    eprintln!("SKIPPED {test}: {why}");
}
