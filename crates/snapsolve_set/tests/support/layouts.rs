//! Random layouts for the property tests, the benchmarks and the side-by-side run.
//!
//! Shared by `tests/`, `benches/` and `examples/` through `#[path]`, so every
//! consumer draws exactly the same layouts from the same seed. The generator is
//! `ChaCha8Rng`, whose stream is fixed for a given seed on every platform.
#![allow(dead_code)] // each consumer uses part of it

use rand::Rng;
use rand::seq::{SliceRandom, index};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use snapsolve_set::finders::{SetFinder, find_sets_brute};
use snapsolve_set::{Card, Layout};

/// The seeded generator every consumer starts from.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// `n` distinct cards drawn uniformly from the deck, in random order.
pub fn random_cards(rng: &mut impl Rng, n: usize) -> Vec<Card> {
    index::sample(rng, Card::COUNT, n)
        .into_iter()
        .map(|i| Card::from_index(i as u8).expect("sampled below 81"))
        .collect()
}

/// `count` layouts of `n` cards each, from a fixed seed (the benchmark inputs).
pub fn seeded_layouts(seed: u64, n: usize, count: usize) -> Vec<Layout> {
    let mut rng = rng(seed ^ ((n as u64) << 32));
    (0..count)
        .map(|_| Layout::new(random_cards(&mut rng, n)).expect("distinct by construction"))
        .collect()
}

/// The first `count` of [`seeded_layouts`], each answered by `engine` and
/// checked against the plain triple check (the benchmarks time only engines
/// that are right on their inputs).
pub fn checked_layouts(seed: u64, n: usize, count: usize, engine: &dyn SetFinder) -> Vec<Layout> {
    let layouts = seeded_layouts(seed, n, count);
    for layout in &layouts {
        let found = engine.find_sets(layout).expect("engine runs");
        assert_eq!(found, find_sets_brute(layout.cards()), "{}", engine.name());
    }
    layouts
}

/// A SET-free layout grown greedily from a shuffled deck: each card is kept
/// unless it completes a SET with two cards already kept. Stops at `limit` cards.
pub fn random_cap(rng: &mut impl Rng, limit: usize) -> Vec<Card> {
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(rng);
    let mut forbidden = [false; Card::COUNT];
    let mut cap = Vec::new();
    for card in deck {
        if cap.len() == limit {
            break;
        }
        if forbidden[card.index() as usize] {
            continue;
        }
        for &other in &cap {
            forbidden[Card::third(card, other).index() as usize] = true;
        }
        forbidden[card.index() as usize] = true;
        cap.push(card);
    }
    cap
}

/// A 20-card SET-free layout (a maximum cap of AG(4,3)), found by depth-first
/// search in index order from the affine basis 0, e1, e2, e3, e4.
///
/// Every 5-point affinely independent subset of a cap can be moved onto that
/// basis, and the 20-caps contain such subsets, so starting there loses nothing;
/// the search takes a few milliseconds.
pub fn maximum_cap() -> Vec<Card> {
    let basis = [
        [0, 0, 0, 0],
        [1, 0, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 1, 0],
        [0, 0, 0, 1],
    ];
    let mut cap = Vec::new();
    let mut forbidden = [false; Card::COUNT];
    for values in basis {
        let card = Card::from_values(values).expect("values below 3");
        add_to_cap(&mut cap, &mut forbidden, card);
    }
    assert!(
        extend_cap(&mut cap, forbidden, 0, 20),
        "AG(4,3) has 20-caps"
    );
    cap
}

fn add_to_cap(cap: &mut Vec<Card>, forbidden: &mut [bool; Card::COUNT], card: Card) {
    for &other in cap.iter() {
        forbidden[Card::third(card, other).index() as usize] = true;
    }
    forbidden[card.index() as usize] = true;
    cap.push(card);
}

fn extend_cap(
    cap: &mut Vec<Card>,
    forbidden: [bool; Card::COUNT],
    from: usize,
    target: usize,
) -> bool {
    if cap.len() == target {
        return true;
    }
    let open = forbidden[from..].iter().filter(|&&f| !f).count();
    if cap.len() + open < target {
        return false;
    }
    for index in from..Card::COUNT {
        if forbidden[index] {
            continue;
        }
        let mut next = forbidden;
        add_to_cap(
            cap,
            &mut next,
            Card::from_index(index as u8).expect("below 81"),
        );
        if extend_cap(cap, next, index + 1, target) {
            return true;
        }
        cap.pop();
    }
    false
}

/// The image of `cards` under a random affine bijection `x -> Mx + t` of `(Z/3)^4`,
/// in random order. Affine bijections map SETs (lines) to SETs, so the image of a
/// SET-free layout is SET-free and the number of SETs never changes.
pub fn random_affine_image(rng: &mut impl Rng, cards: &[Card]) -> Vec<Card> {
    let matrix = random_invertible_matrix(rng);
    let shift: [u8; 4] = std::array::from_fn(|_| rng.random_range(0..3));
    let mut image: Vec<Card> = cards
        .iter()
        .map(|card| {
            let x = card.values();
            let y: [u8; 4] = std::array::from_fn(|r| {
                let dot: u8 = (0..4).map(|c| matrix[r][c] * x[c]).sum();
                (dot + shift[r]) % 3
            });
            Card::from_values(y).expect("values reduced mod 3")
        })
        .collect();
    image.shuffle(rng);
    image
}

fn random_invertible_matrix(rng: &mut impl Rng) -> [[u8; 4]; 4] {
    loop {
        let m: [[u8; 4]; 4] =
            std::array::from_fn(|_| std::array::from_fn(|_| rng.random_range(0..3)));
        if rank_mod3(m) == 4 {
            return m;
        }
    }
}

fn rank_mod3(mut m: [[u8; 4]; 4]) -> usize {
    let mut rank = 0;
    for col in 0..4 {
        let Some(pivot) = (rank..4).find(|&r| m[r][col] != 0) else {
            continue;
        };
        m.swap(rank, pivot);
        // Over Z/3 every non-zero value is its own inverse (1*1 = 2*2 = 1).
        let inverse = m[rank][col];
        let pivot_row = m[rank].map(|v| v * inverse % 3);
        m[rank] = pivot_row;
        for (r, row) in m.iter_mut().enumerate() {
            let factor = row[col];
            if r != rank && factor != 0 {
                for (v, p) in row.iter_mut().zip(pivot_row) {
                    *v = (*v + 3 * 3 - factor * p) % 3;
                }
            }
        }
        rank += 1;
    }
    rank
}
