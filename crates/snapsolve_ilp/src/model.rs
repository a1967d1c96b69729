//! Seed 001's binary integer program for one layout, as plain data.
//!
//! ```text
//! maximize    Σ_i x_i
//! subject to  Σ_i x_i                 = 3
//!             Σ_i d_ipv x_i − y_p − 3 z_pv = 0     for every attribute p and value v
//!             Σ_v z_pv + y_p          = 1          for every attribute p
//!             x_i, y_p, z_pv ∈ {0, 1}
//! ```
//!
//! `d_ipv` is 1 when card `i` has value `v` for attribute `p`. `y_p = 1` says
//! the three cards differ in `p` (then every value is counted once and no
//! `z_pv` is on); `y_p = 0` switches on one `z_pv`, the value all three share
//! (counted three times, the others zero). The seed's equalities are moved to
//! "variables left, constant right" form; nothing else changes. The objective
//! is constant under the first constraint: the seed keeps it to hand the solver
//! a maximisation, and so does this model.
//!
//! The model is kept as data, so the solver (`engine`) and the LP writer
//! (`lp_format`) read the very same rows; no-good cuts `x_i + x_j + x_k ≤ 2`
//! are appended as further rows.

use snapsolve_set::{Attribute, Layout, Triple};

/// What a variable of the model stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariableRole {
    /// `x_i`: the card at this position is chosen.
    Card(usize),
    /// `y_p`: the chosen cards all differ in this attribute.
    AllDifferent(Attribute),
    /// `z_pv`: the chosen cards all have this value (`0..3`) of the attribute.
    AllEqual(Attribute, u8),
}

/// One binary variable: its role and its LP-format name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// What it stands for.
    pub role: VariableRole,
    /// Name used in LP files (`x3`, `y_color`, `z_shape_oval`).
    pub name: String,
}

/// Comparison of a row with its right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// `=`
    Equal,
    /// `<=`
    AtMost,
}

/// One linear constraint `Σ coefficient · variable (sense) rhs`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Name used in LP files.
    pub name: String,
    /// `(variable index, coefficient)`, each variable at most once.
    pub terms: Vec<(usize, i32)>,
    /// `=` or `<=`.
    pub sense: Sense,
    /// Right-hand side.
    pub rhs: i32,
}

/// Seed 001's model for a layout, plus any no-good cuts added since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetIlp {
    n_cards: usize,
    variables: Vec<Variable>,
    rows: Vec<Row>,
    objective: Vec<(usize, i32)>,
}

impl SetIlp {
    /// Builds the model: `N + 16` binaries (x, four y, twelve z) and `1 + 12 + 4` rows.
    pub fn build(layout: &Layout) -> SetIlp {
        let n_cards = layout.len();
        let mut variables: Vec<Variable> = (0..n_cards)
            .map(|i| Variable {
                role: VariableRole::Card(i),
                name: format!("x{}", i + 1),
            })
            .collect();
        variables.extend(Attribute::ALL.map(|p| Variable {
            role: VariableRole::AllDifferent(p),
            name: format!("y_{}", p.name()),
        }));
        for p in Attribute::ALL {
            for (v, value_name) in (0u8..).zip(p.value_names()) {
                variables.push(Variable {
                    role: VariableRole::AllEqual(p, v),
                    name: format!("z_{}_{value_name}", p.name()),
                });
            }
        }
        let cards: Vec<(usize, i32)> = (0..n_cards).map(|i| (i, 1)).collect();
        let mut rows = vec![Row {
            name: "pick_three".to_owned(),
            terms: cards.clone(),
            sense: Sense::Equal,
            rhs: 3,
        }];
        for (a, p) in Attribute::ALL.into_iter().enumerate() {
            for (v, value_name) in (0u8..).zip(p.value_names()) {
                let mut terms: Vec<(usize, i32)> = (0..n_cards)
                    .filter(|&i| layout.cards()[i].value(p) == v)
                    .map(|i| (i, 1))
                    .collect();
                terms.push((y_index(n_cards, a), -1));
                terms.push((z_index(n_cards, a, v), -3));
                rows.push(Row {
                    name: format!("count_{}_{value_name}", p.name()),
                    terms,
                    sense: Sense::Equal,
                    rhs: 0,
                });
            }
        }
        for (a, p) in Attribute::ALL.into_iter().enumerate() {
            let mut terms: Vec<(usize, i32)> =
                (0..3).map(|v| (z_index(n_cards, a, v), 1)).collect();
            terms.push((y_index(n_cards, a), 1));
            rows.push(Row {
                name: format!("one_kind_{}", p.name()),
                terms,
                sense: Sense::Equal,
                rhs: 1,
            });
        }
        SetIlp {
            n_cards,
            variables,
            rows,
            objective: cards,
        }
    }

    /// Adds the no-good cut `x_i + x_j + x_k <= 2`, which removes this triple only.
    pub fn add_no_good(&mut self, triple: Triple) {
        let number = self.rows.len() - Self::SEED_ROWS + 1;
        self.rows.push(Row {
            name: format!("no_good_{number}"),
            terms: triple.iter().map(|&i| (i, 1)).collect(),
            sense: Sense::AtMost,
            rhs: 2,
        });
    }

    /// Rows of the seed's model before any cut: 1 + 12 + 4.
    pub const SEED_ROWS: usize = 17;

    /// Number of cards (the first variables).
    pub fn n_cards(&self) -> usize {
        self.n_cards
    }

    /// All variables: `x_1..x_N`, then `y_p`, then `z_pv`.
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// All rows: the seed's 17, then the cuts.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// Objective terms, to maximise.
    pub fn objective(&self) -> &[(usize, i32)] {
        &self.objective
    }
}

fn y_index(n_cards: usize, attribute: usize) -> usize {
    n_cards + attribute
}

fn z_index(n_cards: usize, attribute: usize, value: u8) -> usize {
    n_cards + 4 + 3 * attribute + usize::from(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use snapsolve_set::Card;

    /// Evaluates every row at a 0/1 assignment.
    fn satisfied(model: &SetIlp, values: &[i32]) -> bool {
        model.rows().iter().all(|row| {
            let lhs: i32 = row.terms.iter().map(|&(j, c)| c * values[j]).sum();
            match row.sense {
                Sense::Equal => lhs == row.rhs,
                Sense::AtMost => lhs <= row.rhs,
            }
        })
    }

    /// Whether some assignment of y and z completes this choice of cards.
    fn completable(model: &SetIlp, chosen: &[usize]) -> bool {
        let n = model.n_cards();
        (0u32..1 << 16).any(|bits| {
            let mut values = vec![0; n + 16];
            for &i in chosen {
                values[i] = 1;
            }
            for k in 0..16 {
                values[n + k] = ((bits >> k) & 1) as i32;
            }
            satisfied(model, &values)
        })
    }

    #[test]
    fn sizes_and_names_follow_the_seed() {
        let layout =
            Layout::parse("1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle")
                .expect("layout parses");
        let model = SetIlp::build(&layout);
        assert_eq!(model.variables().len(), 3 + 4 + 12);
        assert_eq!(model.rows().len(), SetIlp::SEED_ROWS);
        assert_eq!(model.variables()[3].name, "y_number");
        assert_eq!(model.variables()[3 + 4 + 3 * 3 + 1].name, "z_shape_oval");
        // d_ipv: each card has exactly one value per attribute, so the x terms
        // of the twelve count rows hold every card four times.
        let x_terms: usize = model.rows()[1..13]
            .iter()
            .map(|r| r.terms.iter().filter(|&&(j, _)| j < 3).count())
            .sum();
        assert_eq!(x_terms, 3 * 4);
    }

    #[test]
    fn feasible_choices_are_exactly_the_sets() {
        // Brute force over all 2^16 y/z assignments for every choice of 3 of 5 cards.
        let layout = Layout::parse(
            "1-red-solid-oval 2-green-striped-diamond 3-purple-open-squiggle \
             1-red-open-oval 2-red-striped-oval",
        )
        .expect("layout parses");
        let model = SetIlp::build(&layout);
        let cards = layout.cards();
        for i in 0..5 {
            for j in i + 1..5 {
                for k in j + 1..5 {
                    let is_set = Card::is_set(cards[i], cards[j], cards[k]);
                    assert_eq!(completable(&model, &[i, j, k]), is_set, "{i} {j} {k}");
                }
            }
        }
        assert!(!completable(&model, &[0, 1]));
        let mut cut = model.clone();
        cut.add_no_good([0, 1, 2]);
        assert_eq!(cut.rows().len(), SetIlp::SEED_ROWS + 1);
        assert!(!completable(&cut, &[0, 1, 2]));
    }
}
