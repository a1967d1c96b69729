//! Standard output for people and programs.
//!
//! `println!` panics when the reader of a pipe has gone (`snapsolve set photo x.jpg
//! | head -1`). A reader that stops early has read all it wanted, so [`outln!`] ends
//! the program quietly and successfully instead, as the bulk writers of answers
//! already do; any other failure to write is reported once, with exit code 1.

use std::fmt;
use std::io::{self, Write};

/// Like `println!`, but a closed pipe ends the program quietly (see the module).
macro_rules! outln {
    () => {
        $crate::output::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Like `print!`, but a closed pipe ends the program quietly (see the module).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!($($arg)*))
    };
}

pub(crate) use {out, outln};

/// Writes to standard output; exits on failure, because no caller could go on
/// printing its answer without it.
pub fn write_stdout(args: fmt::Arguments) {
    let mut stdout = io::stdout().lock();
    if let Err(error) = stdout.write_fmt(args) {
        if error.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("snapsolve: cannot write to standard output: {error}");
        std::process::exit(1);
    }
}
