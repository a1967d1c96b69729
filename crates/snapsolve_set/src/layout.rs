//! A layout: the distinct cards lying on the table, in the order they were given.

use std::fmt;

use crate::card::{Card, ParseCardError};

/// Three positions in a layout, increasing, that hold a SET.
pub type Triple = [usize; 3];

/// Distinct cards in a fixed order; SETs are reported as positions in it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Layout {
    cards: Vec<Card>,
}

/// Why a list of cards is not a layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// The same card appears twice (a deck holds each card once).
    Duplicate {
        /// The repeated card.
        card: Card,
        /// Its first position.
        first: usize,
        /// Its second position.
        second: usize,
    },
    /// More cards than a deck holds.
    TooMany(usize),
    /// A card name in the text could not be read.
    Parse {
        /// 1-based line of the text.
        line: usize,
        /// What was wrong with the name.
        error: ParseCardError,
    },
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::Duplicate {
                card,
                first,
                second,
            } => write!(
                f,
                "card {card} appears twice (positions {} and {}); a deck holds each card once",
                first + 1,
                second + 1
            ),
            LayoutError::TooMany(n) => {
                write!(f, "{n} cards given, but a deck holds only {}", Card::COUNT)
            }
            LayoutError::Parse { line, error } => write!(f, "line {line}: {error}"),
        }
    }
}

impl std::error::Error for LayoutError {}

impl Layout {
    /// Checks that the cards are distinct (and so at most 81).
    pub fn new(cards: Vec<Card>) -> Result<Layout, LayoutError> {
        if cards.len() > Card::COUNT {
            return Err(LayoutError::TooMany(cards.len()));
        }
        let mut seen = [usize::MAX; Card::COUNT];
        for (position, card) in cards.iter().enumerate() {
            let first = &mut seen[card.index() as usize];
            if *first != usize::MAX {
                return Err(LayoutError::Duplicate {
                    card: *card,
                    first: *first,
                    second: position,
                });
            }
            *first = position;
        }
        Ok(Layout { cards })
    }

    /// Reads cards from text: one card per line, or several per line separated by
    /// whitespace; `#` starts a comment.
    pub fn parse(text: &str) -> Result<Layout, LayoutError> {
        let mut cards = Vec::new();
        for (number, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            // A whole line may be one card written with spaces ("three purple open ovals").
            if let Ok(card) = line.parse::<Card>() {
                cards.push(card);
                continue;
            }
            for word in line.split_whitespace() {
                let card = word.parse::<Card>().map_err(|error| LayoutError::Parse {
                    line: number + 1,
                    error,
                })?;
                cards.push(card);
            }
        }
        Layout::new(cards)
    }

    /// The whole deck in index order.
    pub fn full_deck() -> Layout {
        Layout {
            cards: Card::all().collect(),
        }
    }

    /// The cards, in the given order.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Number of cards.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Whether there is no card.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The cards of a triple.
    pub fn triple_cards(&self, triple: Triple) -> [Card; 3] {
        triple.map(|i| self.cards[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_and_oversize_are_errors() {
        let a: Card = "1-red-solid-oval".parse().unwrap();
        let b: Card = "2-red-solid-oval".parse().unwrap();
        assert_eq!(
            Layout::new(vec![a, b, a]),
            Err(LayoutError::Duplicate {
                card: a,
                first: 0,
                second: 2
            })
        );
        let mut many: Vec<Card> = Card::all().collect();
        many.push(a);
        assert_eq!(Layout::new(many), Err(LayoutError::TooMany(82)));
    }

    #[test]
    fn text_accepts_lines_words_and_comments() {
        let text =
            "# my table\n1-red-solid-oval 2-red-solid-oval\nthree red solid ovals  # spaced\n\n";
        let layout = Layout::parse(text).unwrap();
        assert_eq!(layout.len(), 3);
        let err = Layout::parse("1-red-solid-oval\n2-red-solid-blob").unwrap_err();
        assert!(err.to_string().starts_with("line 2:"), "{err}");
    }
}
