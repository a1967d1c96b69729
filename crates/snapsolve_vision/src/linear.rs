//! Small linear systems: the least-squares fits of a lattice's curves and of
//! a table's card sizes have three unknowns at most.

/// The least-squares coefficients of `value = c . basis` over `rows` of
/// `(basis, value)`, on the first `terms` (up to 3) entries of each basis,
/// by the normal equations; `None` where they are singular.
pub(crate) fn least_squares(
    rows: impl IntoIterator<Item = ([f64; 3], f64)>,
    terms: usize,
) -> Option<[f64; 3]> {
    let mut ata = [[0.0f64; 3]; 3];
    let mut atb = [0.0f64; 3];
    for (basis, value) in rows {
        for i in 0..terms {
            atb[i] += basis[i] * value;
            for j in 0..terms {
                ata[i][j] += basis[i] * basis[j];
            }
        }
    }
    solve_small(&ata, &atb, terms)
}

/// Gaussian elimination with partial pivoting on the leading `n` x `n` block.
fn solve_small(a: &[[f64; 3]; 3], b: &[f64; 3], n: usize) -> Option<[f64; 3]> {
    let mut m = [[0.0f64; 4]; 3];
    for i in 0..n {
        m[i][..n].copy_from_slice(&a[i][..n]);
        m[i][3] = b[i];
    }
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-9 {
            return None;
        }
        m.swap(col, pivot);
        for row in 0..n {
            if row != col {
                let f = m[row][col] / m[col][col];
                let pivot_row = m[col];
                for (target, source) in m[row].iter_mut().zip(pivot_row) {
                    *target -= f * source;
                }
            }
        }
    }
    let mut out = [0.0; 3];
    for i in 0..n {
        out[i] = m[i][3] / m[i][i];
    }
    Some(out)
}
