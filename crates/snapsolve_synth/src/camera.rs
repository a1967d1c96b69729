//! What a phone or webcam does to a flat scene: uneven and coloured light,
//! glare, defocus, a moving hand's streaks, sensor noise and JPEG compression; shadows cast across the
//! scene; plus the backgrounds the cards lie on (cloth, wood, light tables) and
//! clutter that is not a card.

use image::{Rgb, RgbImage};
use rand::Rng;
use rand::rngs::StdRng;

/// One random camera and lighting situation.
#[derive(Clone, Debug)]
pub struct Camera {
    /// Per-channel gains (white balance and exposure).
    pub gains: [f32; 3],
    /// Brightness slope across the picture (fraction per picture width / height).
    pub gradient: [f32; 2],
    /// Glare spot: centre (fractions of the picture), radius (fraction of the width), strength 0..1.
    pub glare: Option<([f32; 2], f32, f32)>,
    /// Gaussian blur sigma in pixels (0 = sharp).
    pub blur: f32,
    /// The streak a point leaves while the shutter is open, in pixels (x, y):
    /// a phone moving in the hand. `None` for a camera held still.
    pub motion: Option<[f32; 2]>,
    /// Standard deviation of per-pixel noise, in 0..255 units.
    pub noise: f32,
    /// JPEG quality, if the picture is compressed.
    pub jpeg_quality: Option<u8>,
}

impl Camera {
    /// A camera that only sets these gains: no gradient, glare, blur, streak,
    /// noise or compression (set the fields to add them).
    pub fn still(gains: [f32; 3]) -> Camera {
        Camera {
            gains,
            gradient: [0.0; 2],
            glare: None,
            blur: 0.0,
            motion: None,
            noise: 0.0,
            jpeg_quality: None,
        }
    }

    /// A random situation, from a well-lit sharp photo to a dim, warm, blurred webcam frame.
    /// `scale` is the size of a card in pixels relative to a 96-pixel-wide crop,
    /// so blur and noise stay comparable at any resolution.
    pub fn random(rng: &mut StdRng, scale: f32) -> Camera {
        let exposure = rng.random_range(0.55..1.2f32);
        let warmth = rng.random_range(-0.12..0.22f32);
        let tint = rng.random_range(-0.06..0.06f32);
        let gains = [
            exposure * (1.0 + warmth),
            exposure * (1.0 + tint),
            exposure * (1.0 - warmth),
        ];
        let gradient = [rng.random_range(-0.5..0.5), rng.random_range(-0.5..0.5)];
        let glare = rng.random_bool(0.3).then(|| {
            (
                [rng.random_range(0.0..1.0), rng.random_range(0.0..1.0)],
                rng.random_range(0.1..0.5),
                rng.random_range(0.2..0.8),
            )
        });
        let blur = if rng.random_bool(0.6) {
            rng.random_range(0.0..1.6) * scale
        } else {
            0.0
        };
        Camera {
            gains,
            gradient,
            glare,
            blur,
            motion: None,
            noise: rng.random_range(0.0..10.0),
            jpeg_quality: rng.random_bool(0.6).then(|| rng.random_range(35..95)),
        }
    }

    /// A dim room under a warm bulb: underexposed by about half, orange,
    /// noisy, slightly soft, compressed.
    pub fn dim_warm(rng: &mut StdRng, scale: f32) -> Camera {
        let exposure = rng.random_range(0.4..0.55f32);
        let warmth = rng.random_range(0.2..0.3f32);
        Camera {
            gains: [
                exposure * (1.0 + warmth),
                exposure,
                exposure * (1.0 - warmth),
            ],
            gradient: [rng.random_range(-0.4..0.4), rng.random_range(-0.4..0.4)],
            glare: None,
            blur: rng.random_range(0.3..1.0) * scale,
            motion: None,
            noise: rng.random_range(6.0..12.0),
            jpeg_quality: Some(rng.random_range(60..85)),
        }
    }

    /// [`Camera::random`]'s situation taken by a hand that moves: a streak
    /// 4-15% of a card's width long (`scale` as there), in any direction, as
    /// the live page's frames show while the phone is carried over the table.
    pub fn moving(rng: &mut StdRng, scale: f32) -> Camera {
        let mut camera = Camera::random(rng, scale);
        let length = rng.random_range(0.04..0.15f32) * 96.0 * scale;
        let angle = rng.random_range(0.0..std::f32::consts::PI);
        camera.motion = Some([length * angle.cos(), length * angle.sin()]);
        camera
    }

    /// [`Camera::random`]'s situation exposed for a darker scene than the
    /// cards (a phone metering a dark table, sun on the cards): the light
    /// 1.35-1.7 times what white paper takes, its colour cast kept, so the
    /// paper clips white and pale ink (the tint inside striped symbols) all
    /// but goes into it.
    pub fn overexposed(rng: &mut StdRng, scale: f32) -> Camera {
        let mut camera = Camera::random(rng, scale);
        let over = rng.random_range(1.35..1.7f32);
        let mean = camera.gains.iter().sum::<f32>() / 3.0;
        camera.gains = camera.gains.map(|g| g * over / mean.max(f32::EPSILON));
        camera
    }

    /// [`Camera::random`]'s situation on a glossy table under a lamp: the
    /// lamp's reflection, a bright patch 10-25% of the picture's width across
    /// (to where it has faded by two thirds), lies somewhere over the middle
    /// of the picture, where the cards are, and lifts what it covers 70-95%
    /// of the way to white at its centre: the cards under it keep their ink
    /// pale, the table around it shines.
    pub fn glaring(rng: &mut StdRng, scale: f32) -> Camera {
        let mut camera = Camera::random(rng, scale);
        camera.glare = Some((
            [rng.random_range(0.3..0.7), rng.random_range(0.3..0.7)],
            rng.random_range(0.1..0.25),
            rng.random_range(0.7..0.95),
        ));
        camera
    }

    /// Photographs `scene` in place.
    pub fn apply(&self, scene: &mut RgbImage, rng: &mut StdRng) {
        if let Some(streak) = self.motion {
            *scene = streaked(scene, streak);
        }
        if self.blur > 0.3 {
            *scene = imageproc::filter::gaussian_blur_f32(scene, self.blur);
        }
        self.light(scene, rng);
        if let Some(quality) = self.jpeg_quality {
            jpeg_roundtrip(scene, quality);
        }
    }

    fn light(&self, scene: &mut RgbImage, rng: &mut StdRng) {
        let (w, h) = (scene.width() as f32, scene.height() as f32);
        for (x, y, px) in scene.enumerate_pixels_mut() {
            let (fx, fy) = (x as f32 / w, y as f32 / h);
            let level = 1.0 + self.gradient[0] * (fx - 0.5) + self.gradient[1] * (fy - 0.5);
            let glare = self.glare.map_or(0.0, |(c, r, s)| {
                let d2 = ((fx - c[0]) * (fx - c[0])
                    + (fy - c[1]) * (fy - c[1]) * (h / w) * (h / w))
                    / (r * r);
                s * (-d2).exp()
            });
            let noise = if self.noise > 0.0 {
                gaussian(rng) * self.noise
            } else {
                0.0
            };
            for k in 0..3 {
                let lit = px.0[k] as f32 * self.gains[k] * level;
                px.0[k] = (lit + glare * (255.0 - lit) + noise).clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// A soft shadow cast across part of the scene by something between the light
/// and the table (a hand, a phone, another card): real photos show them, and
/// the darker, bluer patch is what makes a solid symbol look striped or an
/// open one look filled. The shadowed side is lit only by the room and sky,
/// so it loses more red than blue.
#[derive(Clone, Debug, PartialEq)]
pub struct CastShadow {
    /// A point on the shadow's edge, as fractions of the picture's width and height.
    pub anchor: [f32; 2],
    /// Direction from the edge into the shadow, in radians.
    pub angle: f32,
    /// Bend of the edge (the outline of a hand or a phone is not straight), per picture width.
    pub bend: f32,
    /// Width of the soft edge (penumbra), as a fraction of the picture width.
    pub softness: f32,
    /// Share of the light the shadow takes away from the red channel, 0..1.
    pub depth: f32,
}

impl CastShadow {
    /// A random shadow whose edge crosses the middle half of the picture, so
    /// it falls across part of a card centred in it.
    pub fn random(rng: &mut StdRng) -> CastShadow {
        CastShadow {
            anchor: [rng.random_range(0.25..0.75), rng.random_range(0.25..0.75)],
            angle: rng.random_range(0.0..std::f32::consts::TAU),
            bend: rng.random_range(-1.5..1.5),
            softness: rng.random_range(0.02..0.25),
            depth: rng.random_range(0.2..0.55),
        }
    }

    /// Darkens the shadowed part of `scene` in place.
    pub fn apply(&self, scene: &mut RgbImage) {
        let (w, h) = (scene.width() as f32, scene.height() as f32);
        let (nx, ny) = (self.angle.cos(), self.angle.sin());
        let half = 0.5 * self.softness.max(1e-3);
        // Green and blue keep more of the light than red: a slightly cool shade.
        let loss = [1.0, 0.92, 0.8].map(|k| k * self.depth);
        for (x, y, px) in scene.enumerate_pixels_mut() {
            // Picture-width units on both axes, so the edge keeps its shape on a tall picture.
            let dx = x as f32 / w - self.anchor[0];
            let dy = (y as f32 - self.anchor[1] * h) / w;
            let along = -dx * ny + dy * nx;
            let across = dx * nx + dy * ny + self.bend * along * along;
            let t = ((across + half) / (2.0 * half)).clamp(0.0, 1.0);
            let cover = t * t * (3.0 - 2.0 * t);
            if cover > 0.0 {
                for (c, l) in px.0.iter_mut().zip(loss) {
                    *c = (*c as f32 * (1.0 - cover * l)).round() as u8;
                }
            }
        }
    }
}

/// `scene` as a camera moving by `streak` pixels while its shutter is open
/// sees it: each pixel the mean of the scene along the streak centred on it
/// (a sample a pixel apart, edges clamped).
fn streaked(scene: &RgbImage, streak: [f32; 2]) -> RgbImage {
    let steps = streak[0].hypot(streak[1]).ceil().max(1.0) as usize;
    let offsets: Vec<(i64, i64)> = (0..=steps)
        .map(|k| {
            let t = k as f32 / steps as f32 - 0.5;
            (
                (t * streak[0]).round() as i64,
                (t * streak[1]).round() as i64,
            )
        })
        .collect();
    let (w, h) = (i64::from(scene.width()), i64::from(scene.height()));
    RgbImage::from_fn(scene.width(), scene.height(), |x, y| {
        let mut sum = [0u32; 3];
        for &(dx, dy) in &offsets {
            let sx = (i64::from(x) + dx).clamp(0, w - 1) as u32;
            let sy = (i64::from(y) + dy).clamp(0, h - 1) as u32;
            for (s, v) in sum.iter_mut().zip(scene.get_pixel(sx, sy).0) {
                *s += u32::from(v);
            }
        }
        let n = offsets.len() as u32;
        Rgb(sum.map(|s| ((s + n / 2) / n) as u8))
    })
}

/// Compresses and decodes again, leaving JPEG's block and ringing artefacts.
fn jpeg_roundtrip(scene: &mut RgbImage, quality: u8) {
    let mut bytes = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality);
    if scene.write_with_encoder(encoder).is_err() {
        return;
    }
    if let Ok(decoded) = image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg) {
        *scene = decoded.to_rgb8();
    }
}

/// A standard normal sample (Box–Muller).
pub(crate) fn gaussian(rng: &mut StdRng) -> f32 {
    let u1: f32 = rng.random_range(f32::EPSILON..1.0);
    let u2: f32 = rng.random_range(0.0..1.0);
    (-2.0 * u1.ln()).sqrt() * (std::f32::consts::TAU * u2).cos()
}

/// Fills `img` with a random surface: dark cloth, wood, a light table or a busy weave.
pub fn fill_background(img: &mut RgbImage, rng: &mut StdRng) {
    let kind = rng.random_range(0..4);
    let base: [f32; 3] = match kind {
        0 => [
            rng.random_range(10.0..70.0),
            rng.random_range(10.0..70.0),
            rng.random_range(10.0..80.0),
        ],
        1 => [
            rng.random_range(110.0..190.0),
            rng.random_range(70.0..130.0),
            rng.random_range(30.0..80.0),
        ],
        2 => [rng.random_range(150.0..235.0); 3].map(|c: f32| c + rng.random_range(-15.0..15.0)),
        _ => [
            rng.random_range(40.0..200.0),
            rng.random_range(40.0..200.0),
            rng.random_range(40.0..200.0),
        ],
    };
    let freq = rng.random_range(0.02..0.3f32);
    let phase = rng.random_range(0.0..6.3f32);
    let amp = rng.random_range(0.0..0.25f32);
    let grain = rng.random_range(2.0..14.0f32);
    let angle = rng.random_range(0.0..std::f32::consts::PI);
    let (ca, sa) = (angle.cos(), angle.sin());
    let pattern = |x: f32, y: f32| {
        let t = x * ca + y * sa;
        let s = -x * sa + y * ca;
        let pattern = match kind {
            1 => (t * freq * 0.3 + (s * 0.01).sin() * 3.0 + phase).sin(),
            3 => ((t * freq).sin() * (s * freq).sin()).signum(),
            _ => (t * freq + phase).sin() * 0.3,
        };
        1.0 + amp * pattern
    };
    fill_textured(img, base, grain, pattern, rng);
}

/// Fills `img` with `base` times `pattern(x, y)` plus uniform grain in `±grain`.
pub(crate) fn fill_textured(
    img: &mut RgbImage,
    base: [f32; 3],
    grain: f32,
    pattern: impl Fn(f32, f32) -> f32,
    rng: &mut StdRng,
) {
    for (x, y, px) in img.enumerate_pixels_mut() {
        let level = pattern(x as f32, y as f32);
        let n = rng.random_range(-grain..grain);
        *px = Rgb(base.map(|c| (c * level + n).clamp(0.0, 255.0) as u8));
    }
}

/// Draws a few things that are not cards: boxes, sheets, dark objects.
pub fn draw_clutter(img: &mut RgbImage, count: usize, rng: &mut StdRng) {
    let (w, h) = (img.width() as f32, img.height() as f32);
    for _ in 0..count {
        let colour = Rgb([rng.random(), rng.random(), rng.random()]);
        let cx = rng.random_range(0.0..w);
        let cy = rng.random_range(0.0..h);
        let rx = rng.random_range(0.03..0.2) * w;
        let ry = rng.random_range(0.03..0.2) * h;
        if rng.random_bool(0.5) {
            imageproc::drawing::draw_filled_ellipse_mut(
                img,
                (cx as i32, cy as i32),
                rx as i32,
                ry as i32,
                colour,
            );
        } else {
            let rect = imageproc::rect::Rect::at((cx - rx) as i32, (cy - ry) as i32)
                .of_size((2.0 * rx).max(1.0) as u32, (0.4 * ry).max(1.0) as u32);
            imageproc::drawing::draw_filled_rect_mut(img, rect, colour);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_moving_camera_streaks_a_point_along_its_motion_only() {
        let mut scene = RgbImage::new(21, 21);
        scene.put_pixel(10, 10, Rgb([250, 250, 250]));
        let out = streaked(&scene, [8.0, 0.0]);
        // Nine samples a pixel apart: the point is spread over x = 6..=14 of
        // its own row, a ninth as bright, and nowhere else.
        for x in 0..21 {
            let want = if (6..=14).contains(&x) { 28 } else { 0 };
            assert_eq!(out.get_pixel(x, 10).0, [want; 3], "x = {x}");
            assert_eq!(out.get_pixel(x, 9).0, [0; 3]);
        }
        let camera = Camera::moving(&mut StdRng::seed_from_u64(3), 1.0);
        let [dx, dy] = camera.motion.expect("a moving camera has a streak");
        assert!((3.0..=15.0).contains(&dx.hypot(dy)), "{dx} {dy}");
    }

    #[test]
    fn cast_shadows_darken_part_of_the_picture_with_a_soft_cool_edge() {
        let grey = RgbImage::from_pixel(100, 100, Rgb([160, 160, 160]));
        let shadow = CastShadow {
            anchor: [0.5, 0.5],
            angle: 0.0,
            bend: 0.0,
            softness: 0.2,
            depth: 0.5,
        };
        let mut lit = grey.clone();
        shadow.apply(&mut lit);
        // Left of the edge: untouched; right of it: darker and bluer; in between: a ramp.
        assert_eq!(lit.get_pixel(5, 50), grey.get_pixel(5, 50));
        let [r, g, b] = lit.get_pixel(95, 50).0;
        assert_eq!(r, 80);
        assert!(r < g && g < b, "cool shade {r},{g},{b}");
        let edge = lit.get_pixel(50, 50).0[0];
        assert!(80 < edge && edge < 160, "soft edge {edge}");
        let ramp: Vec<u8> = (30..70).map(|x| lit.get_pixel(x, 50).0[0]).collect();
        assert!(ramp.windows(2).all(|p| p[1] <= p[0]), "{ramp:?}");

        // Random shadows always reach the middle of a card-shaped picture, never all of it.
        let mut rng = StdRng::seed_from_u64(4);
        for _ in 0..50 {
            let mut card = RgbImage::from_pixel(96, 150, Rgb([200, 200, 200]));
            CastShadow::random(&mut rng).apply(&mut card);
            let middle: Vec<u8> = (24..72)
                .flat_map(|x| (38..112).map(move |y| (x, y)))
                .map(|(x, y)| card.get_pixel(x, y).0[0])
                .collect();
            assert!(middle.iter().any(|&v| v < 190), "no shadow in the middle");
            assert!(
                card.pixels().any(|p| p.0[0] == 200),
                "the whole picture is shaded"
            );
        }
    }
}
