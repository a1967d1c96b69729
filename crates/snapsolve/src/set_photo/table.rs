//! From a photo of a table to cards, confidences and SETs, and back onto the photo.
//!
//! photo (upright) → card quadrilaterals ([`snapsolve_vision::CardFinder`]) →
//! canonical crops → readings ([`CardClassifier`]) → cards, with repeated and
//! unsure readings reported → SETs (`snapsolve_set::finders::find_sets`).

use std::path::Path;

use image::RgbImage;
use snapsolve_set::Card;
use snapsolve_set::finders::find_sets;
use snapsolve_vision::cards::cores::missed_by_finder;
use snapsolve_vision::cards::neighbours::{guesses_across, guesses_beside};
use snapsolve_vision::cards::refine::EdgeCopy;
use snapsolve_vision::cards::sort_in_reading_order_by;
use snapsolve_vision::crop::{card_crop, ink_colour_spread, paper_colour_spread};
use snapsolve_vision::noise;
use snapsolve_vision::{
    CardFinder, DecodeError, Limits, Photo, Quad, decode_photo_reduced, read_bytes,
};

use super::classify::{CardClassifier, CardReading, SmoothedCrops};
use super::margin;
use super::steady::steady_doubtful_names;

/// Readings below this confidence are reported as unsure.
pub const LOW_CONFIDENCE: f32 = 0.5;

/// Candidates whose card probability is below this are not cards (paper,
/// a playing card, half a card) and are left out of the reading.
pub const CARD_THRESHOLD: f32 = 0.5;

/// The same for cards only the learned detector proposed: it learned from
/// rendered tables alone, and on real paper with print it proposes more
/// than the threshold finder, so its cards must be beyond doubt.
pub const DETECTED_CARD_THRESHOLD: f32 = 0.95;

/// The same for a candidate that is a card only when cut out a quarter turn
/// round ([`read_turned_a_quarter`]): a square of print on a page, turned,
/// passes for a card more easily than as it was found (card-free training
/// photos: 0.58-0.75 for four such squares, where the far cards of steep
/// stress tables read 0.999 and more).
pub const TURNED_CARD_THRESHOLD: f32 = 0.95;

/// Only outlines squarer than this on the picture can be cards the wrong
/// way round: a card looks wider than long only foreshortened along its
/// length, and so never much longer than wide the other way (the far cards
/// turned on steep stress tables: 1.04-1.33).
const TURNED_MAX_ASPECT: f32 = 1.4;

/// A reading where no more than one candidate in this many is a card is a
/// card alone in a crowd of outlines that are none: the cells of a printed
/// grid, where one cell's coloured digit passes for a one-symbol card.
/// On the card-free training photos all 11 false cards were so (1 card of
/// 8-48 candidates); on 528 stress tables with cards, one reading was (1 of
/// 18), the rest had at most four candidates a card.
const CROWD: usize = 8;

/// Cards alone in a crowd ([`CROWD`]) are kept only beyond doubt: the 11 false
/// ones read 0.52-0.96.
pub const CROWD_CARD_THRESHOLD: f32 = 0.99;

/// One card found on the table.
#[derive(Clone, Debug)]
pub struct TableCard {
    /// The card read.
    pub card: Card,
    /// Corners in the upright picture (EXIF orientation applied), portrait order.
    pub upright: Quad,
    /// Corners in the pixels of the image as stored in the file.
    pub stored: Quad,
    /// The classifier's reading.
    pub reading: CardReading,
}

impl TableCard {
    /// Confidence of the reading.
    pub fn confidence(&self) -> f32 {
        self.reading.confidence()
    }
}

/// Everything read from one photo.
#[derive(Clone, Debug)]
pub struct TableReading {
    /// Width of the image as stored in the file.
    pub width: u32,
    /// Height of the image as stored in the file.
    pub height: u32,
    /// The cards, in reading order (rows top to bottom, then left to right).
    pub cards: Vec<TableCard>,
    /// SETs as positions in `cards`, each increasing, sorted.
    pub sets: Vec<[usize; 3]>,
    /// Groups of positions that were read as the same card (a deck has each card once).
    pub duplicates: Vec<Vec<usize>>,
    /// Positions whose reading is below [`LOW_CONFIDENCE`].
    pub unsure: Vec<usize>,
    /// Cards cut off by the edge of the photo or by the part a cut file
    /// lacks: not named, left out of the SETs (half a card cannot be read,
    /// and guessing would spoil the answer).
    pub partial: Vec<PartialCard>,
    /// What the reader should know about the photo (a file that ends early).
    pub warnings: Vec<String>,
    /// Candidates the finder proposed that the classifier took for something
    /// other than a SET card (below [`CARD_THRESHOLD`]), left out.
    pub not_cards: usize,
}

/// A card only part of which the photo shows, where it was seen.
#[derive(Clone, Debug)]
pub struct PartialCard {
    /// The visible outline in the upright picture.
    pub upright: Quad,
    /// The same in the pixels of the image as stored in the file.
    pub stored: Quad,
    /// What hides the rest of it.
    pub cut_by: CutBy,
}

/// What hides part of a partial card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutBy {
    /// The edge of the photo.
    Edge,
    /// The part of the picture a JPEG that ends early lacks.
    MissingPart,
}

impl CutBy {
    /// The name a program reads (`--json`).
    pub fn name(self) -> &'static str {
        match self {
            CutBy::Edge => "edge",
            CutBy::MissingPart => "missing part",
        }
    }
}

impl PartialCard {
    /// The partial card of `photo` outlined by `upright`.
    pub(super) fn in_photo(photo: &Photo, upright: Quad, cut_by: CutBy) -> PartialCard {
        PartialCard {
            stored: stored_quad(photo, &upright),
            upright,
            cut_by,
        }
    }
}

/// Whether a card's outline runs along the edge of the picture: then the card
/// may go on beyond it. Two corners of the outline on one edge of the picture
/// make a side that is the picture's edge, not the card's (a whole card that
/// merely touches the edge has one corner there, as on posed boards of nine
/// cards filling the frame). The finder works on a copy shrunk to about 1000
/// pixels, so an outline cut by the edge ends within a shrunken pixel or two of it.
pub fn runs_along_edge(quad: &Quad, width: u32, height: u32) -> bool {
    let margin = (0.005 * width.max(height) as f32).max(3.0);
    let (w, h) = (width as f32, height as f32);
    let on_edge =
        |test: &dyn Fn([f32; 2]) -> bool| quad.corners.iter().filter(|&&p| test(p)).count() >= 2;
    on_edge(&|[x, _]| x < margin)
        || on_edge(&|[x, _]| x > w - margin)
        || on_edge(&|[_, y]| y < margin)
        || on_edge(&|[_, y]| y > h - margin)
}

/// Share of a typical card's area below which a card along the edge is cut
/// off too much to read; a sliver cut off (a card laid flush with the edge)
/// leaves a card that reads as well as any.
const CUT_OFF_AREA: f32 = 0.85;

/// Splits found cards into those to read and those cut off by the edge of the
/// picture: along an edge and clearly smaller than the median card (or, with
/// no other card to compare, far from a card's long-over-short ratio of 1.56).
fn split_cut_off(quads: Vec<Quad>, width: u32, height: u32) -> (Vec<Quad>, Vec<Quad>) {
    let cut = cut_off_by_edge(&quads, width, height);
    let (read, cut_off): (Vec<_>, Vec<_>) = quads.into_iter().zip(cut).partition(|(_, cut)| !cut);
    (
        read.into_iter().map(|(quad, _)| quad).collect(),
        cut_off.into_iter().map(|(quad, _)| quad).collect(),
    )
}

/// For each outline, whether it is a card cut off by the edge of the
/// picture (see [`split_cut_off`]).
pub(super) fn cut_off_by_edge(quads: &[Quad], width: u32, height: u32) -> Vec<bool> {
    let median = median_area(quads.iter());
    let several = quads.len() > 1;
    quads
        .iter()
        .map(|quad| {
            runs_along_edge(quad, width, height)
                && match median {
                    Some(median) if several => quad.area() < CUT_OFF_AREA * median,
                    _ => !(1.35..=1.8).contains(&quad.aspect()),
                }
        })
        .collect()
}

/// The median area of some outlines, `None` for none.
pub(super) fn median_area<'a>(quads: impl Iterator<Item = &'a Quad>) -> Option<f32> {
    let mut areas: Vec<f32> = quads.map(Quad::area).collect();
    areas.sort_by(f32::total_cmp);
    areas.get(areas.len() / 2).copied()
}

/// JPEGs are decoded at a reduced scale that keeps their longer side at
/// least this long (see [`decode_table_photo`]).
pub const DECODE_MIN_SIDE: u32 = 2000;

/// Decodes a photo of a table for [`read_table`]: a JPEG of more than
/// `2 * DECODE_MIN_SIDE` pixels a side is decoded at 1/2, 1/4 or 1/8 scale,
/// which is all the card finder (~1000 pixels) and the 96x150 crops use;
/// corners still come back in the stored pixels.
///
/// A photo with no colour (black and white) is read, with a warning: a
/// card's colour is a third of its name, and there the network can only
/// guess it.
pub fn decode_table_photo(bytes: &[u8], limits: Limits) -> Result<Photo, DecodeError> {
    let mut photo = decode_photo_reduced(bytes, limits, DECODE_MIN_SIDE)?;
    if holds_no_colour(&photo.image) {
        photo.warnings.push(NO_COLOUR.to_string());
    }
    Ok(photo)
}

/// What a table reading says of a photo with no colour.
pub const NO_COLOUR: &str = "the photo is black and white: the cards' colours (red, green, \
                             purple) cannot be seen in it, so the colours named are guesses";

/// Whether every pixel of `image` is grey: its channels within
/// [`GREY_SPREAD`] of each other (a black-and-white photo saved as colour
/// JPEG comes back a level or two off grey).
pub fn holds_no_colour(image: &RgbImage) -> bool {
    image.pixels().all(|p| {
        let [r, g, b] = p.0;
        r.max(g).max(b) - r.min(g).min(b) <= GREY_SPREAD
    })
}

/// Most levels a grey pixel's channels may differ by.
const GREY_SPREAD: u8 = 4;

/// Reads and decodes a photo file of a table (see [`decode_table_photo`]).
pub fn read_table_photo(path: &Path, limits: Limits) -> Result<Photo, DecodeError> {
    decode_table_photo(&read_bytes(path, limits)?, limits)
}

/// Which card finders read a table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Finders {
    /// The threshold finder alone (the default: measured on real photos).
    #[default]
    Threshold,
    /// The threshold finder, plus the cards the learned detector sees that it
    /// missed. Better on the rendered stress suite (white on white, edge to
    /// edge, steep angles); on real photos it finds no card the threshold
    /// finder misses and adds false cards on printed paper, so it is opt-in
    /// until the detector learns from real backgrounds (docs/evaluation.md).
    WithDetector,
}

/// Reads a table with the threshold finder (see [`read_table_with`]).
pub fn read_table(photo: &Photo, classifier: &dyn CardClassifier) -> TableReading {
    read_table_with(photo, classifier, Finders::Threshold)
}

/// Readings asked of the finder: at the likeliest card size and up to three
/// larger ones (see [`CardFinder::find_each_size`]); the larger ones are
/// named only where the first gives more candidates that are no card than
/// cards.
pub const CARD_SIZES_TRIED: usize = 4;

/// Reads a table: finds the cards (with `finders`), names those wholly in the
/// picture that the card network takes for cards, and finds the SETs among
/// them; cards cut off by the edge are reported apart.
///
/// Where most candidates are no card, the finder may have measured cards by
/// the wrong things (the checks of a cloth around a lone card, the print of a
/// page beside the cards): the reading of each larger card size it saw is
/// named too, and of those where most candidates are cards, the one whose
/// cards outnumber its not-cards by the most wins (a tie keeps the first).
///
/// Where nothing is read and two opposite edges of the picture run through
/// card paper (cards cut tight by the picture's edges), the picture is read
/// again with a margin round it ([`super::margin`]).
///
/// On a grainy picture ([`noise::NOISY`], a dim room's) every card crop is
/// named both as cut and smoothed, the surer reading kept ([`SmoothedCrops`]).
pub fn read_table_with(
    photo: &Photo,
    classifier: &dyn CardClassifier,
    finders: Finders,
) -> TableReading {
    if noise::noise_level(&photo.image) < noise::NOISY {
        return read_named_by(photo, classifier, finders);
    }
    let smoothed = SmoothedCrops {
        inner: classifier,
        sigma: CROP_SMOOTHING_SIGMA,
    };
    read_named_by(photo, &smoothed, finders)
}

/// How much a grainy picture's card crops are smoothed ([`SmoothedCrops`]):
/// a Gaussian of this deviation in crop pixels (96 across a card; the
/// network reads them halved). Session 49 tried 1.0 and 1.5 crop pixels and
/// the whole picture smoothed by a pixel: docs/evaluation.md.
pub const CROP_SMOOTHING_SIGMA: f32 = 1.5;

/// [`read_table_with`] with every crop named by `classifier`.
fn read_named_by(photo: &Photo, classifier: &dyn CardClassifier, finders: Finders) -> TableReading {
    let reading = read_as_framed(photo, classifier, finders);
    if !reading.cards.is_empty()
        || !reading.partial.is_empty()
        || !margin::edges_run_through_paper(&photo.image)
    {
        return reading;
    }
    let (margined, added) = margin::with_margin(&photo.image);
    let again = read_as_framed(&Photo::from_upright(margined), classifier, finders);
    if again.cards.is_empty() {
        return reading;
    }
    added.back_into(photo, again)
}

/// [`read_table_with`] on the picture as it is framed.
fn read_as_framed(
    photo: &Photo,
    classifier: &dyn CardClassifier,
    finders: Finders,
) -> TableReading {
    let mut by_size = CardFinder::default()
        .find_each_size(&photo.image, CARD_SIZES_TRIED)
        .into_iter();
    let found = by_size.next().unwrap_or_default();
    let detected = match (finders, super::detector::shipped()) {
        (Finders::WithDetector, Some(detector)) => {
            missed_by_finder(&found, detector.detect(&photo.image))
        }
        _ => Vec::new(),
    };
    let mut named = name_candidates(
        photo,
        classifier,
        [found, detected.clone()].concat(),
        &detected,
    );
    if !named.mostly_cards() {
        for other in by_size {
            let other = name_candidates(photo, classifier, other, &[]);
            if other.may_replace_the_first() && other.margin() > named.margin() {
                named = other;
            }
        }
    }
    read_closer(photo, classifier, &mut named);
    if !CardFinder::seen_straight_down(&named.quads()) {
        read_stretched(photo, classifier, &mut named);
    }
    if named.cards.is_empty() {
        read_faint_symbols(photo, classifier, &mut named);
    }
    if named.cards.is_empty() {
        read_whole_picture(photo, classifier, &mut named);
    }
    named.doubt_a_lone_card_in_a_crowd();
    let found_cards = named.cards.len();
    add_cards_beside(photo, classifier, &mut named);
    let mut kept = named.cards;
    steady_doubtful_names(&photo.image, classifier, &mut kept);
    drop_repeated_names(&mut kept);
    drop_a_lone_unsure_card(&mut kept);
    drop_few_cards_in_grey_ink(photo, &mut kept);
    super::ink_checks::check_washed_out_names(&photo.image, &mut kept);
    let over_missing = super::missing_part::take_cards_over_missing_part(photo, &mut kept);
    // The finder returns its cards in reading order; the detector's and
    // those found beside them come after them.
    if !detected.is_empty() || kept.len() > found_cards {
        let typical = median_area(kept.iter().map(|(quad, _)| quad)).unwrap_or(1.0);
        sort_in_reading_order_by(&mut kept, typical, |(quad, _)| quad);
    }
    let (quads, readings) = kept.into_iter().unzip();
    let mut reading = assemble_reading(photo, quads, readings);
    reading.not_cards = (named.candidates - reading.cards.len()).saturating_sub(over_missing.len());
    let cut_by = |how: CutBy| move |upright: Quad| PartialCard::in_photo(photo, upright, how);
    let mut cut_off = named.partial;
    if reading.cards.is_empty() {
        cut_off.retain(|quad| shows_coloured_ink(photo, quad));
    }
    reading.partial = cut_off.into_iter().map(cut_by(CutBy::Edge)).collect();
    let over_missing = over_missing.into_iter().map(cut_by(CutBy::MissingPart));
    reading.partial.extend(over_missing);
    reading
}

/// Candidate outlines named: the cards among them, those cut off by the edge.
struct NamedCandidates {
    /// Whole outlines the card network takes for cards, with their readings.
    cards: Vec<(Quad, CardReading)>,
    /// Whole outlines named (cards or not).
    candidates: usize,
    /// Outlines cut off by the edge of the picture.
    partial: Vec<Quad>,
}

impl NamedCandidates {
    /// The outlines of the cards.
    fn quads(&self) -> Vec<Quad> {
        self.cards.iter().map(|(quad, _)| *quad).collect()
    }

    /// How many more of the candidates are cards than not (negative where
    /// fewer are).
    fn margin(&self) -> isize {
        2 * self.cards.len() as isize - self.candidates as isize
    }

    /// Whether more of the candidates are cards than not.
    fn mostly_cards(&self) -> bool {
        self.margin() > 0
    }

    /// Whether this reading of a larger card size may replace the first:
    /// mostly cards, or as many cards as not where every card is beyond
    /// doubt ([`CROWD_CARD_THRESHOLD`]): a lone card beside one outline of
    /// something else (a splash of water on a wallpaper, photographed-cards
    /// table 502; docs/evaluation.md, session 41).
    fn may_replace_the_first(&self) -> bool {
        self.mostly_cards()
            || (self.margin() == 0
                && self
                    .cards
                    .iter()
                    .all(|(_, reading)| reading.is_card(CROWD_CARD_THRESHOLD)))
    }

    /// Adds `cards` found elsewhere (another reading of the picture) where
    /// none of these lies.
    fn add_elsewhere(&mut self, cards: Vec<(Quad, CardReading)>) {
        for card in cards {
            if !self
                .cards
                .iter()
                .any(|(quad, _)| quad.shares_centre_with(&card.0))
            {
                self.cards.push(card);
                self.candidates += 1;
            }
        }
    }

    /// Keeps only cards beyond doubt where they are alone in a crowd of
    /// candidates that are no card ([`CROWD`]).
    fn doubt_a_lone_card_in_a_crowd(&mut self) {
        if self.cards.len() * CROWD <= self.candidates {
            self.cards
                .retain(|(_, reading)| reading.is_card(CROWD_CARD_THRESHOLD));
        }
    }
}

/// A deck holds each card once, and a misread card is seldom read as the
/// name of another card on the same table: a name read this many times
/// is a pattern, not cards (clutter table 429: twelve cells of a printed
/// page between its dashes, read as one- and two-diamond cards; nothing
/// else changed on stress tables 400-495 of every condition, nor on 300
/// more clutter tables).
const REPEATED: usize = 3;

/// Drops every card whose name is read [`REPEATED`] times or more.
fn drop_repeated_names(cards: &mut Vec<(Quad, CardReading)>) {
    let names: Vec<Card> = cards.iter().map(|(_, reading)| reading.card()).collect();
    let mut name = names.iter();
    cards.retain(|_| {
        let card = name.next();
        names.iter().filter(|n| Some(*n) == card).count() < REPEATED
    });
}

/// A card read alone in the picture whose name is unsure ([`LOW_CONFIDENCE`])
/// is left out: on rendered clutter with no card (tables 800-1699), 4 of the
/// 11 lone false cards read under 0.5, and 1 of 476 lone cards (alone on a
/// white desk, close up, filling the frame); among others, an unsure card
/// is more likely a card, and is kept and reported unsure.
fn drop_a_lone_unsure_card(cards: &mut Vec<(Quad, CardReading)>) {
    if let [(_, reading)] = cards.as_slice()
        && reading.confidence() < LOW_CONFIDENCE
    {
        cards.clear();
    }
}

/// Readings of at most this many cards are checked for grey ink
/// ([`drop_few_cards_in_grey_ink`]).
const FEW_CARDS: usize = 2;

/// Least spread of the ink's darkening over its channels
/// ([`ink_colour_spread`]) of a card named red, and of one named purple: three
/// quarters of the palest of the shared crops and table photos (red 0.235,
/// purple 0.065; a purple under dim light is nearly black). Green has none:
/// green crops reach as low as black print does (0.02-0.08).
const RED_INK_SPREAD: f32 = 0.75 * 0.235;
const PURPLE_INK_SPREAD: f32 = 0.75 * 0.065;

/// SET's inks are red, green and purple; black print, pencil and grey pen
/// are none of them, and a digit in a sudoku's cell, cut with the cell's
/// paper, passes the card network for a card (named purple or red, up to
/// 0.98 sure). Where a reading holds only [`FEW_CARDS`], those named red or
/// purple whose ink is about as grey as their paper are left out; on a
/// table of cards, a card whose ink looks grey is more likely a card under
/// bad light. (Card-free photos of the shared data cut to a card's shape,
/// `flat_cards`: see docs/evaluation.md, session 32.)
fn drop_few_cards_in_grey_ink(photo: &Photo, cards: &mut Vec<(Quad, CardReading)>) {
    if cards.len() > FEW_CARDS {
        return;
    }
    cards.retain(|(quad, reading)| {
        let least = match reading.card().values()[1] {
            0 => RED_INK_SPREAD,
            2 => PURPLE_INK_SPREAD,
            _ => return true,
        };
        ink_spread_within(photo, quad).is_none_or(|spread| spread >= least)
    });
}

/// Whether the part of `quad` in the picture holds ink of a SET colour (at
/// least as coloured as a pale purple card's, [`PURPLE_INK_SPREAD`]). An
/// outline cut off by the edge is named by nothing (the card network reads
/// whole cards only), so where no whole card is read it is reported only
/// with this sign of a card on it: the cells of a printed grid cut by the
/// edge of a sudoku photo were reported as cut-off cards (16 on 13 of the
/// 520 card-free photos of the shared data; none with this test, nor with
/// the stricter [`RED_INK_SPREAD`]; docs/evaluation.md, session 36), and
/// only on paper, not on something coloured all over (a green leaf's veins
/// cut by the top edge of a wallpaper photo were reported, session 40).
fn shows_coloured_ink(photo: &Photo, quad: &Quad) -> bool {
    let Some(crop) = card_crop(&photo.image, quad) else {
        return false;
    };
    paper_colour_spread(&crop).is_some_and(|spread| spread <= MOST_COLOURED_PAPER)
        && ink_colour_spread(&crop).is_some_and(|spread| spread >= PURPLE_INK_SPREAD)
}

/// The most coloured paper a cut-off card may have
/// ([`paper_colour_spread`]; cards of the shared crops lie under 0.53).
const MOST_COLOURED_PAPER: f32 = 0.7;

/// How colourful the ink inside `quad` is ([`ink_colour_spread`] of its
/// crop), `None` where nothing there is ink.
fn ink_spread_within(photo: &Photo, quad: &Quad) -> Option<f32> {
    card_crop(&photo.image, quad).and_then(|crop| ink_colour_spread(&crop))
}

/// The smallest card read, as a share of the picture's area: a card about
/// 30 pixels wide in a webcam's 960x720 frame, 130 in a 12 MP photo. The
/// smallest card of the shared table photos is 0.0078 of its photo; what
/// was read below 0.002 on rendered clutter with no card was the print of a
/// page, a few dashes at a time, named purple solid diamonds (clutter tables
/// 800-1399: 11 of 25 false cards; no card of stress tables 400-447 is
/// that small).
pub const SMALLEST_CARD: f32 = 0.002;

/// Names the whole outlines among `quads` shaped like cards
/// ([`shaped_like_cards`]) and keeps those the card network takes for cards;
/// the `detected` ones (the learned detector's) must convince it beyond
/// doubt.
fn name_candidates(
    photo: &Photo,
    classifier: &dyn CardClassifier,
    quads: Vec<Quad>,
    detected: &[Quad],
) -> NamedCandidates {
    let (whole, partial) = shaped_like_cards(photo, quads);
    let threshold = |quad: &Quad| {
        if detected.contains(quad) {
            DETECTED_CARD_THRESHOLD
        } else {
            CARD_THRESHOLD
        }
    };
    let (quads, crops) = card_crops(&photo.image, whole);
    let readings = classifier.classify(&crops);
    let candidates = quads.len();
    let mut named: Vec<(Quad, CardReading)> = quads.into_iter().zip(readings).collect();
    read_turned_a_quarter(photo, classifier, &mut named, &threshold);
    let cards = named
        .into_iter()
        .filter(|(quad, reading)| reading.is_card(threshold(quad)))
        .collect();
    NamedCandidates {
        cards,
        candidates,
        partial,
    }
}

/// The outlines among `quads` no smaller than [`SMALLEST_CARD`] and shaped
/// like a card ([`CardFinder::four_sided_like_a_card`]: steep table 417 gave
/// a near card's outline with one corner at the picture's far edge, which
/// read as a card turned a quarter): those wholly in the picture, and those
/// cut off by its edge.
fn shaped_like_cards(photo: &Photo, quads: Vec<Quad>) -> (Vec<Quad>, Vec<Quad>) {
    let (width, height) = photo.image.dimensions();
    let smallest = SMALLEST_CARD * width as f32 * height as f32;
    let finder = CardFinder::default();
    let quads: Vec<Quad> = quads
        .into_iter()
        .filter(|q| q.area() >= smallest && finder.four_sided_like_a_card(q))
        .collect();
    split_cut_off(quads, width, height)
}

/// The first of the finder's `readings` (one per card size) whose candidates,
/// named, are mostly cards.
fn first_mostly_cards(
    photo: &Photo,
    classifier: &dyn CardClassifier,
    readings: Vec<Vec<Quad>>,
) -> Option<NamedCandidates> {
    readings
        .into_iter()
        .map(|quads| name_candidates(photo, classifier, quads, &[]))
        .find(NamedCandidates::mostly_cards)
}

/// The closer look is taken where at least this many cards were read: a lone
/// small "card" is a cell of a printed grid more often than a card (a red
/// digit's cell of a 640x480 sudoku photo, looked at closer, read as a card
/// at 0.95; card-free training photos, session 31).
const CLOSER_LOOK_CARDS: usize = 2;

/// Where the cards read came out small in the finder's working copy, the
/// part of the picture around them is read again enlarged
/// ([`CardFinder::find_each_size_closer`]); its first reading whose
/// candidates are mostly cards replaces `named` where it names at least as
/// many cards, with outlines read at the finer scale. Stress tables 400-447
/// and 448-495, every condition: 75 and 69 more cards outlined right (white
/// on white, a white desk with clutter, busy surfaces: the finder halves
/// their 1280-pixel pictures), 15 more and as many named; twelve cards
/// across the room in a 960x720 frame (`far-away`, 400-447): 536 → 555
/// right, 560 → 570 named (docs/evaluation.md, session 31).
fn read_closer(photo: &Photo, classifier: &dyn CardClassifier, named: &mut NamedCandidates) {
    if named.cards.len() < CLOSER_LOOK_CARDS {
        return;
    }
    let Some(readings) =
        CardFinder::default().find_each_size_closer(&photo.image, &named.quads(), CARD_SIZES_TRIED)
    else {
        return;
    };
    if let Some(closer) = first_mostly_cards(photo, classifier, readings)
        && closer.cards.len() >= named.cards.len()
    {
        *named = closer;
    }
}

/// The readings of the picture stretched upright where its symbols lie flat
/// ([`CardFinder::find_each_size_stretched`]: a steep view of a white desk)
/// are named; the first whose candidates are mostly cards, with the cards of
/// the picture stretched [`FURTHER_STRETCH`] times more added where none of
/// its cards lies, is taken if it reads more cards than `named`. Once asked
/// only where no card was read; a steep view of a pale table often reads its
/// near row or a few cards, and the stretched picture more (steep stress
/// tables 400-447, 448-495 and 2000-2047: 2, 3 and 3 more cards named, 9, 3
/// and 4 more outlined right; nothing changed on any other condition;
/// docs/evaluation.md, session 30). The caller skips it where the cards read
/// are seen straight down.
fn read_stretched(photo: &Photo, classifier: &dyn CardClassifier, named: &mut NamedCandidates) {
    let mostly_cards = |further: f32| {
        let readings =
            CardFinder::default().find_each_size_stretched(&photo.image, CARD_SIZES_TRIED, further);
        first_mostly_cards(photo, classifier, readings)
    };
    let Some(mut stretched) = mostly_cards(1.0) else {
        return;
    };
    if let Some(further) = mostly_cards(FURTHER_STRETCH) {
        stretched.add_elsewhere(further.cards);
    }
    if stretched.cards.len() > named.cards.len() {
        *named = stretched;
    }
}

/// How much more than its symbols say a steep view is also stretched, for the
/// cards the first stretch misses (steep stress tables 448-495: 7 more named,
/// 451 and 461 on white desks 8 → 11 and 2 → 6; 2000-2047: 3 more; 400-447 and
/// every other condition the same). Only where the first stretch reads a
/// table: on its own, on clutter table 1602, it named a playing card cut by
/// the frame.
const FURTHER_STRETCH: f32 = 1.5;

/// Where still no card is read, the cards around faint symbols
/// ([`CardFinder::faint_symbol_cards`]: a lone washed-out or defocused card on
/// a white desk) are named, and kept where the card network takes them for
/// cards beyond doubt ([`CROWD_CARD_THRESHOLD`]) and still does when they are
/// nudged by a whole step ([`holds_when_nudged`] at scale 1): faint ink on a
/// desk with no card passes for symbols too. (Tried on alone-on-white stress
/// tables 496-795 and clutter tables 800-1399: nudges at the finest scale let
/// a patch of checked cloth through, 0.99 a card; whole steps keep the
/// clutter's false cards as they were, and find 3 of the 16 lone cards
/// missed.)
fn read_faint_symbols(photo: &Photo, classifier: &dyn CardClassifier, named: &mut NamedCandidates) {
    let (faint, _) = shaped_like_cards(
        photo,
        CardFinder::default().faint_symbol_cards(&photo.image),
    );
    if faint.is_empty() {
        return;
    }
    named.candidates += faint.len();
    named.cards.extend(
        card_probabilities(photo, classifier, faint)
            .into_iter()
            .filter(|(quad, _, p)| {
                *p >= CROWD_CARD_THRESHOLD
                    && holds_when_nudged(photo, classifier, quad, WHOLE_NUDGE)
            })
            .map(|(quad, reading, _)| (quad, reading)),
    );
}

/// Long side over short side of a picture that may be one card edge to
/// edge (a card is 1.56): a scan or a card's picture from the web cut about
/// the card, not a phone's 4:3 or 16:9 frame.
const WHOLE_CARD_ASPECT: std::ops::RangeInclusive<f32> = 1.4..=1.72;

/// Where still no card is read, a picture of a card's proportions may be one
/// card edge to edge (a scan, a card's picture from the web): no outline
/// shows, the picture's edges are the card's. It is named whole, and kept
/// where the card network takes it for a card beyond doubt
/// ([`CROWD_CARD_THRESHOLD`]). (Every card of both decks drawn flat, 48 to
/// 700 pixels wide, filling its picture: none was read before; now each is
/// read as `snapsolve set card` names it; docs/evaluation.md, session 32.)
fn read_whole_picture(photo: &Photo, classifier: &dyn CardClassifier, named: &mut NamedCandidates) {
    let (width, height) = photo.image.dimensions();
    let (w, h) = (width as f32, height as f32);
    if !WHOLE_CARD_ASPECT.contains(&(w.max(h) / w.min(h).max(1.0))) {
        return;
    }
    let whole = Quad {
        corners: [[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]],
    };
    named.candidates += 1;
    named.cards.extend(
        card_probabilities(photo, classifier, vec![whole])
            .into_iter()
            .filter(|(_, _, p)| *p >= CROWD_CARD_THRESHOLD)
            .map(|(quad, reading, _)| (quad, reading)),
    );
}

/// Rounds of looking beside the cards for more ([`add_cards_beside`]): each
/// can continue a row by one card, so a row of seven (21 cards in three
/// rows) is read on from its two last cards. Three rounds stopped
/// 21-touching table 493 at 16 cards, five short at the left ends of two
/// rows (docs/evaluation.md, session 29). A round runs only where the one
/// before added a card.
const BESIDE_ROUNDS: usize = 6;

/// Cards guessed beside others must convince the card network beyond doubt:
/// the guess is where a card would be, not the outline of something seen.
pub const BESIDE_CARD_THRESHOLD: f32 = 0.95;

/// Adds the cards the finder missed in the rows and columns of those it found
/// (a card edge to edge with others whose seams do not show): each place
/// the cards point at ([`guesses_beside`]) is named, and kept where the card
/// network takes it for a card beyond doubt. A guess it refuses is moved onto
/// the nearest card edges ([`EdgeCopy::settle`]: the missing card may lie a
/// little out of line or turned) and, where that moved it, named again; one
/// it nearly took is [`nudged`] towards where it is surest. New cards point
/// further.
fn add_cards_beside(photo: &Photo, classifier: &dyn CardClassifier, named: &mut NamedCandidates) {
    let mut tried: Vec<Quad> = Vec::new();
    let mut edges: Option<EdgeCopy> = None;
    for _ in 0..BESIDE_ROUNDS {
        let cards = named.quads();
        let mut guesses = guesses_beside(&photo.image, &cards, &tried);
        if tried.is_empty() {
            // Cards fitted around their own faint symbols are placed better
            // than guesses from the rows: they replace those on their place.
            let faint = CardFinder::default().faint_symbol_cards_beside(&photo.image, &cards);
            guesses.retain(|g| !faint.iter().any(|f| f.shares_centre_with(g)));
            guesses.extend(faint);
        }
        // Across a lone row or column only where nothing else is guessed
        // (see `guesses_across`: tried with the others, they took the rows'
        // places on covered-cards tables 448-495).
        if guesses.is_empty() {
            guesses = guesses_across(&photo.image, &cards, &tried);
        }
        tried.extend(&guesses);
        let (sure, refused) = beyond_doubt(photo, classifier, guesses);
        let refused_quads: Vec<Quad> = refused.iter().map(|(quad, _, _)| *quad).collect();
        let mut settled = if refused_quads.is_empty() {
            Vec::new()
        } else {
            edges
                .get_or_insert_with(|| EdgeCopy::of(&photo.image))
                .settle(&refused_quads, SETTLE_REACH)
        };
        // A guess on bare table finds no edge and stays where it was: named
        // again, it would be refused again (7 of the far-away bench frame's
        // 13 guesses, a crop and a reading each).
        settled.retain(|quad| !refused_quads.contains(quad));
        let mut more: Vec<(Quad, CardReading)> = [sure, beyond_doubt(photo, classifier, settled).0]
            .concat()
            .into_iter()
            .map(|(quad, reading, _)| (quad, reading))
            .collect();
        for (quad, _, p) in refused {
            if p >= NEAR_MISS
                && !more.iter().any(|(q, _)| q.shares_centre_with(&quad))
                && let Some(card) = nudged(photo, classifier, quad)
            {
                more.push(card);
            }
        }
        if more.is_empty() {
            return;
        }
        named.candidates += more.len();
        named.cards.extend(more);
    }
}

/// How far a guess beside the cards may move onto a card's edges, as a share
/// of its shorter side (0.15 let the sides of white-on-white cards slide onto
/// their symbols' outlines; 0.08 read the stress tables alike).
const SETTLE_REACH: f32 = 0.08;

/// An outline named: its reading and card probability.
type Named = (Quad, CardReading, f32);

/// The guesses the card network takes for cards beyond doubt
/// ([`BESIDE_CARD_THRESHOLD`]) and the others, named.
fn beyond_doubt(
    photo: &Photo,
    classifier: &dyn CardClassifier,
    guesses: Vec<Quad>,
) -> (Vec<Named>, Vec<Named>) {
    card_probabilities(photo, classifier, guesses)
        .into_iter()
        .partition(|(_, _, p)| *p >= BESIDE_CARD_THRESHOLD)
}

/// A refused guess the card network gives at least this is read again from
/// outlines nudged about it ([`nudged`]).
const NEAR_MISS: f32 = 0.1;

/// Nudges tried at each round: shifts across and along the card and changes
/// of size as shares of its sides, turns in radians; each round halves them
/// and moves up to [`NUDGE_STEPS`] times, while the card probability grows.
const NUDGE_ROUNDS: usize = 3;
const NUDGE_STEPS: usize = 3;
const NUDGE_SHIFT: f32 = 0.06;
const NUDGE_TURN: f32 = 0.07;

/// A card found by nudging must stay more likely a card than not when
/// nudged again by the finest step: a narrow peak of card probability is
/// something the network was talked into (a sheet of graph paper beside
/// the cards of stress table 463 of the lookalikes, at 0.41 one nudge away).
const NUDGE_HOLDS: f32 = 0.5;

/// The eight outlines one nudge of `scale` (1 the coarsest) away from `quad`.
fn nudges_of(quad: &Quad, scale: f32) -> Vec<Quad> {
    let (shift, turn) = (NUDGE_SHIFT * scale, NUDGE_TURN * scale);
    [
        (shift, 0.0, 0.0, 1.0),
        (-shift, 0.0, 0.0, 1.0),
        (0.0, shift, 0.0, 1.0),
        (0.0, -shift, 0.0, 1.0),
        (0.0, 0.0, turn, 1.0),
        (0.0, 0.0, -turn, 1.0),
        (0.0, 0.0, 0.0, 1.0 + shift),
        (0.0, 0.0, 0.0, 1.0 - shift),
    ]
    .iter()
    .map(|&(dx, dy, angle, size)| moved_about(quad, dx, dy, angle, size))
    .collect()
}

/// The crops of `quads` named, with their card probabilities: 0 from a
/// classifier that cannot tell a card from the table (it takes every guess
/// for one, so only a card probability counts here).
fn card_probabilities(
    photo: &Photo,
    classifier: &dyn CardClassifier,
    quads: Vec<Quad>,
) -> Vec<Named> {
    let (quads, crops) = card_crops(&photo.image, quads);
    quads
        .into_iter()
        .zip(classifier.classify(&crops))
        .map(|(quad, reading)| {
            let p = reading.card_probability.unwrap_or(0.0);
            (quad, reading, p)
        })
        .collect()
}

/// Hill-climbs `quad` by small shifts, turns and changes of size towards the
/// outline the card network is surest is a card; the card found, where that
/// reaches [`BESIDE_CARD_THRESHOLD`] and holds when nudged again
/// ([`NUDGE_HOLDS`]).
fn nudged(
    photo: &Photo,
    classifier: &dyn CardClassifier,
    quad: Quad,
) -> Option<(Quad, CardReading)> {
    let mut best: Option<Named> = None;
    let mut scale = WHOLE_NUDGE;
    for _ in 0..NUDGE_ROUNDS {
        for _ in 0..NUDGE_STEPS {
            let centre = best.as_ref().map_or(quad, |(q, _, _)| *q);
            let before = best.as_ref().map_or(0.0, |(_, _, p)| *p);
            for tried in card_probabilities(photo, classifier, nudges_of(&centre, scale)) {
                if best.as_ref().is_none_or(|(_, _, p)| tried.2 > *p) {
                    best = Some(tried);
                }
            }
            if best.as_ref().is_none_or(|(_, _, p)| *p <= before) {
                break;
            }
        }
        scale /= 2.0;
    }
    let (quad, reading, p) = best?;
    (p >= BESIDE_CARD_THRESHOLD && holds_when_nudged(photo, classifier, &quad, FINEST_NUDGE))
        .then_some((quad, reading))
}

/// The scale of the coarsest nudges [`nudged`] tries (its first round's).
const WHOLE_NUDGE: f32 = 1.0;

/// The scale of the finest nudges [`nudged`] tries (its last round's, of
/// [`NUDGE_ROUNDS`] halving from 1).
const FINEST_NUDGE: f32 = 0.25;

/// Whether the card network still takes `quad` for a card ([`NUDGE_HOLDS`])
/// when nudged by `scale` every way: a card does; paper that only looks like
/// one from just there does not.
fn holds_when_nudged(
    photo: &Photo,
    classifier: &dyn CardClassifier,
    quad: &Quad,
    scale: f32,
) -> bool {
    card_probabilities(photo, classifier, nudges_of(quad, scale))
        .iter()
        .all(|(_, _, p)| *p >= NUDGE_HOLDS)
}

/// `quad` shifted by `dx` of its width and `dy` of its height, turned by
/// `angle` and scaled by `size` about its centre.
fn moved_about(quad: &Quad, dx: f32, dy: f32, angle: f32, size: f32) -> Quad {
    let c = quad.corners;
    let across = [
        (c[1][0] - c[0][0] + c[2][0] - c[3][0]) / 2.0,
        (c[1][1] - c[0][1] + c[2][1] - c[3][1]) / 2.0,
    ];
    let along = [
        (c[3][0] - c[0][0] + c[2][0] - c[1][0]) / 2.0,
        (c[3][1] - c[0][1] + c[2][1] - c[1][1]) / 2.0,
    ];
    let centre = quad.centre();
    let (sin, cos) = angle.sin_cos();
    quad.map(|[x, y]| {
        let (rx, ry) = ((x - centre[0]) * size, (y - centre[1]) * size);
        [
            centre[0] + rx * cos - ry * sin + dx * across[0] + dy * along[0],
            centre[1] + rx * sin + ry * cos + dx * across[1] + dy * along[1],
        ]
    })
}

/// Candidates not taken for cards are cut out again a quarter turn round,
/// and kept that way where the network then takes them for cards: which
/// sides of a far card on a steep table are its long ones, the finder can
/// only guess, and a card cut out sideways is no card to the network.
fn read_turned_a_quarter(
    photo: &Photo,
    classifier: &dyn CardClassifier,
    named: &mut [(Quad, CardReading)],
    threshold: &dyn Fn(&Quad) -> f32,
) {
    // Only among cards: on a page with no card, squares of print turned
    // are all the network could take for cards.
    if !named
        .iter()
        .any(|(quad, reading)| reading.is_card(threshold(quad)))
    {
        return;
    }
    let (turned, crops): (Vec<(usize, Quad)>, Vec<RgbImage>) = (0..named.len())
        .filter(|&i| {
            named[i].0.aspect() < TURNED_MAX_ASPECT && !named[i].1.is_card(threshold(&named[i].0))
        })
        .filter_map(|i| {
            let quad = named[i].0.turned_a_quarter();
            card_crop(&photo.image, &quad).map(|crop| ((i, quad), crop))
        })
        .unzip();
    for ((i, quad), reading) in turned.into_iter().zip(classifier.classify(&crops)) {
        if reading.is_card(threshold(&named[i].0).max(TURNED_CARD_THRESHOLD)) {
            named[i] = (quad, reading);
        }
    }
}

/// A quadrilateral of the upright picture in the pixels as stored in the file.
fn stored_quad(photo: &Photo, upright: &Quad) -> Quad {
    upright.map(|p| {
        let (x, y) = photo.to_stored((p[0], p[1]));
        [x, y]
    })
}

/// The canonical crop of every quadrilateral, keeping only those that warp
/// (a degenerate quadrilateral has no crop).
pub fn card_crops(image: &RgbImage, quads: Vec<Quad>) -> (Vec<Quad>, Vec<RgbImage>) {
    quads
        .into_iter()
        .filter_map(|q| card_crop(image, &q).map(|c| (q, c)))
        .unzip()
}

/// Cards from quadrilaterals and their readings: names, stored corners, SETs,
/// repeated and unsure readings.
pub fn assemble_reading(
    photo: &Photo,
    quads: Vec<Quad>,
    readings: Vec<CardReading>,
) -> TableReading {
    let cards: Vec<TableCard> = quads
        .into_iter()
        .zip(readings)
        .map(|(upright, reading)| TableCard {
            card: reading.card(),
            stored: stored_quad(photo, &upright),
            upright,
            reading,
        })
        .collect();
    let names: Vec<Card> = cards.iter().map(|c| c.card).collect();
    let sets = find_sets(&names);
    let mut duplicates: Vec<Vec<usize>> = Vec::new();
    for (i, card) in names.iter().enumerate() {
        let same: Vec<usize> = (0..names.len()).filter(|&j| names[j] == *card).collect();
        if same.len() > 1 && same[0] == i {
            duplicates.push(same);
        }
    }
    let unsure = (0..cards.len())
        .filter(|&i| cards[i].confidence() < LOW_CONFIDENCE)
        .collect();
    TableReading {
        width: photo.stored_width,
        height: photo.stored_height,
        cards,
        sets,
        duplicates,
        unsure,
        partial: Vec::new(),
        warnings: photo.warnings.clone(),
        not_cards: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A rendered table saved as JPEG, in colour or turned black and white.
    fn table_jpeg(grey: bool) -> Vec<u8> {
        let table = snapsolve_synth::render_table(&snapsolve_synth::TableSpec::new(
            snapsolve_set::Card::all().take(3).collect(),
            snapsolve_synth::Edition::Standard,
            5,
        ));
        let image = if grey {
            image::DynamicImage::ImageLuma8(image::imageops::grayscale(&table.image)).to_rgb8()
        } else {
            table.image
        };
        let mut bytes = Vec::new();
        image
            .write_to(
                &mut std::io::Cursor::new(&mut bytes),
                image::ImageFormat::Jpeg,
            )
            .expect("encodes");
        bytes
    }

    #[test]
    fn a_black_and_white_photo_is_read_with_a_warning_about_colours() {
        let grey = decode_table_photo(&table_jpeg(true), Limits::default()).expect("decodes");
        assert_eq!(grey.warnings, vec![NO_COLOUR.to_string()]);
        let colour = decode_table_photo(&table_jpeg(false), Limits::default()).expect("decodes");
        assert!(colour.warnings.is_empty(), "{:?}", colour.warnings);
    }

    /// A portrait card of `w` x `1.56 w` with its top-left corner at (x, y).
    fn card(x: f32, y: f32, w: f32) -> Quad {
        let h = 1.56 * w;
        Quad {
            corners: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
        }
    }

    /// The same card with only its top `share` inside the picture, whose bottom edge is `bottom`.
    fn cut_at_bottom(x: f32, w: f32, share: f32, bottom: f32) -> Quad {
        let h = 1.56 * w * share;
        Quad {
            corners: [
                [x, bottom - h],
                [x + w, bottom - h],
                [x + w, bottom],
                [x, bottom],
            ],
        }
    }

    /// Candidates at `probabilities`, one card each (their name is no matter here).
    fn named_at(probabilities: &[f32]) -> NamedCandidates {
        let reading = |p: f32| CardReading {
            attribute_probabilities: [[1.0, 0.0, 0.0]; 4],
            card_probability: Some(p),
        };
        let named: Vec<(Quad, CardReading)> = probabilities
            .iter()
            .enumerate()
            .map(|(i, &p)| (card(100.0 * i as f32, 0.0, 50.0), reading(p)))
            .collect();
        NamedCandidates {
            candidates: named.len(),
            cards: named
                .into_iter()
                .filter(|(_, reading)| reading.is_card(CARD_THRESHOLD))
                .collect(),
            partial: Vec::new(),
        }
    }

    #[test]
    fn a_name_read_three_times_is_a_pattern_and_twice_a_duplicate() {
        let read_as = |value: usize| CardReading {
            attribute_probabilities: [std::array::from_fn(|v| f32::from(u8::from(v == value))); 4],
            card_probability: Some(1.0),
        };
        let mut cards: Vec<(Quad, CardReading)> = [0, 1, 0, 2, 0, 1]
            .into_iter()
            .enumerate()
            .map(|(i, value)| (card(60.0 * i as f32, 0.0, 50.0), read_as(value)))
            .collect();
        drop_repeated_names(&mut cards);
        // The three read as value 0 go; the two read as value 1 stay (a
        // duplicate, reported as such), and so does the one of value 2.
        let names: Vec<[u8; 4]> = cards.iter().map(|(_, r)| r.card().values()).collect();
        assert_eq!(names, vec![[1; 4], [2; 4], [1; 4]]);
    }

    #[test]
    fn a_lone_card_read_unsure_is_left_out_but_not_among_others() {
        // Each attribute read at 0.8: the name at 0.8^4 = 0.41, unsure.
        let unsure = CardReading {
            attribute_probabilities: [[0.8, 0.1, 0.1]; 4],
            card_probability: Some(1.0),
        };
        let sure = CardReading {
            attribute_probabilities: [[1.0, 0.0, 0.0]; 4],
            card_probability: Some(1.0),
        };
        let mut alone = vec![(card(0.0, 0.0, 50.0), unsure.clone())];
        drop_a_lone_unsure_card(&mut alone);
        assert!(alone.is_empty());
        let mut alone_and_sure = vec![(card(0.0, 0.0, 50.0), sure.clone())];
        drop_a_lone_unsure_card(&mut alone_and_sure);
        assert_eq!(alone_and_sure.len(), 1);
        let mut among_others = vec![
            (card(0.0, 0.0, 50.0), unsure),
            (card(60.0, 0.0, 50.0), sure),
        ];
        drop_a_lone_unsure_card(&mut among_others);
        assert_eq!(among_others.len(), 2);
    }

    #[test]
    fn one_or_two_cards_in_grey_ink_named_red_or_purple_are_left_out() {
        use image::Rgb;
        // Three card-shaped patches of paper, each with a blob of ink:
        // black, purple, black.
        let inks = [[25, 25, 25], [110, 30, 120], [25, 25, 25]];
        let image = RgbImage::from_fn(300, 100, |x, y| {
            let (dx, dy) = ((x % 100) as f32 - 50.0, y as f32 - 50.0);
            let ink = dx.abs() < 6.0 && dy.abs() < 15.0;
            Rgb(if ink {
                inks[x as usize / 100]
            } else {
                [235, 235, 230]
            })
        });
        let photo = Photo::from_upright(image);
        let named = |colour: usize| CardReading {
            attribute_probabilities: std::array::from_fn(|k| {
                let mut p = [0.0; 3];
                p[if k == 1 { colour } else { 0 }] = 1.0;
                p
            }),
            card_probability: Some(1.0),
        };
        let patch = |i: usize| card(100.0 * i as f32 + 20.0, 3.0, 60.0);
        let (red, green, purple) = (named(0), named(1), named(2));
        let mut two = vec![(patch(0), purple.clone()), (patch(1), purple.clone())];
        drop_few_cards_in_grey_ink(&photo, &mut two);
        assert_eq!(two.len(), 1, "the black one is no purple card");
        assert_eq!(two[0].0, patch(1));
        let mut black_named_red = vec![(patch(0), red.clone())];
        drop_few_cards_in_grey_ink(&photo, &mut black_named_red);
        assert!(black_named_red.is_empty());
        // Green ink can be as grey as print: not checked.
        let mut black_named_green = vec![(patch(0), green)];
        drop_few_cards_in_grey_ink(&photo, &mut black_named_green);
        assert_eq!(black_named_green.len(), 1);
        // Among more cards, kept.
        let mut three: Vec<_> = (0..3).map(|i| (patch(i), red.clone())).collect();
        drop_few_cards_in_grey_ink(&photo, &mut three);
        assert_eq!(three.len(), 3);
    }

    #[test]
    fn only_an_outline_holding_coloured_ink_shows_a_card() {
        use image::Rgb;
        // Card-shaped patches of paper: black print, purple ink, nothing.
        let inks = [Some([25, 25, 25]), Some([110, 30, 120]), None];
        let image = RgbImage::from_fn(300, 100, |x, y| {
            let (dx, dy) = ((x % 100) as f32 - 50.0, y as f32 - 50.0);
            match inks[x as usize / 100] {
                Some(ink) if dx.abs() < 6.0 && dy.abs() < 15.0 => Rgb(ink),
                _ => Rgb([235, 235, 230]),
            }
        });
        let photo = Photo::from_upright(image);
        let shows =
            |i: usize| shows_coloured_ink(&photo, &card(100.0 * i as f32 + 20.0, 3.0, 60.0));
        assert_eq!([shows(0), shows(1), shows(2)], [false, true, false]);
    }

    /// Takes every crop for the same sure card.
    struct EverythingACard;

    impl CardClassifier for EverythingACard {
        fn name(&self) -> &'static str {
            "everything a card"
        }

        fn classify(&self, crops: &[RgbImage]) -> Vec<CardReading> {
            let sure = CardReading {
                attribute_probabilities: [[1.0, 0.0, 0.0]; 4],
                card_probability: Some(1.0),
            };
            vec![sure; crops.len()]
        }
    }

    /// Takes a crop for a card where the paper shows all round it, just
    /// inside its rim; a crop cut a little off the card shows table there.
    /// `Graded` gives the share of the rim that is paper as the card
    /// probability, `AllOrNothing` 1 or 0.
    enum PaperAllRound {
        AllOrNothing,
        Graded,
    }

    impl CardClassifier for PaperAllRound {
        fn name(&self) -> &'static str {
            "paper all round"
        }

        fn classify(&self, crops: &[RgbImage]) -> Vec<CardReading> {
            let near_rim = |x: u32, y: u32, crop: &RgbImage| {
                let inset = |v: u32, side: u32| (2..6).contains(&v.min(side - 1 - v));
                (inset(x, crop.width()) && y >= 2 && y + 2 < crop.height())
                    || (inset(y, crop.height()) && x >= 2 && x + 2 < crop.width())
            };
            crops
                .iter()
                .map(|crop| {
                    let rim: Vec<bool> = crop
                        .enumerate_pixels()
                        .filter(|&(x, y, _)| near_rim(x, y, crop))
                        .map(|(_, _, p)| p[0] >= 128)
                        .collect();
                    let paper = rim.iter().filter(|&&on| on).count() as f32 / rim.len() as f32;
                    let p = match self {
                        PaperAllRound::AllOrNothing => f32::from(u8::from(paper == 1.0)),
                        PaperAllRound::Graded => paper,
                    };
                    CardReading {
                        attribute_probabilities: [[1.0, 0.0, 0.0]; 4],
                        card_probability: Some(p),
                    }
                })
                .collect()
        }
    }

    /// White cards (`cards`) on a dark table.
    fn white_cards_on_a_dark_table(width: u32, height: u32, cards: &[Quad]) -> Photo {
        Photo::from_upright(RgbImage::from_fn(width, height, |x, y| {
            let on = |q: &Quad| {
                let c = q.corners;
                (c[0][0]..c[1][0]).contains(&(x as f32)) && (c[0][1]..c[3][1]).contains(&(y as f32))
            };
            if cards.iter().any(on) {
                Rgb([235, 235, 235])
            } else {
                Rgb([40, 40, 40])
            }
        }))
    }

    #[test]
    fn a_near_miss_is_nudged_onto_the_card() {
        let truth = card(300.0, 200.0, 150.0);
        let photo = white_cards_on_a_dark_table(800, 700, &[truth]);
        // A tenth of a card over, turned 3 degrees.
        let guess = moved_about(&truth, 0.1, -0.05, 0.05, 1.0);
        let p = |q: &Quad| card_probabilities(&photo, &PaperAllRound::Graded, vec![*q])[0].2;
        assert!(p(&guess) < BESIDE_CARD_THRESHOLD && p(&guess) >= NEAR_MISS);
        let (settled, _) = nudged(&photo, &PaperAllRound::Graded, guess).expect("a card");
        // Any outline on the card shows paper all round: it lies on it and
        // covers most of it.
        let on_the_card = truth.expanded(6.0);
        assert!(
            settled.corners.iter().all(|&c| on_the_card.contains(c))
                && settled.area() >= 0.8 * truth.area(),
            "{settled:?}"
        );
        // Where no nudge finds paper all round, there is no card.
        let table = moved_about(&truth, 1.5, 0.0, 0.0, 1.0);
        assert!(nudged(&photo, &PaperAllRound::Graded, table).is_none());
    }

    #[test]
    fn a_card_guessed_a_little_off_is_moved_onto_its_edges() {
        // Three white cards in a row on a dark table; the third lies a
        // little out of line, so the guess the first two point at is cut
        // across the table on two sides.
        let found = [card(100.0, 100.0, 150.0), card(300.0, 100.0, 150.0)];
        let missed = card(512.0, 112.0, 150.0);
        let photo = white_cards_on_a_dark_table(900, 500, &[found[0], found[1], missed]);
        let mut named = named_at(&[]);
        named.cards = found
            .iter()
            .map(|q| {
                (
                    *q,
                    PaperAllRound::AllOrNothing.classify(&card_crops(&photo.image, vec![*q]).1)[0]
                        .clone(),
                )
            })
            .collect();
        assert!(named.cards.iter().all(|(_, r)| r.is_card(CARD_THRESHOLD)));
        add_cards_beside(&photo, &PaperAllRound::AllOrNothing, &mut named);
        assert_eq!(
            named.cards.len(),
            3,
            "{:?}",
            named.cards.iter().map(|c| c.0).collect::<Vec<_>>()
        );
        let settled = named.cards[2].0;
        for (got, want) in settled.corners.iter().zip(missed.corners) {
            assert!(
                (got[0] - want[0]).abs() <= 3.0 && (got[1] - want[1]).abs() <= 3.0,
                "{settled:?}"
            );
        }
    }

    #[test]
    fn outlines_too_small_for_a_card_are_not_read() {
        let photo = Photo::from_upright(RgbImage::new(1000, 1000));
        // 0.0014 and 0.0056 of the picture.
        let (speck, card) = (card(100.0, 100.0, 30.0), card(300.0, 300.0, 60.0));
        let named = name_candidates(&photo, &EverythingACard, vec![speck, card], &[]);
        assert_eq!(named.candidates, 1);
        assert_eq!(named.cards.len(), 1);
        assert_eq!(named.cards[0].0, card);
    }

    #[test]
    fn outlines_no_card_could_have_are_not_read() {
        let photo = Photo::from_upright(RgbImage::new(1000, 1000));
        let card = card(300.0, 300.0, 100.0);
        // The same card with one corner thrown to the picture's edge.
        let mut thrown = card;
        thrown.corners[3] = [5.0, 990.0];
        let named = name_candidates(&photo, &EverythingACard, vec![thrown, card], &[]);
        assert_eq!(named.candidates, 1);
        assert_eq!(named.cards[0].0, card);
    }

    #[test]
    fn a_lone_card_in_a_crowd_of_no_cards_must_be_beyond_doubt() {
        let cards_kept = |probabilities: &[f32]| {
            let mut named = named_at(probabilities);
            named.doubt_a_lone_card_in_a_crowd();
            named.cards.len()
        };
        // One doubtful card among seven no-cards (a digit among the cells of a grid).
        let crowd = [0.9, 0.0, 0.01, 0.0, 0.0, 0.02, 0.0, 0.0];
        assert_eq!(cards_kept(&crowd), 0);
        // Beyond doubt, it stays.
        assert_eq!(cards_kept(&[0.999, 0.0, 0.01, 0.0, 0.0, 0.02, 0.0, 0.0]), 1);
        // With one candidate fewer it is no crowd, and a doubtful card stays too.
        assert_eq!(cards_kept(&crowd[..7]), 1);
        // Two cards need a crowd of sixteen.
        assert_eq!(cards_kept(&[0.9, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]), 2);
    }

    #[test]
    fn a_far_card_outlined_sideways_is_read_a_quarter_turn_round() {
        use super::super::stress::Condition;
        let table = snapsolve_synth::render_table(&Condition::SteepAngle.spec(0));
        let photo = Photo::from_upright(table.image.clone());
        let classifier =
            super::super::NetworkClassifier::embedded().expect("the shipped weights load");
        // Cards foreshortened until they look about as wide as long, but the
        // first, outlined with their corners' roles moved on by one (cut out,
        // they would lie on their side).
        let far = |quad: &Quad| quad.aspect() < TURNED_MAX_ASPECT;
        let outlines: Vec<Quad> = table
            .cards
            .iter()
            .enumerate()
            .map(|(i, placed)| {
                let quad = Quad {
                    corners: placed.corners,
                };
                if i > 0 && far(&quad) {
                    quad.turned_a_quarter()
                } else {
                    quad
                }
            })
            .collect();
        let sideways = (1..outlines.len()).filter(|&i| far(&outlines[i])).count();
        assert!(sideways >= 3, "only {sideways} far cards");
        let named = name_candidates(&photo, &classifier, outlines, &[]);
        let right = table
            .cards
            .iter()
            .filter(|placed| named.cards.iter().any(|(_, r)| r.card() == placed.card))
            .count();
        assert!(
            right + 1 >= table.cards.len(),
            "{right} of {} ({sideways} sideways)",
            table.cards.len()
        );
    }

    #[test]
    fn cards_along_the_edge_are_cut_off_only_when_clearly_smaller() {
        let (width, height) = (1000, 800);
        let whole = vec![card(100.0, 100.0, 150.0), card(300.0, 100.0, 150.0)];
        let mut quads = whole.clone();
        quads.push(cut_at_bottom(500.0, 150.0, 0.6, 800.0));
        quads.push(cut_at_bottom(700.0, 150.0, 0.95, 800.0));
        let (read, cut_off) = split_cut_off(quads, width, height);
        assert_eq!(cut_off.len(), 1, "{cut_off:?}");
        assert_eq!(read.len(), 3, "a sliver cut off still reads");
        // One corner on the edge: a card laid at an angle touching it.
        let mut touching = card(800.0, 400.0, 150.0);
        touching.corners[1] = [999.0, 380.0];
        assert!(!runs_along_edge(&touching, width, height));
        // A lone card: its shape decides.
        let (read, cut_off) =
            split_cut_off(vec![cut_at_bottom(500.0, 150.0, 0.6, 800.0)], width, height);
        assert_eq!((read.len(), cut_off.len()), (0, 1));
    }
}
