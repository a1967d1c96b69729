//! The paper of a sudoku page: not a flat colour but gently mottled (uneven
//! pulp and printing) with a fine fibre grain, so empty cells in training carry
//! the faint texture that the cell cutter stretches into weak "ink" on real
//! photos.

use rand::Rng;
use rand::rngs::StdRng;
use tiny_skia::Pixmap;

use crate::camera::gaussian;

/// Darkens and lightens an opaque `pixmap` in place: a few broad waves of up to
/// `mottle` (a share of the level) plus per-pixel grain of `grain` grey levels.
pub fn texture_paper(pixmap: &mut Pixmap, mottle: f32, grain: f32, rng: &mut StdRng) {
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    // Broad waves: random direction, wavelength a third to the whole page, phase.
    let waves: Vec<(f32, f32, f32, f32)> = (0..3)
        .map(|_| {
            let angle = rng.random_range(0.0..std::f32::consts::TAU);
            let length = rng.random_range(0.3..1.0) * w.max(h) as f32;
            let k = std::f32::consts::TAU / length;
            (
                k * angle.cos(),
                k * angle.sin(),
                rng.random_range(0.0..std::f32::consts::TAU),
                rng.random_range(0.3..1.0) * mottle / 3.0,
            )
        })
        .collect();
    let data = pixmap.data_mut();
    for y in 0..h {
        for x in 0..w {
            let (fx, fy) = (x as f32, y as f32);
            let level = 1.0
                + waves
                    .iter()
                    .map(|&(kx, ky, phase, amp)| amp * (kx * fx + ky * fy + phase).sin())
                    .sum::<f32>();
            let noise = if grain > 0.0 {
                gaussian(rng) * grain
            } else {
                0.0
            };
            let at = (y * w + x) * 4;
            for c in &mut data[at..at + 3] {
                *c = (f32::from(*c) * level + noise).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn texture_varies_the_paper_around_its_level() {
        let mut pixmap = Pixmap::new(200, 200).expect("pixmap");
        pixmap.fill(tiny_skia::Color::from_rgba8(220, 220, 220, 255));
        texture_paper(&mut pixmap, 0.05, 2.0, &mut StdRng::seed_from_u64(4));
        let greys: Vec<f32> = pixmap.data().chunks(4).map(|p| f32::from(p[0])).collect();
        let mean = greys.iter().sum::<f32>() / greys.len() as f32;
        let (lo, hi) = greys
            .iter()
            .fold((255.0f32, 0.0f32), |(a, b), &g| (a.min(g), b.max(g)));
        assert!((mean - 220.0).abs() < 4.0, "{mean}");
        assert!(hi - lo > 6.0 && hi - lo < 40.0, "{lo}..{hi}");
    }
}
