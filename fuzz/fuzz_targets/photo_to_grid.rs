//! Any bytes → decoded image → sudoku grid outline and lattice → 81 cells of ink.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snapsolve_vision::grid::{darkest_channel, find_grid, sample_cells};
use snapsolve_vision::{Limits, decode_image};

/// Small limits keep each run fast (size refusals are tested with real limits).
const LIMITS: Limits = Limits {
    max_side: 2048,
    max_pixels: 1_000_000,
    max_file_bytes: 1 << 20,
};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(image) = decode_image(bytes, LIMITS) {
        let gray = darkest_channel(&image);
        if let Some(grid) = find_grid(&gray) {
            let _ = sample_cells(&gray, &grid.lattice);
        }
    }
});
