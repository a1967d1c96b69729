//! Any bytes → decoded photo (scaled JPEG path included) → card quadrilaterals
//! (the finder's reading at every card size it saw) → 96x150 crops → corners
//! mapped back to the stored pixels. Decoding must
//! refuse what it cannot read with an error; everything after it must cope
//! with whatever pixels a decoder can produce.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snapsolve_vision::crop::card_crop;
use snapsolve_vision::{CardFinder, Limits, decode_photo_reduced};

/// Small limits keep each run fast (size refusals are tested with real limits).
const LIMITS: Limits = Limits {
    max_side: 2048,
    max_pixels: 1_000_000,
    max_file_bytes: 1 << 20,
};

fuzz_target!(|bytes: &[u8]| {
    // 64: a low reduction floor so small inputs exercise the DCT-scaled decoder too.
    if let Ok(photo) = decode_photo_reduced(bytes, LIMITS, 64) {
        let readings = CardFinder::default().find_each_size(&photo.image, 4);
        for quad in readings.iter().flatten() {
            let _ = card_crop(&photo.image, quad);
            for [u, v] in quad.corners {
                let (x, y) = photo.to_stored((u, v));
                assert!(x.is_finite() && y.is_finite());
            }
        }
    }
});
