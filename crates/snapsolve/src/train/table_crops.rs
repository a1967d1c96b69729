//! Card crops as the reader cuts them: rendered tables under random
//! conditions (the detector's, [`super::set_detector::random_spec`], not the
//! stress suite's), each card outlined by the card finder and cut out by
//! its outline, a few degrees or pixels off as the finder's outlines are.
//! A crop cut around a whole card on its own (`snapsolve_synth::render_crop`)
//! never shows those errors, and the names the reader gets wrong on rendered
//! tables are mostly of outlines the network reads right when cut at the
//! true corners (docs/evaluation.md, session 21).

use rand::Rng;
use rand::rngs::StdRng;
use snapsolve_synth::render_table;
use snapsolve_vision::crop::card_crop;
use snapsolve_vision::{CardFinder, Quad};

use super::set_cards::{Sample, TrainProgress};
use super::set_detector::random_spec;
use crate::set_photo::network::network_pixels;
use snapsolve_nn::set_cards::Config;

/// Picture sizes the tables are rendered at: a webcam frame, a
/// phone photo as the reader shrinks it, and a large one.
pub(super) const SIZES: [(u32, u32); 3] = [(960, 720), (1280, 960), (2000, 1500)];

/// An outline counts as a card's where each of its corners lies within this
/// share of the card's width of the true corner, upright or turned half
/// round (a quarter turn would cut the card out sideways).
const MATCH: f32 = 0.15;

/// Renders `tables` tables and returns the crops of every card the finder
/// outlines, named by the truth.
pub fn finder_crops(
    tables: usize,
    config: &Config,
    rng: &mut StdRng,
    progress: &mut dyn FnMut(TrainProgress),
) -> Vec<Sample> {
    let finder = CardFinder::default();
    let mut samples = Vec::new();
    for i in 0..tables {
        let mut spec = random_spec(rng);
        (spec.width, spec.height) = SIZES[rng.random_range(0..SIZES.len())];
        let table = render_table(&spec);
        for quad in finder.find(&table.image) {
            let Some(placed) = table
                .cards
                .iter()
                .find(|placed| matches(&quad, &placed.corners))
            else {
                continue;
            };
            if let Some(crop) = card_crop(&table.image, &quad) {
                samples.push(Sample {
                    pixels: network_pixels(&crop, config),
                    card: placed.card,
                    edition: spec.edition,
                });
            }
        }
        progress(TrainProgress::Tables(i + 1, tables));
    }
    samples
}

/// Whether `quad` outlines the card whose true corners are `truth`, upright
/// or turned half round.
fn matches(quad: &Quad, truth: &[[f32; 2]; 4]) -> bool {
    let width = distance(truth[0], truth[1]).min(distance(truth[1], truth[2]));
    [0, 2].into_iter().any(|shift| {
        (0..4).all(|k| distance(quad.corners[(k + shift) % 4], truth[k]) < MATCH * width)
    })
}

fn distance(a: [f32; 2], b: [f32; 2]) -> f32 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outline_matches_upright_or_half_turned_but_not_sideways() {
        let truth = [[0.0, 0.0], [10.0, 0.0], [10.0, 15.0], [0.0, 15.0]];
        let quad = |corners| Quad { corners };
        assert!(matches(&quad(truth), &truth));
        let half = [truth[2], truth[3], truth[0], truth[1]];
        assert!(matches(&quad(half), &truth));
        let sideways = [truth[1], truth[2], truth[3], truth[0]];
        assert!(!matches(&quad(sideways), &truth));
        let off = truth.map(|[x, y]| [x + 2.0, y]);
        assert!(!matches(&quad(off), &truth));
    }
}
