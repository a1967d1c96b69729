//! The default engine's core for tables of up to 16 cards (AVX-512 VBMI): every
//! pair of the table in at most four registers, the third card computed with
//! bit logic instead of looked up.
//!
//! Why a second vectorised core: a table on the playing field has 12 or 15
//! cards, and at that size the row-per-register core ([`super::vbmi`]) spends
//! a register of 64 lanes on a row of 12 pairs. Here the pairs are packed four
//! rows to a register, so 12 cards take 3 registers instead of 10 rows:
//!
//! ```text
//!   code(card)  one byte, 2 bits per attribute: digit d ∈ {0, 1, 2} stored as 00, 01, 10
//!   register r  lane l = 16·(i − 4r) + j   for rows i = 4r..4r+3, columns j = 0..15
//!   a, b        code(c_i), code(c_j) per lane          (one byte permute each, from the codes)
//!   x = a ^ b   per attribute: 00 when equal, else the XOR of two different digits
//!   third       equal → a;  different → ~x (01^10 → 00, 00^01 → 10, 00^10 → 01)
//!   index       CODE_TO_INDEX[third]: codes reach 170, so two permutes and a blend on bit 7
//!   k + 1       slots[index]: card index → position + 1 (one permute, as in the row core)
//!   hits        k + 1 > j + 1, on lanes with i < j < n: the SETs {i, j, k} with i < j < k
//! ```
//!
//! Each register ends with two `vpcompressb` (pair ids `16 i + j` and `k + 1`)
//! appended, by a masked byte permute, to two registers that gather every SET,
//! with no branch: at 12 cards that is 3 registers against the row core's 10
//! rows of two permutes each.
//! Lanes come out in `(i, j)` order, so the SETs are sorted without sorting.
//!
//! Measured (BENCHMARKS.md, "SET finders", binaries alternated): listing the
//! SETs of a random 12-card table in ~52-60 ns against ~74-92 ns for the row
//! core. Two things that lost, both for the same reason: a position map indexed
//! by *code*, and SETs stored at a running offset and read back at once. One: a position map indexed by *code* (256 bytes, saving the
//! code → index permute) was 2-3x slower than the row core. The map is built
//! with byte stores and read back with wide loads; when the store addresses
//! come from a table lookup (the code of each card) they resolve late, the wide
//! loads run ahead of them, and the CPU throws the work away (a memory-ordering
//! machine clear) on most calls. Indexed by card index, the addresses are known
//! as soon as the cards are loaded. The running-offset columns (what the row
//! core does) had the same problem on the way out, hence the gathering in
//! registers and one store at a fixed address.

use std::arch::x86_64::{
    __m512i, _mm_maskz_loadu_epi8, _mm512_add_epi8, _mm512_and_si512, _mm512_load_si512,
    _mm512_mask_blend_epi8, _mm512_mask_cmpgt_epu8_mask, _mm512_mask_permutexvar_epi8,
    _mm512_maskz_compress_epi8, _mm512_maskz_permutexvar_epi8, _mm512_movepi8_mask,
    _mm512_or_si512, _mm512_permutex2var_epi8, _mm512_permutexvar_epi8, _mm512_set1_epi8,
    _mm512_setzero_si512, _mm512_slli_epi16, _mm512_srli_epi16, _mm512_store_si512,
    _mm512_storeu_si512, _mm512_sub_epi8, _mm512_ternarylogic_epi32, _mm512_xor_si512,
    _mm512_zextsi128_si512,
};

use crate::card::Card;
use crate::layout::Triple;

/// Largest table this core handles: 16 columns per row, four rows per register.
pub(super) const MAX_CARDS: usize = 16;

/// Most SETs 16 cards can hold (each pair lies in at most one SET): they all
/// fit in one register of 64 lanes, which is how they are gathered.
const MAX_SETS: usize = MAX_CARDS * (MAX_CARDS - 1) / 6;
const _: () = assert!(MAX_SETS < 64);

#[repr(C, align(64))]
struct Bytes<const N: usize>([u8; N]);

/// The byte code of a card index: base-3 digit `d` in bits `2d..2d+2`.
const fn code_of(index: usize) -> u8 {
    let (mut code, mut rest, mut shift) = (0usize, index, 0);
    while shift < 8 {
        code |= (rest % 3) << shift;
        rest /= 3;
        shift += 2;
    }
    code as u8
}

/// `CODES.0[index]`: the code of each card, padded to two registers.
static CODES: Bytes<128> = Bytes({
    let mut codes = [0u8; 128];
    let mut index = 0;
    while index < Card::COUNT {
        codes[index] = code_of(index);
        index += 1;
    }
    codes
});

/// `CODE_TO_INDEX.0[code]`: the card index of a code (unused codes: 0).
static CODE_TO_INDEX: Bytes<256> = Bytes({
    let mut indices = [0u8; 256];
    let mut index = 0;
    while index < Card::COUNT {
        indices[code_of(index) as usize] = index as u8;
        index += 1;
    }
    indices
});

/// Lane l of register r: the row `i = 4r + l / 16` (as an offset from 4r) and column `j = l % 16`.
static ROW_IN_REGISTER: Bytes<64> = lanes(16, 4, 0);
static COLUMN: Bytes<64> = lanes(1, 16, 0);
/// `j + 1`: a completion at position k lies after j when `k + 1 > j + 1`.
static COLUMN_PLUS_ONE: Bytes<64> = lanes(1, 16, 1);
/// The lane number, which is the pair id `16 i + j` less `64 r`.
static LANE: Bytes<64> = lanes(1, 64, 0);

/// Lane l holds `(l / divisor) % modulus + offset`.
const fn lanes(divisor: usize, modulus: usize, offset: usize) -> Bytes<64> {
    let mut out = [0u8; 64];
    let mut l = 0;
    while l < 64 {
        out[l] = ((l / divisor) % modulus + offset) as u8;
        l += 1;
    }
    Bytes(out)
}

/// Lanes with `i < j` in register r (rows `4r..4r+3`).
const fn upper_pairs(r: usize) -> u64 {
    let mut mask = 0u64;
    let mut l = 0;
    while l < 64 {
        if 4 * r + l / 16 < l % 16 {
            mask |= 1 << l;
        }
        l += 1;
    }
    mask
}
const UPPER_PAIRS: [u64; 4] = [
    upper_pairs(0),
    upper_pairs(1),
    upper_pairs(2),
    upper_pairs(3),
];

/// Per attribute: the low bit set where a pair of codes differs (bits 0, 2, 4, 6).
const LOW_BITS: u8 = 0x55;
/// Ternary-logic tables (inputs A = 0xF0, B = 0xCC, C = 0xAA).
const A_OR_B_AND_C: i32 = 0xA8;
const A_ANDNOT_B_OR_NOT_A_AND_C: i32 = 0x3A;

/// The registers every pair register needs.
struct Table {
    codes: __m512i,
    code_to_index: [__m512i; 4],
    slots: [__m512i; 2],
    /// Columns `j < n`, in all four rows of a register.
    columns: u64,
    registers: usize,
}

impl Table {
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    fn new(cards: &[Card]) -> Table {
        debug_assert!(cards.len() <= MAX_CARDS);
        let n = cards.len();
        let mut slots = Bytes([0u8; 128]);
        for (position, card) in cards.iter().enumerate() {
            slots.0[card.index() as usize] = position as u8 + 1;
        }
        let live = (1u64 << n) - 1;
        // SAFETY: `Card` is `repr(transparent)` over `u8`; the masked load reads
        // only the first n ≤ 16 bytes. `CODES` and `slots` are 64-byte aligned
        // and 128 / 256 bytes long.
        unsafe {
            // A 16-byte load: a 64-byte one would reach 48 bytes past the cards.
            let indices =
                _mm512_zextsi128_si512(_mm_maskz_loadu_epi8(live as u16, cards.as_ptr().cast()));
            let codes = _mm512_permutex2var_epi8(
                _mm512_load_si512(CODES.0.as_ptr().cast()),
                indices,
                _mm512_load_si512(CODES.0.as_ptr().add(64).cast()),
            );
            let slot = |part: usize| _mm512_load_si512(slots.0.as_ptr().add(64 * part).cast());
            let index =
                |part: usize| _mm512_load_si512(CODE_TO_INDEX.0.as_ptr().add(64 * part).cast());
            Table {
                codes,
                code_to_index: [index(0), index(1), index(2), index(3)],
                slots: [slot(0), slot(1)],
                columns: live * 0x0001_0001_0001_0001,
                // Rows 0..n-2 can hold the first card of a SET, four to a register.
                registers: n.saturating_sub(2).div_ceil(4),
            }
        }
    }

    /// Register r's positions + 1 of the card completing each pair (0: not on the table),
    /// and the lanes that are SETs `{i, j, k}` with `i < j < k`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
    #[inline]
    fn register(&self, r: usize) -> (__m512i, u64) {
        // SAFETY: the lane tables are 64-byte aligned and 64 bytes long.
        let (rows, columns, after) = unsafe {
            (
                _mm512_load_si512(ROW_IN_REGISTER.0.as_ptr().cast()),
                _mm512_load_si512(COLUMN.0.as_ptr().cast()),
                _mm512_load_si512(COLUMN_PLUS_ONE.0.as_ptr().cast()),
            )
        };
        let rows = _mm512_add_epi8(rows, _mm512_set1_epi8(4 * r as i8));
        let a = _mm512_permutexvar_epi8(rows, self.codes);
        let b = _mm512_permutexvar_epi8(columns, self.codes);
        let x = _mm512_xor_si512(a, b);
        let differ = _mm512_ternarylogic_epi32::<A_OR_B_AND_C>(
            x,
            _mm512_srli_epi16::<1>(x),
            _mm512_set1_epi8(LOW_BITS as i8),
        );
        let differ = _mm512_or_si512(differ, _mm512_slli_epi16::<1>(differ));
        let third = _mm512_ternarylogic_epi32::<A_ANDNOT_B_OR_NOT_A_AND_C>(differ, x, a);
        // Codes reach 170: bit 7 picks the upper half of the map.
        let upper = _mm512_movepi8_mask(third);
        let [i0, i1, i2, i3] = self.code_to_index;
        let low = _mm512_permutex2var_epi8(i0, third, i1);
        let high = _mm512_permutex2var_epi8(i2, third, i3);
        let third = _mm512_mask_blend_epi8(upper, low, high);
        let completions = _mm512_permutex2var_epi8(self.slots[0], third, self.slots[1]);
        let lanes = UPPER_PAIRS[r] & self.columns;
        (
            completions,
            _mm512_mask_cmpgt_epu8_mask(lanes, completions, after),
        )
    }
}

/// See [`super::find_sets_into`]; `cards.len() <= MAX_CARDS`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) fn find_sets_into(cards: &[Card], sets: &mut Vec<Triple>) {
    let table = Table::new(cards);
    // SAFETY: the lane table is 64-byte aligned and 64 bytes long.
    let lane = unsafe { _mm512_load_si512(LANE.0.as_ptr().cast()) };
    // The SETs found so far, packed in registers: pair ids `16 i + j` and `k + 1`.
    let (mut ids, mut ks) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    let mut count = 0;
    for r in 0..table.registers {
        let (completions, hits) = table.register(r);
        let id = _mm512_add_epi8(lane, _mm512_set1_epi8((64 * r) as u8 as i8));
        // This register's hits go into lanes count.. of the packed registers:
        // lane l takes the compressed lane l - count (at most MAX_SETS < 64 in all).
        let from = _mm512_sub_epi8(lane, _mm512_set1_epi8(count as i8));
        let after_count = !((1u64 << count) - 1);
        ids = _mm512_mask_permutexvar_epi8(
            ids,
            after_count,
            from,
            _mm512_maskz_compress_epi8(hits, id),
        );
        ks = _mm512_mask_permutexvar_epi8(
            ks,
            after_count,
            from,
            _mm512_maskz_compress_epi8(hits, completions),
        );
        count += hits.count_ones() as usize;
    }
    if count == 0 {
        return;
    }
    if count <= SHORT_LIST {
        write_short_list(ids, ks, count, sets);
        return;
    }
    // Read back through a buffer at a fixed address. (Stores at a running
    // offset, read back at once, cost a memory-ordering machine clear on most
    // calls: the loads ran ahead of stores whose addresses were not known yet.)
    let mut packed = Bytes([0u8; 128]);
    // SAFETY: `packed` is 64-byte aligned and 128 bytes long.
    unsafe {
        _mm512_store_si512(packed.0.as_mut_ptr().cast(), ids);
        _mm512_store_si512(packed.0.as_mut_ptr().add(64).cast(), ks);
    }
    let (ids, ks) = packed.0.split_at(64);
    sets.extend(ids[..count].iter().zip(&ks[..count]).map(|(&id, &k)| {
        [
            usize::from(id >> 4),
            usize::from(id & 15),
            usize::from(k) - 1,
        ]
    }));
}

/// Up to this many SETs are written as whole registers, with no loop (a
/// random 12-card table holds 2.8 on average, 15 cards 5.4).
const SHORT_LIST: usize = 8;

/// Byte lanes 0..8 = i, 8..16 = j (two-table index: 64.. is the second table).
static I_THEN_J: Bytes<64> = Bytes({
    let mut index = [0u8; 64];
    let mut l = 0;
    while l < 16 {
        index[l] = if l < 8 { l as u8 } else { 64 + l as u8 - 8 };
        l += 1;
    }
    index
});

/// The flat `[i, j, k]` list of 8 triples as 24 u64 lanes over three registers:
/// lane p of the list is component `p % 3` of triple `p / 3`, which sits at
/// byte `8 (p % 3) + p / 3` of the gathered i-j-k register; only byte 0 of each
/// u64 lane is taken (the rest are zeroed by the mask).
static TRIPLE_LANES: [Bytes<64>; 3] = [triple_lanes(0), triple_lanes(1), triple_lanes(2)];

const fn triple_lanes(register: usize) -> Bytes<64> {
    let mut index = [0u8; 64];
    let mut q = 0;
    while q < 8 {
        let p = 8 * register + q;
        index[8 * q] = (8 * (p % 3) + p / 3) as u8;
        q += 1;
    }
    Bytes(index)
}

/// Byte 0 of every u64 lane.
const LOW_BYTES: u64 = 0x0101_0101_0101_0101;

/// Appends `count <= SHORT_LIST` SETs from the gathered pair ids and `k + 1`
/// as three whole-register stores of `[usize; 3]` triples, with no loop: the
/// list's length varies from call to call, so a loop over it would mispredict
/// its exit on most calls.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
fn write_short_list(ids: __m512i, ks: __m512i, count: usize, sets: &mut Vec<Triple>) {
    debug_assert!(count <= SHORT_LIST);
    const _: () = assert!(std::mem::size_of::<Triple>() == 24);
    let low_nibble = _mm512_set1_epi8(0x0F);
    let i = _mm512_and_si512(_mm512_srli_epi16::<4>(ids), low_nibble);
    let j = _mm512_and_si512(ids, low_nibble);
    let k = _mm512_sub_epi8(ks, _mm512_set1_epi8(1));
    // SAFETY: the lane tables are 64-byte aligned and 64 bytes long.
    let (i_then_j, k_from, triples) = unsafe {
        (
            _mm512_load_si512(I_THEN_J.0.as_ptr().cast()),
            _mm512_sub_epi8(
                _mm512_load_si512(LANE.0.as_ptr().cast()),
                _mm512_set1_epi8(16),
            ),
            TRIPLE_LANES
                .each_ref()
                .map(|t| _mm512_load_si512(t.0.as_ptr().cast())),
        )
    };
    let ijk = _mm512_permutex2var_epi8(i, i_then_j, j);
    let ijk = _mm512_mask_permutexvar_epi8(ijk, 0xFF << 16, k_from, k);
    sets.reserve(SHORT_LIST);
    let len = sets.len();
    // SAFETY: `reserve` made room for SHORT_LIST triples (3 x 64 bytes) after
    // `len`; the first `count` of them are written here before `set_len`, and
    // `Triple` is three `usize`s (u64 on x86-64) with no padding.
    unsafe {
        let out = sets.as_mut_ptr().add(len).cast::<__m512i>();
        for (r, lanes) in triples.into_iter().enumerate() {
            let part = _mm512_maskz_permutexvar_epi8(LOW_BYTES, lanes, ijk);
            _mm512_storeu_si512(out.add(r), part);
        }
        sets.set_len(len + count);
    }
}

/// See [`super::count_sets`]; `cards.len() <= MAX_CARDS`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) fn count_sets(cards: &[Card]) -> usize {
    // Plain loops, not iterator closures: a closure does not inherit the
    // function's target features, so `register` would not be inlined into it.
    let table = Table::new(cards);
    let mut count = 0;
    for r in 0..table.registers {
        count += table.register(r).1.count_ones() as usize;
    }
    count
}

/// See [`super::has_set`]; `cards.len() <= MAX_CARDS`.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi1")]
pub(super) fn has_set(cards: &[Card]) -> bool {
    let table = Table::new(cards);
    for r in 0..table.registers {
        if table.register(r).1 != 0 {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_make_the_third_card_by_bit_logic() {
        // The scalar form of the register code, on every pair of cards.
        for a in Card::all() {
            for b in Card::all() {
                let (ca, cb) = (code_of(a.index().into()), code_of(b.index().into()));
                let x = ca ^ cb;
                let mut differ = (x | x >> 1) & LOW_BITS;
                differ |= differ << 1;
                let third = (differ & !x) | (!differ & ca);
                assert_eq!(third, code_of(a.third(b).index().into()), "{a} {b}");
            }
        }
    }

    #[test]
    fn ternary_tables_are_the_functions_named() {
        let (a, b, c) = (0xF0u8, 0xCCu8, 0xAAu8);
        assert_eq!(A_OR_B_AND_C, i32::from((a | b) & c));
        assert_eq!(A_ANDNOT_B_OR_NOT_A_AND_C, i32::from((a & !b) | (!a & c)));
    }
}
