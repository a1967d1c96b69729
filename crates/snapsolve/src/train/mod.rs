//! Reproducing the committed network weights from data the project can reach:
//! what `snapsolve_synth` renders plus the real photos in the shared data.

pub mod backdrops;
pub mod card_augment;
pub mod card_negatives;
pub mod set_cards;
pub mod set_detector;
pub mod table_crops;
