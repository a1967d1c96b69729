//! Candidate outlines for the grid: large convex four-sided shapes in a shrunken,
//! thresholded copy of the photo (seed 002's pipeline, keeping several candidates).

use image::GrayImage;
use imageproc::contours::{BorderType, find_contours};
use imageproc::contrast::adaptive_threshold;
use imageproc::filter::gaussian_blur_f32;
use imageproc::geometry::{approximate_polygon_dp, arc_length, convex_hull};
use imageproc::point::Point as IPoint;

use crate::morphology::dilate_cross;

use super::{Quad, quad_area};

/// The shrunken copy's longer side is at most this many pixels: enough for a grid
/// that fills a fifth of the photo, and it keeps thresholding cheap.
pub const WORK_SIDE: u32 = 640;
/// How many outlines, largest first, are tried.
pub const MAX_CANDIDATES: usize = 8;
/// A grid must cover at least this share of the photo.
pub const MIN_AREA_SHARE: f32 = 0.02;

/// Shrinks by an integer factor, averaging each block (cheap and alias-free).
pub fn shrink_by(gray: &GrayImage, factor: u32) -> GrayImage {
    if factor <= 1 {
        return gray.clone();
    }
    let (w, h) = (gray.width() / factor, gray.height() / factor);
    let mut out = GrayImage::new(w.max(1), h.max(1));
    let area = factor * factor;
    for y in 0..h {
        for x in 0..w {
            let mut sum = 0u32;
            for dy in 0..factor {
                let row = (y * factor + dy) * gray.width();
                for dx in 0..factor {
                    sum += u32::from(gray.as_raw()[(row + x * factor + dx) as usize]);
                }
            }
            out.put_pixel(x, y, image::Luma([(sum / area) as u8]));
        }
    }
    out
}

/// The binary picture the outlines are traced in: dark lines become white.
pub fn line_mask(small: &GrayImage) -> GrayImage {
    let blurred = gaussian_blur_f32(small, 1.0);
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
    (shrink_by(gray, factor), factor)
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
    let mut quads: Vec<(f32, Quad)> = find_contours::<i32>(&mask)
        .into_iter()
        .filter(|c| c.border_type == BorderType::Outer && c.points.len() >= 40)
        .flat_map(|c| quads_of_contour(&c.points))
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
    quads
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
