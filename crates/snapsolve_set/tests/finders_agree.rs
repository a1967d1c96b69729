//! Property tests: every finder agrees with the plain all-triples engine.
//!
//! Thousands of seeded random layouts of 3 to 21 cards, SET-free layouts of 20
//! cards (maximum caps moved by random affine maps) and of other sizes (greedy
//! caps), maximum caps plus one card, and the full deck. The solver-backed
//! engines are checked the same way in the crates that own them.

#[path = "support/layouts.rs"]
mod layouts;

use rand::Rng;
use snapsolve_set::finders::{
    all_finders, count_sets, find_sets, find_sets_brute, find_sets_into, has_set,
};
use snapsolve_set::{Card, Layout, Triple};

/// Checks every finder and the counting helpers against brute force on one layout.
fn assert_all_agree(cards: &[Card]) -> Vec<Triple> {
    let layout = Layout::new(cards.to_vec()).expect("test layouts hold distinct cards");
    let expected = find_sets_brute(cards);
    for finder in all_finders() {
        let found = finder.find_sets(&layout).expect("pure finders never fail");
        assert_eq!(found, expected, "engine {} on {cards:?}", finder.name());
    }
    assert_eq!(find_sets(cards), expected, "find_sets on {cards:?}");
    assert_eq!(count_sets(cards), expected.len(), "count_sets on {cards:?}");
    assert_eq!(has_set(cards), !expected.is_empty(), "has_set on {cards:?}");
    // The buffer variant appends after whatever the caller left in the buffer.
    let mut buffer = vec![[99, 99, 99]];
    find_sets_into(cards, &mut buffer);
    assert_eq!(buffer[0], [99, 99, 99]);
    assert_eq!(&buffer[1..], &expected[..], "find_sets_into on {cards:?}");
    expected
}

fn is_sorted_set_list(sets: &[Triple], cards: &[Card]) -> bool {
    sets.windows(2).all(|w| w[0] < w[1])
        && sets.iter().all(|&[i, j, k]| {
            i < j && j < k && k < cards.len() && Card::is_set(cards[i], cards[j], cards[k])
        })
}

#[test]
fn random_layouts_of_3_to_21_cards() {
    let mut rng = layouts::rng(0x5e7_f1d3);
    let mut total_sets = 0;
    let mut set_free = 0;
    for _ in 0..5000 {
        let n = rng.random_range(3..=21);
        let cards = layouts::random_cards(&mut rng, n);
        let sets = assert_all_agree(&cards);
        assert!(is_sorted_set_list(&sets, &cards), "{cards:?}: {sets:?}");
        total_sets += sets.len();
        set_free += sets.is_empty() as usize;
    }
    // The sample must exercise both outcomes, or the test proves little.
    assert!(total_sets > 10_000, "only {total_sets} SETs in the sample");
    assert!(
        set_free > 100,
        "only {set_free} SET-free layouts in the sample"
    );
}

#[test]
fn set_free_layouts_of_20_cards() {
    let cap = layouts::maximum_cap();
    assert_eq!(cap.len(), 20);
    let mut rng = layouts::rng(20);
    for _ in 0..2000 {
        let cards = layouts::random_affine_image(&mut rng, &cap);
        assert!(assert_all_agree(&cards).is_empty(), "{cards:?}");
    }
}

#[test]
fn a_maximum_cap_plus_any_card_holds_a_set() {
    // 20 is the largest SET-free size in AG(4,3): every 21st card completes a SET.
    let cap = layouts::maximum_cap();
    let mut rng = layouts::rng(21);
    for extra in Card::all().filter(|c| !cap.contains(c)) {
        let mut cards = cap.clone();
        let insert_at = rng.random_range(0..=cards.len());
        cards.insert(insert_at, extra);
        let image = layouts::random_affine_image(&mut rng, &cards);
        assert!(!assert_all_agree(&cards).is_empty());
        assert!(!assert_all_agree(&image).is_empty());
    }
}

#[test]
fn greedy_set_free_layouts_and_one_more_card() {
    let mut rng = layouts::rng(0xca9);
    for _ in 0..2000 {
        let limit = rng.random_range(3..=20);
        let mut cards = layouts::random_cap(&mut rng, limit);
        assert!(assert_all_agree(&cards).is_empty(), "{cards:?}");
        // One more card: the SETs found must be exactly those through it.
        let outside: Vec<Card> = Card::all().filter(|c| !cards.contains(c)).collect();
        let extra = outside[rng.random_range(0..outside.len())];
        cards.push(extra);
        let last = cards.len() - 1;
        for set in assert_all_agree(&cards) {
            assert_eq!(set[2], last, "{cards:?}");
        }
    }
}

#[test]
fn full_deck_has_1080_sets_in_any_order() {
    let deck = Layout::full_deck();
    let sets = assert_all_agree(deck.cards());
    assert_eq!(sets.len(), 1080);
    assert!(is_sorted_set_list(&sets, deck.cards()));
    let mut rng = layouts::rng(81);
    for _ in 0..5 {
        let shuffled = layouts::random_affine_image(&mut rng, deck.cards());
        assert_eq!(assert_all_agree(&shuffled).len(), 1080);
    }
}

#[test]
fn tiny_layouts() {
    for n in 0..3 {
        let cards: Vec<Card> = Card::all().take(n).collect();
        assert!(assert_all_agree(&cards).is_empty());
    }
}
