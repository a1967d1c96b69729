//! tdoku's solver (`TdokuSolverDpllTriadSimd`, built by `build.rs` from the shared
//! comparator sources) behind a safe wrapper; absent when the sources were missing.

/// A puzzle in tdoku's input form: 81 bytes of `1`-`9` or `.`, then a NUL (tdoku tells
/// a vanilla puzzle from a pencil-mark one by the byte after the 81st).
#[derive(Clone)]
#[cfg_attr(not(tdoku), allow(dead_code))]
pub struct TdokuPuzzle([u8; 82]);

impl TdokuPuzzle {
    /// From an 81-character line with `.` for empty cells.
    pub fn new(line: &str) -> TdokuPuzzle {
        let mut bytes = [0u8; 82];
        for (out, c) in bytes.iter_mut().zip(line.bytes()) {
            *out = if c.is_ascii_digit() && c != b'0' {
                c
            } else {
                b'.'
            };
        }
        TdokuPuzzle(bytes)
    }
}

#[cfg(tdoku)]
unsafe extern "C" {
    fn TdokuSolverDpllTriadSimd(
        input: *const std::ffi::c_char,
        limit: usize,
        configuration: u32,
        solution: *mut std::ffi::c_char,
        num_guesses: *mut usize,
    ) -> usize;
}

/// Whether tdoku was built in (else the reason).
pub fn available() -> Result<(), String> {
    #[cfg(tdoku)]
    {
        Ok(())
    }
    #[cfg(not(tdoku))]
    {
        Err(format!(
            "tdoku was not built: its sources were not found at {} (the shared comparators folder, ../shared/comparators/tdoku, or $TDOKU_DIR at build time)",
            env!("TDOKU_MISSING_FROM")
        ))
    }
}

/// Solutions up to `limit` and tdoku's guess count; with `limit` 1 also the solution.
#[cfg(tdoku)]
pub fn solve(puzzle: &TdokuPuzzle, limit: usize) -> (usize, usize, [u8; 81]) {
    let mut solution = [0u8; 81];
    let mut guesses = 0usize;
    // SAFETY: the input is 81 puzzle bytes and a NUL; the solution buffer holds the 81
    // bytes tdoku writes; tdoku keeps no pointer after returning. Its solver state is
    // a static, so this must not run on two threads at once (the comparator has one).
    let count = unsafe {
        TdokuSolverDpllTriadSimd(
            puzzle.0.as_ptr().cast(),
            limit,
            0,
            solution.as_mut_ptr().cast(),
            &mut guesses,
        )
    };
    (count, guesses, solution)
}

/// Never called: [`available`] fails first.
#[cfg(not(tdoku))]
pub fn solve(_: &TdokuPuzzle, _: usize) -> (usize, usize, [u8; 81]) {
    unreachable!("tdoku is not built")
}
