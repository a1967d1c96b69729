//! Candidate outlines for the grid: large convex four-sided shapes in a shrunken,
//! thresholded copy of the photo (seed 002's pipeline, keeping several candidates).

use crate::adaptive::adaptive_threshold;
use crate::blur::gaussian_blur;
use image::GrayImage;
use imageproc::contours::{BorderType, Contour, find_contours};
use imageproc::geometry::{approximate_polygon_dp, arc_length, contour_area, convex_hull};
use imageproc::point::Point as IPoint;

use crate::morphology::dilate_cross;

use super::{Point, Quad, quad_area};

/// The shrunken copy's longer side is at most this many pixels: enough for a grid
/// that fills a fifth of the photo, and it keeps thresholding cheap.
pub const WORK_SIDE: u32 = 640;
/// How many outlines, largest first, are tried.
pub const MAX_CANDIDATES: usize = 8;
/// A grid must cover at least this share of the photo.
pub const MIN_AREA_SHARE: f32 = 0.02;

/// The binary picture the outlines are traced in: dark lines become white.
pub fn line_mask(small: &GrayImage) -> GrayImage {
    let blurred = gaussian_blur(small, 1.0);
    let radius = (small.width().max(small.height()) / 60).max(3);
    let mut mask = adaptive_threshold(&blurred, radius, 4);
    for p in mask.iter_mut() {
        *p = 255 - *p;
    }
    dilate_cross(&mask)
}

/// The shrunken copy outlines are traced in and candidates are weighed on, with
/// its integer shrink factor.
pub fn shrink_for_outlines(gray: &GrayImage) -> (GrayImage, u32) {
    let longest = gray.width().max(gray.height());
    let factor = longest.div_ceil(WORK_SIDE).max(1);
    (crate::shrink::shrink_by(gray, factor), factor)
}

/// A point of the copy shrunken by `factor`, in the photo's pixels (pixel centres
/// map to pixel centres).
pub fn to_photo((x, y): (f32, f32), factor: u32) -> (f32, f32) {
    let scale = factor as f32;
    ((x + 0.5) * scale - 0.5, (y + 0.5) * scale - 0.5)
}

/// Up to [`MAX_CANDIDATES`] quadrilaterals, largest first, in full-photo pixels.
pub fn candidate_quads(gray: &GrayImage) -> Vec<Quad> {
    let (small, factor) = shrink_for_outlines(gray);
    candidate_quads_in(&small)
        .into_iter()
        .map(|q| q.map(|p| to_photo(p, factor)))
        .collect()
}

/// Up to [`MAX_CANDIDATES`] distinct quadrilaterals in the shrunken copy, largest
/// first. (A contour's two corner guesses often agree, and the outer and inner
/// edges of a thick border give near-copies: each is fitted only once.)
pub fn candidate_quads_in(small: &GrayImage) -> Vec<Quad> {
    let mask = line_mask(small);
    let min_area = MIN_AREA_SHARE * (small.width() * small.height()) as f32;
    // imageproc's contours, not `crate::contours`: imageproc drops outlines that
    // start in column 0, and counting them (the right thing) lost one of the
    // eight rendered printed grids (tests/sudoku_rendered.rs) to a larger outline along the left edge.
    let contours = find_contours::<i32>(&mask);
    let mut quads: Vec<(f32, Quad)> = contours
        .iter()
        .enumerate()
        .filter(|(_, c)| c.border_type == BorderType::Outer && c.points.len() >= 40)
        .flat_map(|(i, c)| {
            let mut quads = quads_of_contour(&c.points);
            // Where the outline's own quads agree with its cells, they are the
            // grid already; another near-copy would only be a second chance
            // for the full-resolution refit to slip onto a rule beside it.
            if let Some(cells) = cells_quad(&contours, i)
                && quads.iter().all(|q| !near_quad(q, &cells))
            {
                quads.push(cells);
            }
            quads
        })
        .map(|q| (quad_area(&q), q))
        .filter(|(area, _)| *area >= min_area)
        .collect();
    quads.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut kept: Vec<Quad> = Vec::new();
    for (_, q) in quads {
        if kept.len() == MAX_CANDIDATES {
            break;
        }
        if !kept.iter().any(|k| same_quad(k, &q)) {
            kept.push(q);
        }
    }
    kept
}

/// Whether two quadrilaterals have every corner within [`SAME_CORNER_PX`].
fn same_quad(a: &Quad, b: &Quad) -> bool {
    a.iter()
        .zip(b)
        .all(|(p, q)| (p.0 - q.0).abs() <= SAME_CORNER_PX && (p.1 - q.1).abs() <= SAME_CORNER_PX)
}

/// Corners this close (shrunken-copy pixels) are the same corner for the lattice
/// fit, which searches a third of a cell around each line anyway.
const SAME_CORNER_PX: f32 = 2.0;

/// Corner guesses for a contour: seed 002's extreme points (smallest and largest
/// x+y and x-y) and, when it simplifies to four vertices, its convex hull's
/// simplification. Both go on; the lattice fit decides which is a grid.
fn quads_of_contour(points: &[IPoint<i32>]) -> Vec<Quad> {
    let hull = convex_hull(points.to_vec());
    if hull.len() < 4 {
        return Vec::new();
    }
    let all: Vec<(f32, f32)> = hull.iter().map(|p| (p.x as f32, p.y as f32)).collect();
    let mut quads = vec![order_corners(&all)];
    let perimeter = arc_length(&hull, true);
    for share in [0.02, 0.04, 0.06] {
        let simple = approximate_polygon_dp(&hull, perimeter * share, true);
        if simple.len() == 4 {
            let pts: Vec<(f32, f32)> = simple.iter().map(|p| (p.x as f32, p.y as f32)).collect();
            quads.push(order_corners(&pts));
            break;
        }
        if simple.len() < 4 {
            break;
        }
    }
    quads.extend(longest_sides_quad(&hull, perimeter));
    quads
}

/// The quadrilateral round the cells of outline `outer`: the corner extremes of
/// its holes that are the size of a cell. The cells are the grid and nothing
/// else, where the outline may take in a drop shadow, a margin or a curled
/// page's edge, whose corner quads are then skewed by the extra and the lattice
/// fitted in them slides a column off. (Training photos: curled handwritten
/// pages with a shadow on two sides, whose hull has no four long sides.)
fn cells_quad(contours: &[Contour<i32>], outer: usize) -> Option<Quad> {
    let hull_area = contour_area(&convex_hull(contours[outer].points.clone())) as f32;
    let cell = hull_area / 81.0;
    let cells: Vec<&Contour<i32>> = contours
        .iter()
        .filter(|c| c.border_type == BorderType::Hole && c.parent == Some(outer))
        .filter(|c| {
            (CELL_AREA_SHARES.0 * cell..=CELL_AREA_SHARES.1 * cell)
                .contains(&(contour_area(&c.points) as f32))
        })
        .collect();
    if cells.len() < MIN_CELLS_SEEN {
        return None;
    }
    let points: Vec<(f32, f32)> = cells
        .iter()
        .flat_map(|c| c.points.iter().map(|p| (p.x as f32, p.y as f32)))
        .collect();
    Some(order_corners(&points))
}

/// A hole counts as a cell when its area is within these shares of a ninth of
/// a ninth of the outline's hull (cells of a grid with a wide shadow are
/// smaller than that; two cells joined by a digit touching a line, larger).
const CELL_AREA_SHARES: (f32, f32) = (0.3, 1.6);

/// Cell-sized holes needed before their corners are trusted: most of the 81,
/// so the outermost cells are among them.
const MIN_CELLS_SEEN: usize = 40;

/// Whether every corner of `a` lies within a third of a cell of `b`'s.
fn near_quad(a: &Quad, b: &Quad) -> bool {
    let reach = quad_area(b).sqrt() / 9.0 / 3.0;
    a.iter()
        .zip(b)
        .all(|(p, q)| (p.0 - q.0).hypot(p.1 - q.1) <= reach)
}

/// The quadrilateral of the four longest sides of the hull, each side taken as a
/// whole line and crossed with the next: for a grid with a drop shadow printed
/// below and beside it, the hull is a hexagon (two grid sides, two shadow sides
/// and two short steps between them), and any four of its vertices make a
/// skewed quad whose lattice slides along the lines; the four long sides keep
/// their directions, so the outline is the grid plus a shadow-wide margin, which
/// [`super::comb`] then trims. (Training photos: curled handwritten pages with a
/// shadow, where the corner quads cut cells a column or row off.)
fn longest_sides_quad(hull: &[IPoint<i32>], perimeter: f64) -> Option<Quad> {
    let simple = simplify_closed(hull, perimeter * SIDES_DP_SHARE);
    if !(5..=8).contains(&simple.len()) {
        return None;
    }
    let n = simple.len();
    let side = |i: usize| {
        let (a, b) = (simple[i], simple[(i + 1) % n]);
        ((a.x as f32, a.y as f32), (b.x as f32, b.y as f32))
    };
    let length = |i: usize| {
        let (a, b) = side(i);
        (a.0 - b.0).hypot(a.1 - b.1)
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| length(b).total_cmp(&length(a)));
    let mut four = order[..4].to_vec();
    four.sort_unstable();
    // The four long sides must carry most of the outline: otherwise the shape
    // is no quadrilateral with steps cut in it.
    let long: f32 = four.iter().map(|&i| length(i)).sum();
    if long < SIDES_MIN_SHARE * perimeter as f32 {
        return None;
    }
    let mut corners = Vec::with_capacity(4);
    for k in 0..4 {
        corners.push(crossing(side(four[k]), side(four[(k + 1) % 4]))?);
    }
    let quad = order_corners(&corners);
    let hull_area = quad_area(&order_corners(
        &simple
            .iter()
            .map(|p| (p.x as f32, p.y as f32))
            .collect::<Vec<_>>(),
    ));
    (quad_area(&quad) <= 1.5 * hull_area.max(1.0)).then_some(quad)
}

/// Douglas-Peucker simplification of a closed polygon, split at its top-left
/// extreme point and the vertex farthest from it (both vertices of any
/// simplification). imageproc's closed mode dropped a clear corner of a hull
/// that began next to it.
fn simplify_closed(hull: &[IPoint<i32>], epsilon: f64) -> Vec<IPoint<i32>> {
    let pts: Vec<(f64, f64)> = hull
        .iter()
        .map(|p| (f64::from(p.x), f64::from(p.y)))
        .collect();
    let n = pts.len();
    let start = (0..n)
        .min_by(|&i, &j| (pts[i].0 + pts[i].1).total_cmp(&(pts[j].0 + pts[j].1)))
        .unwrap_or(0);
    let far = (0..n)
        .max_by(|&i, &j| {
            let d = |k: usize| (pts[k].0 - pts[start].0).hypot(pts[k].1 - pts[start].1);
            d(i).total_cmp(&d(j))
        })
        .unwrap_or(0);
    let mut keep = vec![false; n];
    keep[start] = true;
    keep[far] = true;
    douglas_peucker(&pts, start, far, epsilon, &mut keep);
    douglas_peucker(&pts, far, start, epsilon, &mut keep);
    (0..n).filter(|&i| keep[i]).map(|i| hull[i]).collect()
}

/// Marks the vertices kept between `from` and `to` (going round the ring).
fn douglas_peucker(pts: &[(f64, f64)], from: usize, to: usize, epsilon: f64, keep: &mut [bool]) {
    let n = pts.len();
    let (a, b) = (pts[from], pts[to]);
    let length = (b.0 - a.0).hypot(b.1 - a.1).max(1e-9);
    let mut worst = (0.0, None);
    let mut i = (from + 1) % n;
    while i != to {
        let p = pts[i];
        let distance = ((b.0 - a.0) * (a.1 - p.1) - (a.0 - p.0) * (b.1 - a.1)).abs() / length;
        if distance > worst.0 {
            worst = (distance, Some(i));
        }
        i = (i + 1) % n;
    }
    if let (distance, Some(split)) = worst
        && distance > epsilon
    {
        keep[split] = true;
        douglas_peucker(pts, from, split, epsilon, keep);
        douglas_peucker(pts, split, to, epsilon, keep);
    }
}

/// Simplification tolerance for [`longest_sides_quad`], share of the perimeter.
const SIDES_DP_SHARE: f64 = 0.01;
/// The four longest sides must make up this share of the perimeter.
const SIDES_MIN_SHARE: f32 = 0.8;

/// Where the lines through two segments cross (`None` when nearly parallel).
fn crossing(a: (Point, Point), b: (Point, Point)) -> Option<Point> {
    let (d1, d2) = (
        (a.1.0 - a.0.0, a.1.1 - a.0.1),
        (b.1.0 - b.0.0, b.1.1 - b.0.1),
    );
    let denom = d1.0 * d2.1 - d1.1 * d2.0;
    let scale = d1.0.hypot(d1.1) * d2.0.hypot(d2.1);
    if denom.abs() < 0.2 * scale {
        return None;
    }
    let t = ((b.0.0 - a.0.0) * d2.1 - (b.0.1 - a.0.1) * d2.0) / denom;
    Some((a.0.0 + t * d1.0, a.0.1 + t * d1.1))
}

/// Orders points as top-left, top-right, bottom-right, bottom-left by seed 002's
/// rule: the extremes of x+y and x-y.
pub fn order_corners(pts: &[(f32, f32)]) -> Quad {
    let pick = |key: &dyn Fn(&(f32, f32)) -> f32, largest: bool| {
        let mut best = pts[0];
        for p in pts {
            let better = if largest {
                key(p) > key(&best)
            } else {
                key(p) < key(&best)
            };
            if better {
                best = *p;
            }
        }
        best
    };
    let sum = |p: &(f32, f32)| p.0 + p.1;
    let diff = |p: &(f32, f32)| p.0 - p.1;
    [
        pick(&sum, false),
        pick(&diff, true),
        pick(&sum, true),
        pick(&diff, false),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid (100..400 square) with a drop shadow 20 px left and below: the
    /// hull is a hexagon with two short steps.
    fn shadowed_hull() -> Vec<IPoint<i32>> {
        [
            (100, 100),
            (400, 100),
            (400, 400),
            (380, 420),
            (80, 420),
            (80, 120),
        ]
        .iter()
        .map(|&(x, y)| IPoint::new(x, y))
        .collect()
    }

    #[test]
    fn the_long_sides_of_a_shadowed_grid_make_its_quad() {
        let hull = shadowed_hull();
        let perimeter = arc_length(&hull, true);
        let quad = longest_sides_quad(&hull, perimeter).expect("a quad");
        let want = [(80.0, 100.0), (400.0, 100.0), (400.0, 420.0), (80.0, 420.0)];
        for (got, want) in quad.iter().zip(want) {
            assert!(
                (got.0 - want.0).abs() < 0.5 && (got.1 - want.1).abs() < 0.5,
                "{quad:?}"
            );
        }
    }

    /// A line mask (white = line) of a 9 x 9 grid from 20 to 200, lines 2 px
    /// wide, with a solid drop shadow 30 px right and below that joins it.
    fn shadowed_grid_mask() -> GrayImage {
        let mut mask = GrayImage::new(260, 260);
        for (x, y, p) in mask.enumerate_pixels_mut() {
            let on_line = |v: u32| (20..=201).contains(&v) && (v - 20) % 20 < 2;
            let in_grid = |v: u32| (20..=201).contains(&v);
            let grid = in_grid(x) && in_grid(y) && (on_line(x) || on_line(y));
            let shadow =
                (50..=231).contains(&x) && (50..=231).contains(&y) && !(in_grid(x) && in_grid(y));
            if grid || shadow {
                *p = image::Luma([255]);
            }
        }
        mask
    }

    #[test]
    fn the_cells_of_a_shadowed_grid_give_its_corners_without_the_shadow() {
        let mask = shadowed_grid_mask();
        let contours = find_contours::<i32>(&mask);
        let outer = contours
            .iter()
            .position(|c| c.border_type == BorderType::Outer)
            .expect("an outline");
        let quad = cells_quad(&contours, outer).expect("cells");
        // The cells' own corners: just inside the 2 px border lines.
        let want = [(22.0, 22.0), (199.0, 22.0), (199.0, 199.0), (22.0, 199.0)];
        for (got, want) in quad.iter().zip(want) {
            assert!(
                (got.0 - want.0).abs() <= 1.0 && (got.1 - want.1).abs() <= 1.0,
                "{quad:?}"
            );
        }
    }

    #[test]
    fn simplification_keeps_every_corner_of_a_hull() {
        let hull = shadowed_hull();
        assert_eq!(simplify_closed(&hull, 5.0).len(), 6);
        assert_eq!(simplify_closed(&hull, 25.0).len(), 4);
    }
}
