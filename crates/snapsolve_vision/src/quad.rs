//! Quadrilaterals: fitting four straight sides to the outline of a card.
//!
//! Seed 000 approximates the outline with a polygon (Douglas–Peucker) and
//! keeps it when it has four corners. Real cards have rounded corners and
//! photos are tilted, so here the four corners come in two steps:
//! 1. a first guess inscribed in the convex hull: the two hull points farthest
//!    apart (a diagonal) and, on each side of it, the point farthest from it;
//! 2. each side is then re-fitted (total least squares) to the outline points
//!    along its middle 76%, away from the rounded corners, and neighbouring
//!    sides are intersected. The corners land where the straight edges meet,
//!    as if the card had sharp corners.

mod rectify;

pub use rectify::Camera;

use imageproc::geometry::convex_hull;
use imageproc::point::Point;

/// A point in continuous pixel coordinates: pixel `(i, j)` spans `[i, i+1) x [j, j+1)`.
pub type Point2 = [f32; 2];

/// A quadrilateral, corners in order around it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    /// The four corners in order around the quadrilateral.
    pub corners: [Point2; 4],
}

impl Quad {
    /// Area (shoelace formula), always non-negative.
    pub fn area(&self) -> f32 {
        self.signed_area().abs()
    }

    /// Positive when the corners go clockwise on screen (y pointing down).
    fn signed_area(&self) -> f32 {
        let c = &self.corners;
        (0..4)
            .map(|i| {
                let (a, b) = (c[i], c[(i + 1) % 4]);
                a[0] * b[1] - b[0] * a[1]
            })
            .sum::<f32>()
            / 2.0
    }

    /// Lengths of the sides `corner i -> corner i+1`.
    pub fn side_lengths(&self) -> [f32; 4] {
        std::array::from_fn(|i| distance(self.corners[i], self.corners[(i + 1) % 4]))
    }

    /// The shortest side: a card's width, about.
    pub fn shortest_side(&self) -> f32 {
        self.side_lengths()
            .into_iter()
            .fold(f32::INFINITY, f32::min)
    }

    /// Mean of the two longer opposite sides over the mean of the two shorter ones (>= 1).
    pub fn aspect(&self) -> f32 {
        let s = self.side_lengths();
        let (a, b) = (s[0] + s[2], s[1] + s[3]);
        a.max(b) / a.min(b).max(f32::EPSILON)
    }

    /// The centre of mass of the corners.
    pub fn centre(&self) -> Point2 {
        let c = &self.corners;
        [
            c.iter().map(|p| p[0]).sum::<f32>() / 4.0,
            c.iter().map(|p| p[1]).sum::<f32>() / 4.0,
        ]
    }

    /// The point at `(u, v)` in 0..1, by bilinear interpolation: `u` along
    /// the first side (corner 0 to 1), `v` from the first side to the third.
    pub fn point_at(&self, u: f32, v: f32) -> Point2 {
        let [a, b, c, d] = self.corners;
        lerp(lerp(a, b, u), lerp(d, c, u), v)
    }

    /// True when every turn goes the same way (no bow tie, no dent).
    pub fn is_convex(&self) -> bool {
        let c = &self.corners;
        let turns: Vec<f32> = (0..4)
            .map(|i| {
                let (a, b, d) = (c[i], c[(i + 1) % 4], c[(i + 2) % 4]);
                (b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0])
            })
            .collect();
        turns.iter().all(|t| *t > 0.0) || turns.iter().all(|t| *t < 0.0)
    }

    /// The same quadrilateral with every corner mapped by `f`.
    pub fn map(&self, f: impl Fn(Point2) -> Point2) -> Quad {
        Quad {
            corners: self.corners.map(f),
        }
    }

    /// The same quadrilateral, corners reordered as a portrait card seen upright:
    /// clockwise on screen, starting at the top-left, with `corner 0 -> corner 1`
    /// a short side. Of the two short sides, the one higher in the picture is the top.
    pub fn portrait(&self) -> Quad {
        self.oriented(Quad::long_first_on_picture)
    }

    /// [`Quad::portrait`] for the flat rectangle seen by `camera`: which sides
    /// are the short ones is decided in space, not on the picture, where a
    /// foreshortened card can look wider than long (on the picture when the
    /// corners are no rectangle in front of the camera).
    pub fn portrait_seen_by(&self, camera: &Camera) -> Quad {
        self.portrait_checked_by(camera, 1.0)
    }

    /// [`Quad::portrait`], unless the flat rectangle seen by `camera` has
    /// its sides the other way round by more than `margin`: a far card on a
    /// steep table, foreshortened until its long side looks the shorter,
    /// would otherwise be cut out sideways. (Seen nearly head on, space and
    /// picture agree, and the margin keeps a noisy outline from flipping.)
    pub fn portrait_checked_by(&self, camera: &Camera, margin: f32) -> Quad {
        self.oriented(|q| {
            let on_picture = q.long_first_on_picture();
            match q.rectified_side_ratio(camera) {
                Some(ratio) if on_picture && ratio * margin < 1.0 => false,
                Some(ratio) if !on_picture && ratio > margin => true,
                _ => on_picture,
            }
        })
    }

    /// The same quadrilateral with each corner's role taken by the next one:
    /// a card cut out of it lies a quarter turn round.
    pub fn turned_a_quarter(&self) -> Quad {
        let mut corners = self.corners;
        corners.rotate_left(1);
        Quad { corners }
    }

    /// Whether side `0 -> 1` and its opposite are the longer pair on the picture.
    fn long_first_on_picture(&self) -> bool {
        let s = self.side_lengths();
        s[0] + s[2] > s[1] + s[3]
    }

    /// Clockwise, turned until `long_first` is false (side `0 -> 1` short),
    /// then with the higher short side first.
    fn oriented(&self, long_first: impl Fn(&Quad) -> bool) -> Quad {
        let mut c = self.corners;
        if self.signed_area() < 0.0 {
            c.reverse();
        }
        if long_first(&Quad { corners: c }) {
            c.rotate_left(1);
        }
        // Now 0->1 and 2->3 are the short sides; put the higher one first.
        if c[0][1] + c[1][1] > c[2][1] + c[3][1] {
            c.rotate_left(2);
        }
        Quad { corners: c }
    }

    /// Whether `p` lies inside (for a convex quadrilateral).
    pub fn contains(&self, p: Point2) -> bool {
        let c = &self.corners;
        // An array, not a `Vec`: this is asked of every pixel of a card's
        // paper where the finder checks it for foreign ink.
        let sides: [f32; 4] = std::array::from_fn(|i| {
            let (a, b) = (c[i], c[(i + 1) % 4]);
            (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        });
        sides.iter().all(|s| *s >= 0.0) || sides.iter().all(|s| *s <= 0.0)
    }

    /// Whether either quadrilateral holds the other's centre: two outlines
    /// of one card (a neighbour's centre lies a card's width away).
    pub fn shares_centre_with(&self, other: &Quad) -> bool {
        self.contains(other.centre()) || other.contains(self.centre())
    }

    /// The quadrilateral scaled by `factor` about its centre.
    pub fn scaled(&self, factor: f32) -> Quad {
        let centre = self.centre();
        self.map(|p| {
            [
                centre[0] + factor * (p[0] - centre[0]),
                centre[1] + factor * (p[1] - centre[1]),
            ]
        })
    }

    /// The quadrilateral grown (or shrunk, for negative `by`) by `by` pixels
    /// along each corner's diagonal from the centre.
    pub fn expanded(&self, by: f32) -> Quad {
        let centre = self.centre();
        self.map(|p| {
            let (dx, dy) = (p[0] - centre[0], p[1] - centre[1]);
            let len = (dx * dx + dy * dy).sqrt().max(f32::EPSILON);
            [p[0] + dx / len * by, p[1] + dy / len * by]
        })
    }
}

pub(crate) fn distance(a: Point2, b: Point2) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// `a - b`.
pub(crate) fn sub(a: Point2, b: Point2) -> Point2 {
    [a[0] - b[0], a[1] - b[1]]
}

/// The point `t` of the way from `a` to `b`.
pub(crate) fn lerp(a: Point2, b: Point2, t: f32) -> Point2 {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
}

/// Fits a quadrilateral to a closed outline given as boundary pixels (as
/// returned by `imageproc::contours::find_contours`). `None` when the outline
/// has fewer than four distinct hull points.
pub fn fit_quad(outline: &[Point<i32>]) -> Option<Quad> {
    let points: Vec<Point2> = outline
        .iter()
        .map(|p| [p.x as f32 + 0.5, p.y as f32 + 0.5])
        .collect();
    let hull: Vec<Point2> = convex_hull(outline.to_vec())
        .iter()
        .map(|p| [p.x as f32 + 0.5, p.y as f32 + 0.5])
        .collect();
    let first = inscribed_quad(&hull)?;
    Some(refine_sides(&first, &points))
}

/// The first guess: a long diagonal of the hull and the farthest point on each side of it.
fn inscribed_quad(hull: &[Point2]) -> Option<Quad> {
    if hull.len() < 4 {
        return None;
    }
    let (mut a, mut c, mut best) = (0, 0, -1.0f32);
    for i in 0..hull.len() {
        for j in i + 1..hull.len() {
            let d = distance(hull[i], hull[j]);
            if d > best {
                (a, c, best) = (i, j, d);
            }
        }
    }
    let (pa, pc) = (hull[a], hull[c]);
    let side = |p: Point2| (pc[0] - pa[0]) * (p[1] - pa[1]) - (pc[1] - pa[1]) * (p[0] - pa[0]);
    let farthest = |sign: f32| {
        hull.iter()
            .copied()
            .filter(|p| side(*p) * sign > 0.0)
            .max_by(|p, q| (side(*p) * sign).total_cmp(&(side(*q) * sign)))
    };
    let (b, d) = (farthest(1.0)?, farthest(-1.0)?);
    Some(Quad {
        corners: [pa, b, pc, d],
    })
}

/// A straight line through `point` along the unit vector `direction`.
#[derive(Clone, Copy, Debug)]
struct Line {
    point: Point2,
    direction: Point2,
}

/// Re-fits each side to the outline points along its middle and intersects neighbours.
fn refine_sides(quad: &Quad, points: &[Point2]) -> Quad {
    let lengths = quad.side_lengths();
    let lines: [Option<Line>; 4] = std::array::from_fn(|i| {
        let (a, b) = (quad.corners[i], quad.corners[(i + 1) % 4]);
        let len = lengths[i].max(f32::EPSILON);
        let d = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
        let tolerance = (0.04 * len).max(2.0);
        let near: Vec<Point2> = points
            .iter()
            .copied()
            .filter(|p| {
                let (px, py) = (p[0] - a[0], p[1] - a[1]);
                let t = (px * d[0] + py * d[1]) / len;
                let off = (px * d[1] - py * d[0]).abs();
                (0.12..=0.88).contains(&t) && off <= tolerance
            })
            .collect();
        fit_line(&near)
    });
    let mut corners = quad.corners;
    for (i, corner) in corners.iter_mut().enumerate() {
        let (before, after) = (lines[(i + 3) % 4], lines[i]);
        if let (Some(l1), Some(l2)) = (before, after)
            && let Some(p) = intersect(l1, l2)
            && distance(p, *corner) <= 0.25 * lengths[i].min(lengths[(i + 3) % 4])
        {
            *corner = p;
        }
    }
    Quad { corners }
}

/// Where the line through `a` and `b` meets the line through `c` and `d`;
/// `None` when they are (nearly) parallel.
pub(crate) fn lines_meet(a: Point2, b: Point2, c: Point2, d: Point2) -> Option<Point2> {
    let (r, s) = ([b[0] - a[0], b[1] - a[1]], [d[0] - c[0], d[1] - c[1]]);
    let cross = r[0] * s[1] - r[1] * s[0];
    if cross.abs() < 1e-6 {
        return None;
    }
    let t = ((c[0] - a[0]) * s[1] - (c[1] - a[1]) * s[0]) / cross;
    Some([a[0] + t * r[0], a[1] + t * r[1]])
}

/// Total least squares line through points (principal axis of their scatter).
fn fit_line(points: &[Point2]) -> Option<Line> {
    if points.len() < 4 {
        return None;
    }
    let n = points.len() as f32;
    let mx = points.iter().map(|p| p[0]).sum::<f32>() / n;
    let my = points.iter().map(|p| p[1]).sum::<f32>() / n;
    let (mut sxx, mut sxy, mut syy) = (0.0f32, 0.0f32, 0.0f32);
    for p in points {
        let (dx, dy) = (p[0] - mx, p[1] - my);
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    let angle = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    Some(Line {
        point: [mx, my],
        direction: [angle.cos(), angle.sin()],
    })
}

fn intersect(l1: Line, l2: Line) -> Option<Point2> {
    let (d1, d2) = (l1.direction, l2.direction);
    let denom = d1[0] * d2[1] - d1[1] * d2[0];
    if denom.abs() < 1e-3 {
        return None;
    }
    let (wx, wy) = (l2.point[0] - l1.point[0], l2.point[1] - l1.point[1]);
    let t = (wx * d2[1] - wy * d2[0]) / denom;
    Some([l1.point[0] + t * d1[0], l1.point[1] + t * d1[1]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{GrayImage, Luma};
    use imageproc::contours::find_contours;
    use imageproc::drawing::draw_polygon_mut;

    #[test]
    fn points_at_the_corners_and_the_middle() {
        let quad = Quad {
            corners: [[0.0, 0.0], [10.0, 0.0], [14.0, 20.0], [2.0, 20.0]],
        };
        assert_eq!(quad.point_at(0.0, 0.0), [0.0, 0.0]);
        assert_eq!(quad.point_at(1.0, 1.0), [14.0, 20.0]);
        assert_eq!(quad.point_at(0.0, 1.0), [2.0, 20.0]);
        assert_eq!(quad.point_at(0.5, 0.5), [6.5, 10.0]);
    }

    fn outline_of(corners: &[(i32, i32)]) -> Vec<Point<i32>> {
        let mut image = GrayImage::new(200, 200);
        let poly: Vec<Point<i32>> = corners.iter().map(|&(x, y)| Point::new(x, y)).collect();
        draw_polygon_mut(&mut image, &poly, Luma([255]));
        find_contours::<i32>(&image).remove(0).points
    }

    #[test]
    fn fits_a_tilted_rectangle_to_within_two_pixels() {
        let truth = [(40, 20), (150, 60), (120, 140), (10, 100)];
        let quad = fit_quad(&outline_of(&truth)).unwrap();
        for (x, y) in truth {
            let nearest = quad
                .corners
                .iter()
                .map(|c| distance(*c, [x as f32, y as f32]))
                .fold(f32::MAX, f32::min);
            assert!(nearest < 2.0, "{quad:?} misses ({x}, {y}) by {nearest}");
        }
        assert!(quad.is_convex());
    }

    #[test]
    fn portrait_order_starts_top_left_with_a_short_side() {
        // A landscape card: long side horizontal.
        let quad = Quad {
            corners: [[0.0, 0.0], [0.0, 60.0], [100.0, 60.0], [100.0, 0.0]],
        }
        .portrait();
        let s = quad.side_lengths();
        assert!(s[0] < s[1], "{quad:?}");
        assert!(quad.signed_area() > 0.0);
        assert!(quad.aspect() > 1.6);
        assert!(quad.contains([50.0, 30.0]) && !quad.contains([150.0, 30.0]));
    }
}
