//! Reproducing the committed network weights from data the project can reach:
//! what `snapsolve_synth` renders plus the real photos in the shared data.

pub mod set_cards;
