//! The solver-backed engines (SAT, 0-1 IP) against the plain triple check, on
//! random layouts of 3 to 21 cards and on SET-free ones, from a fixed seed.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use snapsolve_set::finders::{SetFinder, find_sets_brute};
use snapsolve_set::{Card, Layout};

/// `count` distinct random cards.
fn random_layout(rng: &mut StdRng, count: usize) -> Layout {
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(rng);
    deck.truncate(count);
    Layout::new(deck).expect("distinct cards")
}

/// A SET-free layout grown greedily from a shuffled deck: each card is kept
/// only if it completes no SET with the cards kept so far.
fn set_free_layout(rng: &mut StdRng) -> Layout {
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(rng);
    let mut kept: Vec<Card> = Vec::new();
    for card in deck {
        let completes_a_set = kept
            .iter()
            .enumerate()
            .any(|(i, &a)| kept[i + 1..].iter().any(|&b| a.third(b) == card));
        if !completes_a_set {
            kept.push(card);
        }
    }
    Layout::new(kept).expect("distinct cards")
}

fn solver_engines() -> Vec<&'static dyn SetFinder> {
    let engines: Vec<_> = snapsolve::set::engines()
        .into_iter()
        .filter(|e| matches!(e.name(), "sat" | "ilp"))
        .collect();
    assert_eq!(engines.len(), 2, "both solver engines are registered");
    engines
}

fn assert_agrees(layout: &Layout, what: &str) {
    let expected = find_sets_brute(layout.cards());
    for engine in solver_engines() {
        let found = engine.find_sets(layout);
        assert_eq!(
            found.as_ref(),
            Ok(&expected),
            "{} on {what}: {layout:?}",
            engine.name()
        );
    }
}

/// Eight layouts of each size from 3 to 21 cards, from this seed.
fn check_random_layouts(seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut total_sets = 0;
    for round in 0..8 {
        for count in 3..=21 {
            let layout = random_layout(&mut rng, count);
            total_sets += find_sets_brute(layout.cards()).len();
            assert_agrees(&layout, &format!("random layout {seed}/{round}/{count}"));
        }
    }
    // 8 × 19 layouts average a few SETs each: the comparison is not vacuous.
    assert!(total_sets > 500, "{total_sets}");
}

// Two seeds in two tests, so the test harness runs them on two threads.
#[test]
fn random_layouts_of_3_to_21_cards_seed_2() {
    check_random_layouts(2);
}

#[test]
fn random_layouts_of_3_to_21_cards_seed_3() {
    check_random_layouts(3);
}

#[test]
fn set_free_layouts_and_their_prefixes() {
    let mut rng = StdRng::seed_from_u64(4);
    for round in 0..6 {
        let cap = set_free_layout(&mut rng);
        // Maximal: each of the 81 - n other cards completes one of the n(n-1)/2 pairs, so n >= 13.
        assert!(cap.len() >= 13, "{}", cap.len());
        assert!(find_sets_brute(cap.cards()).is_empty());
        for count in [3, 6, 9, cap.len()] {
            let prefix = Layout::new(cap.cards()[..count].to_vec()).expect("distinct");
            assert_agrees(&prefix, &format!("SET-free layout {round}/{count}"));
        }
        // The greedy layout is maximal: any further card makes a SET.
        let extra = Card::all()
            .find(|c| !cap.cards().contains(c))
            .expect("deck has more");
        let mut grown = cap.cards().to_vec();
        grown.push(extra);
        assert_agrees(&Layout::new(grown).expect("distinct"), "SET-free plus one");
    }
}

/// A 20-card SET-free layout, the largest there is (Pellegrino 1971): card
/// indices found by a backtracking search from the affine basis 0, e1..e4.
const CAP_20: [u8; 20] = [
    0, 27, 9, 3, 1, 4, 10, 12, 13, 28, 32, 35, 38, 47, 59, 65, 66, 67, 71, 77,
];

#[test]
fn the_largest_set_free_layout() {
    let cards: Vec<Card> = CAP_20
        .iter()
        .map(|&i| Card::from_index(i).expect("index below 81"))
        .collect();
    let cap = Layout::new(cards.clone()).expect("distinct cards");
    assert!(find_sets_brute(cap.cards()).is_empty());
    assert_agrees(&cap, "20-card SET-free layout");
    let mut grown = cards;
    grown.push(
        Card::all()
            .find(|c| !grown.contains(c))
            .expect("deck has more"),
    );
    assert_agrees(
        &Layout::new(grown).expect("distinct"),
        "20-card SET-free plus one",
    );
}
