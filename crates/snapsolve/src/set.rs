//! SET answers from card names: the engines a user can choose between.

use snapsolve_set::finders::{SetFinder, all_finders};

/// Every engine a user can pick with `--engine`, by name; `fast` is the default.
pub fn engines() -> Vec<&'static dyn SetFinder> {
    all_finders().to_vec()
}

/// The engine with this name, if there is one.
pub fn engine(name: &str) -> Option<&'static dyn SetFinder> {
    engines().into_iter().find(|e| e.name() == name)
}

/// Name of the default engine.
pub const DEFAULT_ENGINE: &str = "fast";
