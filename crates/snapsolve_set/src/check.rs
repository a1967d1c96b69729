//! Checking three cards the way a teacher would: which attribute breaks the rule, and why.

use std::fmt;

use crate::card::{Attribute, Card};

/// How one attribute behaves across three cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// All three share the value.
    AllSame,
    /// All three values differ.
    AllDifferent,
    /// Two share a value, the third does not: this breaks the SET.
    TwoAndOne {
        /// Position (0..3) of the odd card out.
        odd: usize,
    },
}

/// The verdict on three cards, attribute by attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The three cards, as given.
    pub cards: [Card; 3],
    /// One entry per attribute, in text-form order.
    pub attributes: [(Attribute, Agreement); 4],
}

impl Verdict {
    /// Whether the three cards form a SET.
    pub fn is_set(&self) -> bool {
        self.broken().next().is_none()
    }

    /// The attributes that break the rule.
    pub fn broken(&self) -> impl Iterator<Item = Attribute> + '_ {
        self.attributes
            .iter()
            .filter(|(_, a)| matches!(a, Agreement::TwoAndOne { .. }))
            .map(|(attribute, _)| *attribute)
    }
}

/// Judges three cards. Repeated cards are judged as given (they can never form a SET).
pub fn check(cards: [Card; 3]) -> Verdict {
    let attributes = Attribute::ALL.map(|attribute| {
        let [a, b, c] = cards.map(|card| card.value(attribute));
        let agreement = if a == b && b == c {
            Agreement::AllSame
        } else if a != b && b != c && a != c {
            Agreement::AllDifferent
        } else {
            let odd = if a == b {
                2
            } else if a == c {
                1
            } else {
                0
            };
            Agreement::TwoAndOne { odd }
        };
        (attribute, agreement)
    });
    Verdict { cards, attributes }
}

impl fmt::Display for Verdict {
    /// One line per attribute, e.g. `color: red, red, green: two are red, one is green: not a SET`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (attribute, agreement) in &self.attributes {
            let names = attribute.value_names();
            let words = self.cards.map(|c| names[c.value(*attribute) as usize]);
            let why = match agreement {
                Agreement::AllSame => "all the same".to_string(),
                Agreement::AllDifferent => "all different".to_string(),
                Agreement::TwoAndOne { odd } => {
                    let pair = words[(odd + 1) % 3];
                    format!("two are {pair}, one is {}: breaks the rule", words[*odd])
                }
            };
            writeln!(
                f,
                "{:<8} {}, {}, {}: {why}",
                format!("{}:", attribute.name()),
                words[0],
                words[1],
                words[2]
            )?;
        }
        if self.is_set() {
            write!(f, "SET: every attribute is all the same or all different")
        } else {
            let broken: Vec<_> = self.broken().map(|a| a.name()).collect();
            write!(f, "not a SET: {} breaks the rule", broken.join(" and "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(names: [&str; 3]) -> [Card; 3] {
        names.map(|n| n.parse().unwrap())
    }

    #[test]
    fn a_set_has_no_broken_attribute() {
        let v = check(cards([
            "1-red-solid-oval",
            "2-green-solid-oval",
            "3-purple-solid-oval",
        ]));
        assert!(v.is_set());
        assert!(v.to_string().contains("SET: every attribute"));
    }

    #[test]
    fn the_odd_card_and_attribute_are_named() {
        let v = check(cards([
            "1-red-solid-oval",
            "2-red-solid-oval",
            "3-green-solid-oval",
        ]));
        assert!(!v.is_set());
        assert_eq!(v.broken().collect::<Vec<_>>(), vec![Attribute::Color]);
        assert_eq!(v.attributes[1].1, Agreement::TwoAndOne { odd: 2 });
        let text = v.to_string();
        assert!(text.contains("two are red, one is green"), "{text}");
        assert!(text.contains("not a SET: color breaks the rule"), "{text}");
    }
}
