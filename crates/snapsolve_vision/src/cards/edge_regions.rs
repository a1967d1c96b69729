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
//! axis only. Its two inner loops read rows through windows and choose by
//! masks, not branches: the frame with no card of the bench spent 17% of its
//! time here, now 8% (session 35, BENCHMARKS.md).

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

/// The edge thresholds [`LOW_STEP`] and [`HIGH_STEP`] (levels of step) or others.
#[derive(Clone, Copy, Debug)]
pub(super) struct Steps {
    pub low: u32,
    pub high: u32,
}

impl Steps {
    /// For a picture at working size, where grain must not close regions.
    pub const FINE: Steps = Steps {
        low: LOW_STEP,
        high: HIGH_STEP,
    };
    /// For a copy shrunk four times and more, whose grain is averaged away:
    /// the faint side of a card held close (its paper as pale as the desk
    /// beside it) shows as a step of two levels (stress filling-the-frame 611).
    pub const COARSE: Steps = Steps { low: 2, high: 6 };
}

/// The picture cut into regions by the edges of its colour channels, at
/// the thresholds `steps`.
pub(super) fn edge_regions(image: &RgbImage, steps: Steps) -> GrayImage {
    let (width, height) = (image.width() as usize, image.height() as usize);
    // A picture under three pixels across has no pixel with both neighbours
    // to thin an edge between: no edge, all region (a 1x72 PNG once panicked
    // in `thinned`, found by fuzzing).
    if width < 3 || height < 3 {
        return GrayImage::from_pixel(image.width(), image.height(), image::Luma([REGION]));
    }
    let gradient = strongest_gradient(image);
    let thin = thinned(&gradient, width, height);
    let edges = followed(&thin, width, height, steps);
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
    // Per row: each column's vertical 1-2-1 sum and the step from the row
    // above to the row below, so the loop over x only combines neighbours
    // (the same sums, a third of the reads).
    let mut columns = vec![0i32; width];
    let mut steps = vec![0i32; width];
    for channel in 0..3 {
        box_sum_3x3(raw, channel, width, height, &mut rows, &mut blurred);
        for y in 2..height - 2 {
            let above = &blurred[(y - 1) * width..y * width];
            let here = &blurred[y * width..(y + 1) * width];
            let below = &blurred[(y + 1) * width..(y + 2) * width];
            let vertical = above.iter().zip(here).zip(below);
            for (((&a, &h), &b), (column, step)) in vertical.zip(columns.iter_mut().zip(&mut steps))
            {
                *column = (a + 2 * h + b) as i32;
                *step = b as i32 - a as i32;
            }
            let magnitude = &mut gradient.magnitude[y * width + 2..(y + 1) * width - 2];
            let along_x = &mut gradient.along_x[y * width + 2..(y + 1) * width - 2];
            // Windows of three around x = 2..width-2: no bounds checks and
            // no branches (`&`, `|`, `max`).
            let around = columns[1..width - 1]
                .windows(3)
                .zip(steps[1..width - 1].windows(3));
            for ((c, d), (m, ax)) in around.zip(magnitude.iter_mut().zip(along_x.iter_mut())) {
                let gx = c[2] - c[0];
                let gy = d[0] + 2 * d[1] + d[2];
                let strength = gx.unsigned_abs() + gy.unsigned_abs();
                // The strongest channel's direction.
                let stronger = strength > *m;
                *ax = (stronger & (gx.abs() >= gy.abs())) | (!stronger & *ax);
                *m = (*m).max(strength);
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
        let (above, here, below) = (
            &m[(y - 1) * width..y * width],
            &m[y * width..(y + 1) * width],
            &m[(y + 1) * width..(y + 2) * width],
        );
        let along_x = &gradient.along_x[y * width + 1..(y + 1) * width - 1];
        let out = &mut thin[y * width + 1..(y + 1) * width - 1];
        // Windows of three along the row, the rows above and below at x:
        // both pairs read, one kept, without branches.
        let across = above[1..].iter().zip(&below[1..]);
        let pixels = here
            .windows(3)
            .zip(across)
            .zip(along_x.iter().zip(out.iter_mut()));
        for ((w, (&up, &down)), (&ax, o)) in pixels {
            // Selects by mask (all ones where the edge runs across x):
            // values, not addresses, are chosen.
            let across_x = 0u32.wrapping_sub(u32::from(ax));
            let before = (w[0] & across_x) | (up & !across_x);
            let after = (w[2] & across_x) | (down & !across_x);
            let kept = u32::from(w[1] >= before) & u32::from(w[1] > after);
            *o = w[1] * kept;
        }
    }
    thin
}

/// Hysteresis: edge pixels (255) are those above the high threshold and the
/// ones above the low threshold joined to them through 8-neighbours.
fn followed(thin: &[u32], width: usize, height: usize, steps: Steps) -> Vec<u8> {
    let (low, high) = (steps.low * PER_LEVEL, steps.high * PER_LEVEL);
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
    fn pictures_one_or_two_pixels_across_are_all_region() {
        for (w, h) in [(1, 72), (2, 72), (72, 1), (72, 2), (1, 1), (3, 3)] {
            let image = RgbImage::from_fn(w, h, |x, y| Rgb([(x * 40 + y * 7) as u8; 3]));
            let regions = edge_regions(&image, Steps::FINE);
            assert_eq!(regions.dimensions(), (w, h));
        }
        let thin = edge_regions(&RgbImage::new(1, 72), Steps::FINE);
        assert!(thin.pixels().all(|p| p[0] == REGION));
    }

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
        let regions = edge_regions(&image, Steps::FINE);
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

    /// Sobel on the box-blurred channel as defined, pixel by pixel: what
    /// [`strongest_gradient`] computes with its row sums.
    fn gradient_as_defined(image: &RgbImage) -> (Vec<u32>, Vec<bool>) {
        let (w, h) = (image.width() as i64, image.height() as i64);
        let mut magnitude = vec![0u32; (w * h) as usize];
        let mut along_x = vec![false; (w * h) as usize];
        let blurred = |x: i64, y: i64, c: usize| -> i32 {
            // The box sum is 0 on the picture's one-pixel frame.
            if x < 1 || y < 1 || x >= w - 1 || y >= h - 1 {
                return 0;
            }
            let mut sum = 0;
            for dy in -1..=1 {
                for dx in -1..=1 {
                    sum += i32::from(image.get_pixel((x + dx) as u32, (y + dy) as u32).0[c]);
                }
            }
            sum
        };
        for c in 0..3 {
            for y in 2..h - 2 {
                for x in 2..w - 2 {
                    let b = |dx: i64, dy: i64| blurred(x + dx, y + dy, c);
                    let gx =
                        (b(1, -1) + 2 * b(1, 0) + b(1, 1)) - (b(-1, -1) + 2 * b(-1, 0) + b(-1, 1));
                    let gy =
                        (b(-1, 1) + 2 * b(0, 1) + b(1, 1)) - (b(-1, -1) + 2 * b(0, -1) + b(1, -1));
                    let strength = gx.unsigned_abs() + gy.unsigned_abs();
                    let i = (y * w + x) as usize;
                    if strength > magnitude[i] {
                        magnitude[i] = strength;
                        along_x[i] = gx.abs() >= gy.abs();
                    }
                }
            }
        }
        (magnitude, along_x)
    }

    #[test]
    fn the_gradient_is_sobel_on_the_blurred_channels_strongest_of_three() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(35);
        for _ in 0..20 {
            let (w, h) = (rng.random_range(5..40), rng.random_range(5..40));
            // Blocks of colour with noise: edges in every direction, ties too.
            let image = RgbImage::from_fn(w, h, |x, y| {
                let base = if (x / 7 + y / 5) % 2 == 0 { 200 } else { 60 };
                Rgb([0, 1, 2].map(|c: u32| (base + (x * 13 + y * 7 + c * 31) % 9) as u8))
            });
            let noisy = RgbImage::from_fn(w, h, |_, _| Rgb(rng.random()));
            for picture in [image, noisy] {
                let gradient = strongest_gradient(&picture);
                let (magnitude, along_x) = gradient_as_defined(&picture);
                assert_eq!(gradient.magnitude, magnitude);
                assert_eq!(gradient.along_x, along_x);
            }
        }
    }

    #[test]
    fn a_flat_picture_has_no_edges() {
        let image = RgbImage::from_pixel(50, 40, Rgb([200, 190, 180]));
        assert!(
            edge_regions(&image, Steps::FINE)
                .iter()
                .all(|&p| p == REGION)
        );
    }
}
