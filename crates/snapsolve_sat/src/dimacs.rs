//! The CNF as a DIMACS file any SAT solver reads, with comments naming every variable.

use std::io::{self, Write};

use snapsolve_set::{Attribute, Layout};

use crate::encoding::{PROPERTY_LITERALS, SetCnf};

/// Writes the layout's CNF in DIMACS CNF format.
///
/// Comments (`c` lines, before the `p cnf` header) map variables `1..N` to the
/// cards, `N+1..N+12` to the seed's property literals, and say which clauses
/// belong to which family. Feed the file to any solver (`cadical`, `kissat`,
/// `minisat`): it is satisfiable exactly when the layout holds a SET, and the
/// first `N` values of a model name one.
pub fn write_dimacs<W: Write + ?Sized>(layout: &Layout, writer: &mut W) -> io::Result<()> {
    let cnf = SetCnf::encode(layout);
    let n = layout.len();
    let families = cnf.families();
    writeln!(
        writer,
        "c SET as SAT (seed 004 encoding), written by snapsolve"
    )?;
    writeln!(
        writer,
        "c layout of {n} cards; variables 1..{n} choose a card:"
    )?;
    for (i, card) in layout.cards().iter().enumerate() {
        writeln!(writer, "c   {} = {card}", cnf.card_var(i).to_ipasir())?;
    }
    writeln!(
        writer,
        "c variables {}..{} are the property literals:",
        n + 1,
        n + 12
    )?;
    for (k, property) in PROPERTY_LITERALS.iter().enumerate() {
        writeln!(
            writer,
            "c   {} = {} {} ({})",
            cnf.property_var(k).to_ipasir(),
            property.attribute.name(),
            property.seed_name,
            value_name(property.attribute, property.value),
        )?;
    }
    if cnf.n_vars() as usize > n + 12 {
        writeln!(
            writer,
            "c variables {}..{} are totalizer auxiliaries",
            n + 13,
            cnf.n_vars()
        )?;
    }
    writeln!(
        writer,
        "c clauses in order: {} exactly-3, {} card->property, {} property->card, {} one-or-three",
        families.exactly_three,
        families.card_implies_property,
        families.property_implies_card,
        families.one_or_three
    )?;
    writeln!(writer, "p cnf {} {}", cnf.n_vars(), cnf.cnf().len())?;
    for clause in cnf.cnf() {
        for lit in clause {
            write!(writer, "{} ", lit.to_ipasir())?;
        }
        writeln!(writer, "0")?;
    }
    writer.flush()
}

fn value_name(attribute: Attribute, value: u8) -> &'static str {
    attribute.value_names()[usize::from(value)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::instances::SatInstance;
    use rustsat::solvers::{Solve, SolverResult};
    use rustsat::types::Clause;
    use rustsat_batsat::BasicSolver as Solver;
    use snapsolve_set::finders::find_sets_brute;

    fn dimacs(layout: &Layout) -> String {
        let mut out = Vec::new();
        write_dimacs(layout, &mut out).expect("writing to memory succeeds");
        String::from_utf8(out).expect("DIMACS is ASCII")
    }

    /// Counts models projected on the card variables of a DIMACS text read back from scratch.
    fn count_sets_from_dimacs(text: &str, n_cards: usize) -> usize {
        let instance: SatInstance =
            SatInstance::from_dimacs(&mut text.as_bytes()).expect("DIMACS parses");
        let (cnf, _) = instance.into_cnf();
        let mut solver = Solver::default();
        solver.add_cnf(cnf).expect("solver accepts CNF");
        let mut count = 0;
        while solver.solve().expect("solver runs") == SolverResult::Sat {
            let block: Clause = (0..n_cards)
                .map(|i| rustsat::types::Lit::positive(i as u32))
                .filter(|&lit| {
                    solver.lit_val(lit).expect("value") == rustsat::types::TernaryVal::True
                })
                .map(|lit| !lit)
                .collect();
            solver.add_clause(block).expect("solver accepts clause");
            count += 1;
        }
        count
    }

    #[test]
    fn header_matches_the_clauses_and_reads_back_to_the_same_sets() {
        let layout = Layout::parse(
            "1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle 1-red-open-oval \
             2-red-striped-oval 3-red-open-oval 2-purple-solid-squiggle",
        )
        .expect("layout parses");
        let text = dimacs(&layout);
        let header = text
            .lines()
            .find(|l| l.starts_with("p cnf"))
            .expect("has a header");
        let cnf = SetCnf::encode(&layout);
        assert_eq!(
            header,
            format!("p cnf {} {}", cnf.n_vars(), cnf.cnf().len())
        );
        let clause_lines = text.lines().filter(|l| !l.starts_with(['c', 'p'])).count();
        assert_eq!(clause_lines, cnf.cnf().len());
        assert!(text.contains("c   8 = shape c (oval)"), "{text}");
        assert_eq!(
            count_sets_from_dimacs(&text, layout.len()),
            find_sets_brute(layout.cards()).len()
        );
    }

    #[test]
    fn an_empty_layout_writes_an_unsatisfiable_file() {
        let text = dimacs(&Layout::default());
        assert!(text.contains("p cnf 12 29\n"), "{text}");
        assert_eq!(count_sets_from_dimacs(&text, 0), 0);
    }
}
