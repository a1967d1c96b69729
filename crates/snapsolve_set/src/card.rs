//! The 81 cards: four attributes with three values each, packed into one byte.
//!
//! A card is its index `0..81` in base 3, most significant digit first:
//! `index = ((number * 3 + color) * 3 + shading) * 3 + shape`, each digit `0..3`.
//! Seen as a vector of `Z/3` digits, three cards form a SET exactly when their
//! digit-wise sum is `0 (mod 3)`: that is the whole game in one line, and every
//! finder in this crate is a way of exploiting it.

use std::fmt;
use std::str::FromStr;

/// The four attributes of a card, in the order of the text form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attribute {
    /// One, two or three symbols.
    Number,
    /// Red, green or purple.
    Color,
    /// Solid, striped or open fill.
    Shading,
    /// Diamond, oval or squiggle.
    Shape,
}

impl Attribute {
    /// All attributes, in text-form order.
    pub const ALL: [Attribute; 4] = [
        Attribute::Number,
        Attribute::Color,
        Attribute::Shading,
        Attribute::Shape,
    ];

    /// Lower-case name (`"number"`, `"color"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Attribute::Number => "number",
            Attribute::Color => "color",
            Attribute::Shading => "shading",
            Attribute::Shape => "shape",
        }
    }

    /// The canonical word for each of the three values, as used in the text form.
    pub fn value_names(self) -> [&'static str; 3] {
        match self {
            Attribute::Number => ["1", "2", "3"],
            Attribute::Color => ["red", "green", "purple"],
            Attribute::Shading => ["solid", "striped", "open"],
            Attribute::Shape => ["diamond", "oval", "squiggle"],
        }
    }

    /// Every accepted spelling and the value it means, canonical words first.
    ///
    /// Synonyms cover the second deck edition (rectangle for diamond, stippled or
    /// dotted for striped) and the words players use (empty, outline, capsule, ...).
    fn vocabulary(self) -> &'static [(&'static str, u8)] {
        match self {
            Attribute::Number => &[
                ("1", 0),
                ("2", 1),
                ("3", 2),
                ("one", 0),
                ("two", 1),
                ("three", 2),
            ],
            Attribute::Color => &[("red", 0), ("green", 1), ("purple", 2), ("violet", 2)],
            Attribute::Shading => &[
                ("solid", 0),
                ("striped", 1),
                ("open", 2),
                ("filled", 0),
                ("full", 0),
                ("stripes", 1),
                ("stripe", 1),
                ("shaded", 1),
                ("stippled", 1),
                ("dotted", 1),
                ("empty", 2),
                ("outline", 2),
                ("outlined", 2),
                ("hollow", 2),
            ],
            Attribute::Shape => &[
                ("diamond", 0),
                ("oval", 1),
                ("squiggle", 2),
                ("diamonds", 0),
                ("rectangle", 0),
                ("rectangles", 0),
                ("ovals", 1),
                ("capsule", 1),
                ("capsules", 1),
                ("squiggles", 2),
                ("wave", 2),
                ("waves", 2),
            ],
        }
    }

    /// Position of the attribute's digit in the card index (0 = most significant).
    const fn position(self) -> u32 {
        match self {
            Attribute::Number => 0,
            Attribute::Color => 1,
            Attribute::Shading => 2,
            Attribute::Shape => 3,
        }
    }
}

/// One of the 81 SET cards.
///
/// `repr(transparent)`: a slice of cards is a slice of index bytes, which the
/// vectorised finder loads into one register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Card(u8);

impl Card {
    /// Number of distinct cards in a deck.
    pub const COUNT: usize = 81;

    /// The card with this index, if it is below 81.
    pub const fn from_index(index: u8) -> Option<Card> {
        if (index as usize) < Self::COUNT {
            Some(Card(index))
        } else {
            None
        }
    }

    /// The card with these attribute values (`0..3` each, text-form order), if all are in range.
    pub const fn from_values(values: [u8; 4]) -> Option<Card> {
        let [n, c, f, s] = values;
        if n > 2 || c > 2 || f > 2 || s > 2 {
            return None;
        }
        Some(Card(((n * 3 + c) * 3 + f) * 3 + s))
    }

    /// Every card of the deck, in index order.
    pub fn all() -> impl Iterator<Item = Card> + Clone {
        (0..Self::COUNT as u8).map(Card)
    }

    /// Index `0..81`.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The value (`0..3`) this card has for one attribute.
    pub const fn value(self, attribute: Attribute) -> u8 {
        let shift = 3 - attribute.position();
        (self.0 / 3u8.pow(shift)) % 3
    }

    /// All four values, text-form order.
    pub const fn values(self) -> [u8; 4] {
        [self.0 / 27, (self.0 / 9) % 3, (self.0 / 3) % 3, self.0 % 3]
    }

    /// The unique card that makes a SET with `self` and `other`.
    ///
    /// Per attribute the third value is `-(a + b) mod 3`: equal values stay
    /// equal, two different values call for the remaining one. For `self == other`
    /// the answer is the card itself, which is why finders never pair a card with itself.
    pub const fn third(self, other: Card) -> Card {
        THIRD[self.0 as usize][other.0 as usize]
    }

    /// The completing card for `self` and each of the 81 cards, indexed by card index.
    pub fn third_row(self) -> &'static [Card; 81] {
        &THIRD[self.0 as usize]
    }

    /// Whether three cards form a SET (each attribute all equal or all different).
    pub const fn is_set(a: Card, b: Card, c: Card) -> bool {
        a.0 != b.0 && THIRD[a.0 as usize][b.0 as usize].0 == c.0
    }
}

/// `THIRD[a][b]` is the card completing `a` and `b`; computed at compile time.
static THIRD: [[Card; 81]; 81] = third_table();

const fn third_table() -> [[Card; 81]; 81] {
    let mut table = [[Card(0); 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut b = 0;
        while b < 81 {
            let (va, vb) = (Card(a as u8).values(), Card(b as u8).values());
            let mut out = [0u8; 4];
            let mut k = 0;
            while k < 4 {
                out[k] = (6 - va[k] - vb[k]) % 3;
                k += 1;
            }
            table[a][b] = Card(((out[0] * 3 + out[1]) * 3 + out[2]) * 3 + out[3]);
            b += 1;
        }
        a += 1;
    }
    table
}

impl fmt::Display for Card {
    /// The text form, for example `2-red-striped-oval`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.values();
        let word = |a: Attribute, i: usize| a.value_names()[v[i] as usize];
        write!(
            f,
            "{}-{}-{}-{}",
            word(Attribute::Number, 0),
            word(Attribute::Color, 1),
            word(Attribute::Shading, 2),
            word(Attribute::Shape, 3)
        )
    }
}

/// Why a card name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseCardError {
    /// A word that names no value of any attribute.
    UnknownWord {
        /// The whole input.
        input: String,
        /// The word that was not understood.
        word: String,
    },
    /// Two words for the same attribute (`red-green-...`).
    Repeated {
        /// The whole input.
        input: String,
        /// The attribute named twice.
        attribute: Attribute,
    },
    /// Fewer than four attributes were given.
    Missing {
        /// The whole input.
        input: String,
        /// The attributes that were not named.
        attributes: Vec<Attribute>,
    },
}

impl ParseCardError {
    fn valid_words() -> String {
        Attribute::ALL
            .iter()
            .map(|a| format!("{} {}", a.name(), a.value_names().join("|")))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

impl fmt::Display for ParseCardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseCardError::UnknownWord { input, word } => write!(
                f,
                "bad card {input:?}: unknown word {word:?} (expected NUMBER-COLOR-SHADING-SHAPE with {})",
                Self::valid_words()
            ),
            ParseCardError::Repeated { input, attribute } => write!(
                f,
                "bad card {input:?}: {} given twice (expected NUMBER-COLOR-SHADING-SHAPE with {})",
                attribute.name(),
                Self::valid_words()
            ),
            ParseCardError::Missing { input, attributes } => {
                let names: Vec<_> = attributes.iter().map(|a| a.name()).collect();
                write!(
                    f,
                    "bad card {input:?}: missing {} (expected NUMBER-COLOR-SHADING-SHAPE with {})",
                    names.join(", "),
                    Self::valid_words()
                )
            }
        }
    }
}

impl std::error::Error for ParseCardError {}

impl FromStr for Card {
    type Err = ParseCardError;

    /// Parses `2-red-striped-oval` and its variants: any case, `-`, `_` or space
    /// between words, words in any order, synonyms such as `empty`, `capsule`,
    /// `rectangles` or `stippled`.
    fn from_str(input: &str) -> Result<Card, ParseCardError> {
        let mut values: [Option<u8>; 4] = [None; 4];
        let words = input
            .split(|c: char| c == '-' || c == '_' || c.is_whitespace())
            .filter(|w| !w.is_empty());
        for word in words {
            let lower = word.to_ascii_lowercase();
            let (attribute, value) =
                lookup_word(&lower).ok_or_else(|| ParseCardError::UnknownWord {
                    input: input.to_string(),
                    word: word.to_string(),
                })?;
            let slot = &mut values[attribute.position() as usize];
            if slot.is_some() {
                return Err(ParseCardError::Repeated {
                    input: input.to_string(),
                    attribute,
                });
            }
            *slot = Some(value);
        }
        match values {
            [Some(n), Some(c), Some(f), Some(s)] => Ok(Card(((n * 3 + c) * 3 + f) * 3 + s)),
            _ => Err(ParseCardError::Missing {
                input: input.to_string(),
                attributes: Attribute::ALL
                    .into_iter()
                    .filter(|a| values[a.position() as usize].is_none())
                    .collect(),
            }),
        }
    }
}

fn lookup_word(word: &str) -> Option<(Attribute, u8)> {
    Attribute::ALL.into_iter().find_map(|attribute| {
        attribute
            .vocabulary()
            .iter()
            .find(|(w, _)| *w == word)
            .map(|&(_, value)| (attribute, value))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_form_round_trips_for_every_card() {
        for card in Card::all() {
            let text = card.to_string();
            assert_eq!(text.parse::<Card>(), Ok(card), "{text}");
        }
        assert_eq!(Card::all().count(), 81);
    }

    #[test]
    fn index_layout_matches_attribute_values() {
        let card: Card = "2-red-striped-oval".parse().unwrap();
        assert_eq!(card.values(), [1, 0, 1, 1]);
        assert_eq!(card.value(Attribute::Number), 1);
        assert_eq!(card.value(Attribute::Shape), 1);
        assert_eq!(Card::from_values([1, 0, 1, 1]), Some(card));
        assert_eq!(Card::from_values([3, 0, 0, 0]), None);
        assert_eq!(Card::from_index(81), None);
    }

    #[test]
    fn variants_and_second_edition_names_parse() {
        let expected: Card = "3-purple-open-oval".parse().unwrap();
        for text in [
            "3-Purple-Empty-Capsules",
            "three purple outline ovals",
            "OVAL_open_3_purple",
            "3-violet-hollow-oval",
        ] {
            assert_eq!(text.parse::<Card>(), Ok(expected), "{text}");
        }
        let alt: Card = "1-green-stippled-rectangle".parse().unwrap();
        assert_eq!(alt.to_string(), "1-green-striped-diamond");
    }

    #[test]
    fn bad_names_are_rejected_with_the_bad_token() {
        let err = "2-red-striped-hexagon".parse::<Card>().unwrap_err();
        let message = err.to_string();
        assert!(message.contains("\"hexagon\""), "{message}");
        assert!(message.contains("diamond|oval|squiggle"), "{message}");
        assert!(matches!(
            "2-red-green-oval".parse::<Card>(),
            Err(ParseCardError::Repeated {
                attribute: Attribute::Color,
                ..
            })
        ));
        assert!(matches!(
            "2-red-oval".parse::<Card>(),
            Err(ParseCardError::Missing { .. })
        ));
        assert!("".parse::<Card>().is_err());
        assert!("4-red-solid-oval".parse::<Card>().is_err());
    }

    #[test]
    fn third_card_completes_a_set_for_every_pair() {
        for a in Card::all() {
            for b in Card::all().filter(|&b| b != a) {
                let c = a.third(b);
                assert!(c != a && c != b);
                assert_eq!(c.third(a), b);
                assert!(Card::is_set(a, b, c));
                for attribute in Attribute::ALL {
                    let vals = [a.value(attribute), b.value(attribute), c.value(attribute)];
                    let all_same = vals[0] == vals[1] && vals[1] == vals[2];
                    let all_diff = vals[0] != vals[1] && vals[1] != vals[2] && vals[0] != vals[2];
                    assert!(all_same || all_diff);
                }
            }
        }
    }
}
