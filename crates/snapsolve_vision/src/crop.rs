//! The canonical crops handed to classifiers.

/// Width of an upright card crop, in pixels (portrait: long side vertical).
pub const CARD_CROP_WIDTH: u32 = 96;
/// Height of an upright card crop; 150/96 is close to a SET card's 3.5"/2.25".
pub const CARD_CROP_HEIGHT: u32 = 150;
