//! The SET photo reader over every labelled photo of `../shared/data/set/`,
//! with each classifier: fails if accuracy drops below what it reached when
//! the floors were set (see docs/evaluation.md for the figures and the command
//! that prints them). The network never trained on any crop of these photos.

use std::path::Path;

use snapsolve::data::shared_data_or_skip;
use snapsolve::distort::Distortion;
use snapsolve::set_photo::eval::{PhotoSpoil, evaluate_photos, parse_photo_labels};
use snapsolve::set_photo::table::{CutBy, TableReading, decode_table_photo, read_table};
use snapsolve::set_photo::{CardClassifier, FeaturesClassifier, NetworkClassifier};
use snapsolve::train::card_negatives::card_network_trained_on;
use snapsolve_set::Card;
use snapsolve_vision::{Limits, Photo};

/// Floors for one reading of every labelled photo.
struct Floors {
    std: f64,
    alt: f64,
    false_cards: usize,
    /// Cards no card read lies on, over both decks.
    missed: usize,
}

/// Reads every labelled photo (spoilt by `distortion`, if given) and checks
/// the share of cards right per deck, that every card is found on both decks,
/// and the number of false cards.
fn check_photos(
    root: &Path,
    classifier: &dyn CardClassifier,
    distortion: Option<Distortion>,
    floors: Floors,
) {
    let text = std::fs::read_to_string(root.join("set/photos.jsonl"))
        .expect("set/photos.jsonl is readable");
    let labels = parse_photo_labels(&text).expect("labels parse");
    let scores = evaluate_photos(
        &labels,
        root,
        classifier,
        PhotoSpoil {
            distortion,
            cut_at: None,
        },
    )
    .decks;
    let std = &scores["std"];
    let alt = &scores["alt_rect_dotted"];
    eprintln!("{distortion:?}\nstd {std:?}\nalt {alt:?}");
    assert!(
        std.card_accuracy() >= floors.std,
        "{distortion:?} std deck: {:.3}",
        std.card_accuracy()
    );
    assert!(
        alt.card_accuracy() >= floors.alt,
        "{distortion:?} alternate deck: {:.3}",
        alt.card_accuracy()
    );
    assert!(
        std.missed + alt.missed <= floors.missed,
        "{distortion:?} missed {} + {}",
        std.missed,
        alt.missed
    );
    assert!(
        std.false_cards + alt.false_cards <= floors.false_cards,
        "{distortion:?} false cards {} + {}",
        std.false_cards,
        alt.false_cards
    );
}

#[test]
fn network_reader_keeps_its_accuracy_on_the_shared_photos() {
    let Some(root) = shared_data_or_skip("network_reader_keeps_its_accuracy_on_the_shared_photos")
    else {
        return;
    };
    let network = NetworkClassifier::embedded().expect("embedded weights load");
    // Measured 99.8% (440/441) and 100% (375/375) when set.
    let floors = Floors {
        std: 0.995,
        alt: 0.995,
        false_cards: 0,
        missed: 0,
    };
    check_photos(&root, &network, None, floors);
}

#[test]
fn features_reader_keeps_its_accuracy_on_the_shared_photos() {
    let Some(root) = shared_data_or_skip("features_reader_keeps_its_accuracy_on_the_shared_photos")
    else {
        return;
    };
    // Measured 98.2% (433/441) and 98.4% (369/375) when set. It has no
    // card/not-a-card score, so a bright patch that the finder's pale-desk
    // passes take for a card is named: one on the second-edition photos.
    let floors = Floors {
        std: 0.975,
        alt: 0.975,
        false_cards: 1,
        missed: 0,
    };
    check_photos(&root, &FeaturesClassifier, None, floors);
}

#[test]
fn network_reader_copes_with_spoilt_photos() {
    let Some(root) = shared_data_or_skip("network_reader_copes_with_spoilt_photos") else {
        return;
    };
    let network = NetworkClassifier::embedded().expect("embedded weights load");
    // Measured when set (std / alternate, false cards): warm, cold, dark 99.5% (439/441) /
    // 100%, small and turned 99.8% / 100%, jpeg 99.3% (438/441) / 100%; no card missed, no
    // false card. (Weights before the retraining of session 8 read 99.8% / 100% and 100% for
    // small and jpeg: one training run to the next moves a card or two of the thin-striped
    // colours.) The video's hard ends, session 48: bright, shaken and tiny 100% / 100%,
    // defocused 99.8% (one card missed), grainy 98.9% (436/441, four missed on the dimmest
    // tomwhite photos) / 100%; session 49, a grainy photo's crops also named smoothed
    // (`set_photo::classify::SmoothedCrops`): 99.1% (437/441, three missed) / 100%; tilted
    // (session 49) 100% / 100%; long-lens (session 52) 100% / 100% (370/375 until turned
    // cards stopped passing for a straight view, `CardFinder::seen_straight_down`).
    for distortion in Distortion::ALL {
        // A card or two of slack: the network's float sums may round differently on another CPU.
        let (std, alt, false_cards, missed) = match distortion {
            Distortion::Jpeg => (0.99, 0.98, 2, 0),
            Distortion::Defocused => (0.993, 0.99, 2, 2),
            Distortion::Grainy => (0.985, 0.99, 2, 4),
            _ => (0.993, 0.99, 2, 0),
        };
        let floors = Floors {
            std,
            alt,
            false_cards,
            missed,
        };
        check_photos(&root, &network, Some(distortion), floors);
    }
}

/// The 19 table photos of `set/more_photos.jsonl` (four sources none of the
/// network's training crops came from), per source: a floor for each, so that
/// a change that helps one source and hurts another shows. Issue 13 asks for
/// 99.5% and no false card over all of them; these floors hold today's reader
/// with a card of slack (measured when set: errcw 36/36, perimosocordiae 60/60,
/// vidagy 66/66, vimalloc 52/53 with none missed; no false card; before the
/// finder judged foreshortened cards in space, vidagy read 55/66 and vimalloc
/// 48/53).
#[test]
fn network_reader_keeps_its_accuracy_per_source_on_the_newer_photos() {
    let Some(root) =
        shared_data_or_skip("network_reader_keeps_its_accuracy_per_source_on_the_newer_photos")
    else {
        return;
    };
    let floors = [
        ("errcw/set-solver (std)", 1.0),
        ("perimosocordiae/set-finder (std)", 0.98),
        ("vidagy/setsolver (std)", 0.98),
        ("vimalloc/set-solver (std)", 0.96),
    ];
    check_newer_photos(&root, None, floors);
}

/// The newer photos over-exposed (`--distort bright`: every channel at 130%,
/// the paper clipped white): a warm light's purple then looks magenta and
/// pale stripes fade, which the reader's ink checks mend
/// (`set_photo::ink_checks`). Measured when set (session 48): errcw 36/36,
/// perimosocordiae 55/60, vidagy 65/66, vimalloc 50/53; before the checks
/// 36, 39, 65 and 49. Session 51, stripes looked for at the picture's own
/// resolution (`set_photo::stripes`): perimosocordiae 56/60, vimalloc 52/53.
#[test]
fn network_reader_copes_with_the_newer_photos_over_exposed() {
    let Some(root) = shared_data_or_skip("network_reader_copes_with_the_newer_photos_over_exposed")
    else {
        return;
    };
    let floors = [
        ("errcw/set-solver (std)", 1.0),
        ("perimosocordiae/set-finder (std)", 0.91),
        ("vidagy/setsolver (std)", 0.96),
        ("vimalloc/set-solver (std)", 0.96),
    ];
    check_newer_photos(&root, Some(Distortion::Bright), floors);
}

/// The newer photos in a dim room's grain (`--distort grainy`: every channel
/// at 50%, sensor noise of deviation 12): the faint open and striped cards
/// sink into the grain unless their crops are also named smoothed
/// (`set_photo::classify::SmoothedCrops`). Measured when set (session 49):
/// errcw 36/36, perimosocordiae 58/60, vidagy 66/66, vimalloc 52/53, none
/// missed; named unsmoothed 36, 52 (5 missed), 66 and 52.
#[test]
fn network_reader_copes_with_the_newer_photos_in_grain() {
    let Some(root) = shared_data_or_skip("network_reader_copes_with_the_newer_photos_in_grain")
    else {
        return;
    };
    let floors = [
        ("errcw/set-solver (std)", 1.0),
        ("perimosocordiae/set-finder (std)", 0.95),
        ("vidagy/setsolver (std)", 0.98),
        ("vimalloc/set-solver (std)", 0.96),
    ];
    check_newer_photos(&root, Some(Distortion::Grainy), floors);
}

/// The newer photos taken by a phone turned 15 degrees further towards the
/// table's far side (`--distort tilted`, zoomed out to keep the whole photo):
/// vidagy's tables, steep already, lost far cards the finder no longer
/// proposed. Measured when set (session 49): errcw 36/36, perimosocordiae
/// 59/60, vidagy 55/66 (11 missed), vimalloc 52/53; session 50, the focal
/// length of the zoomed-out view searched for where a phone's usual one
/// finds no table (`cards::plane`): vidagy 63/66 (3 missed), the others as
/// before; session 52, the picture stretched where outlines squarer than a
/// card say so (`CardFinder::squares_stretch`): vidagy 66/66.
#[test]
fn network_reader_copes_with_the_newer_photos_tilted() {
    let Some(root) = shared_data_or_skip("network_reader_copes_with_the_newer_photos_tilted")
    else {
        return;
    };
    let floors = [
        ("errcw/set-solver (std)", 1.0),
        ("perimosocordiae/set-finder (std)", 0.96),
        ("vidagy/setsolver (std)", 0.98),
        ("vimalloc/set-solver (std)", 0.96),
    ];
    check_newer_photos(&root, Some(Distortion::Tilted), floors);
}

/// The newer photos laid on a table turned 45 degrees away and seen through
/// a long lens (`--distort long-lens`: a phone's zoom camera, cards about
/// square on the picture). Measured when set (session 52): errcw 36/36,
/// perimosocordiae 59/60, vidagy 66/66, vimalloc 52/53; before outlines
/// squarer than a card stretched the picture, vidagy 58/66 (set_board5: 4 of
/// 12).
#[test]
fn network_reader_copes_with_the_newer_photos_through_a_long_lens() {
    let Some(root) =
        shared_data_or_skip("network_reader_copes_with_the_newer_photos_through_a_long_lens")
    else {
        return;
    };
    let floors = [
        ("errcw/set-solver (std)", 1.0),
        ("perimosocordiae/set-finder (std)", 0.96),
        ("vidagy/setsolver (std)", 0.98),
        ("vimalloc/set-solver (std)", 0.96),
    ];
    check_newer_photos(&root, Some(Distortion::LongLens), floors);
}

/// Reads the 19 photos of `set/more_photos.jsonl` (spoilt by `distortion`,
/// if given) and checks each source's share of cards right against its
/// floor, with no false card.
fn check_newer_photos(root: &Path, distortion: Option<Distortion>, floors: [(&str, f64); 4]) {
    let text = std::fs::read_to_string(root.join("set/more_photos.jsonl"))
        .expect("set/more_photos.jsonl is readable");
    let labels = parse_photo_labels(&text).expect("labels parse");
    let network = NetworkClassifier::embedded().expect("embedded weights load");
    let spoil = PhotoSpoil {
        distortion,
        cut_at: None,
    };
    let scores = evaluate_photos(&labels, root, &network, spoil);
    assert_eq!(
        scores.sources.len(),
        floors.len(),
        "{:?}",
        scores.sources.keys()
    );
    for (source, floor) in floors {
        let score = &scores.sources[source];
        eprintln!(
            "{distortion:?} {source}: {}/{} right, {} false",
            score.right, score.cards, score.false_cards
        );
        assert!(
            score.card_accuracy() >= floor,
            "{distortion:?} {source}: {:.3}",
            score.card_accuracy()
        );
        assert_eq!(score.false_cards, 0, "{distortion:?} {source}");
    }
}

/// The card-free photos of `eval/set_card_free.jsonl` (sudoku pages, the best
/// lookalike there is) that the card network never trained on: every card
/// read there is a false card. Issue 13 asks for at most one over all
/// card-free scenes; this floor holds today's reader with one of slack
/// (measured when set: 1 false card on 89 photos, session 16; see
/// docs/evaluation.md).
#[test]
fn network_reader_names_few_cards_on_held_out_card_free_photos() {
    let Some(root) =
        shared_data_or_skip("network_reader_names_few_cards_on_held_out_card_free_photos")
    else {
        return;
    };
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/set_card_free.jsonl");
    let text = std::fs::read_to_string(list).expect("eval/set_card_free.jsonl is readable");
    let mut labels = parse_photo_labels(&text).expect("labels parse");
    labels.retain(|l| !card_network_trained_on(&l.image));
    assert!(labels.len() >= 80, "{} held-out photos", labels.len());
    let network = NetworkClassifier::embedded().expect("embedded weights load");
    let scores = evaluate_photos(&labels, &root, &network, PhotoSpoil::default());
    let false_cards: usize = scores.decks.values().map(|s| s.false_cards).sum();
    let cut_off: usize = scores.decks.values().map(|s| s.partial).sum();
    eprintln!(
        "{} held-out card-free photos: {false_cards} false cards, {cut_off} cut off by the edge",
        labels.len()
    );
    assert!(
        false_cards <= FALSE_CARDS_ON_CARD_FREE,
        "{false_cards} false cards"
    );
    // A printed grid's cells cut by the picture's edge are no cut-off cards
    // (3 on these photos were, before session 36).
    assert_eq!(cut_off, 0, "cards cut off by the edge");
}

/// Most false cards allowed on the held-out card-free photos.
const FALSE_CARDS_ON_CARD_FREE: usize = 2;

/// A photo's bytes decoded as `set photo` decodes them, and its table read.
fn decoded_and_read(bytes: &[u8], network: &NetworkClassifier) -> (Photo, TableReading) {
    let photo = decode_table_photo(bytes, Limits::default()).expect("the photo decodes");
    let reading = read_table(&photo, network);
    (photo, reading)
}

/// A phone photo cut short, as a half-copied upload: `IMG_1096.JPG` (an
/// iPhone's 12 MP photo, whose scan restarts every row of MCUs, which the
/// decoder refused when cut anywhere before session 34) cut to 70% of its
/// bytes is read as far as it goes, with a warning saying about 30% is
/// missing; the cards read there are cards of the whole photo, and most of
/// them; the one card the missing part cuts is reported partial or read
/// as in the whole photo.
#[test]
fn a_phone_photo_cut_short_is_read_as_far_as_it_goes() {
    let Some(root) = shared_data_or_skip("a_phone_photo_cut_short_is_read_as_far_as_it_goes")
    else {
        return;
    };
    let bytes = std::fs::read(root.join("set/stetelepta/photos/test_images/IMG_1096.JPG"))
        .expect("the 12 MP photo is readable");
    let network = NetworkClassifier::embedded().expect("embedded weights load");
    let read = |bytes: &[u8]| {
        let (photo, reading) = decoded_and_read(bytes, &network);
        let cards: Vec<Card> = reading.cards.iter().map(|c| c.card).collect();
        let cut_by = reading.partial.iter().map(|p| p.cut_by).collect::<Vec<_>>();
        (photo.warnings, cards, cut_by)
    };
    let (warnings, whole, cut_by) = read(&bytes);
    assert!(
        warnings.is_empty() && cut_by.is_empty(),
        "{warnings:?} {cut_by:?}"
    );
    let (warnings, cut, cut_by) = read(&bytes[..bytes.len() * 7 / 10]);
    // The green squiggles' card runs into the missing part: reported, or,
    // its three symbols all above it, laid around them and named as in the
    // whole photo (since session 42).
    assert!(
        cut_by.len() <= 1 && cut_by.iter().all(|c| *c == CutBy::MissingPart),
        "{cut_by:?}"
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        ["about 29%", "about 30%", "about 31%"]
            .iter()
            .any(|share| warnings[0].contains(share)),
        "{warnings:?}"
    );
    assert!(cut.len() >= 6, "{cut:?} of {whole:?}");
    assert_eq!(cut.len() + cut_by.len(), 8, "{cut:?}");
    assert!(
        cut.iter().all(|card| whole.contains(card)),
        "{cut:?} of {whole:?}"
    );
}

/// A progressive photo cut short: `vidagy/photos/set_board5.jpg` (progressive,
/// 12 cards) cut to a fifth of its bytes holds its first passes, so the whole
/// picture is there with less detail: nothing is marked missing (a cut
/// progressive file used to lose thin lines of pixels to grey, and a card
/// across one was reported partial), and its 12 cards read as from the
/// whole file.
#[test]
fn a_progressive_photo_cut_short_is_read_whole_with_less_detail() {
    let Some(root) =
        shared_data_or_skip("a_progressive_photo_cut_short_is_read_whole_with_less_detail")
    else {
        return;
    };
    let bytes = std::fs::read(root.join("set/vidagy/photos/set_board5.jpg"))
        .expect("the progressive photo is readable");
    let network = NetworkClassifier::embedded().expect("embedded weights load");
    let read = |bytes: &[u8]| {
        let (photo, reading) = decoded_and_read(bytes, &network);
        let mut cards: Vec<Card> = reading.cards.iter().map(|c| c.card).collect();
        cards.sort_by_key(|c| c.index());
        (photo, cards)
    };
    let (_, whole) = read(&bytes);
    let (photo, cut) = read(&bytes[..bytes.len() / 5]);
    assert!(photo.missing.is_none());
    assert_eq!(photo.warnings.len(), 1, "{:?}", photo.warnings);
    assert!(
        photo.warnings[0].contains("less detail"),
        "{:?}",
        photo.warnings
    );
    assert_eq!(whole.len(), 12);
    assert_eq!(cut, whole);
}
