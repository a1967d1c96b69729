//! The simulator's vectorised table (AVX-512 VBMI): the same games as the
//! portable [`super::Game`], with the table in one register.
//!
//! ```text
//!   table      zmm  [c0 c1 … c(len-1) 0 … 0]      cards in table order (lane = position)
//!   present    2 zmm = 128 bytes                   present[card] = 1 on the table, else 0
//!   ABOVE[c]   2 zmm = 128 bytes (64-byte aligned)  third card of (a, c) if above a, else 81
//!   columns    3 × bytes                            the SETs: a, b, c of SET i in column[.][i]
//!
//!   deal card c:   thirds = vpermt2b(ABOVE[c], table)      for every table card a at once
//!                  hits   = vpermt2b(present, thirds) ≠ 0   lanes whose SET {a, b, c} is complete
//!                  vpcompressb the hit lanes of `table` and `thirds` to the ends of the columns
//!   take a SET:    clear its three present bytes; vpcompressb the table and the
//!                  columns to the lanes whose cards are all still present
//! ```
//!
//! Against the portable loop (one lookup and one store per table card per
//! dealt card, about 760 per game) this is about ten instructions per dealt
//! card, none of them a branch. The SET columns keep the portable order
//! (table order of the older card, then dealing order), so a random pick by
//! index takes the same SET in both engines and the games are identical; the
//! tests check that game by game.

use std::arch::x86_64::{
    __m512i, _mm512_load_si512, _mm512_loadu_si512, _mm512_mask_set1_epi8,
    _mm512_mask_test_epi8_mask, _mm512_maskz_compress_epi8, _mm512_permutex2var_epi8,
    _mm512_set1_epi8, _mm512_setzero_si512, _mm512_storeu_si512,
};

use super::{
    MAX_SETS, ORDERED_DECK, Pick, Player, Position, THIRD_ABOVE, Tally, below, first_set, rng_for,
    shuffle,
};

/// Bytes per SET column: room for every chunk of SETs plus one whole register
/// stored past the end.
const COLUMN: usize = 64 * CHUNKS + 64;

/// A game on the vectorised table. Exists only on CPUs that run it.
#[derive(Clone, Debug)]
pub(super) struct Game {
    deck: [u8; 81],
    /// SET `i` is `[columns[0][i], columns[1][i], columns[2][i]]`; kept apart
    /// from the [`Table`] so that stores to it cannot alias the registers.
    columns: [[u8; COLUMN]; 3],
}

/// The table and its SET count: a local of the play loop, so it stays in registers.
#[derive(Clone, Copy)]
struct Table {
    cards: __m512i,
    present_lo: __m512i,
    present_hi: __m512i,
    len: usize,
    set_count: usize,
}

impl Game {
    /// A game, if this CPU has the instructions.
    pub(super) fn new() -> Option<Game> {
        crate::finders::vbmi_available().then_some(Game {
            deck: ORDERED_DECK,
            columns: [[0; COLUMN]; 3],
        })
    }

    /// The portable `play` loop, compiled with the vector instructions.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    fn play_here(
        &mut self,
        pick: Pick,
        seed: u64,
        index: u64,
        mut report: impl FnMut(Position),
    ) -> Tally {
        let mut rng = rng_for(seed, index);
        self.deck = ORDERED_DECK;
        shuffle(&mut rng, &mut self.deck);
        let columns = &mut self.columns;
        let mut table = Table {
            cards: _mm512_setzero_si512(),
            present_lo: _mm512_setzero_si512(),
            present_hi: _mm512_setzero_si512(),
            len: 0,
            set_count: 0,
        };
        let mut tally = Tally::default();
        let mut dealt = 0;
        let mut deal = |table: &mut Table, columns: &mut [[u8; COLUMN]; 3], n: usize| {
            let end = (dealt + n).min(81);
            for &card in &self.deck[dealt..end] {
                table.add(card, columns);
            }
            dealt = end;
            81 - end
        };
        let mut deck_left = deal(&mut table, columns, 12);
        loop {
            let position = Position {
                table: table.len,
                deck: deck_left,
                sets: table.set_count,
            };
            report(position);
            tally.count(position);
            if table.set_count == 0 {
                if deck_left == 0 {
                    tally.left = table.len;
                    return tally;
                }
                deck_left = deal(&mut table, columns, 3);
            } else {
                let set = |i: usize| [columns[0][i], columns[1][i], columns[2][i]];
                let chosen = match pick {
                    Pick::Random => set(below(&mut rng, table.set_count as u64) as usize),
                    Pick::First => {
                        let mut cards = [0u8; 64];
                        // SAFETY: `cards` is 64 bytes.
                        unsafe { _mm512_storeu_si512(cards.as_mut_ptr().cast(), table.cards) };
                        first_set(&cards[..table.len], (0..table.set_count).map(set))
                    }
                };
                table.take(chosen, columns);
                tally.taken += 1;
                let missing = 12usize.saturating_sub(table.len);
                deck_left = deal(&mut table, columns, missing);
            }
        }
    }
}

impl Table {
    /// `present` looked up for 64 cards at once (card 81, "none", reads 0).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    #[inline]
    fn present(&self, cards: __m512i) -> __m512i {
        _mm512_permutex2var_epi8(self.present_lo, cards, self.present_hi)
    }

    /// Sets or clears the present bytes of the cards in `cards` (a 128-bit card mask).
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    #[inline]
    fn mark(&mut self, cards: u128, value: i8) {
        self.present_lo = _mm512_mask_set1_epi8(self.present_lo, cards as u64, value);
        self.present_hi = _mm512_mask_set1_epi8(self.present_hi, (cards >> 64) as u64, value);
    }

    /// Puts `card` on the table and appends the SETs it makes there to `columns`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    #[inline]
    fn add(&mut self, card: u8, columns: &mut [[u8; COLUMN]; 3]) {
        let row = &THIRD_ABOVE.0[usize::from(card)];
        // SAFETY: every row is 128 bytes at a 64-byte aligned address.
        let (lo, hi) = unsafe {
            (
                _mm512_load_si512(row.as_ptr().cast()),
                _mm512_load_si512(row.as_ptr().add(64).cast()),
            )
        };
        let thirds = _mm512_permutex2var_epi8(lo, self.cards, hi);
        let flags = self.present(thirds);
        let hits = _mm512_mask_test_epi8_mask(lanes(self.len), flags, flags);
        let end = self.set_count;
        let new = [self.cards, thirds, _mm512_set1_epi8(card as i8)];
        for (column, values) in columns.iter_mut().zip(new) {
            // A table holds at most MAX_SETS SETs, so the slice is in bounds.
            let dst = &mut column[end..end + 64];
            // SAFETY: `dst` is 64 bytes long.
            unsafe {
                _mm512_storeu_si512(
                    dst.as_mut_ptr().cast(),
                    _mm512_maskz_compress_epi8(hits, values),
                )
            };
        }
        self.set_count = end + hits.count_ones() as usize;
        self.cards = _mm512_mask_set1_epi8(self.cards, 1 << self.len, card as i8);
        self.len += 1;
        self.mark(1 << card, 1);
    }

    /// Takes `set` off the table with every SET in `columns` that shares a card with it.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    #[inline]
    fn take(&mut self, set: [u8; 3], columns: &mut [[u8; COLUMN]; 3]) {
        self.mark(set.iter().fold(0, |m, &c| m | 1 << c), 0);
        let flags = self.present(self.cards);
        let keep = _mm512_mask_test_epi8_mask(lanes(self.len), flags, flags);
        self.cards = _mm512_maskz_compress_epi8(keep, self.cards);
        self.len = keep.count_ones() as usize;
        // Chunks of 64 SETs; all are loaded before any is stored back, since
        // a compressed store writes a whole register past its chunk's end.
        let count = self.set_count;
        let mut loaded = [[_mm512_setzero_si512(); 3]; CHUNKS];
        let mut keeps = [0u64; CHUNKS];
        for chunk in 0..count.div_ceil(64) {
            let start = 64 * chunk;
            let mut all = lanes(count - start);
            for (value, column) in loaded[chunk].iter_mut().zip(columns.iter()) {
                let src = &column[start..start + 64];
                // SAFETY: `src` is 64 bytes long.
                *value = unsafe { _mm512_loadu_si512(src.as_ptr().cast()) };
                let flags = self.present(*value);
                all = _mm512_mask_test_epi8_mask(all, flags, flags);
            }
            keeps[chunk] = all;
        }
        let mut kept = 0;
        for chunk in 0..count.div_ceil(64) {
            for (column, &value) in columns.iter_mut().zip(&loaded[chunk]) {
                let dst = &mut column[kept..kept + 64];
                // SAFETY: `dst` is 64 bytes long.
                unsafe {
                    _mm512_storeu_si512(
                        dst.as_mut_ptr().cast(),
                        _mm512_maskz_compress_epi8(keeps[chunk], value),
                    )
                };
            }
            kept += keeps[chunk].count_ones() as usize;
        }
        self.set_count = kept;
    }
}

/// Chunks of 64 lanes that hold every SET of a table.
const CHUNKS: usize = (MAX_SETS + 1).div_ceil(64);

impl Player for Game {
    fn play(&mut self, pick: Pick, seed: u64, index: u64, report: impl FnMut(Position)) -> Tally {
        // SAFETY: a `Game` is only made by `Game::new`, which checked the CPU.
        unsafe { self.play_here(pick, seed, index, report) }
    }
}

/// Lanes `0..n` (all 64 for `n ≥ 64`).
#[inline]
fn lanes(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}
