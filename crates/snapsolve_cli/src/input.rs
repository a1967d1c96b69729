//! Reading user input: arguments, `--file`, or standard input, with explicit size limits.

use std::io::Read;
use std::path::Path;

use crate::error::{CliError, CliResult};
use crate::output::outln;

/// Largest text input accepted (a full deck of card names is ~2 KB; 49k sudokus ~4 MB).
pub const MAX_TEXT_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a whole text file, refusing anything over [`MAX_TEXT_BYTES`].
pub fn read_text_file(path: &Path) -> CliResult<String> {
    let file = std::fs::File::open(path)
        .map_err(|e| CliError::usage(format!("cannot open {}: {e}", path.display())))?;
    read_limited(file, &path.display().to_string())
}

/// Reads all of standard input, refusing anything over [`MAX_TEXT_BYTES`].
pub fn read_stdin() -> CliResult<String> {
    read_limited(std::io::stdin().lock(), "standard input")
}

fn read_limited(reader: impl Read, what: &str) -> CliResult<String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::failed(format!("cannot read {what}: {e}")))?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(CliError::usage(format!(
            "{what} is larger than the {} MiB limit",
            MAX_TEXT_BYTES / (1024 * 1024)
        )));
    }
    String::from_utf8(bytes).map_err(|_| CliError::usage(format!("{what} is not UTF-8 text")))
}

/// Prints a value as one line of JSON on standard output.
pub fn print_json(value: &serde_json::Value) {
    outln!("{value}");
}
