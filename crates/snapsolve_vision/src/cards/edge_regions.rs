//! Cards on a desk as white as they are: the regions that edges close.
//!
//! Where desk and cards are equally white, no level of whiteness parts them;
//! only each card's outline shows: a soft shadow along one side, a slight
//! step of brightness or tint along the others (a lavender-white card on a
//! blue-grey desk differs in one channel only). Edges of every colour
//! channel, thinned and followed from strong to weak as Canny's are, then
//! thickened by a pixel so that a gap of a pixel closes, close each card into
//! a region of its own, which the usual card tests then judge like any blob
//! of whiteness.
//!
//! Written here rather than taken from `imageproc::edges::canny`: on the
//! 960x720 webcam frame, three of its runs (one per channel) cost 1.84 G
//! instructions, six times the rest of the reading (callgrind), mostly its
//! floating-point Gaussian. This one blurs with integer box sums, keeps the
//! strongest channel's gradient per pixel and thins it along the dominant
//! axis only.

use image::{GrayImage, RgbImage};

use crate::morphology::dilate;

/// Lower and upper edge thresholds: a step of this many levels (0-255) in
/// some channel, after the 3x3 blur. Tried on stress tables 6-17 (white on
/// white, lookalikes): 3/9 found the most cards; 2/6 and below cut cards
/// apart along paper grain and symbols, 4/12 and above left the lit sides of
/// cards on a white desk open.
const LOW_STEP: u32 = 3;
const HIGH_STEP: u32 = 9;

/// Inside a region, [`REGION`]; on an edge, 0.
pub(super) const REGION: u8 = 255;
/// Half the width of the band an edge is thickened to (1 pixel either side
/// of a one-pixel edge): a region stops this far inside its edge.
pub(super) const BAND_HALF_WIDTH: f32 = 1.5;

/// Gradient units of one level of step: the 3x3 box sum (x9) under Sobel's
/// 1-2-1 weights (x4).
const PER_LEVEL: u32 = 36;

/// The picture cut into regions by the edges of its colour channels.
pub(super) fn edge_regions(image: &RgbImage) -> GrayImage {
    let (width, height) = (image.width() as usize, image.height() as usize);
    let gradient = strongest_gradient(image);
    let thin = thinned(&gradient, width, height);
    let edges = followed(&thin, width, height);
    let mut regions = dilate(
        &GrayImage::from_raw(width as u32, height as u32, edges)
            .unwrap_or_else(|| GrayImage::new(width as u32, height as u32)),
        1,
    );
    for p in regions.iter_mut() {
        *p = REGION - *p;
    }
    regions
}

/// Per pixel, the strongest channel's gradient: its L1 magnitude and whether
/// it runs mostly along x (a vertical edge).
struct Gradient {
    magnitude: Vec<u32>,
    along_x: Vec<bool>,
}

/// Sobel's gradient of the 3x3 box-blurred channel, strongest of the three
/// channels at each pixel; 0 on the picture's one-pixel frame.
fn strongest_gradient(image: &RgbImage) -> Gradient {
    let (width, height) = (image.width() as usize, image.height() as usize);
    let mut gradient = Gradient {
        magnitude: vec![0; width * height],
        along_x: vec![false; width * height],
    };
    if width < 5 || height < 5 {
        return gradient;
    }
    let raw = image.as_raw();
    let mut rows = vec![0u32; width * height];
    let mut blurred = vec![0u32; width * height];
    for channel in 0..3 {
        box_sum_3x3(raw, channel, width, height, &mut rows, &mut blurred);
        for y in 2..height - 2 {
            // Rows above, at and below: slices of one length, so the loop
            // below runs without bounds checks.
            let above = &blurred[(y - 1) * width..y * width];
            let here = &blurred[y * width..(y + 1) * width];
            let below = &blurred[(y + 1) * width..(y + 2) * width];
            let magnitude = &mut gradient.magnitude[y * width..(y + 1) * width];
            let along_x = &mut gradient.along_x[y * width..(y + 1) * width];
            for x in 2..width - 2 {
                let column = |c: usize| (above[c] + 2 * here[c] + below[c]) as i32;
                let row = |r: &[u32]| (r[x - 1] + 2 * r[x] + r[x + 1]) as i32;
                let gx = column(x + 1) - column(x - 1);
                let gy = row(below) - row(above);
                let strength = gx.unsigned_abs() + gy.unsigned_abs();
                if strength > magnitude[x] {
                    magnitude[x] = strength;
                    along_x[x] = gx.abs() >= gy.abs();
                }
            }
        }
    }
    gradient
}

/// The 3x3 box sums of one channel of an interleaved RGB buffer into `out`
/// (the outermost pixels left 0), by a row pass into `rows` and a column pass.
fn box_sum_3x3(
    raw: &[u8],
    channel: usize,
    width: usize,
    height: usize,
    rows: &mut [u32],
    out: &mut [u32],
) {
    for (pixels, sums) in raw
        .chunks_exact(width * 3)
        .zip(rows.chunks_exact_mut(width))
    {
        for (x, sum) in sums.iter_mut().enumerate().take(width - 1).skip(1) {
            *sum = u32::from(pixels[(x - 1) * 3 + channel])
                + u32::from(pixels[x * 3 + channel])
                + u32::from(pixels[(x + 1) * 3 + channel]);
        }
    }
    for y in 1..height - 1 {
        let (above, here, below) = (
            &rows[(y - 1) * width..y * width],
            &rows[y * width..(y + 1) * width],
            &rows[(y + 1) * width..(y + 2) * width],
        );
        for (x, sum) in out[y * width..(y + 1) * width].iter_mut().enumerate() {
            *sum = above[x] + here[x] + below[x];
        }
    }
}

/// Keeps a pixel's magnitude only where it is the largest of its two
/// neighbours across the edge (left and right for an edge across x, above
/// and below otherwise): edges one pixel wide, as Canny's.
fn thinned(gradient: &Gradient, width: usize, height: usize) -> Vec<u32> {
    let m = &gradient.magnitude;
    let mut thin = vec![0u32; width * height];
    for y in 1..height.saturating_sub(1) {
        for x in 1..width - 1 {
            let i = y * width + x;
            let (before, after) = if gradient.along_x[i] {
                (m[i - 1], m[i + 1])
            } else {
                (m[i - width], m[i + width])
            };
            if m[i] >= before && m[i] > after {
                thin[i] = m[i];
            }
        }
    }
    thin
}

/// Hysteresis: edge pixels (255) are those above the high threshold and the
/// ones above the low threshold joined to them through 8-neighbours.
fn followed(thin: &[u32], width: usize, height: usize) -> Vec<u8> {
    let (low, high) = (LOW_STEP * PER_LEVEL, HIGH_STEP * PER_LEVEL);
    let mut edges = vec![0u8; width * height];
    let mut stack: Vec<usize> = Vec::new();
    for start in 0..thin.len() {
        if thin[start] < high || edges[start] != 0 {
            continue;
        }
        edges[start] = 255;
        stack.push(start);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % width, i / width);
            for ny in y.saturating_sub(1)..=(y + 1).min(height - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(width - 1) {
                    let n = ny * width + nx;
                    if edges[n] == 0 && thin[n] >= low {
                        edges[n] = 255;
                        stack.push(n);
                    }
                }
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    #[test]
    fn a_card_a_little_whiter_than_its_desk_is_a_region_of_its_own() {
        // A desk of 215 and a card of 225 (a step of 10 levels), with a soft
        // shadow along its lower side.
        let image = RgbImage::from_fn(120, 100, |x, y| {
            let card = (30..90).contains(&x) && (20..75).contains(&y);
            let shadow = (32..92).contains(&x) && (75..79).contains(&y);
            Rgb(if card {
                [225, 225, 228]
            } else if shadow {
                [200, 200, 203]
            } else {
                [215, 215, 218]
            })
        });
        let regions = edge_regions(&image);
        let mask = GrayImage::from_fn(120, 100, |x, y| {
            image::Luma([u8::from(regions.get_pixel(x, y).0[0] == REGION) * 255])
        });
        let outlines = crate::contours::outer_contours(&mask);
        let card = outlines.iter().find(|points| {
            let inside = |p: &imageproc::point::Point<i32>| {
                (28..93).contains(&p.x) && (18..78).contains(&p.y)
            };
            points.iter().all(inside) && points.len() > 100
        });
        assert!(card.is_some(), "no region inside the card's outline");
    }

    #[test]
    fn a_flat_picture_has_no_edges() {
        let image = RgbImage::from_pixel(50, 40, Rgb([200, 190, 180]));
        assert!(edge_regions(&image).iter().all(|&p| p == REGION));
    }
}
