//! A page that does not lie flat: one side curls or folds away from the camera
//! (a book's page running into its spine, a newspaper folded in half), so the
//! grid's straight lines come out bowed or kinked in the photo.
//!
//! The model: past a line across the page, each point sinks away from the
//! camera by an amount that grows with its distance beyond that line, smoothly
//! (a curl, squared) or straight away (a fold, linear). A point farther from a
//! camera above the page's middle looks closer to the middle, so each point is
//! drawn towards the page centre by that share. Only the page bends; the
//! perspective of the whole page is the photo's, as before.

use image::RgbaImage;
use rand::Rng;
use rand::rngs::StdRng;

/// How one page bends (page pixels).
#[derive(Clone, Copy, Debug)]
pub struct Curl {
    centre: (f32, f32),
    /// Unit vector across the bend line, pointing towards the edge that sinks.
    towards: (f32, f32),
    /// Where the bend starts, along `towards` from the centre, in pixels.
    start: f32,
    /// From the start line to the page edge, in pixels.
    reach: f32,
    /// Share by which the sinking edge shrinks towards the centre (0..1).
    depth: f32,
    /// 2 for a smooth curl, 1 for a sharp fold.
    power: i32,
    /// How far a point beyond the fold moves along it, per pixel past the
    /// fold line (the tangent of the angle lines crossing the fold turn by).
    turn: f32,
}

impl Curl {
    /// A random bend of a square page of `side` pixels, the far edge shrinking
    /// by up to `max_depth` (0.15: a book opened flat-ish by hand).
    pub fn random(side: u32, max_depth: f32, rng: &mut StdRng) -> Curl {
        let half = side as f32 / 2.0;
        // Mostly along one of the page's sides (a spine, a fold), a little askew.
        let angle = f32::from(rng.random_range(0..4u8)) * std::f32::consts::FRAC_PI_2
            + rng.random_range(-0.25..0.25f32);
        let start = half * rng.random_range(-0.3..0.5f32);
        Curl {
            centre: (half, half),
            towards: (angle.cos(), angle.sin()),
            start,
            reach: (half - start).max(1.0),
            depth: rng.random_range(0.3 * max_depth..=max_depth),
            power: if rng.random_bool(0.3) { 1 } else { 2 },
            turn: 0.0,
        }
    }

    /// A random sharp fold of a square page of `side` pixels, across its
    /// middle third, the far part shrinking by up to `max_depth` and its lines
    /// turning by a tangent between a third of `max_turn` and `max_turn`,
    /// either way.
    pub fn fold(side: u32, max_depth: f32, max_turn: f32, rng: &mut StdRng) -> Curl {
        let half = side as f32 / 2.0;
        let angle = f32::from(rng.random_range(0..4u8)) * std::f32::consts::FRAC_PI_2
            + rng.random_range(-0.15..0.15f32);
        let start = half * rng.random_range(-0.3..0.3f32);
        let turn = rng.random_range(max_turn / 3.0..=max_turn);
        Curl {
            centre: (half, half),
            towards: (angle.cos(), angle.sin()),
            start,
            reach: (half - start).max(1.0),
            depth: rng.random_range(0.0..=max_depth),
            power: 1,
            turn: if rng.random_bool(0.5) { turn } else { -turn },
        }
    }

    /// How far past the bend line page pixel `p` lies (0 before it).
    fn past(&self, (x, y): (f32, f32)) -> f32 {
        let along = (x - self.centre.0) * self.towards.0 + (y - self.centre.1) * self.towards.1;
        (along - self.start).max(0.0)
    }

    /// How much the point at page pixel `p` shrinks towards the centre.
    fn sink(&self, p: (f32, f32)) -> f32 {
        self.depth * (self.past(p) / self.reach).powi(self.power)
    }

    /// How far the point at page pixel `p` moves along the fold line.
    fn shear(&self, p: (f32, f32)) -> (f32, f32) {
        let moved = self.turn * self.past(p);
        (-self.towards.1 * moved, self.towards.0 * moved)
    }

    /// Where page point `p` lands on the bent page.
    pub fn forward(&self, p: (f32, f32)) -> (f32, f32) {
        let keep = 1.0 - self.sink(p);
        let (dx, dy) = self.shear(p);
        (
            self.centre.0 + (p.0 - self.centre.0) * keep + dx,
            self.centre.1 + (p.1 - self.centre.1) * keep + dy,
        )
    }

    /// The page point that lands on `q` (fixed-point iteration: the sink
    /// and the shear change slowly across the page, so a few rounds settle it).
    fn backward(&self, q: (f32, f32)) -> (f32, f32) {
        let mut p = q;
        for _ in 0..12 {
            let keep = (1.0 - self.sink(p)).max(0.05);
            let (dx, dy) = self.shear(p);
            p = (
                self.centre.0 + (q.0 - dx - self.centre.0) / keep,
                self.centre.1 + (q.1 - dy - self.centre.1) / keep,
            );
        }
        p
    }

    /// The page bent: what sinks out of the square leaves it transparent.
    pub fn apply(&self, page: &RgbaImage) -> RgbaImage {
        RgbaImage::from_fn(page.width(), page.height(), |x, y| {
            let (u, v) = self.backward((x as f32 + 0.5, y as f32 + 0.5));
            bilinear(page, u - 0.5, v - 0.5)
        })
    }
}

/// Bilinear sample of `page` at `(u, v)`, transparent outside it.
fn bilinear(page: &RgbaImage, u: f32, v: f32) -> image::Rgba<u8> {
    let (w, h) = (page.width() as f32, page.height() as f32);
    if u < 0.0 || v < 0.0 || u > w - 1.0 || v > h - 1.0 {
        return image::Rgba([0, 0, 0, 0]);
    }
    let (x0, y0) = (u.floor(), v.floor());
    let (fx, fy) = (u - x0, v - y0);
    let (x0, y0) = (x0 as u32, y0 as u32);
    let (x1, y1) = (
        (x0 + 1).min(page.width() - 1),
        (y0 + 1).min(page.height() - 1),
    );
    let mut out = [0u8; 4];
    for (k, o) in out.iter_mut().enumerate() {
        let at = |x: u32, y: u32| f32::from(page.get_pixel(x, y).0[k]);
        let top = at(x0, y0) * (1.0 - fx) + at(x1, y0) * fx;
        let bottom = at(x0, y1) * (1.0 - fx) + at(x1, y1) * fx;
        *o = (top * (1.0 - fy) + bottom * fy + 0.5) as u8;
    }
    image::Rgba(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Points of a 600-pixel page that `backward` must bring back.
    fn assert_backward_undoes_forward(curl: &Curl) {
        for p in [(10.0, 10.0), (300.0, 300.0), (590.0, 120.0), (200.0, 580.0)] {
            let back = curl.backward(curl.forward(p));
            assert!(
                (back.0 - p.0).abs() < 0.5 && (back.1 - p.1).abs() < 0.5,
                "{curl:?}: {p:?} {back:?}"
            );
        }
    }

    /// A bend down the middle of a 600-pixel page, the right half sinking.
    fn down_the_middle(depth: f32, power: i32, turn: f32) -> Curl {
        Curl {
            centre: (300.0, 300.0),
            towards: (1.0, 0.0),
            start: 0.0,
            reach: 300.0,
            depth,
            power,
            turn,
        }
    }

    #[test]
    fn backward_undoes_forward_and_the_near_side_stays_put() {
        for seed in 0..20 {
            let curl = Curl::random(600, 0.15, &mut StdRng::seed_from_u64(seed));
            assert_backward_undoes_forward(&curl);
            // Everything shrinks towards the centre, which stays put.
            let c = curl.forward((300.0, 300.0));
            assert!((c.0 - 300.0).abs() < 1e-3 && (c.1 - 300.0).abs() < 1e-3);
        }
    }

    #[test]
    fn a_fold_turns_the_lines_crossing_it_and_backward_undoes_it() {
        for seed in 0..20 {
            assert_backward_undoes_forward(&Curl::fold(
                600,
                0.1,
                0.35,
                &mut StdRng::seed_from_u64(seed),
            ));
        }
        // Folded down the middle: a horizontal line runs flat to the fold,
        // then turns by the tangent asked for.
        let fold = down_the_middle(0.0, 1, 0.3);
        let y = |x: f32| fold.forward((x, 100.0)).1;
        assert_eq!(y(100.0), 100.0);
        assert_eq!(y(300.0), 100.0);
        assert!((y(500.0) - y(400.0) - 30.0).abs() < 1e-3);
    }

    #[test]
    fn a_straight_line_past_the_bend_comes_out_bent() {
        let curl = down_the_middle(0.15, 2, 0.0);
        // A horizontal line near the top: flat before the bend, then drawn down
        // towards the centre, more the farther along it runs.
        let ys: Vec<f32> = [100.0, 300.0, 450.0, 600.0]
            .iter()
            .map(|&x| curl.forward((x, 60.0)).1)
            .collect();
        assert_eq!(ys[0], 60.0);
        assert_eq!(ys[1], 60.0);
        assert!(ys[2] > 60.0 && ys[3] > ys[2] + 10.0, "{ys:?}");
    }
}
