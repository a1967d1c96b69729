//! Seed 004's CNF for "three cards of this layout form a SET".
//!
//! Variables (0-based here, 1-based in DIMACS):
//!
//! ```text
//! index   0 .. N-1      x_1 .. x_N    card i is one of the three chosen
//! index   N .. N+11     12 property literals, in the seed's order:
//!                       shape c r w | filling l g d | color g r v | number 1 2 3
//! index   N+12 ..       auxiliaries of the totalizer that says "exactly 3"
//! ```
//!
//! Clause families, in the order they are added (and written to DIMACS):
//!
//! 1. exactly three card variables are true: a totalizer (Bailleux and
//!    Boufkhad 2003, from `rustsat`) over `x_1..x_N` with both bounds at 3;
//! 2. a chosen card has its four properties: `¬x_i ∨ p` for each of the card's
//!    property literals `p` (4 per card);
//! 3. a property holds only if a chosen card has it: `¬p ∨ x_a ∨ x_b ∨ …` over
//!    the cards having `p` (a unit `¬p` when no card has it; 12 clauses);
//! 4. per attribute with literals `a, b, c`:
//!    `(a∨b∨c) ∧ (a∨¬b∨¬c) ∧ (¬a∨b∨¬c) ∧ (¬a∨¬b∨c)` (16 clauses).
//!
//! # Why this is exact (and where the seed's text slips)
//!
//! Families 2 and 3 together make each property literal *equal* to "some chosen
//! card has this value". Family 4 forbids zero and exactly two true literals per
//! attribute, so it allows one (all three cards share the value) or three (all
//! differ): the SET rule. Hence the models, projected on `x`, are exactly the
//! SETs, each with a single assignment of the property literals; blocking a
//! model by its three card variables removes exactly one SET.
//!
//! The seed prints family 3 as `x_1 → (x_1 ∨ x_4 ∨ x_12 ∨ x_9)`, a tautology: a
//! typo for the property literal on the left. Taken literally it would drop
//! family 3, and then a property could be switched on with no card having it,
//! which admits non-SETs (two red cards and a green one pass by also setting
//! "violet"). The tests below show that dropping any one family admits a
//! non-SET, so each clause here is needed; the encoding itself needs no fix.

use rustsat::encodings::card::{BoundBoth, Totalizer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit, Var};
use snapsolve_set::{Attribute, Layout};

/// One of the 12 property literals: an attribute value, named as in seed 004.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropertyLiteral {
    /// The attribute.
    pub attribute: Attribute,
    /// Its value, `0..3` in this crate's convention (see [`Attribute::value_names`]).
    pub value: u8,
    /// The seed's letter for it (`c` = capsule, `r` = romb, `w` = wave, ...).
    pub seed_name: &'static str,
}

const fn literal(attribute: Attribute, value: u8, seed_name: &'static str) -> PropertyLiteral {
    PropertyLiteral {
        attribute,
        value,
        seed_name,
    }
}

/// The 12 property literals in the seed's order: shape `c r w` (capsule = oval,
/// romb = diamond, wave = squiggle), filling `l g d` (light = open, gradient =
/// striped, dark = solid), color `g r v` (violet = purple), number `1 2 3`.
pub const PROPERTY_LITERALS: [PropertyLiteral; 12] = [
    literal(Attribute::Shape, 1, "c"),
    literal(Attribute::Shape, 0, "r"),
    literal(Attribute::Shape, 2, "w"),
    literal(Attribute::Shading, 2, "l"),
    literal(Attribute::Shading, 1, "g"),
    literal(Attribute::Shading, 0, "d"),
    literal(Attribute::Color, 1, "g"),
    literal(Attribute::Color, 0, "r"),
    literal(Attribute::Color, 2, "v"),
    literal(Attribute::Number, 0, "1"),
    literal(Attribute::Number, 1, "2"),
    literal(Attribute::Number, 2, "3"),
];

/// How many clauses each family contributed, in the order they appear.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClauseFamilies {
    /// Family 1: the totalizer for "exactly 3 cards" (or one empty clause below 3 cards).
    pub exactly_three: usize,
    /// Family 2: `card → property`, 4 per card.
    pub card_implies_property: usize,
    /// Family 3: `property → some card having it`, one per property literal.
    pub property_implies_card: usize,
    /// Family 4: one or three true literals per attribute, 4 per attribute.
    pub one_or_three: usize,
}

impl ClauseFamilies {
    /// Total number of clauses.
    pub fn total(&self) -> usize {
        self.exactly_three
            + self.card_implies_property
            + self.property_implies_card
            + self.one_or_three
    }
}

/// The CNF of one layout, with its variable layout and clause counts.
#[derive(Clone, Debug)]
pub struct SetCnf {
    n_cards: usize,
    n_vars: u32,
    cnf: Cnf,
    families: ClauseFamilies,
}

impl SetCnf {
    /// Encodes "three cards of `layout` form a SET".
    ///
    /// A layout has at most 81 cards, so variable indices always fit.
    pub fn encode(layout: &Layout) -> SetCnf {
        let n_cards = layout.len();
        let mut cnf = Cnf::new();
        let mut families = ClauseFamilies::default();
        let mut vars = BasicVarManager::from_next_free(property_var(n_cards, 11) + 1);

        families.exactly_three = add_exactly_three(n_cards, &mut cnf, &mut vars);
        let before = cnf.len();
        for (i, card) in layout.cards().iter().enumerate() {
            for (k, property) in PROPERTY_LITERALS.iter().enumerate() {
                if card.value(property.attribute) == property.value {
                    cnf.add_binary(card_var(i).neg_lit(), property_var(n_cards, k).pos_lit());
                }
            }
        }
        families.card_implies_property = cnf.len() - before;
        for (k, property) in PROPERTY_LITERALS.iter().enumerate() {
            let mut clause = Clause::new();
            clause.add(property_var(n_cards, k).neg_lit());
            for (i, card) in layout.cards().iter().enumerate() {
                if card.value(property.attribute) == property.value {
                    clause.add(card_var(i).pos_lit());
                }
            }
            cnf.add_clause(clause);
        }
        families.property_implies_card = PROPERTY_LITERALS.len();
        for trio in 0..4 {
            let [a, b, c] = [0, 1, 2].map(|j| property_var(n_cards, 3 * trio + j).pos_lit());
            cnf.add_ternary(a, b, c);
            cnf.add_ternary(a, !b, !c);
            cnf.add_ternary(!a, b, !c);
            cnf.add_ternary(!a, !b, c);
        }
        families.one_or_three = 16;

        SetCnf {
            n_cards,
            n_vars: vars.n_used(),
            cnf,
            families,
        }
    }

    /// Number of cards (the first `n_cards` variables).
    pub fn n_cards(&self) -> usize {
        self.n_cards
    }

    /// Number of variables, auxiliaries included.
    pub fn n_vars(&self) -> u32 {
        self.n_vars
    }

    /// The clauses, families in order.
    pub fn cnf(&self) -> &Cnf {
        &self.cnf
    }

    /// Clause counts per family.
    pub fn families(&self) -> ClauseFamilies {
        self.families
    }

    /// Variable `x_{i+1}`: card at position `i` is chosen.
    pub fn card_var(&self, position: usize) -> Var {
        card_var(position)
    }

    /// Variable of property literal `k` (index into [`PROPERTY_LITERALS`]).
    pub fn property_var(&self, k: usize) -> Var {
        property_var(self.n_cards, k)
    }
}

fn card_var(position: usize) -> Var {
    Var::new(index(position))
}

fn property_var(n_cards: usize, k: usize) -> Var {
    Var::new(index(n_cards + k))
}

/// Variable indices are below 81 + 12 + totalizer size, far from `u32::MAX`.
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Family 1: exactly three of the card variables; returns the number of clauses added.
///
/// With fewer than three cards the constraint cannot hold: one empty clause says so.
fn add_exactly_three(n_cards: usize, cnf: &mut Cnf, vars: &mut BasicVarManager) -> usize {
    let before = cnf.len();
    if n_cards < 3 {
        cnf.add_clause(Clause::new());
        return 1;
    }
    let mut totalizer: Totalizer = (0..n_cards).map(|i| card_var(i).pos_lit()).collect();
    // Collecting into a Cnf only fails when memory runs out, which aborts anyway.
    let encoded = totalizer.encode_both(3..=3, cnf, vars);
    let units: Vec<Lit> = match (encoded, totalizer.enforce_eq(3)) {
        (Ok(()), Ok(units)) => units,
        _ => unreachable!("a totalizer over {n_cards} >= 3 inputs encodes the bound 3"),
    };
    for unit in units {
        cnf.add_unit(unit);
    }
    cnf.len() - before
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
    use rustsat_batsat::BasicSolver as Solver;
    use snapsolve_set::Card;

    fn layout(names: &str) -> Layout {
        Layout::parse(names).expect("test layout parses")
    }

    #[test]
    fn property_literals_cover_each_attribute_value_once_in_seed_trios() {
        for trio in PROPERTY_LITERALS.chunks(3) {
            let attribute = trio[0].attribute;
            let mut values: Vec<u8> = trio.iter().map(|p| p.value).collect();
            values.sort_unstable();
            assert!(trio.iter().all(|p| p.attribute == attribute));
            assert_eq!(values, [0, 1, 2]);
        }
        let names: String = PROPERTY_LITERALS.iter().map(|p| p.seed_name).collect();
        assert_eq!(names, "crwlgdgrv123");
    }

    #[test]
    fn clause_and_variable_counts_follow_the_families() {
        let cnf = SetCnf::encode(&Layout::full_deck());
        let families = cnf.families();
        assert_eq!(families.card_implies_property, 4 * 81);
        assert_eq!(families.property_implies_card, 12);
        assert_eq!(families.one_or_three, 16);
        assert!(families.exactly_three > 0);
        assert_eq!(families.total(), cnf.cnf().len());
        // 81 cards, 12 properties, and a totalizer needing auxiliary outputs.
        assert!(cnf.n_vars() > 81 + 12, "{}", cnf.n_vars());
        // Family 3 for the full deck: each property is held by 27 cards.
        let start = families.exactly_three + families.card_implies_property;
        for clause in cnf.cnf().iter().skip(start).take(12) {
            assert_eq!(clause.len(), 28);
        }
    }

    #[test]
    fn a_property_no_card_has_is_forced_off() {
        // Three red cards: green and violet get unit clauses ¬p.
        let cnf = SetCnf::encode(&layout(
            "1-red-solid-oval 2-red-solid-oval 3-red-solid-oval",
        ));
        let families = cnf.families();
        let start = families.exactly_three + families.card_implies_property;
        let units: Vec<usize> = cnf
            .cnf()
            .iter()
            .skip(start)
            .take(12)
            .enumerate()
            .filter(|(_, clause)| clause.len() == 1)
            .map(|(k, _)| k)
            .collect();
        let names: Vec<&str> = units
            .iter()
            .map(|&k| PROPERTY_LITERALS[k].seed_name)
            .collect();
        // Missing: shapes r w, fillings l g, colors g v, numbers: none.
        assert_eq!(names, ["r", "w", "l", "g", "g", "v"]);
    }

    /// Solves the CNF minus one clause family with the card variables fixed to a
    /// triple; returns whether it is satisfiable.
    fn triple_satisfiable(layout: &Layout, triple: [usize; 3], drop_family: Option<usize>) -> bool {
        let cnf = SetCnf::encode(layout);
        let f = cnf.families();
        let bounds = [
            0,
            f.exactly_three,
            f.exactly_three + f.card_implies_property,
            f.exactly_three + f.card_implies_property + f.property_implies_card,
            f.total(),
        ];
        let mut solver = Solver::default();
        for (c, clause) in cnf.cnf().iter().enumerate() {
            let family = (0..4).find(|&k| c < bounds[k + 1]).unwrap_or(3);
            if Some(family) != drop_family {
                solver
                    .add_clause(clause.clone())
                    .expect("solver accepts clause");
            }
        }
        let assumptions: Vec<Lit> = (0..layout.len())
            .map(|i| cnf.card_var(i).lit(!triple.contains(&i)))
            .collect();
        solver.solve_assumps(&assumptions).expect("solver runs") == SolverResult::Sat
    }

    #[test]
    fn exactly_the_sets_are_models_and_every_family_is_needed() {
        // Cards 0,1,2 form a SET; 0,1,3 do not (two red, one green, all else a SET).
        let l = layout(
            "1-red-solid-oval 2-red-striped-diamond 3-red-open-squiggle 3-green-open-squiggle",
        );
        assert!(Card::is_set(l.cards()[0], l.cards()[1], l.cards()[2]));
        assert!(!Card::is_set(l.cards()[0], l.cards()[1], l.cards()[3]));
        assert!(triple_satisfiable(&l, [0, 1, 2], None));
        assert!(!triple_satisfiable(&l, [0, 1, 3], None));
        // Without family 2, leave "green" off; without 3, switch "violet" on;
        // without 4, anything goes: each family is what rules the non-SET out.
        for family in 1..4 {
            assert!(
                triple_satisfiable(&l, [0, 1, 3], Some(family)),
                "family {} was not needed",
                family + 1
            );
        }
        // Family 1 is what rules out two or four cards.
        let cnf = SetCnf::encode(&l);
        let mut solver = Solver::default();
        solver.add_cnf_ref(cnf.cnf()).expect("solver accepts CNF");
        for chosen in [&[0, 1][..], &[0, 1, 2, 3][..]] {
            let assumptions: Vec<Lit> = (0..4)
                .map(|i| cnf.card_var(i).lit(!chosen.contains(&i)))
                .collect();
            let result = solver.solve_assumps(&assumptions).expect("solver runs");
            assert_eq!(result, SolverResult::Unsat, "{chosen:?}");
        }
    }

    #[test]
    fn fewer_than_three_cards_is_unsatisfiable() {
        for names in ["", "1-red-solid-oval", "1-red-solid-oval 2-red-solid-oval"] {
            let cnf = SetCnf::encode(&layout(names));
            assert_eq!(cnf.families().exactly_three, 1);
            let mut solver = Solver::default();
            solver.add_cnf_ref(cnf.cnf()).expect("solver accepts CNF");
            assert_eq!(solver.solve().expect("runs"), SolverResult::Unsat);
        }
    }
}
