//! How close the learned detector's outlines come to the true corners on the
//! stress suite's rendered tables, before and after edge refinement:
//! `cargo run --release -p snapsolve --example detector_outlines [TABLES]`.
//! Prints, per condition, true cards with a detected centre inside them and
//! the median and 90th percentile corner error in card widths.

use snapsolve::set_photo::detector::shipped;
use snapsolve::set_photo::stress::{Condition, card_width, corner_error};
use snapsolve_synth::render_table;
use snapsolve_vision::Quad;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tables: usize = std::env::args().nth(1).map_or(Ok(4), |a| a.parse())?;
    let detector = shipped().ok_or("the embedded detector does not load")?;
    for condition in Condition::ALL {
        let (mut cards, mut hit) = (0, 0);
        let (mut rough_err, mut refined_err) = (Vec::new(), Vec::new());
        for i in 0..tables {
            let table = render_table(&condition.spec(i));
            let rough = detector.rough_outlines(&table.image);
            if let Some(dir) = std::env::var_os("SNAPSOLVE_DEBUG_DIR") {
                let maps = detector.maps(&table.image);
                maps.save(
                    std::path::Path::new(&dir).join(format!("{}-{i}-maps.png", condition.name())),
                )?;
                let mut picture = table.image.clone();
                for q in &rough {
                    snapsolve_vision::draw::draw_quad_outline_mut(
                        &mut picture,
                        q,
                        2.0,
                        image::Rgb([255, 0, 0]),
                    );
                }
                picture.save(
                    std::path::Path::new(&dir).join(format!("{}-{i}-rough.png", condition.name())),
                )?;
            }
            let refined = detector.detect(&table.image);
            for placed in &table.cards {
                cards += 1;
                let truth = Quad {
                    corners: placed.corners,
                };
                let width = card_width(&placed.corners);
                let best = |quads: &[Quad]| {
                    quads
                        .iter()
                        .filter(|q| truth.contains(q.centre()))
                        .map(|q| corner_error(&q.corners, &placed.corners) / width)
                        .fold(f32::INFINITY, f32::min)
                };
                let (r, f) = (best(&rough), best(&refined));
                if r.is_finite() {
                    hit += 1;
                    rough_err.push(r);
                    refined_err.push(f);
                }
            }
        }
        let stat = |v: &mut Vec<f32>, q: f32| {
            v.sort_by(f32::total_cmp);
            v.get(((v.len() as f32 - 1.0) * q) as usize)
                .copied()
                .unwrap_or(f32::NAN)
        };
        println!(
            "{:<24} {hit:>4}/{cards:<4} detected; corner error rough median {:.3} p90 {:.3}, refined median {:.3} p90 {:.3}",
            condition.name(),
            stat(&mut rough_err, 0.5),
            stat(&mut rough_err, 0.9),
            stat(&mut refined_err, 0.5),
            stat(&mut refined_err, 0.9)
        );
    }
    Ok(())
}
