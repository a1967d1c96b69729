//! Reading pictures safely: what front ends need from `snapsolve_vision`'s
//! decoder (size limits checked from the header, EXIF orientation, clear
//! errors for empty, truncated or foreign files), so they never reach below
//! this crate.

pub use snapsolve_vision::{
    DecodeError, Limits, Photo, decode_image, decode_photo, read_bytes, read_image, read_photo,
};
