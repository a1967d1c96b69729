//! Many puzzles at once: each puzzle is solved on one core, the list is spread over
//! a rayon pool of the requested size.

use rayon::prelude::*;

use crate::grid::Grid;
use crate::solver::{Solver, Verdict};

/// Verdicts of every puzzle, in input order, on `threads` cores (0 = all cores).
///
/// # Errors
/// When the thread pool cannot be created.
pub fn solve_all(
    solver: &dyn Solver,
    puzzles: &[Grid],
    threads: usize,
) -> Result<Vec<Verdict>, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    Ok(pool.install(|| {
        puzzles
            .par_iter()
            .with_min_len(64)
            .map(|puzzle| solver.verdict(puzzle))
            .collect()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fast::FastSolver;

    #[test]
    fn keeps_input_order() {
        let mut puzzles = vec![Grid::default(); 200];
        puzzles[150].set(0, 1);
        puzzles[150].set(1, 1);
        let verdicts = solve_all(&FastSolver, &puzzles, 2).unwrap();
        assert_eq!(verdicts.len(), 200);
        assert_eq!(verdicts[150], Verdict::None);
        assert!(matches!(verdicts[0], Verdict::Multiple(..)));
    }
}
