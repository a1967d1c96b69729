//! The default engine's vectorised core: one row of pairs per instruction pair (AVX-512 VBMI).
//!
//! Data layout (a layout of n ≤ 64 cards; lane j of a 64-byte register = position j):
//!
//! ```text
//!   lanes   zmm  [c0 c1 c2 … c(n-1) 0 … 0]        the cards' index bytes (0..81)
//!   ROWS    81 × 128 bytes, 64-byte aligned         ROWS[a][b] = third card of (a, b); row a = two zmm
//!   slots   2 zmm = 128 bytes                        slots[c] = position + 1 of card c, 0 if absent
//!   after   zmm  [1 2 3 … 64]                        lane j holds j + 1
//!
//!   for each position i:
//!       thirds = vpermt2b(ROWS[c_i], lanes)          64 third cards at once (7-bit index: 2 × 64-byte table)
//!       ks     = vpermt2b(slots, thirds)             their positions + 1 (0 = not on the table)
//!       hits   = (ks > after) & lanes above i        a k-mask: SET {i, j, ks[j] - 1} with i < j < k
//! ```
//!
//! `vpermt2b` looks up 64 bytes in a 128-byte table in one instruction, and
//! both tables here (a row of third cards, the card-to-position map) have 81
//! entries, so a whole row of pairs costs two loads, two permutes and a compare,
//! with no branch; only rows with hits are visited again, to list them.
//!
//! Alternatives measured (12-card layouts, best of 15 sweeps over 1,000 seeded
//! layouts on the shared Xeon of BENCHMARKS.md, which is noisy: ratios matter):
//!
//! - the portable loop over pairs ([`super::portable`], two dependent byte loads and
//!   a branch per pair): listing ~2-3x slower at 12 cards, ~3.5x at 21; counting ~1.7x;
//! - hits left each row by `vpcompressb` on every row, no branch at all: ~10 % slower
//!   than the two passes below (the compresses compete with the permutes for port 5);
//! - visiting hit lanes bit by bit with a branch per row: ~30 % slower (mispredicts);
//! - widening the compressed `j`, `k` to `u64` and interleaving eight triples at a
//!   time straight into the `Vec`'s spare capacity (three permutes and blends):
//!   ~10-20 % slower than the byte columns and one `extend` used below;
//! - the position map built in registers (a masked byte broadcast per card) to
//!   dodge the store-forwarding stall of `slots`: ~40 % slower (a serial chain);
//! - a bit-set formulation (partners of card a = P ∩ (−a − P) on a 81-bit mask, four
//!   digit-wise slab permutations per card): more instructions than the 66 pairs
//!   of a 12-card table, so not pursued.

use std::arch::x86_64::{
    __m512i, _mm512_load_si512, _mm512_mask_cmpgt_epu8_mask, _mm512_maskz_compress_epi8,
    _mm512_maskz_loadu_epi8, _mm512_permutex2var_epi8, _mm512_set1_epi8, _mm512_storeu_si512,
};
use std::mem::MaybeUninit;

use crate::card::Card;
use crate::layout::Triple;

/// Largest layout the vectorised core handles (one lane per card).
pub(super) const MAX_CARDS: usize = 64;

/// Whether this CPU can run the vectorised core (detected once, then one load).
#[inline]
pub(crate) fn available() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    const UNKNOWN: u8 = 0;
    const YES: u8 = 1;
    const NO: u8 = 2;
    static STATE: AtomicU8 = AtomicU8::new(UNKNOWN);
    match STATE.load(Ordering::Relaxed) {
        YES => true,
        NO => false,
        _ => {
            let yes = detect();
            STATE.store(if yes { YES } else { NO }, Ordering::Relaxed);
            yes
        }
    }
}

fn detect() -> bool {
    is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vbmi")
        && is_x86_feature_detected!("avx512vbmi2")
        && is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("bmi1")
}

#[repr(C, align(64))]
struct Rows([[u8; 128]; Card::COUNT]);

/// `ROWS.0[a][b]`: the card completing `a` and `b`, rows padded to two registers.
static ROWS: Rows = third_rows();

const fn third_rows() -> Rows {
    let mut rows = [[0u8; 128]; Card::COUNT];
    let mut a = 0;
    while a < Card::COUNT {
        let mut b = 0;
        while b < Card::COUNT {
            rows[a][b] = third_index(a as u8, b as u8);
            b += 1;
        }
        a += 1;
    }
    Rows(rows)
}

const fn third_index(a: u8, b: u8) -> u8 {
    match (Card::from_index(a), Card::from_index(b)) {
        (Some(a), Some(b)) => a.third(b).index(),
        _ => 0,
    }
}

#[repr(C, align(64))]
struct Bytes128([u8; 128]);

/// Lane j holds j + 1.
#[repr(C, align(64))]
struct Bytes64([u8; 64]);
static AFTER: Bytes64 = Bytes64({
    let mut after = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        after[j] = j as u8 + 1;
        j += 1;
    }
    after
});

/// Lane j holds j.
static LANE_INDEX: Bytes64 = Bytes64({
    let mut lanes = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        lanes[j] = j as u8;
        j += 1;
    }
    lanes
});

/// The registers every row needs.
struct Table {
    lanes: __m512i,
    slots_lo: __m512i,
    slots_hi: __m512i,
    after: __m512i,
    lane_index: __m512i,
    live: u64,
}

impl Table {
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    fn new(cards: &[Card]) -> Table {
        debug_assert!(cards.len() <= MAX_CARDS);
        let live = mask_for(cards.len());
        let mut slots = Bytes128([0; 128]);
        for (position, card) in cards.iter().enumerate() {
            slots.0[card.index() as usize] = position as u8 + 1;
        }
        // SAFETY: `Card` is `repr(transparent)` over `u8`; the masked load reads
        // only the first `cards.len()` bytes (masked-off lanes never fault).
        // `slots` and `AFTER` are 64-byte aligned and 128 / 64 bytes long.
        unsafe {
            Table {
                lanes: _mm512_maskz_loadu_epi8(live, cards.as_ptr().cast()),
                slots_lo: _mm512_load_si512(slots.0.as_ptr().cast()),
                slots_hi: _mm512_load_si512(slots.0.as_ptr().add(64).cast()),
                after: _mm512_load_si512(AFTER.0.as_ptr().cast()),
                lane_index: _mm512_load_si512(LANE_INDEX.0.as_ptr().cast()),
                live,
            }
        }
    }

    /// Positions + 1 of the cards completing card `a` with each lane's card.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    #[inline]
    fn completions(&self, a: Card) -> __m512i {
        let row = &ROWS.0[a.index() as usize];
        // SAFETY: every row is 128 bytes at a 64-byte aligned address.
        let (lo, hi) = unsafe {
            (
                _mm512_load_si512(row.as_ptr().cast()),
                _mm512_load_si512(row.as_ptr().add(64).cast()),
            )
        };
        let thirds = _mm512_permutex2var_epi8(lo, self.lanes, hi);
        _mm512_permutex2var_epi8(self.slots_lo, thirds, self.slots_hi)
    }

    /// Lanes j > i whose completing card lies after j: the SETs {i, j, k} with i < j < k.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    #[inline]
    fn hits(&self, i: usize, completions: __m512i) -> u64 {
        // Bits 0..=i cleared (i < 64, so the shift is in range).
        let above_i = self.live & !(u64::MAX >> (63 - i));
        _mm512_mask_cmpgt_epu8_mask(above_i, completions, self.after)
    }
}

/// The cards that can be the first of a SET `{i < j < k}`: all but the last two.
/// Rows of the last two would only ever be empty (a sixth of the work at 12 cards).
fn smallest_cards(cards: &[Card]) -> &[Card] {
    &cards[..cards.len().saturating_sub(2)]
}

/// Lanes `0..n` set.
const fn mask_for(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Most SETs `MAX_CARDS` cards can hold: each pair lies in at most one SET.
const MAX_SETS: usize = MAX_CARDS * (MAX_CARDS - 1) / 6;

/// See [`super::find_sets_into`]; `cards.len() <= MAX_CARDS`.
///
/// Two passes keep branches off the row loop. Pass one computes every row's hit
/// mask (no branch) and notes which rows hit. Pass two visits only those rows
/// (about one in four for 12 cards): `vpcompressb` packs the hit lanes' `j` and
/// `k + 1` to the front of a register, stored whole at the current end of three
/// byte columns (`i`, `j`, `k + 1`), which are widened into `sets` after one
/// exact reservation (none when there is no SET).
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) fn find_sets_into(cards: &[Card], sets: &mut Vec<Triple>) {
    const COLUMN: usize = MAX_SETS + 64;
    let table = Table::new(cards);
    let mut row_hits = [0u64; MAX_CARDS];
    let mut hit_rows = 0u64;
    let mut count = 0;
    for (i, &a) in smallest_cards(cards).iter().enumerate() {
        let hits = table.hits(i, table.completions(a));
        row_hits[i] = hits;
        hit_rows |= ((hits != 0) as u64) << i;
        count += hits.count_ones() as usize;
    }
    if count == 0 {
        return;
    }
    let mut columns = [MaybeUninit::<[u8; COLUMN]>::uninit(); 3];
    let [is, js, ks] = columns.each_mut().map(|c| c.as_mut_ptr().cast::<u8>());
    let mut end = 0;
    while hit_rows != 0 {
        let i = hit_rows.trailing_zeros() as usize;
        hit_rows &= hit_rows - 1;
        let hits = row_hits[i];
        let completions = table.completions(cards[i]);
        // SAFETY: `end` SETs precede this row and a layout of at most
        // MAX_CARDS cards holds at most MAX_SETS, so the 64-byte stores at
        // `end` stay inside the COLUMN = MAX_SETS + 64 bytes of each column.
        unsafe {
            _mm512_storeu_si512(is.add(end).cast(), _mm512_set1_epi8(i as i8));
            let j = _mm512_maskz_compress_epi8(hits, table.lane_index);
            _mm512_storeu_si512(js.add(end).cast(), j);
            let k = _mm512_maskz_compress_epi8(hits, completions);
            _mm512_storeu_si512(ks.add(end).cast(), k);
        }
        end += hits.count_ones() as usize;
    }
    // SAFETY: every byte below `count` (= `end`) of each column was written above.
    let (is, js, ks) = unsafe {
        (
            std::slice::from_raw_parts(is, count),
            std::slice::from_raw_parts(js, count),
            std::slice::from_raw_parts(ks, count),
        )
    };
    // Zipped slices have an exact length: `extend` reserves once, checks nothing per SET.
    let triples = is.iter().zip(js).zip(ks);
    sets.extend(triples.map(|((&i, &j), &k)| [i as usize, j as usize, k as usize - 1]));
}

/// See [`super::count_sets`]; `cards.len() <= MAX_CARDS`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) fn count_sets(cards: &[Card]) -> usize {
    let table = Table::new(cards);
    let mut count = 0;
    for (i, &a) in smallest_cards(cards).iter().enumerate() {
        count += table.hits(i, table.completions(a)).count_ones() as usize;
    }
    count
}

/// See [`super::has_set`]; `cards.len() <= MAX_CARDS`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) fn has_set(cards: &[Card]) -> bool {
    let table = Table::new(cards);
    for (i, &a) in smallest_cards(cards).iter().enumerate() {
        if table.hits(i, table.completions(a)) != 0 {
            return true;
        }
    }
    false
}
