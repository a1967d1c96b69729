//! End to end on rendered tables whose cards and corners are known
//! (`snapsolve_synth::render_table`, fixed seeds): the photo path must find
//! every card where it lies, name them with the default classifier, and find
//! exactly the SETs of the true cards. No data folder needed.

use snapsolve::images::Limits;
use snapsolve::set_photo::draw_answer;
use snapsolve::set_photo::example::seeded_cards;
use snapsolve::set_photo::stress::{StressScore, score_table};
use snapsolve::set_photo::table::{decode_table_photo, read_table};
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_set::Card;
use snapsolve_set::finders::find_sets;
use snapsolve_synth::{Edition, TableSpec, render_table};

/// One rendered table: how many cards, which edition, how they lie.
struct Case {
    cards: usize,
    edition: Edition,
    columns: usize,
    max_card_turn: f32,
    gap: f32,
    size: (u32, u32),
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for edition in Edition::ALL {
        for (cards, columns, max_card_turn, gap, size) in [
            (3, 3, 0.1, 0.3, (960, 720)),
            (9, 3, 0.3, 0.4, (1280, 960)),
            (12, 4, 0.15, 0.2, (1280, 960)),
            (12, 4, 0.6, 0.7, (1600, 1200)),
            (15, 5, 0.1, 0.25, (1600, 1200)),
            (21, 7, 0.1, 0.25, (2400, 1600)),
        ] {
            cases.push(Case {
                cards,
                edition,
                columns,
                max_card_turn,
                gap,
                size,
            });
        }
    }
    cases
}

/// SETs as sorted triples of card indices, for comparing by card rather than position.
fn sets_by_card(cards: &[Card]) -> Vec<[u8; 3]> {
    let mut sets: Vec<[u8; 3]> = find_sets(cards)
        .into_iter()
        .map(|[i, j, k]| {
            let mut t = [cards[i].index(), cards[j].index(), cards[k].index()];
            t.sort_unstable();
            t
        })
        .collect();
    sets.sort_unstable();
    sets
}

/// Renders table `n`, reads it with the default classifier and scores the
/// reading (a card is found when each corner is within `tolerance` card
/// widths of the truth); when every card is read right, checks the SETs too.
fn read_rendered(n: usize, case: &Case, seed: u64, tolerance: f32) -> StressScore {
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    let truth_cards = seeded_cards(case.cards, seed);
    let mut spec = TableSpec::new(truth_cards.clone(), case.edition, seed);
    (spec.width, spec.height) = case.size;
    spec.columns = case.columns;
    spec.max_card_turn = case.max_card_turn;
    spec.gap = case.gap;
    let table = render_table(&spec);
    // Through the same decoder as a photo file (PNG: the renderer's camera already added JPEG artefacts).
    let mut bytes = Vec::new();
    table
        .image
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .expect("encoding to memory cannot fail");
    let photo = decode_table_photo(&bytes, Limits::default()).expect("the rendered table decodes");
    let reading = read_table(&photo, classifier.as_ref());
    // To look at the tables: SNAPSOLVE_DEBUG_DIR=dir writes each with the answer drawn.
    if let Some(dir) = std::env::var_os("SNAPSOLVE_DEBUG_DIR") {
        let mut picture = photo.image.clone();
        draw_answer(&mut picture, &reading, 8);
        let path = std::path::Path::new(&dir).join(format!("rendered-table-{n}.png"));
        picture.save(&path).expect("the debug folder is writable");
    }

    // Every true card is found where it lies, each once.
    let score = score_table(&reading, &table, tolerance);
    let (found, right) = (score.found, score.right);
    eprintln!(
        "table {n} ({:?}, {} cards, turn {}, gap {}): found {found}, right {right}, read {}",
        case.edition,
        case.cards,
        case.max_card_turn,
        case.gap,
        reading.cards.len()
    );
    // When every card is read right, the SETs are exactly those of the true cards.
    let read: Vec<Card> = reading.cards.iter().map(|c| c.card).collect();
    if right == case.cards && read.len() == case.cards {
        assert_eq!(sets_by_card(&read), sets_by_card(&truth_cards), "table {n}");
        // And the positions in `sets` point at those cards.
        let by_position: Vec<[u8; 3]> = reading
            .sets
            .iter()
            .map(|s| s.map(|i| read[i].index()))
            .collect();
        assert_eq!(
            by_position.len(),
            sets_by_card(&truth_cards).len(),
            "table {n}"
        );
    }
    score
}

#[test]
fn rendered_tables_are_read_end_to_end() {
    let (mut total, mut found, mut right, mut false_cards, mut tables_right) = (0, 0, 0, 0, 0);
    let cases = cases();
    for (n, case) in cases.iter().enumerate() {
        // Within 5% of a card width.
        let score = read_rendered(n, case, 100 + n as u64, 0.05);
        total += case.cards;
        found += score.found;
        right += score.right;
        false_cards += score.misplaced + score.false_cards;
        tables_right +=
            usize::from(score.right == case.cards && score.misplaced + score.false_cards == 0);
    }
    let accuracy = right as f64 / total as f64;
    eprintln!(
        "{} tables, {total} cards: found {found}, right {right} ({:.1}%), false {false_cards}, tables all right {tables_right}",
        cases.len(),
        100.0 * accuracy
    );
    // Floors just under what this test measured with the default (network)
    // classifier: found 143/144, 1 false, 143/144 right (99.3%), 11 tables all
    // right. The miss is a card whose quadrilateral took in bright clutter
    // touching it at every threshold level. One card of slack: the network's
    // float sums may round differently on another CPU.
    assert!(found * 100 >= 98 * total, "found {found} of {total}");
    assert!(false_cards <= 2, "{false_cards} false cards");
    assert!(accuracy >= 0.975, "card accuracy {accuracy:.3}");
    assert!(tables_right >= 9, "{tables_right} tables all right");
}

/// Cards laid close together, a twentieth of a card apart, slightly turned:
/// at every threshold level they touch at corners and form one blob, and no
/// single card shows how large a card is. The card finder's last pass cuts
/// the thin dark seams between them.
#[test]
fn closely_laid_cards_are_parted_at_their_seams() {
    let (mut total, mut right, mut false_cards) = (0, 0, 0);
    for (n, edition) in Edition::ALL.into_iter().enumerate() {
        let case = Case {
            cards: 12,
            edition,
            columns: 4,
            max_card_turn: 0.05,
            gap: 0.05,
            size: (1280, 960),
        };
        // Cutting a seam also takes a pixel or two of the card edges beside
        // it, so corners are held to 12% of a card width here.
        let score = read_rendered(100 + n, &case, 502, 0.12);
        total += case.cards;
        right += score.right;
        false_cards += score.misplaced + score.false_cards;
    }
    eprintln!("closely laid: {right} of {total} right, {false_cards} false");
    // Measured 12 of 24 found and right, none read elsewhere (without the seam
    // pass: 8 of 24; with it but before the white balance on the brightest
    // pixels: 14, and 2 read with a corner off by more than 12%). The two
    // middle columns, which touch along most of their length, are still one blob.
    assert!(right >= 11, "{right} of {total} right");
    assert!(false_cards <= 2, "{false_cards} false cards");
}

#[test]
fn a_card_cut_off_by_the_edge_is_never_named() {
    use snapsolve_vision::Photo;

    // Two cards one above the other; the picture ends a fifth of the way up
    // the lower one. Today's finder does not even find such a card (its outline
    // is not a card's); if it did, the edge rule of `read_table` would report it
    // as partial (see the unit tests of `split_cut_off`). Either way it is not named.
    let mut spec = TableSpec::new(seeded_cards(2, 11), Edition::Standard, 11);
    (spec.width, spec.height, spec.columns) = (960, 720, 1);
    let table = render_table(&spec);
    let bottom = |corners: &[[f32; 2]; 4]| corners.iter().map(|p| p[1]).fold(0.0f32, f32::max);
    let top = |corners: &[[f32; 2]; 4]| corners.iter().map(|p| p[1]).fold(f32::MAX, f32::min);
    let lower = &table.cards[1].corners;
    let cut = (bottom(lower) - 0.2 * (bottom(lower) - top(lower))).round() as u32;
    assert!(bottom(&table.cards[0].corners) < cut as f32);
    let image = image::imageops::crop_imm(&table.image, 0, 0, table.image.width(), cut).to_image();

    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    let reading = read_table(&Photo::from_upright(image), classifier.as_ref());
    let read: Vec<Card> = reading.cards.iter().map(|c| c.card).collect();
    assert_eq!(
        read,
        [table.cards[0].card],
        "the whole card, and only it, is named"
    );
}

/// A card drawn flat, filling its picture, its rounded corners on `ground`.
fn flat_card_on(card: Card, edition: Edition, width: u32, ground: [u8; 3]) -> image::RgbImage {
    let style = snapsolve_synth::CardStyle::nominal(edition);
    let drawn = snapsolve_synth::render_card(card, &style, width);
    image::RgbImage::from_fn(drawn.width(), drawn.height(), |x, y| {
        let p = drawn.get_pixel(x, y);
        let a = f32::from(p[3]) / 255.0;
        let over =
            |c: usize| (f32::from(p[c]) * a + f32::from(ground[c]) * (1.0 - a)).round() as u8;
        image::Rgb([over(0), over(1), over(2)])
    })
}

#[test]
fn a_row_of_cards_cut_tight_by_the_pictures_edges_is_read() {
    use snapsolve_vision::Photo;

    // A web page's or a screenshot's row of cards: their paper runs to the
    // picture's top and bottom edges, with the ground between them. The
    // finder takes every outline along the edge for a card cut off by it;
    // before the second reading with a margin (session 33) none was read on
    // white, grey or green alike (`examples/flat_layouts.rs`), nor one such
    // card alone with a little ground either side.
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    for (i, ground) in [[255, 255, 255], [200, 200, 200], [40, 90, 50]]
        .into_iter()
        .enumerate()
    {
        for edition in Edition::ALL {
            let cards = seeded_cards(3, 40 + i as u64);
            let faces: Vec<image::RgbImage> = cards
                .iter()
                .map(|&c| flat_card_on(c, edition, 120, ground))
                .collect();
            let (w, h, gap) = (faces[0].width(), faces[0].height(), 10);
            let mut row = image::RgbImage::from_pixel(3 * w + 2 * gap, h, image::Rgb(ground));
            for (k, face) in faces.iter().enumerate() {
                image::imageops::replace(&mut row, face, i64::from(k as u32 * (w + gap)), 0);
            }
            // The middle card alone, with half a gap of ground either side.
            let alone = image::imageops::crop_imm(&row, w + gap / 2, 0, w + gap, h).to_image();
            let reading = read_table(&Photo::from_upright(row), classifier.as_ref());
            let read: Vec<Card> = reading.cards.iter().map(|c| c.card).collect();
            assert_eq!(read, cards, "{} on {ground:?}", edition.label());
            let reading = read_table(&Photo::from_upright(alone), classifier.as_ref());
            let read: Vec<Card> = reading.cards.iter().map(|c| c.card).collect();
            assert_eq!(read, [cards[1]], "{} alone on {ground:?}", edition.label());
        }
    }
}
