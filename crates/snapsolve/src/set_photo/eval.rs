//! Measuring the photo reader against labelled photos and crops.
//!
//! Photo labels give each photo's cards as a multiset, without positions, so
//! a photo is scored by matching multisets: cards right = size of the
//! intersection of the read and true multisets; per attribute the same on the
//! attribute's values; missed = true cards beyond those read; false = cards
//! read beyond the true count. For the confusion tables, read cards are paired
//! with true cards greedily, most agreeing attributes first ([`pair_cards`]).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use snapsolve_set::{Attribute, Card};
use snapsolve_vision::{DecodeError, Limits, Photo, read_bytes, read_image};

use super::classify::CardClassifier;
use super::name_card_picture_spoilt;
use super::table::{TableReading, decode_table_photo, read_table};
use crate::distort::{CropSpoiler, Distortion};

/// Totals for one deck edition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditionScore {
    /// Photos (or crops) scored.
    pub items: usize,
    /// True cards.
    pub cards: usize,
    /// True cards matched by a read card (photos only).
    pub found: usize,
    /// True cards with no read card.
    pub missed: usize,
    /// Read cards beyond the true count.
    pub false_cards: usize,
    /// Cards read right on all four attributes.
    pub right: usize,
    /// Cards right per attribute (number, color, shading, shape).
    pub attribute_right: [usize; 4],
    /// Photos whose cards were all read right, with none missing or extra.
    pub tables_right: usize,
    /// Cards seen in part (cut off by the photo's edge or by the part a cut
    /// file lacks), not named (photos only).
    pub partial: usize,
    /// Paired cards' attributes, true against read.
    pub confusion: AttributeConfusion,
    /// Milliseconds per item (decode included), in input order.
    pub millis: Vec<f64>,
    /// Items that could not be read (with why).
    pub failures: Vec<String>,
    /// Photos not read fully right, with their score
    /// (`path: 11 of 12 right, 1 missed, 0 false`).
    pub imperfect: Vec<String>,
}

impl EditionScore {
    /// Share of cards read right.
    pub fn card_accuracy(&self) -> f64 {
        self.right as f64 / self.cards.max(1) as f64
    }

    /// Share of cards right on one attribute.
    pub fn attribute_accuracy(&self, index: usize) -> f64 {
        self.attribute_right[index] as f64 / self.cards.max(1) as f64
    }

    /// Counts the cards read from one item against its true cards (compared
    /// as multisets: labels give no positions); true when all are right, with
    /// none missing or extra.
    fn tally(&mut self, read: &[Card], truth: &[Card]) -> bool {
        let found = read.len().min(truth.len());
        self.found += found;
        self.missed += truth.len() - found;
        self.false_cards += read.len().saturating_sub(truth.len());
        let right = multiset_overlap(
            read.iter().map(|c| c.index()),
            truth.iter().map(|c| c.index()),
        );
        self.right += right;
        for (a, attribute) in Attribute::ALL.iter().enumerate() {
            self.attribute_right[a] += multiset_overlap(
                read.iter().map(|c| c.value(*attribute)),
                truth.iter().map(|c| c.value(*attribute)),
            );
        }
        for (r, t) in pair_cards(read, truth) {
            self.confusion.count(t, r);
        }
        right == truth.len() && read.len() == truth.len()
    }

    /// Adds another score's counts to this one.
    fn add(&mut self, other: &EditionScore) {
        self.items += other.items;
        self.cards += other.cards;
        self.found += other.found;
        self.missed += other.missed;
        self.false_cards += other.false_cards;
        self.right += other.right;
        self.tables_right += other.tables_right;
        self.partial += other.partial;
        for a in 0..4 {
            self.attribute_right[a] += other.attribute_right[a];
        }
        self.confusion.add(&other.confusion);
        self.millis.extend(&other.millis);
        self.failures.extend(other.failures.iter().cloned());
        self.imperfect.extend(other.imperfect.iter().cloned());
    }

    /// Median milliseconds per item.
    pub fn median_millis(&self) -> f64 {
        let mut m = self.millis.clone();
        m.sort_by(f64::total_cmp);
        m.get(m.len() / 2).copied().unwrap_or(0.0)
    }
}

/// Per attribute (number, color, shading, shape), counts of cards by true
/// value (rows) and read value (columns).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AttributeConfusion {
    /// `counts[attribute][true value][read value]`.
    pub counts: [[[usize; 3]; 3]; 4],
}

impl AttributeConfusion {
    /// Counts one card read as `read` whose true name is `truth`.
    pub fn count(&mut self, truth: Card, read: Card) {
        for (a, attribute) in Attribute::ALL.iter().enumerate() {
            let (t, r) = (truth.value(*attribute), read.value(*attribute));
            self.counts[a][usize::from(t)][usize::from(r)] += 1;
        }
    }

    /// Adds another table's counts to these.
    pub fn add(&mut self, other: &AttributeConfusion) {
        for (mine, theirs) in self
            .counts
            .iter_mut()
            .flatten()
            .zip(other.counts.iter().flatten())
        {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
    }

    /// Every mistake as (attribute, true value, read value, count), largest
    /// first.
    pub fn mistakes(&self) -> Vec<(Attribute, usize, usize, usize)> {
        let mut mistakes = Vec::new();
        for (a, attribute) in Attribute::ALL.iter().enumerate() {
            for t in 0..3 {
                for r in (0..3).filter(|&r| r != t) {
                    let count = self.counts[a][t][r];
                    if count > 0 {
                        mistakes.push((*attribute, t, r, count));
                    }
                }
            }
        }
        mistakes.sort_by_key(|m| std::cmp::Reverse(m.3));
        mistakes
    }
}

/// Scores per deck edition, by edition name.
pub type Scores = BTreeMap<String, EditionScore>;

/// Scores of a photo evaluation, per deck and per source within a deck.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PhotoScores {
    /// By deck edition.
    pub decks: Scores,
    /// By `source (deck)`: the owner/repository a photo came from, so that a
    /// reader that holds on one source and not another shows it.
    pub sources: Scores,
}

/// Pairs read cards with true cards for the confusion tables: greedily, pairs
/// agreeing on all four attributes first, then three, and so on. Cards left
/// over (missed or false) stay unpaired.
pub fn pair_cards(read: &[Card], truth: &[Card]) -> Vec<(Card, Card)> {
    let agreement = |a: Card, b: Card| {
        Attribute::ALL
            .iter()
            .filter(|&&attribute| a.value(attribute) == b.value(attribute))
            .count()
    };
    let mut read_used = vec![false; read.len()];
    let mut truth_used = vec![false; truth.len()];
    let mut pairs = Vec::with_capacity(read.len().min(truth.len()));
    for wanted in (0..=4).rev() {
        for (i, &r) in read.iter().enumerate() {
            if read_used[i] {
                continue;
            }
            let partner =
                (0..truth.len()).find(|&j| !truth_used[j] && agreement(r, truth[j]) == wanted);
            if let Some(j) = partner {
                read_used[i] = true;
                truth_used[j] = true;
                pairs.push((r, truth[j]));
            }
        }
    }
    pairs
}

/// A problem with a labels file.
#[derive(Debug)]
pub struct LabelError(pub String);

impl std::fmt::Display for LabelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LabelError {}

/// One labelled photo.
#[derive(Clone, Debug)]
pub struct PhotoLabel {
    /// Path relative to the root.
    pub image: String,
    /// Deck edition.
    pub deck: String,
    /// Where the photo came from (`owner/repository`, without the commit).
    pub source: String,
    /// True cards (multiset).
    pub cards: Vec<Card>,
}

/// Parses `photos.jsonl` lines (`image`, `deck`, `cards`, `source`).
pub fn parse_photo_labels(text: &str) -> Result<Vec<PhotoLabel>, LabelError> {
    let mut labels = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let bad = |why: &str| LabelError(format!("line {}: {why}", n + 1));
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
        let image = value["image"].as_str().ok_or_else(|| bad("no \"image\""))?;
        let deck = value["deck"].as_str().unwrap_or("unknown");
        let source = value["source"].as_str().unwrap_or("unknown");
        let source = source.split('@').next().unwrap_or(source);
        let cards = value["cards"]
            .as_array()
            .ok_or_else(|| bad("no \"cards\" list"))?
            .iter()
            .map(|c| {
                c.as_str()
                    .and_then(|s| s.parse::<Card>().ok())
                    .ok_or_else(|| bad(&format!("bad card {c}")))
            })
            .collect::<Result<Vec<Card>, LabelError>>()?;
        labels.push(PhotoLabel {
            image: image.to_string(),
            deck: deck.to_string(),
            source: source.to_string(),
            cards,
        });
    }
    Ok(labels)
}

/// Size of the intersection of two multisets of small keys.
fn multiset_overlap(a: impl Iterator<Item = u8>, b: impl Iterator<Item = u8>) -> usize {
    let mut count = [0i32; 81];
    for x in a {
        count[usize::from(x)] += 1;
    }
    let mut overlap = 0;
    for y in b {
        if count[usize::from(y)] > 0 {
            count[usize::from(y)] -= 1;
            overlap += 1;
        }
    }
    overlap
}

/// Reads every labelled photo, spoilt by `distortion` if one is given, and
/// scores it per deck and per source.
pub fn evaluate_photos(
    labels: &[PhotoLabel],
    root: &Path,
    classifier: &dyn CardClassifier,
    spoil: PhotoSpoil,
) -> PhotoScores {
    evaluate_photos_shown(labels, root, classifier, spoil, &mut |_| {})
}

/// One photo as the evaluation read it, for a caller that wants to look.
pub struct PhotoRead<'a> {
    /// Its label.
    pub label: &'a PhotoLabel,
    /// The photo as read (spoilt, if it was).
    pub photo: &'a Photo,
    /// What the reader made of it.
    pub reading: &'a TableReading,
    /// Its score alone.
    pub score: &'a EditionScore,
}

/// [`evaluate_photos`], handing each photo read to `show` (to draw it).
pub fn evaluate_photos_shown(
    labels: &[PhotoLabel],
    root: &Path,
    classifier: &dyn CardClassifier,
    spoil: PhotoSpoil,
    show: &mut dyn FnMut(PhotoRead),
) -> PhotoScores {
    let mut scores = PhotoScores::default();
    for label in labels {
        let one = score_photo(label, root, classifier, spoil, show);
        let source = format!("{} ({})", label.source, label.deck);
        scores.sources.entry(source).or_default().add(&one);
        scores
            .decks
            .entry(label.deck.clone())
            .or_default()
            .add(&one);
    }
    scores
}

/// What is done to each labelled photo before it is read.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhotoSpoil {
    /// Its decoded picture spoilt so.
    pub distortion: Option<Distortion>,
    /// Its file cut after this share of its bytes, as a half-copied upload
    /// (cards the missing part cuts are then partial, [`EditionScore::partial`]).
    pub cut_at: Option<f32>,
}

/// The score of one labelled photo.
fn score_photo(
    label: &PhotoLabel,
    root: &Path,
    classifier: &dyn CardClassifier,
    spoil: PhotoSpoil,
    show: &mut dyn FnMut(PhotoRead),
) -> EditionScore {
    let mut score = EditionScore {
        items: 1,
        cards: label.cards.len(),
        ..EditionScore::default()
    };
    let start = Instant::now();
    let photo = match read_spoilt_photo(&root.join(&label.image), spoil) {
        Ok(photo) => photo,
        Err(e) => {
            score.failures.push(format!("{}: {e}", label.image));
            score.missed += label.cards.len();
            return score;
        }
    };
    let reading = read_table(&photo, classifier);
    score.millis.push(start.elapsed().as_secs_f64() * 1e3);
    score.partial += reading.partial.len();
    let read: Vec<Card> = reading.cards.iter().map(|c| c.card).collect();
    if score.tally(&read, &label.cards) {
        score.tables_right += 1;
    } else {
        score.imperfect.push(format!(
            "{}: {} of {} right, {} missed, {} false",
            label.image, score.right, score.cards, score.missed, score.false_cards
        ));
    }
    show(PhotoRead {
        label,
        photo: &photo,
        reading: &reading,
        score: &score,
    });
    score
}

/// A table photo read from `path` and spoilt as `spoil` says.
fn read_spoilt_photo(path: &Path, spoil: PhotoSpoil) -> Result<Photo, DecodeError> {
    let bytes = read_bytes(path, Limits::default())?;
    let kept = spoil.cut_at.map_or(bytes.len(), |share| {
        (bytes.len() as f32 * share.clamp(0.0, 1.0)) as usize
    });
    let photo = decode_table_photo(&bytes[..kept], Limits::default())?;
    Ok(match spoil.distortion {
        Some(distortion) => distortion.apply(photo),
        None => photo,
    })
}

/// One labelled crop: `image,card,deck,...` rows of `crops.csv`.
#[derive(Clone, Debug)]
pub struct CropLabel {
    /// Path relative to the root.
    pub image: String,
    /// True card.
    pub card: Card,
    /// Deck edition.
    pub deck: String,
}

/// Parses `crops.csv` (header line first; columns image, card, deck).
pub fn parse_crop_labels(text: &str) -> Result<Vec<CropLabel>, LabelError> {
    let mut labels = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split(',').collect();
        let bad = |why: &str| LabelError(format!("line {}: {why}", n + 1));
        let (Some(image), Some(card)) = (fields.first(), fields.get(1)) else {
            return Err(bad("expected image,card,deck"));
        };
        let card = card.parse::<Card>().map_err(|e| bad(&e.to_string()))?;
        labels.push(CropLabel {
            image: image.to_string(),
            card,
            deck: fields.get(2).unwrap_or(&"unknown").to_string(),
        });
    }
    Ok(labels)
}

/// Names every labelled crop as `snapsolve set card` names a picture of one
/// card ([`name_card_picture_spoilt`]: the whole picture and the card read
/// or found in it), each view spoilt by `spoiler` if one is given, and
/// scores it.
pub fn evaluate_crops(
    labels: &[CropLabel],
    root: &Path,
    classifier: &dyn CardClassifier,
    spoiler: Option<CropSpoiler>,
) -> Scores {
    let mut scores = Scores::new();
    for label in labels {
        let score = scores.entry(label.deck.clone()).or_default();
        score.items += 1;
        score.cards += 1;
        let start = Instant::now();
        let image = match read_image(&root.join(&label.image), Limits::default()) {
            Ok(image) => image,
            Err(e) => {
                score.failures.push(format!("{}: {e}", label.image));
                continue;
            }
        };
        let spoil = |crop| match spoiler {
            Some(spoiler) => spoiler.apply(&crop),
            None => crop,
        };
        let Some(reading) = name_card_picture_spoilt(&image, classifier, spoil) else {
            continue;
        };
        score.millis.push(start.elapsed().as_secs_f64() * 1e3);
        score.tally(&[reading.card()], &[label.card]);
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multisets_overlap_by_count() {
        assert_eq!(
            multiset_overlap([1u8, 1, 2].into_iter(), [1u8, 2, 2, 3].into_iter()),
            2
        );
    }

    #[test]
    fn cards_pair_by_most_agreeing_attributes() {
        let cards = |names: &str| -> Vec<Card> {
            names.split(' ').map(|n| n.parse().expect("card")).collect()
        };
        let read = cards("1-red-solid-oval 2-green-open-diamond 3-purple-striped-squiggle");
        let truth = cards("2-green-open-squiggle 1-red-solid-oval");
        let pairs = pair_cards(&read, &truth);
        assert_eq!(pairs, vec![(read[0], truth[1]), (read[1], truth[0])]);
        let mut score = EditionScore::default();
        assert!(!score.tally(&read, &truth));
        // Shape: the diamond read where a squiggle lies.
        assert_eq!(score.confusion.counts[3][2][0], 1);
        assert_eq!(score.confusion.counts[3][1][1], 1);
        assert_eq!((score.false_cards, score.right), (1, 1));
    }

    #[test]
    fn labels_parse_and_bad_cards_are_reported() {
        let ok = parse_photo_labels(
            r#"{"image": "a.jpg", "deck": "std", "cards": ["1-red-solid-oval"]}"#,
        )
        .unwrap();
        assert_eq!(ok[0].cards.len(), 1);
        assert_eq!(ok[0].source, "unknown");
        assert!(
            parse_photo_labels(r#"{"image": "a.jpg", "cards": ["7-red-solid-oval"]}"#).is_err()
        );
        let crops = parse_crop_labels("image,card,deck\nx.png,2-green-open-diamond,std\n").unwrap();
        assert_eq!(crops[0].card.to_string(), "2-green-open-diamond");
    }
}
