//! Constant tables and bit helpers of the band words (layout in the parent module).

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;
/// One row of a band.
pub(super) const ROW: u32 = 0x1ff;
/// The first cell of each row of a band.
pub(super) const ROW_STARTS: u32 = 1 | 1 << 9 | 1 << 18;
/// The first cell of each of the 9 triads (three cells where a row crosses a box).
pub(super) const TRIAD_STARTS: u32 = 0x124_9249;

/// The six 3x3 permutation matrices (bit `3 * i + j` = entry (i, j)).
pub(super) const PERMS: [u16; 6] = [
    0b100_010_001,
    0b010_100_001,
    0b100_001_010,
    0b001_100_010,
    0b010_001_100,
    0b001_010_100,
];

/// Which of the 3 boxes a 9-bit row touches: bit k set if columns 3k..3k+2 are not empty.
const ROW_BOXES: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut row = 0;
    while row < 512 {
        let mut k = 0;
        while k < 3 {
            if (row >> (3 * k)) & 7 != 0 {
                table[row] |= 1 << k;
            }
            k += 1;
        }
        row += 1;
    }
    table
};

/// For a 3x3 boolean matrix, the entries that lie on at least one permutation contained
/// in the matrix; 0 when the matrix contains none.
const PERM_KEEP: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            if m as u16 & PERMS[p] == PERMS[p] {
                table[m] |= PERMS[p];
            }
            p += 1;
        }
        m += 1;
    }
    table
};

#[cfg(test)]
/// How many permutations a 3x3 matrix contains: the digit's *configurations* in a band
/// (which box each row's copy goes to) or in a stack (which band each column's copy
/// goes to).
pub(super) const PERM_COUNT: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            if m as u16 & PERMS[p] == PERMS[p] {
                table[m] += 1;
            }
            p += 1;
        }
        m += 1;
    }
    table
};

/// Cells of a band in the triads of a row/box matrix (bit `3 * row + box`).
pub(super) const fn triad_cells(matrix: u32) -> u32 {
    let mut cells = 0;
    let mut t = 0;
    while t < 9 {
        if matrix & (1 << t) != 0 {
            cells |= 7 << (9 * (t / 3) + 3 * (t % 3));
        }
        t += 1;
    }
    cells
}

/// The low bit of each of a `u64`'s eight bytes.
pub(super) const BYTE_LOWS: u64 = 0x0101_0101_0101_0101;

/// `SPREAD[b]`: bit `k` of `b` moved to the low bit of byte `k` (BMI2's `pdep` with
/// [`BYTE_LOWS`] does it in one instruction).
pub(super) static SPREAD: [u64; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            table[b] |= ((b as u64 >> k) & 1) << (8 * k);
            k += 1;
        }
        b += 1;
    }
    table
};

/// Row/box triad matrix of a band → mask of the band's cells in the triads kept by
/// [`PERM_KEEP`]; 0 when the digit cannot be placed in the band at all.
pub(super) const H_FILTER: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        table[m] = triad_cells(PERM_KEEP[m] as u32);
        m += 1;
    }
    table
};

/// Builds a 512-entry table: column set of a band → mask for another band of the same
/// digit that removes, in each stack where the set has exactly `count` columns, those
/// columns (and everything, when the stack has fewer than `count`: a contradiction).
const fn stack_mask(count: u32) -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut keep = ROW;
        let mut stack = 0;
        while stack < 3 {
            let cols = (s as u32 >> (3 * stack)) & 7;
            if cols.count_ones() == count {
                keep &= !(cols << (3 * stack));
            } else if cols.count_ones() < count {
                keep = 0;
            }
            stack += 1;
        }
        table[s] = columns_mask(keep);
        s += 1;
    }
    table
}

/// One band's digit sits in a single column of a stack: no other band may use that
/// column (vertical pointing).
pub(super) const V_SINGLE: [u32; 512] = stack_mask(1);
/// Two bands' digits use only two columns of a stack between them: each takes one, so
/// the third band may use neither (vertical claiming, a Hall set of two bands).
pub(super) const V_PAIR: [u32; 512] = stack_mask(2);

/// 9 column bits → the same columns in all three rows of a band.
#[inline(always)]
pub(super) const fn columns_mask(cols: u32) -> u32 {
    cols | (cols << 9) | (cols << 18)
}

/// The digit's two other band words of word `i`.
/// (Bytes: one entry is one address and two byte loads, where `usize` pairs took a
/// shift, an address and two loads.)
pub(super) const OTHER_BANDS: [[u8; 2]; 27] = {
    let mut table = [[0; 2]; 27];
    let mut i = 0;
    while i < 27 {
        table[i] = [((i + 9) % 27) as u8, ((i + 18) % 27) as u8];
        i += 1;
    }
    table
};

/// Row/box triad matrix of a band word: bit `3 * row + box`.
#[inline(always)]
pub(super) fn triads(a: u32) -> usize {
    usize::from(ROW_BOXES[(a & ROW) as usize])
        | usize::from(ROW_BOXES[((a >> 9) & ROW) as usize]) << 3
        | usize::from(ROW_BOXES[(a >> 18) as usize]) << 6
}

/// Cells of a band word that are alone in their row.
#[inline(always)]
pub(super) fn lone_cells(a: u32) -> u32 {
    debug_assert!((0..3).all(|row| a & (ROW << (9 * row)) != 0));
    lone_cells_raw(a)
}

/// [`lone_cells`] for any word: exact when every row is non-empty, which a filtered
/// word has; otherwise some set of the word's cells.
#[inline(always)]
pub(super) fn lone_cells_raw(a: u32) -> u32 {
    // With every row non-empty, subtracting 1 from each row does not borrow across
    // rows: `a & (a - ones)` clears each row's lowest cell.
    const LOW8: u32 = 0xff | 0xff << 9 | 0xff << 18;
    const TOP: u32 = 1 << 8 | 1 << 17 | 1 << 26;
    let rest = a & a.wrapping_sub(ROW_STARTS);
    // Top bit of each row of `busy`: the row has a second cell.
    let busy = ((rest & LOW8) + LOW8) | rest;
    let lone_rows = !busy & TOP;
    a & ((lone_rows >> 8) * ROW)
}

/// Columns (9 bits) where a band word has a candidate.
#[inline(always)]
pub(super) fn columns(a: u32) -> u32 {
    (a | (a >> 9) | (a >> 18)) & ROW
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_tables() {
        // Identity only.
        assert_eq!(PERM_KEEP[0b100_010_001], 0b100_010_001);
        // Full matrix keeps everything; an empty row keeps nothing.
        assert_eq!(PERM_KEEP[0x1ff], 0x1ff);
        assert_eq!(PERM_KEEP[0b111_111_000], 0);
        // Row 0 only in column 0: column 0 is taken from rows 1 and 2.
        assert_eq!(PERM_KEEP[0b111_111_001], 0b110_110_001);
        assert_eq!(PERM_COUNT[0x1ff], 6);
        assert_eq!(PERM_COUNT[0b110_110_001], 2);
        // A closed matrix (every entry on a permutation) has 1, 2, 2, 3, 4, 6
        // permutations for 3, 5, 6, 7, 8, 9 entries: the solver reads configurations
        // from triad counts.
        for m in 0..512usize {
            if PERM_KEEP[m] as usize == m && m != 0 {
                let expected = [0, 0, 0, 1, 0, 2, 2, 3, 4, 6][m.count_ones() as usize];
                assert_eq!(PERM_COUNT[m], expected, "{m:#o}");
            }
        }
    }

    #[test]
    fn lone_cells_of_words_with_non_empty_rows() {
        let rows: [u32; 7] = [0x1, 0x100, 0x3, 0x1ff, 0x10, 0x180, 0x101];
        for &r0 in &rows {
            for &r1 in &rows {
                for &r2 in &rows {
                    let word = r0 | r1 << 9 | r2 << 18;
                    let expected: u32 = [r0, r1, r2]
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.count_ones() == 1)
                        .map(|(row, r)| r << (9 * row))
                        .sum();
                    assert_eq!(lone_cells(word), expected, "{word:#x}");
                }
            }
        }
    }
}
