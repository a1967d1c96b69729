//! The sides of a card laid around its symbols: how clearly each shows in
//! the picture, moving them to where they show most, and placing those that
//! do not show from the others.

use image::RgbImage;

use super::{Point2, across, dot, sub};
use crate::cards::CARD_ASPECT;
use crate::quad::{Quad, lines_meet};

/// Distances from the centre tried for a side, apart by this many pixels,
/// and sides read every this many pixels along them while they are sought
/// (whether the side found shows is read at every pixel).
const PROFILE_STEP: f32 = 1.0;
const PROFILE_SPACING: f32 = 2.0;
/// Each side is moved by up to this many pixels, and turned by moving its
/// ends up to this many pixels either way.
const SIDE_SHIFT: f32 = 2.0;
const SIDE_TURN: f32 = 3.0;
/// The furthest [`refine`] moves a side's end: shifted, turned, shifted again.
pub(super) const MOST_REFINED_MOVE: f32 = SIDE_SHIFT + SIDE_TURN + FINAL_SHIFT;
/// How far a side is moved again once turned.
const FINAL_SHIFT: f32 = 1.0;
/// Steps are read this far either side of a side, in pixels (the outline of
/// a blurred or shrunk card spreads over two or three pixels).
pub(super) const STEP_REACH: f32 = 1.5;
/// Steps are read along the middle of each side only: the corners are
/// rounded, and a neighbour's corner may lie beside them.
const SIDE_SPAN: f32 = 0.8;

/// One side of a card: a segment and its outward normal.
#[derive(Clone, Copy, Debug)]
pub(super) struct Side {
    pub from: Point2,
    pub to: Point2,
    pub outward: Point2,
}

/// The four sides, in order round the card, of the rectangle centred at
/// `c` with half extents `a` along `u` and `b` along `v`.
pub(super) fn rectangle(c: Point2, u: Point2, v: Point2, a: f32, b: f32) -> [Side; 4] {
    let at = |s: f32, t: f32| [c[0] + s * u[0] + t * v[0], c[1] + s * u[1] + t * v[1]];
    let neg = |p: Point2| [-p[0], -p[1]];
    [
        Side {
            from: at(a, -b),
            to: at(a, b),
            outward: u,
        },
        Side {
            from: at(a, b),
            to: at(-a, b),
            outward: v,
        },
        Side {
            from: at(-a, b),
            to: at(-a, -b),
            outward: neg(u),
        },
        Side {
            from: at(-a, -b),
            to: at(a, -b),
            outward: neg(v),
        },
    ]
}

/// Distances from a card's centre tried for a side, from `low` to `high`.
pub(super) fn distances(low: f32, high: f32) -> Vec<f32> {
    (0..)
        .map(|k| low + k as f32 * PROFILE_STEP)
        .take_while(|&d| d <= high)
        .collect()
}

/// How much the two sides facing `±normal` at each of `distances` from
/// `centre` show together; a side at distance `d` is read along
/// `d * length_ratio` either side of its middle, every [`PROFILE_SPACING`]
/// times `coarseness` pixels. The sides are taken
/// symmetric about the centre (the symbols lie in the card's middle): left
/// free, the side that does not show lands on whatever edge lies nearby.
pub(super) fn pair_profile(
    colours: &impl ColourAt,
    centre: Point2,
    normal: Point2,
    distances: &[f32],
    length_ratio: f32,
    coarseness: f32,
) -> Vec<f32> {
    let tangent = across(normal);
    let shows = |d: f32, sign: f32| {
        let half = d * length_ratio;
        let at = |t: f32| {
            [
                centre[0] + sign * d * normal[0] + t * tangent[0],
                centre[1] + sign * d * normal[1] + t * tangent[1],
            ]
        };
        let outward = [sign * normal[0], sign * normal[1]];
        side_step_every(
            colours,
            &Side {
                from: at(-half),
                to: at(half),
                outward,
            },
            PROFILE_SPACING * coarseness,
        )
    };
    distances
        .iter()
        .map(|&d| shows(d, 1.0) + shows(d, -1.0))
        .collect()
}

/// The side moved along its normal by up to [`SIDE_SHIFT`] pixels and turned
/// by moving its ends up to [`SIDE_TURN`] pixels, to where it shows most:
/// first moved, then turned, then moved again.
pub(super) fn refine(colours: &impl ColourAt, side: Side) -> Side {
    let moved = |side: &Side, from: f32, to: f32| {
        let normal = from_to_normal(side);
        Side {
            from: [
                side.from[0] + from * normal[0],
                side.from[1] + from * normal[1],
            ],
            to: [side.to[0] + to * normal[0], side.to[1] + to * normal[1]],
            outward: side.outward,
        }
    };
    let best_of = |candidates: Vec<Side>| {
        candidates
            .into_iter()
            .map(|s| (side_step_every(colours, &s, PROFILE_SPACING), s))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, s)| s)
    };
    let offsets = |range: f32| {
        let steps = (range / 0.5).ceil() as i32;
        (-steps..=steps).map(move |k| k as f32 * 0.5)
    };
    let shifted =
        best_of(offsets(SIDE_SHIFT).map(|d| moved(&side, d, d)).collect()).unwrap_or(side);
    let turned =
        best_of(offsets(SIDE_TURN).map(|d| moved(&shifted, -d, d)).collect()).unwrap_or(shifted);
    best_of(offsets(FINAL_SHIFT).map(|d| moved(&turned, d, d)).collect()).unwrap_or(turned)
}

/// `side` reflected through `centre`: the side opposite it on a card
/// centred there.
pub(super) fn mirrored(side: &Side, centre: Point2) -> Side {
    let reflect = |p: Point2| [2.0 * centre[0] - p[0], 2.0 * centre[1] - p[1]];
    Side {
        from: reflect(side.from),
        to: reflect(side.to),
        outward: side.outward.map(|c| -c),
    }
}

/// Side `k` moved along its normal to where a card's proportions put it:
/// from `centre`, half as far as the two sides beside it lie apart, times
/// the card's aspect (or over it).
pub(super) fn placed_by_aspect(sides: &[Side; 4], k: usize, centre: Point2) -> Side {
    let middle = |s: &Side| [(s.from[0] + s.to[0]) / 2.0, (s.from[1] + s.to[1]) / 2.0];
    let (left, right) = (&sides[(k + 1) % 4], &sides[(k + 3) % 4]);
    let apart = dot(sub(middle(left), middle(right)), from_to_normal(left)).abs();
    // Sides 0 and 2 are the long ones (across them lies the card's width).
    let half = if k.is_multiple_of(2) {
        apart / CARD_ASPECT
    } else {
        apart * CARD_ASPECT
    } / 2.0;
    let side = sides[k];
    let normal = from_to_normal(&side);
    let shift = half - dot(sub(middle(&side), centre), normal);
    let moved = |p: Point2| [p[0] + shift * normal[0], p[1] + shift * normal[1]];
    Side {
        from: moved(side.from),
        to: moved(side.to),
        outward: side.outward,
    }
}

/// The quadrilateral the four sides' lines enclose, if it is convex.
pub(super) fn quad_of(sides: &[Side; 4]) -> Option<Quad> {
    let corner = |a: &Side, b: &Side| lines_meet(a.from, a.to, b.from, b.to);
    let corners = [
        corner(&sides[3], &sides[0])?,
        corner(&sides[0], &sides[1])?,
        corner(&sides[1], &sides[2])?,
        corner(&sides[2], &sides[3])?,
    ];
    let quad = Quad { corners };
    quad.is_convex().then(|| quad.portrait())
}

/// The four sides of `quad`, in its corners' order, facing away from its centre.
pub(super) fn sides_of(quad: &Quad) -> [Side; 4] {
    let centre = quad.centre();
    std::array::from_fn(|k| {
        let (from, to) = (quad.corners[k], quad.corners[(k + 1) % 4]);
        let middle = [(from[0] + to[0]) / 2.0, (from[1] + to[1]) / 2.0];
        Side {
            from,
            to,
            outward: sub(middle, centre),
        }
    })
}

/// The unit normal of a side's segment, on its outward side.
fn from_to_normal(side: &Side) -> Point2 {
    let d = sub(side.to, side.from);
    let length = d[0].hypot(d[1]).max(f32::EPSILON);
    let normal = [d[1] / length, -d[0] / length];
    if dot(normal, side.outward) >= 0.0 {
        normal
    } else {
        [-normal[0], -normal[1]]
    }
}

/// How clearly a side shows, on average along its middle, in the channel
/// where it shows most (levels): either a step (outside minus inside, whose
/// sign must hold along the side to add up) or a dark seam (the line darker
/// than the mean of both sides: cards edge to edge, paper on either side).
pub(super) fn side_step(colours: &impl ColourAt, side: &Side) -> f32 {
    side_step_every(colours, side, 1.0)
}

/// [`side_step`] read every `spacing` pixels along the side.
fn side_step_every(colour: &impl ColourAt, side: &Side, spacing: f32) -> f32 {
    let normal = from_to_normal(side);
    let d = sub(side.to, side.from);
    let length = d[0].hypot(d[1]);
    let samples = (SIDE_SPAN * length / spacing).max(1.0) as usize;
    let (mut steps, mut seams) = ([0.0f32; 3], [0.0f32; 3]);
    for k in 0..samples {
        let t = (1.0 - SIDE_SPAN) / 2.0 + SIDE_SPAN * (k as f32 + 0.5) / samples as f32;
        let p = [side.from[0] + t * d[0], side.from[1] + t * d[1]];
        let reach = [STEP_REACH * normal[0], STEP_REACH * normal[1]];
        let outside = colour.at([p[0] + reach[0], p[1] + reach[1]]);
        let inside = colour.at([p[0] - reach[0], p[1] - reach[1]]);
        let on = colour.at(p);
        for c in 0..3 {
            steps[c] += outside[c] - inside[c];
            seams[c] += (outside[c] + inside[c]) / 2.0 - on[c];
        }
    }
    let strongest = (0..3)
        .map(|c| steps[c].abs().max(seams[c]))
        .fold(0.0f32, f32::max);
    strongest / samples as f32
}

/// A picture's colour anywhere in it, blended from its four nearest pixels
/// (bilinear), clamped to its edges; pixel centres at integers.
///
/// This is the finder's hottest loop on a frame with no card (a few million
/// samples per 960x720 frame, most of them around lone blobs of print), so
/// the sample is inlined into [`side_step_every`] (as a plain function it
/// was a call per sample) and the picture's size read once per side: 155 →
/// 141 ms on that frame (BENCHMARKS.md, session 29).
pub(super) trait ColourAt {
    fn at(&self, p: Point2) -> [f32; 3];
    /// The last column and row, where the picture ends.
    fn last_pixel(&self) -> (f32, f32);
}

/// The colours of a picture as four floats a pixel (the fourth unused), for
/// fitting cards around symbols: thousands of sides read, each sample
/// blending four pixels. Read from bytes, each of the four was widened to
/// floats channel by channel; as four floats in a row, loaded and blended
/// whole (the sums come out bit for bit the same).
pub(super) struct Colours {
    pixels: Vec<[f32; 4]>,
    grid: PixelGrid,
}

impl Colours {
    pub(super) fn of(image: &RgbImage) -> Colours {
        let pixels = image
            .as_raw()
            .chunks_exact(3)
            .map(|rgb| [f32::from(rgb[0]), f32::from(rgb[1]), f32::from(rgb[2]), 0.0])
            .collect();
        Colours {
            pixels,
            grid: PixelGrid::of(image),
        }
    }
}

impl ColourAt for Colours {
    fn last_pixel(&self) -> (f32, f32) {
        self.grid.last_pixel()
    }

    #[inline(always)]
    fn at(&self, p: Point2) -> [f32; 3] {
        let ([a, b, c, d], fx, fy) = self.grid.around(p);
        let [red, green, blue, _] = blend(
            [
                self.pixels[a],
                self.pixels[b],
                self.pixels[c],
                self.pixels[d],
            ],
            fx,
            fy,
        );
        [red, green, blue]
    }
}

/// Bilinear samples read straight from a picture's bytes, for a few sides.
pub(super) struct Bilinear<'a> {
    raw: &'a [u8],
    grid: PixelGrid,
}

impl<'a> Bilinear<'a> {
    pub(super) fn new(image: &'a RgbImage) -> Self {
        Bilinear {
            raw: image.as_raw(),
            grid: PixelGrid::of(image),
        }
    }
}

impl ColourAt for Bilinear<'_> {
    fn last_pixel(&self) -> (f32, f32) {
        self.grid.last_pixel()
    }

    #[inline(always)]
    fn at(&self, p: Point2) -> [f32; 3] {
        let ([a, b, c, d], fx, fy) = self.grid.around(p);
        // The four pixels read once each, then blended channel by channel in
        // a plain loop (an `array::from_fn` here was not inlined and made
        // this the finder's costliest line on a page of print: 3x slower).
        let pixel = |at: usize| -> [f32; 3] {
            let rgb = &self.raw[3 * at..3 * at + 3];
            [f32::from(rgb[0]), f32::from(rgb[1]), f32::from(rgb[2])]
        };
        blend([pixel(a), pixel(b), pixel(c), pixel(d)], fx, fy)
    }
}

/// A picture's size, as bilinear sampling needs it.
#[derive(Clone, Copy)]
struct PixelGrid {
    width: usize,
    last_column: usize,
    last_row: usize,
}

impl PixelGrid {
    fn of(image: &RgbImage) -> PixelGrid {
        let (width, height) = (image.width() as usize, image.height() as usize);
        PixelGrid {
            width,
            last_column: width.max(1) - 1,
            last_row: height.max(1) - 1,
        }
    }

    fn last_pixel(self) -> (f32, f32) {
        (self.last_column as f32, self.last_row as f32)
    }

    /// The four pixels around `p` (clamped to the picture), top left, top
    /// right, bottom left, bottom right, as indices in row order; and how
    /// far `p` lies past the top left one across and down.
    #[inline(always)]
    fn around(self, p: Point2) -> ([usize; 4], f32, f32) {
        let x = p[0].clamp(0.0, self.last_column as f32);
        let y = p[1].clamp(0.0, self.last_row as f32);
        let (x0, y0) = (x as usize, y as usize);
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let (x1, y1) = ((x0 + 1).min(self.last_column), (y0 + 1).min(self.last_row));
        let (top, bottom) = (y0 * self.width, y1 * self.width);
        ([top + x0, top + x1, bottom + x0, bottom + x1], fx, fy)
    }
}

/// Four pixels' colours (as [`PixelGrid::around`] orders them) blended at
/// `fx` across and `fy` down.
#[inline(always)]
fn blend<const N: usize>(corners: [[f32; N]; 4], fx: f32, fy: f32) -> [f32; N] {
    let [a, b, c, d] = corners;
    let mut out = [0.0f32; N];
    for k in 0..N {
        let top = a[k] * (1.0 - fx) + b[k] * fx;
        let bottom = c[k] * (1.0 - fx) + d[k] * fx;
        out[k] = top * (1.0 - fy) + bottom * fy;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// Two levels of step at x = 100, under noise of up to ±4 levels a pixel.
    fn faint_step() -> RgbImage {
        RgbImage::from_fn(200, 200, |x, y| {
            let noise = ((x * 7919 + y * 104_729) % 9) as i32 - 4;
            let level = if x < 100 { 200 } else { 202 } + noise;
            Rgb([level as u8; 3])
        })
    }

    fn vertical_side(x: f32) -> Side {
        Side {
            from: [x, 20.0],
            to: [x, 180.0],
            outward: [1.0, 0.0],
        }
    }

    #[test]
    fn a_step_of_two_levels_shows_along_a_side_and_noise_does_not() {
        let image = faint_step();
        let colours = Bilinear::new(&image);
        let on_step = side_step(&colours, &vertical_side(99.5));
        let off_step = side_step(&colours, &vertical_side(50.0));
        assert!((1.5..=2.5).contains(&on_step), "{on_step}");
        assert!(off_step < 0.6, "{off_step}");
    }

    #[test]
    fn a_side_moves_onto_the_step_nearby() {
        let refined = refine(&Colours::of(&faint_step()), vertical_side(98.0));
        let x = (refined.from[0] + refined.to[0]) / 2.0;
        assert!((x - 99.5).abs() <= 1.0, "{refined:?}");
    }

    #[test]
    fn a_mirrored_side_faces_the_other_way_across_the_centre() {
        let side = vertical_side(120.0);
        let mirror = mirrored(&side, [100.0, 100.0]);
        assert_eq!(mirror.from, [80.0, 180.0]);
        assert_eq!(mirror.outward, [-1.0, 0.0]);
    }
}
