//! Diagnostic: each photo's sensor noise as the table reader measures it
//! (`snapsolve_vision::noise`), after the decoding the reader does (large
//! JPEGs decoded reduced): `noise_levels PHOTO...` prints `level path`, and a
//! star where the reader would smooth the photo.

use std::path::Path;

use snapsolve::set_photo::table::decode_table_photo;
use snapsolve_vision::noise::{NOISY, noise_level};
use snapsolve_vision::{Limits, read_bytes};

fn main() {
    for path in std::env::args().skip(1) {
        let photo = read_bytes(Path::new(&path), Limits::default())
            .and_then(|bytes| decode_table_photo(&bytes, Limits::default()));
        match photo {
            Ok(photo) => {
                let level = noise_level(&photo.image);
                let star = if level >= NOISY { " *" } else { "" };
                println!("{level:6.2} {path}{star}");
            }
            Err(e) => println!("  error {path}: {e}"),
        }
    }
}
