//! SET answers from card names: the engines a user can choose between, and the
//! solver models that can be written out for other tools.

use std::io::{self, Write};

use snapsolve_ilp::IlpEngine;
use snapsolve_sat::SatEngine;
use snapsolve_set::Layout;
use snapsolve_set::finders::{SetFinder, all_finders};

/// Every engine a user can pick with `--engine`, by name, in the order of
/// issue 2 (brute, pairs, group, fast, sat, ilp); `fast` is the default.
pub fn engines() -> Vec<&'static dyn SetFinder> {
    let solver_backed: [&'static dyn SetFinder; 2] = [&SatEngine::PREFERRED, &IlpEngine::PREFERRED];
    all_finders().into_iter().chain(solver_backed).collect()
}

/// The engine with this name, if there is one.
pub fn engine(name: &str) -> Option<&'static dyn SetFinder> {
    engines().into_iter().find(|e| e.name() == name)
}

/// Name of the default engine.
pub const DEFAULT_ENGINE: &str = "fast";

/// A file format for the solver models of a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelFormat {
    /// Seed 004's CNF as DIMACS, for any SAT solver (engine `sat`).
    Dimacs,
    /// Seed 001's binary program in CPLEX LP format, for any MILP solver (engine `ilp`).
    Lp,
}

impl ModelFormat {
    /// Every format, by the name `--export` accepts.
    pub const ALL: [(&'static str, ModelFormat); 2] =
        [("dimacs", ModelFormat::Dimacs), ("lp", ModelFormat::Lp)];

    /// The format with this name, if there is one.
    pub fn from_name(name: &str) -> Option<ModelFormat> {
        Self::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, format)| format)
    }
}

/// Writes the layout's solver model in the given format.
pub fn write_model(layout: &Layout, format: ModelFormat, writer: &mut dyn Write) -> io::Result<()> {
    match format {
        ModelFormat::Dimacs => snapsolve_sat::write_dimacs(layout, writer),
        ModelFormat::Lp => snapsolve_ilp::write_lp(layout, writer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snapsolve_set::finders::find_sets_brute;

    #[test]
    fn every_engine_is_listed_once_and_agrees_on_a_table() {
        let names: Vec<&str> = engines().iter().map(|e| e.name()).collect();
        assert_eq!(names, ["brute", "pairs", "group", "fast", "sat", "ilp"]);
        assert!(engine(DEFAULT_ENGINE).is_some());
        let layout = Layout::parse(
            "1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle \
             1-green-solid-squiggle 2-purple-open-oval 3-red-striped-diamond \
             2-red-open-squiggle 1-purple-striped-diamond 3-green-solid-oval",
        )
        .expect("layout parses");
        let expected = find_sets_brute(layout.cards());
        for e in engines() {
            assert_eq!(e.find_sets(&layout).as_ref(), Ok(&expected), "{}", e.name());
        }
    }

    #[test]
    fn models_are_written_in_both_formats() {
        let layout = Layout::parse("1-red-solid-oval 2-red-solid-oval 3-red-solid-oval")
            .expect("layout parses");
        for (name, format) in ModelFormat::ALL {
            assert_eq!(ModelFormat::from_name(&name.to_uppercase()), Some(format));
            let mut out = Vec::new();
            write_model(&layout, format, &mut out).expect("writes to memory");
            let text = String::from_utf8(out).expect("text");
            let marker = match format {
                ModelFormat::Dimacs => "p cnf ",
                ModelFormat::Lp => "Subject To",
            };
            assert!(text.contains(marker), "{name}: {text}");
        }
        assert_eq!(ModelFormat::from_name("mps"), None);
    }
}
