//! The rendered stress suite (`snapsolve::set_photo::stress`) with a floor per
//! named condition, so that a change that breaks the reader on white desks,
//! in perspective or among lookalikes fails here even when the shared photos
//! still pass. `snapsolve eval set-stress` prints the same figures. The
//! conditions on photographed pages need the shared data folder, those on
//! photographed surfaces Debian's gimp-data, real cards on wallpapers both the
//! shared data and Debian's wallpapers (skipped without them, a failure under
//! `CI=true`).

use snapsolve::data::{shared_data_or_skip, skip_unless_ci};
use snapsolve::set_photo::stress::{Condition, StressScore, run_condition};
use snapsolve::set_photo::table::Finders;
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};

/// Tables per condition (both deck editions in turn): six, and 24 where a
/// table holds one card, so that one card is not a sixth of the figure.
fn tables(condition: Condition) -> usize {
    match condition {
        Condition::SingleCloseUp | Condition::AloneOnWhite | Condition::FillingTheFrame => 24,
        _ => 6,
    }
}

/// What a condition must hold, over its tables.
struct Floor {
    /// Least share of cards found where they lie and named right.
    right: f64,
    /// Least share of cards whose name the reading holds, wherever it outlines
    /// them (what a player reads, and what a per-photo count measures).
    named: f64,
    /// Most cards read where no card lies.
    false_cards: usize,
}

/// The floor of each condition for the default reader (threshold finder and
/// card logit), set about a card under what this suite measured
/// (docs/evaluation.md); the goal is 98% everywhere and no false
/// card, so white on white, cards edge to edge, a white desk with things on
/// it, busy surfaces (session 12) and the steep view (a phone's camera since
/// session 11; the trapezoid warp before it stretched near cards as no
/// camera does, and its floor was 0.68) are open gaps.
fn floor(condition: Condition) -> Floor {
    let (right, named, false_cards) = match condition {
        // Raised in session 24 to about a card under what the suite reads.
        Condition::WhiteOnWhite => (0.91, 0.98, 0),
        Condition::LightWood => (0.97, 0.97, 0),
        Condition::ClutterNoCards => (1.0, 1.0, 0),
        // 0.88 / 0.93 until session 23's card network (clutter tables as
        // negatives): 63 / 66 of 72 here, against 66 / 70 before; on tables
        // 400-447 and 448-495 it names 4 more of 576 each. Two false cards
        // were allowed until session 24; the suite reads none.
        Condition::CardsAmongLookalikes => (0.86, 0.91, 0),
        Condition::SingleCloseUp => (0.95, 0.95, 0),
        Condition::TwentyOneTouching => (0.92, 0.98, 0),
        // 0.8 right until session 22's faithful second edition (57 of 72);
        // 0.78 / 0.81 until session 26's straightened view of a few card
        // sides around the cards found: 63 / 63 of 72 now.
        Condition::SteepAngle => (0.86, 0.86, 0),
        Condition::DimWarm => (0.98, 0.98, 0),
        Condition::AloneOnWhite => (0.91, 0.91, 0),
        Condition::WhiteDeskClutter => (0.79, 0.95, 0),
        Condition::BusySurface => (0.96, 0.98, 0),
        Condition::FillingTheFrame => (0.91, 0.91, 0),
        // New in session 31 with the closer look at small cards: 69 / 71 of
        // 72 here (without it, 400-447 read 536 / 560 of 576, now 555 / 570).
        Condition::FarAway => (0.94, 0.97, 0),
        // New in session 31: a phone moving over the table, every point
        // streaked by 4-15% of a card's width. 69 / 69 of 72 here.
        Condition::MovingPhone => (0.9, 0.9, 0),
        // New in session 32: the rows turned any way across the picture
        // (cards on their side in it). 72 / 72 here; 400-447 575 / 576 right,
        // 448-495 571 / 572 of 576 and one false card.
        Condition::TurnedLayout => (0.98, 0.98, 0),
        // New in session 32, an open gap: light 1.35-1.7 times what white
        // paper takes. 64 / 64 of 72 here; 400-447 and 448-495 name 521 and
        // 523 of 576 (purple read red, striped read open as the tint clips).
        // Session 51 (stripes looked for at the picture's own resolution):
        // 67 / 67 here as before; 400-447 533 -> 542 named, 448-495 538 -> 544.
        Condition::Overexposed => (0.87, 0.87, 0),
        // New in session 37, an open gap: a lamp's reflection on a glossy
        // table over some of the cards. 67 / 69 of 72 here; 400-447 567 / 570
        // and 448-495 540 / 562 of 576 (solid read striped under the glare).
        Condition::LampGlare => (0.91, 0.94, 0),
        // New in session 37, an open gap: two or three card-sized things
        // (a phone, a note, a box) set down over corners of cards. 46 / 55 of
        // 72 here; 400-447 352 / 458 and 448-495 383 / 487 of 576. Cards no
        // cover touches read as before (`stress_covers`: 572 of 573); a
        // covered card is missed or outlined with the cover's edge.
        Condition::CoveredCards => (0.61, 0.74, 0),
        // New in session 38: cards on photographed pages of print (the
        // validation part of the shared sudoku photos). 72 / 72 of 72 here;
        // 400-447 566 / 574 and 448-495 568 / 574 of 576: names right, a few
        // outlines grown over the page's paper.
        Condition::OnPrintedPages => (0.97, 0.98, 0),
        Condition::PagesNoCards => (1.0, 1.0, 0),
        // New in session 38: cards on photographed surfaces (the stress
        // suite's third of GIMP's patterns: parquet, walnut, burlwood, pink
        // marble, stone, leopard print, paper). 71 / 71 of 72 here; 400-447
        // 573 / 573 and 448-495 572 / 572 of 576. Without cards, 400-699 and
        // the pages without cards 400-699: no false card.
        Condition::TexturedTables => (0.95, 0.98, 0),
        Condition::TexturesNoCards => (1.0, 1.0, 0),
        // New in session 41, an open gap: real cards (faces cut from the
        // shared data's table photos) on Debian's wallpapers or a white desk.
        // 38 / 42 of 46 here; 400-447 311 / 326 and 448-647 1,268 / 1,351 of
        // 1,400: outlines off a card's edge where its paper meets pale
        // wallpaper, and lone cards on a white desk unread.
        Condition::PhotographedCards => (0.8, 0.89, 0),
        // New in session 50, an open gap: a steep table through a
        // wide-angle lens or a photo cropped to it. 42 / 44 of 72 here
        // (before the table's focal length was searched for, 31 / 34);
        // 400-447 480 / 497 and 448-495 440 / 461 of 576 (before, 381 / 405
        // and 344 / 383). Session 52, the picture stretched where outlines
        // squarer than a card, holding coloured ink, say so (a long lens's
        // squarish cards): 57 / 60 here, 400-447 544 / 558 and 448-495
        // 539 / 553. The wide lenses' far rows go unfound.
        Condition::OtherLens => (0.77, 0.81, 0),
    };
    Floor {
        right,
        named,
        false_cards,
    }
}

#[test]
fn every_hard_condition_holds_its_floor() {
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    let mut failures = Vec::new();
    for condition in Condition::ALL {
        if let Some(why) = condition.missing_input() {
            skip_unless_ci(condition.name(), &why);
            continue;
        }
        let score: StressScore = run_condition(
            condition,
            0..tables(condition),
            classifier.as_ref(),
            Finders::Threshold,
            &mut |_, _, _, _| {},
        );
        let floor = floor(condition);
        let named = score.name_accuracy();
        eprintln!(
            "{:<24} {} cards: right {} ({:.1}%), named {} ({:.1}%), misplaced {}, false {}",
            condition.name(),
            score.cards,
            score.right,
            100.0 * score.card_accuracy(),
            score.named,
            100.0 * named,
            score.misplaced,
            score.false_cards
        );
        if score.card_accuracy() < floor.right
            || named < floor.named
            || score.false_cards > floor.false_cards
        {
            failures.push(format!(
                "{}: {:.1}% right (floor {:.0}%), {:.1}% named (floor {:.0}%), {} false (at most {})",
                condition.name(),
                100.0 * score.card_accuracy(),
                100.0 * floor.right,
                100.0 * named,
                100.0 * floor.named,
                score.false_cards,
                floor.false_cards
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Tables of the suite beyond the floors' that once read "no cards found",
/// or few of their cards, though their cards are clear, each with how many
/// of its cards must be named now (docs/evaluation.md, session 21 on).
#[test]
fn tables_once_read_poorly_are_read() {
    let tables = [
        // 21 cards edge to edge on a cloth as bright as they are at some
        // level: the paper inside their open symbols set the card size.
        (Condition::TwentyOneTouching, 432, 17),
        // 12 cards on a white desk seen at a slant: only their shadowed
        // sides show, and their symbols lie flat (6 named since session 22's
        // faithful second edition and its flatness bar; 7 before; 8 in
        // session 29; 11 with the picture also stretched further, session 30).
        (Condition::SteepAngle, 451, 11),
        // A lone card of pale, defocused symbols on a white desk, and one on
        // grey under cold light: only their faint symbols mark them
        // (session 25).
        (Condition::AloneOnWhite, 451, 1),
        (Condition::AloneOnWhite, 626, 1),
        // One card filling the frame, its corners touching the frame's
        // edges; one as grey as its desk and a lone card on a cream desk,
        // each outlined through its paper by the whiteness where the card
        // around its symbols shows all round (session 28).
        (Condition::FillingTheFrame, 479, 1),
        (Condition::FillingTheFrame, 480, 1),
        // A card filling the frame whose paper merges with a lamp's glow on
        // the desk at every whiteness level: closed by its edges as a
        // close-up (session 53).
        (Condition::FillingTheFrame, 407, 1),
        // A grainy card filling the frame, and a grey one on a grey desk
        // whose far side is as pale as the desk: the grain cuts its paper
        // apart at full size, the faint side leaves its outline open; both
        // close on a copy a quarter the size (session 54).
        (Condition::FillingTheFrame, 602, 1),
        (Condition::FillingTheFrame, 611, 1),
        (Condition::AloneOnWhite, 734, 1),
        // White cards on a pale desk seen steeply: the edges close every
        // card, most too square on the picture to count until counted in
        // space (session 28: 4 of 12 named before, 12 now).
        (Condition::SteepAngle, 452, 11),
        // A block of 21 washed-out cards edge to edge on an orange desk: two
        // cards fit around their symbols, the others' sides landed on their
        // neighbours' symbols until two that agree set every card's width;
        // the rows' pale ends are read on from the cards beside them
        // (session 29: 4 named before, 16, then all 21 with six rounds).
        (Condition::TwentyOneTouching, 493, 20),
        // Beige cards on a pink checked cloth seen steeply: the first
        // reading names six of the nearer cards; the picture stretched
        // upright, once read only where no card was, names 9 (session 30).
        (Condition::SteepAngle, 2024, 9),
        // Twelve clear cards on a pale table and on orange wood seen steeply
        // through a long lens (1.5 of the longer side): every card about
        // square on the picture, "no cards found" until outlines squarer than
        // a card, holding coloured ink, stretched the picture (session 52:
        // 12 of 12 each).
        (Condition::OtherLens, 438, 11),
        (Condition::OtherLens, 407, 11),
        // Twelve cards through a wide-angle lens (half a phone's focal
        // length), the near row large, the far rows small: each card's own
        // shape, a pixel or two off, gave a normal 15-30 degrees from the
        // others', so no table was seen and 2 were named right; the plane
        // their sizes fit straightens it (session 55: 11 right, 12 named).
        (Condition::OtherLens, 412, 11),
    ];
    for (condition, table, least) in tables {
        let score = read_one(condition, table);
        assert!(
            score.named >= least,
            "{} table {table}: {} of {} cards named, at least {least} expected",
            condition.name(),
            score.named,
            score.cards
        );
    }
}

/// A steep table whose near row of large, clear cards on a pale desk went
/// unfound: the straightened view showed the table five times over, each
/// card a third of its size, too small for its symbols to be read (session
/// 26: 5 of 12 cards right before, 9 after). Since session 42 (symbols also
/// read against the paper) 8 right, 11 named: the near row's left card, pale
/// open ovals, goes unread, while the steep condition as a whole reads as
/// many cards right (tables 400-447: 566; 448-495: 549).
#[test]
fn a_steep_tables_near_row_is_found() {
    let score = read_one(Condition::SteepAngle, 417);
    assert!(score.right >= 8, "{} of 12 cards right", score.right);
    assert!(score.named >= 11, "{} of 12 cards named", score.named);
}

/// Lone real cards (faces cut from the shared table photos) on plain
/// backdrops, each once read as "no cards":
/// - 618, a pale blue desk: the top striped diamond runs into the card's
///   shadowed edge and is no symbol-shaped blob, so its ink made the card
///   laid around the other two look crowded. The stack's missing symbol is
///   now looked for a pitch beyond the found ones (session 44).
/// - 674, a dusky sky: three striped purple diamonds faded to greys whose
///   channels spread 12-15 levels, under what a SET ink spreads. Such blobs
///   now count where two or three are stacked as on a card (session 45).
/// - 702, a grey wall: the wall is paler than the ink, one blob filling the
///   frame, and cut into a lattice it passed for a block of cards whose
///   cells made the card "alone in a crowd". A block running along the
///   picture's edge is now none (session 45).
/// - 718, a lake at dusk: one level merged the card with a lamp's glow
///   beside it, three found the card alone, but the first set the card's
///   size. The size most passes agree on now does (session 45).
///
/// Named, not all placed: 702's outline takes in the card's shadow.
#[test]
fn lone_real_cards_on_plain_backdrops_are_read() {
    let condition = Condition::PhotographedCards;
    if let Some(why) = condition.missing_input() {
        skip_unless_ci("lone_real_cards_on_plain_backdrops_are_read", &why);
        return;
    }
    for table in [618, 674, 702, 718] {
        let score = read_one(condition, table);
        assert_eq!(
            (score.named, score.false_cards),
            (1, 0),
            "table {table}: {score:?}"
        );
    }
}

/// Card-free tables where faint ink once passed for a lone card's symbols:
/// a patch of a checked cloth read 0.99 a card (session 25; a card must now
/// still read as one when nudged a card's 6% every way).
#[test]
fn faint_ink_with_no_card_about_is_not_a_card() {
    let score = read_one(Condition::ClutterNoCards, 892);
    assert_eq!(score.false_cards, 0, "clutter table 892");
}

/// One table of `condition`, rendered and read as the suite reads it.
fn read_one(condition: Condition, table: usize) -> StressScore {
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).expect("the default classifier exists");
    run_condition(
        condition,
        table..table + 1,
        classifier.as_ref(),
        Finders::Threshold,
        &mut |_, _, _, _| {},
    )
}

/// The conditions on photographed pages and surfaces lie on them (not on
/// the default surface they fall back to without them), one to three pages
/// a side.
#[test]
fn tables_on_photos_lie_on_them() {
    if snapsolve::textures::textures_or_skip("tables_on_photos_lie_on_them") {
        for condition in [Condition::TexturedTables, Condition::TexturesNoCards] {
            let spec = condition.spec(0);
            let backdrop = spec.backdrop.expect("a photographed surface");
            assert_eq!(backdrop.dimensions(), (spec.width, spec.height));
        }
        // A third or so for the suite, the rest for training, none in both.
        let (suite, training) = (
            snapsolve::textures::stress_textures(),
            snapsolve::textures::training_textures(),
        );
        assert!(suite.len() >= 8 && training.len() >= 12);
        assert!(
            suite
                .iter()
                .all(|t| training.iter().all(|u| u.name != t.name))
        );
    }
    if shared_data_or_skip("tables_on_photos_lie_on_them").is_none() {
        return;
    }
    // Real cards on a wallpaper (two tables in three) or a white desk.
    let photographed = Condition::PhotographedCards;
    match photographed.missing_input() {
        Some(why) => skip_unless_ci("tables_on_photos_lie_on_them", &why),
        None => {
            let spec = photographed.spec(1);
            let backdrop = spec.backdrop.expect("a wallpaper");
            assert_eq!(backdrop.dimensions(), (spec.width, spec.height));
            let faces = spec.faces.expect("photographed faces");
            assert!(faces.len() >= 100, "{} faces", faces.len());
            assert!(spec.cards.iter().all(|card| faces.cards().contains(card)));
            assert!(photographed.spec(0).backdrop.is_none());
        }
    }
    for condition in [Condition::OnPrintedPages, Condition::PagesNoCards] {
        for index in 0..3 {
            let spec = condition.spec(index);
            let backdrop = spec.backdrop.expect("a photographed page");
            assert_eq!(backdrop.width(), 640 * (1 + index as u32));
        }
    }
}
