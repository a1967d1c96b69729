//! The built-in table `snapsolve set photo` reads when no photo is given: a
//! rendered table (`snapsolve_synth::render_table`) of 12 cards drawn from a
//! fixed seed, made on the fly, so a fresh clone can run the whole photo path
//! without any data.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use snapsolve_set::Card;
use snapsolve_synth::{Edition, Table, TableSpec, render_table};
use snapsolve_vision::Photo;

/// Seed of the built-in table (which cards, where, and how the camera sees them).
pub const EXAMPLE_SEED: u64 = 2026;

/// `count` distinct cards drawn from the seed.
pub fn seeded_cards(count: usize, seed: u64) -> Vec<Card> {
    let mut cards: Vec<Card> = Card::all().collect();
    cards.shuffle(&mut StdRng::seed_from_u64(seed));
    cards.truncate(count);
    cards
}

/// The built-in table and the truth about it: 12 standard-deck cards, 1280x960.
pub fn example_table() -> Table {
    render_table(&TableSpec::new(
        seeded_cards(12, EXAMPLE_SEED),
        Edition::Standard,
        EXAMPLE_SEED,
    ))
}

/// The built-in table as a photo, ready for [`super::read_table`].
pub fn example_photo() -> Photo {
    Photo::from_upright(example_table().image)
}
