//! Real photographs to lay rendered training cards and tables on, beside the
//! procedural surfaces of `snapsolve_synth`: the photographed surfaces of
//! GIMP's patterns that the stress suite does not use
//! ([`crate::textures::training_textures`]) and the sudoku photos of the
//! shared data in the training part of the sudoku split (pages of print,
//! with the table around them; the validation part is the stress suite's
//! `on-printed-pages`, the held-out part the card-free evaluation).

use std::path::Path;
use std::sync::Arc;

use image::RgbImage;
use image::imageops::FilterType;
use rand::Rng;
use rand::rngs::StdRng;
use snapsolve_vision::Limits;

use super::set_cards::TrainError;
use crate::sudoku_photo::labels::{Split, photos_in_split};

/// Longest side a page photo is kept at (the crops and tables rendered on
/// it are smaller still).
const PAGE_SIDE: u32 = 640;

/// Side of the square a texture is tiled over.
const TEXTURE_SIDE: u32 = 384;

/// The pictures rendered cards and tables may lie on: surfaces (tiled
/// textures) and pages (photos), each kind picked half of the time, one of
/// them under `share` of what is rendered. The default has none.
#[derive(Clone, Debug, Default)]
pub struct Backdrops {
    surfaces: Vec<Arc<RgbImage>>,
    pages: Vec<Arc<RgbImage>>,
    share: f64,
}

impl Backdrops {
    /// The training textures, each tiled at a random scale (1.5-4 times),
    /// and the training part's sudoku photos, to lay `share` of what is
    /// rendered on; an error names what is missing.
    pub fn load(data_dir: &Path, share: f64, rng: &mut StdRng) -> Result<Backdrops, TrainError> {
        let textures = crate::textures::training_textures();
        if textures.is_empty() {
            return Err(TrainError::Data(format!(
                "no GIMP patterns to render on (install Debian's gimp-data, or set {})",
                crate::textures::TEXTURES_ENV
            )));
        }
        let surfaces = textures
            .iter()
            .map(|t| {
                let scale = rng.random_range(1.5..4.0f32);
                Arc::new(crate::textures::tiled(
                    &t.tile,
                    scale,
                    TEXTURE_SIDE,
                    TEXTURE_SIDE,
                ))
            })
            .collect();
        let mut pages = Vec::new();
        for path in photos_in_split(data_dir, Split::Train).map_err(TrainError::Data)? {
            let page = snapsolve_vision::read_image(&path, Limits::default())
                .map_err(|e| TrainError::Data(format!("{}: {e}", path.display())))?;
            pages.push(Arc::new(shrunk(page)));
        }
        Ok(Backdrops {
            surfaces,
            pages,
            share,
        })
    }

    /// How many surfaces and pages there are.
    pub fn counts(&self) -> (usize, usize) {
        (self.surfaces.len(), self.pages.len())
    }

    /// A random surface or page (each kind half of the time where both are
    /// there) the backdrops' share of the time, `None` otherwise; with
    /// neither or a share of 0, `None` without drawing a random number (so a
    /// recipe without backdrops renders as it did before they existed).
    pub fn pick(&self, rng: &mut StdRng) -> Option<&Arc<RgbImage>> {
        let any = !self.surfaces.is_empty() || !self.pages.is_empty();
        if !any || self.share <= 0.0 || !rng.random_bool(self.share.min(1.0)) {
            return None;
        }
        let kind = if self.pages.is_empty() || (!self.surfaces.is_empty() && rng.random_bool(0.5)) {
            &self.surfaces
        } else {
            &self.pages
        };
        kind.get(rng.random_range(0..kind.len()))
    }
}

/// `page` with its longer side at most [`PAGE_SIDE`].
fn shrunk(page: RgbImage) -> RgbImage {
    let (w, h) = page.dimensions();
    let long = w.max(h);
    if long <= PAGE_SIDE {
        return page;
    }
    let (nw, nh) = ((w * PAGE_SIDE / long).max(1), (h * PAGE_SIDE / long).max(1));
    image::imageops::resize(&page, nw, nh, FilterType::Triangle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn no_backdrops_draw_no_random_numbers() {
        let mut rng = StdRng::seed_from_u64(1);
        let mut same = StdRng::seed_from_u64(1);
        assert!(Backdrops::default().pick(&mut rng).is_none());
        let with_share = |share| Backdrops {
            surfaces: vec![Arc::new(RgbImage::new(4, 4))],
            pages: Vec::new(),
            share,
        };
        assert!(with_share(0.0).pick(&mut rng).is_none());
        assert_eq!(rng.random::<u64>(), same.random::<u64>());
        assert!(with_share(1.0).pick(&mut rng).is_some());
    }

    #[test]
    fn pages_are_shrunk_to_their_longest_side() {
        assert_eq!(shrunk(RgbImage::new(1280, 960)).dimensions(), (640, 480));
        assert_eq!(shrunk(RgbImage::new(300, 200)).dimensions(), (300, 200));
    }
}
