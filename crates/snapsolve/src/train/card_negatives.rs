//! Crops that are not a SET card, for the card/not-a-card logit of the SET
//! card network: rendered lookalikes (`snapsolve_synth::lookalike`), what
//! the card finder outlines on rendered tables with clutter and no card, and
//! crops of real card-free photos.
//!
//! The real card-free photos are the sudoku photos of the shared data (white
//! paper with print: the hardest clutter there is for a finder of pale
//! rectangles). They follow the sudoku split (`sudoku_photo::labels::split_of`):
//! the training part gives negatives, the validation part checks them, and
//! the held-out part is what `snapsolve eval set-photos eval/set_card_free.jsonl`
//! reads (it skips the others, see [`card_network_trained_on`]).

use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use snapsolve_nn::set_cards::Config;
use snapsolve_synth::{Lookalike, render_lookalike, render_table};
use snapsolve_vision::crop::{CARD_CROP_HEIGHT, CARD_CROP_WIDTH, card_crop};
use snapsolve_vision::{CardFinder, Limits, Quad};

use super::backdrops::Backdrops;
use super::set_cards::TrainError;
use super::set_detector::random_spec;
use super::table_crops::SIZES;
use crate::set_photo::network::network_pixels;
use crate::set_photo::read_table_photo;
use crate::set_photo::table::{CARD_SIZES_TRIED, SMALLEST_CARD};
use crate::sudoku_photo::labels::{Split, photos_in_split, split_of};

/// Random card-shaped quadrilaterals cut from each card-free photo, besides
/// what the card finder picks there (which is few on some photos).
const RANDOM_QUADS_PER_PHOTO: usize = 4;

/// Whether the card network learnt from this photo as a card-free picture:
/// a sudoku photo of the shared data outside the held-out part of the sudoku
/// split. Evaluations of card-free pictures skip these.
pub fn card_network_trained_on(image: &str) -> bool {
    image.starts_with("sudoku/") && split_of(image) != Split::HeldOut
}

/// Network inputs of crops of the card-free photos in `split`: every
/// quadrilateral the card finder returns there, plus random card-shaped ones.
/// `progress(done, total)` follows the photos.
pub fn card_free_crops(
    data_dir: &Path,
    split: Split,
    config: &Config,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Vec<u8>>, TrainError> {
    assert!(
        split != Split::HeldOut,
        "held-out photos are never trained on"
    );
    let chosen = photos_in_split(data_dir, split).map_err(TrainError::Data)?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut crops = Vec::new();
    for (i, path) in chosen.iter().enumerate() {
        let photo = read_table_photo(path, Limits::default())
            .map_err(|e| TrainError::Data(format!("{}: {e}", path.display())))?;
        let mut quads = CardFinder::default().find(&photo.image);
        let (w, h) = photo.image.dimensions();
        quads.extend((0..RANDOM_QUADS_PER_PHOTO).map(|_| random_card_quad(w, h, &mut rng)));
        crops.extend(
            quads
                .iter()
                .filter_map(|q| card_crop(&photo.image, q))
                .map(|crop| network_pixels(&crop, config)),
        );
        progress(i + 1, chosen.len());
    }
    Ok(crops)
}

/// A card-shaped quadrilateral (portrait, 1.56 high) anywhere in a `w` x `h`
/// picture, 6-35% of its shorter side wide, turned at random.
fn random_card_quad(w: u32, h: u32, rng: &mut StdRng) -> Quad {
    let side = w.min(h) as f32;
    let card_w = rng.random_range(0.06..0.35) * side;
    let (hw, hh) = (card_w / 2.0, card_w * 0.78);
    let cx = rng.random_range(hw..(w as f32 - hw).max(hw + 1.0));
    let cy = rng.random_range(hh..(h as f32 - hh).max(hh + 1.0));
    let angle = rng.random_range(-0.6..0.6f32);
    let (c, s) = (angle.cos(), angle.sin());
    let corners = [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]]
        .map(|[x, y]| [cx + c * x - s * y, cy + s * x + c * y]);
    Quad { corners }
}

/// Network inputs of every outline the card finder gives, at each card size
/// the reader names ([`CARD_SIZES_TRIED`]), on `tables` rendered tables with
/// no card: random surfaces, light and views (the detector's
/// [`random_spec`]), one to four blobs of clutter and two to seven lookalike
/// objects. These are what the reader names on a cluttered desk: a patch of
/// desk around a coloured blob, a phone's screen, a note with a coloured
/// band, the part of a page; a lookalike rendered on its own never shows the
/// finder's view of them. (The stress suite's clutter tables are rendered
/// from other seeds.)
pub fn clutter_table_crops(
    tables: usize,
    config: &Config,
    backdrops: &Backdrops,
    rng: &mut StdRng,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Vec<u8>> {
    let finder = CardFinder::default();
    let mut crops = Vec::new();
    for i in 0..tables {
        let mut spec = random_spec(rng);
        spec.cards = Vec::new();
        spec.clutter = rng.random_range(1..=4);
        spec.distractors = rng.random_range(2..=7);
        (spec.width, spec.height) = SIZES[rng.random_range(0..SIZES.len())];
        spec.backdrop = backdrops.pick(rng).cloned();
        let image = render_table(&spec).image;
        let smallest = SMALLEST_CARD * spec.width as f32 * spec.height as f32;
        for quads in finder.find_each_size(&image, CARD_SIZES_TRIED) {
            crops.extend(
                quads
                    .iter()
                    .filter(|quad| quad.area() >= smallest)
                    .filter_map(|quad| card_crop(&image, quad))
                    .map(|crop| network_pixels(&crop, config)),
            );
        }
        progress(i + 1, tables);
    }
    crops
}

/// `count` rendered lookalike crops, the kinds taken in turn.
pub fn render_lookalikes(
    count: usize,
    config: &Config,
    rng: &mut StdRng,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| {
            let kind = Lookalike::ALL[i % Lookalike::ALL.len()];
            let crop = render_lookalike(kind, CARD_CROP_WIDTH, CARD_CROP_HEIGHT, rng);
            progress(i + 1, count);
            network_pixels(&crop, config)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_quads_stay_inside_the_picture() {
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..200 {
            let quad = random_card_quad(640, 480, &mut rng);
            for [x, y] in quad.corners {
                assert!((-60.0..700.0).contains(&x) && (-60.0..540.0).contains(&y));
            }
        }
    }

    #[test]
    fn only_sudoku_photos_outside_the_held_out_part_count_as_trained_on() {
        assert!(!card_network_trained_on("set/tomwhite/x.jpg"));
        let sudoku: Vec<String> = (1..60)
            .map(|i| format!("sudoku/wichtounet/images/image{i}.jpg"))
            .collect();
        let held = sudoku
            .iter()
            .filter(|s| !card_network_trained_on(s))
            .count();
        assert!(held > 0 && held < sudoku.len(), "{held}");
    }
}
