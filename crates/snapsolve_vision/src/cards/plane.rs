//! A steep view of a table, straightened.
//!
//! Seen from a player's chair, the far cards of a table are small and
//! foreshortened, nearly square on the picture, and the finder's tests of a
//! card's shape and size, made for cards seen from above, lose them. The
//! cards found first still say how the table lies: each outline of a
//! rectangle, with a guess of the camera, gives the normal of its plane
//! ([`Quad::plane_normal`]). Turning the camera about its centre until it
//! looks straight down that normal maps the picture by `K R K^-1`, a
//! homography, under which every card on the table becomes a rectangle of a
//! card's proportions and one size. The finder looks again in that view, and
//! what it finds there is mapped back.

use image::{Rgb, RgbImage};
use imageproc::geometric_transformations::{Border, Interpolation, Projection, warp_into};

use super::CARD_ASPECT;
use crate::linear::least_squares;
use crate::quad::{Camera, Quad};

/// Fewest cards whose normals make a table's.
const MIN_CARDS: usize = 3;
/// Outlines whose shape in space is this long over wide count as cards
/// (a card is 1.56).
const CARD_SHAPED: (f32, f32) = (1.4, 1.75);
/// Normals within this angle (radians) of the table's agree with it; at
/// least two thirds of the cards' must.
const AGREE: f64 = 0.2;
/// Straightened, the middle half of the cards' sides differ by at most this factor.
const ALIKE: f32 = 1.1;
/// A table seen less than this far from straight down (radians) is left as
/// it is: the finder's perspective tests already cover it.
const MIN_TILT: f64 = 0.35;
/// The view shows the cards found and this many card sides (straightened)
/// on every side: cards the first look missed lie beside them, in their
/// rows. (Until session 26 the margin was twice the found cards' spread: a
/// view five tables wide, drawn at the picture's size, left each card a
/// third of its size there, too small for its symbols to be read, and the
/// near row of a steep table, the largest cards, went unfound. Steep stress
/// tables 400-447 with margins of 1.5, 2, 2.5 and 3 cards: 555, 556, 555 and
/// 554 cards right, against 537. Session 50 laid the view around the cards
/// on the table only, and a wide-angle lens's near row, found alone, lies
/// nearly three card sides from the far row: with 3 cards, steep tables
/// 400-447 and 448-495 569 and 551 right, as with 2 (569, 551), and the
/// other lenses' 489 and 480, against 465 and 466 (the condition's tables
/// as first seeded, docs/evaluation.md, session 50).)
const MARGIN: f32 = 3.0;

/// The picture seen straight down onto the table, and the map back.
pub(super) struct StraightDown {
    pub image: RgbImage,
    to_photo: Projection,
}

impl StraightDown {
    /// A quadrilateral of the view in the picture's pixels.
    pub fn to_photo(&self, quad: &Quad) -> Quad {
        quad.map(|p| {
            let (x, y) = self.to_photo * (p[0], p[1]);
            [x, y]
        })
    }
}

/// The view of `image` straight down onto the table the cards `found` lie
/// on, when they agree that it is seen at a steep angle.
pub(super) fn straight_down(image: &RgbImage, found: &[Quad]) -> Option<StraightDown> {
    let (camera, normal, cards) = table_seen(image, found)?;
    if -normal[2] > MIN_TILT.cos() {
        return None;
    }
    let turned = turned_down(&camera, normal);
    let to_view = |p: [f32; 2]| seen_down(&turned, p);
    // Nothing found lies beyond the table's horizon.
    if found
        .iter()
        .flat_map(|q| q.corners)
        .any(|c| to_view(c).is_none())
    {
        return None;
    }
    // The view is laid around the cards on the table: another outline found
    // (a lid, a ball) may map far off the table and would shrink them.
    let mapped: Vec<[f32; 2]> = cards
        .iter()
        .flat_map(|q| q.corners)
        .filter_map(to_view)
        .collect();
    // Seen straight down, the cards that gave the normal are alike: one
    // size. Squares of a grid seen at an angle may agree on a normal, but
    // not straightened by it.
    let mut sides: Vec<f32> = cards
        .iter()
        .map(|q| {
            let corners = q.corners.map(|c| to_view(c).unwrap_or(c));
            Quad { corners }.area().sqrt()
        })
        .collect();
    sides.sort_by(f32::total_cmp);
    let n = sides.len();
    let (low, high) = (sides[n / 4], sides[(3 * n).div_ceil(4) - 1]);
    if !(low > 0.0 && high <= ALIKE * low) {
        return None;
    }
    let (x0, x1) = spread(mapped.iter().map(|p| p[0]));
    let (y0, y1) = spread(mapped.iter().map(|p| p[1]));
    let margin = MARGIN * sides[n / 2];
    let (mut x0, mut x1, mut y0, mut y1) = (x0 - margin, x1 + margin, y0 - margin, y1 + margin);
    // No farther than the picture reaches (its far corners may map towards
    // the horizon, or beyond it).
    let (w0, h0) = (image.width() as f32, image.height() as f32);
    let photo: Vec<[f32; 2]> = [[0.0, 0.0], [w0, 0.0], [w0, h0], [0.0, h0]]
        .into_iter()
        .filter_map(to_view)
        .collect();
    if photo.len() == 4 {
        let (px0, px1) = spread(photo.iter().map(|p| p[0]));
        let (py0, py1) = spread(photo.iter().map(|p| p[1]));
        (x0, x1, y0, y1) = (x0.max(px0), x1.min(px1), y0.max(py0), y1.min(py1));
    }
    let (w, h) = (x1 - x0, y1 - y0);
    // The view is as large as the picture.
    let side = image.width().max(image.height()) as f32;
    let zoom = side / w.max(h).max(1.0);
    let (out_w, out_h) = ((w * zoom).ceil() as u32, (h * zoom).ceil() as u32);
    if out_w < 16 || out_h < 16 {
        return None;
    }
    let to_view = Projection::from_matrix(view_matrix(&turned, [x0, y0], zoom))?;
    let beyond = mean_colour(image);
    let mut view = RgbImage::from_pixel(out_w, out_h, beyond);
    warp_into(
        image,
        to_view,
        Interpolation::Bilinear,
        Border::Constant(beyond),
        &mut view,
    );
    Some(StraightDown {
        image: view,
        to_photo: to_view.invert(),
    })
}

/// The camera, the table's normal and the cards that agree on it: through
/// a phone's usual camera ([`Camera::guess`]) where that finds a table,
/// else through the focal length of [`OTHER_FOCALS`] under which the most
/// cards agree, and on a tie, under which they come closest to a card's
/// proportions. A photo from a wide-angle lens, or one cropped, has another
/// focal length, and a card seen steeply through the wrong one is no
/// card's shape in space. Where the cards' own shapes agree under no focal
/// length, their sizes give the normal ([`table_normal_by_sizes`]), under
/// the focal length that makes them most card-shaped.
fn table_seen(image: &RgbImage, found: &[Quad]) -> Option<(Camera, [f64; 3], Vec<Quad>)> {
    let guess = Camera::guess(image.width(), image.height());
    if let Some((normal, cards)) = table_normal(found, &guess) {
        return Some((guess, normal, cards));
    }
    OTHER_FOCALS
        .into_iter()
        .filter_map(|scale| {
            let camera = guess.with_focal_times(scale);
            let (normal, cards) = table_normal(found, &camera)?;
            let misfit = median_misfit(&cards, &camera);
            Some((cards.len(), misfit, (camera, normal, cards)))
        })
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)))
        .map(|(_, _, seen)| seen)
        .or_else(|| {
            std::iter::once(1.0)
                .chain(OTHER_FOCALS)
                .filter_map(|scale| {
                    let camera = guess.with_focal_times(scale);
                    let (normal, cards) = table_normal_by_sizes(found, &camera)?;
                    Some((median_misfit(&cards, &camera), (camera, normal, cards)))
                })
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, seen)| seen)
        })
}

/// The table's normal from how the cards' sizes change across the picture,
/// where their own shapes disagree on it: a card's normal comes from how
/// far its opposite sides converge, a pixel or two on a small card, and a
/// wide-angle lens's near row, found alone, gives normals 15-30 degrees
/// apart (other-lens stress tables 408 and 412). Their sizes agree better.
/// A patch of area `A` on the plane `n . X = d` shows on the picture with
/// the area `A |n . r|^3 / (f d^2)`, `r = (x, y, f)` the ray through it, so
/// the cube root of each card's area on the picture is `a x + b y + c`
/// with `(a, b, c / f)` along the normal. Fitted by least squares over all
/// the outlines found, whatever their shapes in space (that is what
/// disagrees), the worst fitting dropped one by one while any is more than
/// [`SIZE_MISFIT`] off; at least [`MIN_SIZED_CARDS`] and half of them must
/// remain, two thirds of those card-shaped seen straight down the normal.
fn table_normal_by_sizes(found: &[Quad], camera: &Camera) -> Option<([f64; 3], Vec<Quad>)> {
    let mut cards = found.to_vec();
    loop {
        if cards.len() < MIN_SIZED_CARDS || 2 * cards.len() < found.len() {
            return None;
        }
        let fit = fit_sizes(&cards, camera)?;
        let misfit = |q: &Quad| {
            let [x, y] = centred(q.centre(), camera);
            (size(q) / (fit[0] * x + fit[1] * y + fit[2]) - 1.0).abs()
        };
        let (worst, largest) = (0..cards.len())
            .map(|i| (i, misfit(&cards[i])))
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        if largest <= SIZE_MISFIT {
            let [a, b, c] = fit;
            if c <= 0.0 {
                return None;
            }
            let normal = unit([-a, -b, -c / f64::from(camera.focal)])?;
            // Sizes say how a plane lies, not that the outlines are cards:
            // seen straight down it, cards are a card's shape.
            let turned = turned_down(camera, normal);
            let shaped = cards
                .iter()
                .filter(|q| card_shaped_straightened(q, &turned))
                .count();
            return (3 * shaped >= 2 * cards.len()).then_some((normal, cards));
        }
        cards.remove(worst);
    }
}

/// Whether an outline seen by the camera `turned` straight down onto the
/// table is about a card's shape ([`SIZED_CARD_SHAPED`]).
fn card_shaped_straightened(q: &Quad, turned: &[[f64; 3]; 3]) -> bool {
    let [a, b, c, d] = q.corners.map(|p| seen_down(turned, p));
    let (Some(a), Some(b), Some(c), Some(d)) = (a, b, c, d) else {
        return false;
    };
    let aspect = Quad {
        corners: [a, b, c, d],
    }
    .aspect();
    (SIZED_CARD_SHAPED.0..=SIZED_CARD_SHAPED.1).contains(&aspect)
}

/// Fewest cards whose sizes make a table's normal: three sizes always fit a
/// plane, a fourth tests it (clutter stress table 416: three scraps of a
/// playing card's print fitted exactly and made a table of them).
const MIN_SIZED_CARDS: usize = 4;
/// Straightened by the normal of their sizes, outlines this long over wide
/// count as cards: looser than [`CARD_SHAPED`], for these are the outlines
/// whose sides are a pixel or two off (a square, or a scrap of print, is
/// none).
const SIZED_CARD_SHAPED: (f32, f32) = (1.25, 2.0);
/// Most a card's size (the cube root of its area) may lie off the fit, as a
/// share of it, to count as lying on the table.
const SIZE_MISFIT: f64 = 0.08;

/// The least-squares `[a, b, c]` of `size = a x + b y + c` over `cards`,
/// `(x, y)` each one's centre about the principal point.
fn fit_sizes(cards: &[Quad], camera: &Camera) -> Option<[f64; 3]> {
    let rows = cards.iter().map(|q| {
        let [x, y] = centred(q.centre(), camera);
        ([x, y, 1.0], size(q))
    });
    least_squares(rows, 3)
}

/// A point's offset from the camera's principal point.
fn centred(p: [f32; 2], camera: &Camera) -> [f64; 2] {
    [0, 1].map(|k| f64::from(p[k] - camera.principal[k]))
}

/// The cube root of an outline's area on the picture.
fn size(q: &Quad) -> f64 {
    f64::from(q.area()).cbrt()
}

/// Whether an outline is a rectangle of a card's proportions in space, seen
/// by `camera`.
fn card_shaped_in_space(q: &Quad, camera: &Camera) -> bool {
    q.rectified_aspect(camera)
        .is_some_and(|a| (CARD_SHAPED.0..=CARD_SHAPED.1).contains(&a))
}

/// How far the median of `cards`' proportions in space, seen by `camera`,
/// lies from a card's (as the log of their ratio, so that too long and too
/// short weigh alike).
fn median_misfit(cards: &[Quad], camera: &Camera) -> f32 {
    let mut misfits: Vec<f32> = cards
        .iter()
        .filter_map(|q| q.rectified_aspect(camera))
        .map(|a| (a / CARD_ASPECT).ln().abs())
        .collect();
    misfits.sort_by(f32::total_cmp);
    misfits
        .get(misfits.len() / 2)
        .copied()
        .unwrap_or(f32::INFINITY)
}

/// Focal lengths tried, as shares of the guess's, where the guess finds no
/// table: a wide-angle lens (or a view zoomed out) down to half of it, a
/// cropped photo up to twice it, each an eighth or so from the next.
const OTHER_FOCALS: [f32; 12] = [
    0.5, 0.56, 0.63, 0.71, 0.8, 0.89, 1.12, 1.26, 1.41, 1.59, 1.78, 2.0,
];

/// The median of the plane normals of the outlines that are rectangles of a
/// card's proportions in space, made unit, where at least [`MIN_CARDS`] of
/// them agree with it; `None` otherwise. (A grid of squares, a sudoku
/// page, has outlines too, but no card's.)
fn table_normal(found: &[Quad], camera: &Camera) -> Option<([f64; 3], Vec<Quad>)> {
    let (cards, normals): (Vec<Quad>, Vec<[f64; 3]>) = found
        .iter()
        .filter(|q| card_shaped_in_space(q, camera))
        .filter_map(|q| Some((*q, q.plane_normal(camera)?)))
        .unzip();
    if normals.len() < MIN_CARDS {
        return None;
    }
    let median = |k: usize| {
        let mut v: Vec<f64> = normals.iter().map(|n| n[k]).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let n = unit([median(0), median(1), median(2)])?;
    let agreeing: Vec<Quad> = cards
        .iter()
        .zip(&normals)
        .filter(|(_, m)| m[0] * n[0] + m[1] * n[1] + m[2] * n[2] >= AGREE.cos())
        .map(|(q, _)| *q)
        .collect();
    (agreeing.len() >= MIN_CARDS && 3 * agreeing.len() >= 2 * normals.len())
        .then_some((n, agreeing))
}

/// `v` made unit; `None` where it is about zero.
fn unit(v: [f64; 3]) -> Option<[f64; 3]> {
    let length = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    (length >= 1e-9).then(|| v.map(|x| x / length))
}

/// The camera turned to look straight down onto the table of `normal`
/// (along `-normal`, into it): picture pixels to the turned camera's, about
/// its principal point.
fn turned_down(camera: &Camera, normal: [f64; 3]) -> [[f64; 3]; 3] {
    turn_matrix(camera, &rotation_onto_axis(normal.map(|v| -v)))
}

/// Where the camera `turned` sees a picture point; `None` behind it, beyond
/// the table's horizon.
fn seen_down(turned: &[[f64; 3]; 3], p: [f32; 2]) -> Option<[f32; 2]> {
    let q = apply(turned, [f64::from(p[0]), f64::from(p[1]), 1.0]);
    (q[2] > 1e-6).then(|| [(q[0] / q[2]) as f32, (q[1] / q[2]) as f32])
}

/// The rotation taking the unit vector `from` onto the optical axis (0, 0, 1)
/// about the axis square to both (Rodrigues' formula), row-major.
fn rotation_onto_axis(from: [f64; 3]) -> [[f64; 3]; 3] {
    // axis = from x z = (from.y, -from.x, 0); sin = |axis|, cos = from.z.
    let (ax, ay) = (from[1], -from[0]);
    let sin = ax.hypot(ay);
    let cos = from[2];
    if sin < 1e-12 {
        return [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    }
    let (kx, ky) = (ax / sin, ay / sin);
    let c1 = 1.0 - cos;
    [
        [cos + kx * kx * c1, kx * ky * c1, ky * sin],
        [kx * ky * c1, cos + ky * ky * c1, -kx * sin],
        [-ky * sin, kx * sin, cos],
    ]
}

fn apply(m: &[[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2])
}

/// `K R K^-1` without the principal point's shift back: picture pixels to
/// those of the camera turned by `r`, about its principal point.
fn turn_matrix(camera: &Camera, r: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let f = f64::from(camera.focal);
    let (cx, cy) = (
        f64::from(camera.principal[0]),
        f64::from(camera.principal[1]),
    );
    // K^-1 times the focal, as the camera's rays: (x - cx, y - cy, f).
    let k_inv = [[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, f]];
    let k = [[f, 0.0, 0.0], [0.0, f, 0.0], [0.0, 0.0, 1.0]];
    multiply(&multiply(&k, r), &k_inv)
}

/// Row-major `S T`: `turned` followed by moving `origin` to 0 and zooming.
fn view_matrix(turned: &[[f64; 3]; 3], origin: [f32; 2], zoom: f32) -> [f32; 9] {
    let z = f64::from(zoom);
    let (ox, oy) = (f64::from(origin[0]), f64::from(origin[1]));
    let s = [[z, 0.0, -z * ox], [0.0, z, -z * oy], [0.0, 0.0, 1.0]];
    let m = multiply(&s, turned);
    let flat = [0, 1, 2].map(|i| m[i].map(|v| v as f32));
    [
        flat[0][0], flat[0][1], flat[0][2], flat[1][0], flat[1][1], flat[1][2], flat[2][0],
        flat[2][1], flat[2][2],
    ]
}

fn multiply(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> [[f64; 3]; 3] {
    [0, 1, 2].map(|i| [0, 1, 2].map(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

fn spread(values: impl Iterator<Item = f32>) -> (f32, f32) {
    values.fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

fn mean_colour(image: &RgbImage) -> Rgb<u8> {
    let n = (image.width() * image.height()).max(1) as f64;
    let mut sum = [0.0f64; 3];
    for p in image.pixels() {
        for (s, v) in sum.iter_mut().zip(p.0) {
            *s += f64::from(v);
        }
    }
    Rgb(sum.map(|s| (s / n).round() as u8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quad::lerp;

    /// A 1 x 1.56 card on a table tilted by `tilt` about the horizontal
    /// axis, `distance` in front of `camera`, moved by `offset` on the table.
    fn card_on_table(camera: &Camera, tilt: f32, offset: [f32; 2]) -> Quad {
        let corners = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.56], [0.0, 1.56]];
        Quad {
            corners: corners.map(|[u, v]: [f32; 2]| {
                let (x, y0) = (u - 0.5 + offset[0], v - 0.78 + offset[1]);
                let (y, z) = (y0 * tilt.cos(), 8.0 + y0 * tilt.sin());
                [
                    camera.principal[0] + camera.focal * x / z,
                    camera.principal[1] + camera.focal * y / z,
                ]
            }),
        }
    }

    fn table(camera: &Camera, tilt: f32) -> Vec<Quad> {
        let offsets = [-1.3, 0.0, 1.3]
            .into_iter()
            .flat_map(|x| [[x, -1.0], [x, 1.0]]);
        offsets.map(|o| card_on_table(camera, tilt, o)).collect()
    }

    #[test]
    fn cards_on_a_steep_table_give_its_normal_and_a_straight_view() {
        let camera = Camera::guess(640, 480);
        let tilt = 50f32.to_radians();
        let (normal, cards) = table_normal(&table(&camera, tilt), &camera).expect("a table");
        assert_eq!(cards.len(), 6);
        let truth = [0.0, f64::from(tilt.sin()), -f64::from(tilt.cos())];
        let agreement: f64 = (0..3).map(|k| normal[k] * truth[k]).sum();
        assert!(agreement > 0.999, "{normal:?}");
        let view = straight_down(&RgbImage::new(640, 480), &table(&camera, tilt));
        assert!(view.is_some_and(|v| v.image.width() >= 16 && v.image.height() >= 16));
    }

    #[test]
    fn a_wide_angle_lens_is_found_where_the_guess_sees_no_table() {
        let guess = Camera::guess(640, 480);
        let wide = guess.with_focal_times(0.5);
        let tilt = 55f32.to_radians();
        let cards = table(&wide, tilt);
        assert!(table_normal(&cards, &guess).is_none());
        let (camera, normal, agreeing) =
            table_seen(&RgbImage::new(640, 480), &cards).expect("a table");
        assert_eq!(camera.focal, wide.focal);
        assert_eq!(agreeing.len(), 6);
        let truth = [0.0, f64::from(tilt.sin()), -f64::from(tilt.cos())];
        let agreement: f64 = (0..3).map(|k| normal[k] * truth[k]).sum();
        assert!(agreement > 0.999, "{normal:?}");
    }

    #[test]
    fn the_cards_sizes_give_the_normal_where_their_shapes_disagree() {
        let guess = Camera::guess(640, 480);
        let wide = guess.with_focal_times(0.5);
        let tilt = 55f32.to_radians();
        let truth = [0.0, f64::from(tilt.sin()), -f64::from(tilt.cos())];
        let agreement = |n: [f64; 3]| (0..3).map(|k| n[k] * truth[k]).sum::<f64>();
        let exact = table(&wide, tilt);
        let (normal, cards) = table_normal_by_sizes(&exact, &wide).expect("a table");
        assert_eq!(cards.len(), 6);
        assert!(agreement(normal) > 0.995, "{normal:?}");
        // Each card's far corners fitted up to two pixels off, outwards or
        // inwards: the converging sides, and so the normals, disagree; the
        // areas hardly change.
        let jittered: Vec<Quad> = exact
            .iter()
            .zip([2.0, -1.5, 0.5, -2.0, 1.5, -0.5])
            .map(|(q, shift)| {
                let mut corners = q.corners;
                corners[0][0] -= shift;
                corners[1][0] += shift;
                Quad { corners }
            })
            .collect();
        assert!(table_normal(&jittered, &wide).is_none());
        let (_, normal, cards) = table_seen(&RgbImage::new(640, 480), &jittered).expect("a table");
        assert!(cards.len() >= 5);
        assert!(agreement(normal) > 0.98, "{normal:?}");
    }

    #[test]
    fn sizes_make_no_table_of_three_outlines_or_of_squares() {
        let wide = Camera::guess(640, 480).with_focal_times(0.5);
        let tilt = 55f32.to_radians();
        let cards = table(&wide, tilt);
        // Three sizes fit any plane exactly.
        assert!(table_normal_by_sizes(&cards[..3], &wide).is_none());
        // Squares on the same table: their sizes fit, their shapes do not.
        let squares: Vec<Quad> = cards
            .iter()
            .map(|q| {
                let [a, b, c, d] = q.corners;
                Quad {
                    corners: [a, b, lerp(b, c, 0.64), lerp(a, d, 0.64)],
                }
            })
            .collect();
        assert!(table_normal_by_sizes(&squares, &wide).is_none());
        assert!(table_normal_by_sizes(&cards, &wide).is_some());
    }

    #[test]
    fn a_table_seen_from_above_or_too_few_cards_are_left_alone() {
        let camera = Camera::guess(640, 480);
        let flat = table(&camera, 0.1);
        assert!(straight_down(&RgbImage::new(640, 480), &flat).is_none());
        let steep = table(&camera, 50f32.to_radians());
        assert!(straight_down(&RgbImage::new(640, 480), &steep[..2]).is_none());
    }
}
