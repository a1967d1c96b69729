//! Procedural SET cards for training and testing: all 81 cards of both deck
//! editions drawn as anti-aliased vectors, photographed by a random camera
//! (perspective, lighting, cast shadows, glare, white balance, blur, noise,
//! JPEG), either as the upright crop a classifier receives or as a whole table
//! with every card's true corners; and photographed sudoku pages (printed and handwritten
//! digits from many fonts) with their true grid corners and digits.
//!
//! ```
//! use rand::SeedableRng;
//! use snapsolve_synth::{Edition, render_crop};
//! let mut rng = rand::rngs::StdRng::seed_from_u64(1);
//! let crop = render_crop("3-green-open-oval".parse().unwrap(), Edition::Standard, 96, 150, &mut rng);
//! assert_eq!(crop.dimensions(), (96, 150));
//! ```
#![deny(missing_docs)]

pub mod camera;
pub mod deck;
pub mod draw;
pub mod faces;
pub mod geometry;
pub mod lookalike;
pub mod scene;
pub mod sudoku;
mod surfaces;

pub use camera::{Camera, CastShadow};
pub use deck::{CardStyle, Edition};
pub use draw::{CARD_ASPECT, render_card};
pub use faces::CardFaces;
pub use geometry::{Quad, composite_card, warp_quad};
pub use lookalike::{Lookalike, render_lookalike};
pub use scene::{
    Lighting, PlacedCard, Surface, Table, TableSpec, photo_window, render_crop, render_crop_on,
    render_table,
};
