//! Real handwritten digits (grey bitmaps such as MNIST's) laid into a sudoku
//! page the way ink sits in a grid: scaled to the cell, stretched or squeezed,
//! slanted and turned a little, with thicker or thinner strokes, pen or grainy
//! pencil, mostly centred but sometimes pushed against a grid line.
//!
//! The bitmaps only give the shape of the writing; everything a camera adds
//! (perspective, light, blur, noise, JPEG) comes afterwards from the page's
//! photograph, as for the font-drawn digits.

use rand::Rng;
use rand::rngs::StdRng;
use tiny_skia::Pixmap;

/// One handwritten digit as ink coverage, row by row: 0 = paper, 255 = full ink.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InkBitmap {
    width: usize,
    height: usize,
    ink: Vec<u8>,
}

/// Pixels at or below this coverage do not count when trimming to the ink.
const TRIM_BELOW: u8 = 24;

impl InkBitmap {
    /// A `width` x `height` bitmap, trimmed to the box around its ink; `None`
    /// when `ink` has the wrong length or holds no ink.
    pub fn new(width: usize, height: usize, ink: Vec<u8>) -> Option<InkBitmap> {
        if width == 0 || height == 0 || ink.len() != width * height {
            return None;
        }
        let inked = |x: usize, y: usize| ink[y * width + x] > TRIM_BELOW;
        let rows: Vec<usize> = (0..height)
            .filter(|&y| (0..width).any(|x| inked(x, y)))
            .collect();
        let cols: Vec<usize> = (0..width)
            .filter(|&x| (0..height).any(|y| inked(x, y)))
            .collect();
        let (&top, &bottom, &left, &right) =
            (rows.first()?, rows.last()?, cols.first()?, cols.last()?);
        let (w, h) = (right - left + 1, bottom - top + 1);
        let trimmed = (top..=bottom)
            .flat_map(|y| ink[y * width + left..y * width + left + w].iter().copied())
            .collect();
        Some(InkBitmap {
            width: w,
            height: h,
            ink: trimmed,
        })
    }

    /// Width and height of the trimmed ink box.
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// The same digit with a short bar drawn across the stroke it meets
    /// `height_at` of the way down (0 top, 1 bottom): the crossbar many
    /// writers put on a 7. The bar is `length` times the digit's width,
    /// tilted by `tilt` (rise per pixel), as thick and dark as the strokes.
    /// `None` when no stroke crosses that row.
    pub fn with_crossbar(&self, height_at: f32, length: f32, tilt: f32) -> Option<InkBitmap> {
        let row = ((self.height as f32 * height_at) as usize).min(self.height - 1);
        let runs = ink_runs(&self.ink[row * self.width..(row + 1) * self.width]);
        let &(start, end) = runs.iter().max_by_key(|(s, e)| e - s)?;
        let stroke = self.stroke_width();
        let peak = f32::from(self.ink.iter().copied().max().unwrap_or(255));
        // Room on both sides: a bar may reach past the trimmed box.
        let pad = (length * self.width as f32).ceil() as usize + 2;
        let wide = self.width + 2 * pad;
        let mut ink = vec![0u8; wide * self.height];
        for (y, line) in self.ink.chunks_exact(self.width).enumerate() {
            ink[y * wide + pad..y * wide + pad + self.width].copy_from_slice(line);
        }
        let centre = (pad as f32 + (start + end) as f32 / 2.0, row as f32);
        let half = length * self.width as f32 / 2.0;
        let from = (centre.0 - half, centre.1 + tilt * half);
        let to = (centre.0 + half, centre.1 - tilt * half);
        for (i, value) in ink.iter_mut().enumerate() {
            let p = ((i % wide) as f32, (i / wide) as f32);
            let cover = (stroke / 2.0 + 0.5 - distance_to_segment(p, from, to)).clamp(0.0, 1.0);
            *value = (*value).max((cover * peak).round() as u8);
        }
        InkBitmap::new(wide, self.height, ink)
    }

    /// Median length of the rows' runs of ink: the pen's width in pixels.
    fn stroke_width(&self) -> f32 {
        let mut lengths: Vec<usize> = self
            .ink
            .chunks_exact(self.width)
            .flat_map(ink_runs)
            .map(|(s, e)| e - s)
            .collect();
        lengths.sort_unstable();
        lengths.get(lengths.len() / 2).map_or(2.0, |&l| l as f32)
    }

    /// Coverage 0..1 at (`u`, `v`) in pixel units (pixel centres at integers),
    /// bilinear, 0 outside.
    fn coverage(&self, u: f32, v: f32) -> f32 {
        let (x0, y0) = (u.floor(), v.floor());
        let (fx, fy) = (u - x0, v - y0);
        let (x0, y0) = (x0 as i64, y0 as i64);
        let at = |x: i64, y: i64| {
            if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
                0.0
            } else {
                f32::from(self.ink[y as usize * self.width + x as usize])
            }
        };
        let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
        let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
        (top * (1.0 - fy) + bottom * fy) / 255.0
    }
}

/// Runs of strong ink (over half coverage) in one row, as `start..end`.
fn ink_runs(row: &[u8]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut start = None;
    for (x, &v) in row.iter().chain(std::iter::once(&0)).enumerate() {
        match (v > 128, start) {
            (true, None) => start = Some(x),
            (false, Some(s)) => {
                runs.push((s, x));
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// Distance from `p` to the segment `a`-`b`.
fn distance_to_segment(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let along = ((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy).max(f32::EPSILON);
    let t = along.clamp(0.0, 1.0);
    (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
}

/// Handwritten examples of the digits 1-9 (a sudoku has no 0).
#[derive(Clone, Debug, Default)]
pub struct WrittenDigits {
    by_digit: [Vec<InkBitmap>; 10],
}

impl WrittenDigits {
    /// Adds an example of `digit`; examples of 0 (or above 9) are not kept.
    pub fn push(&mut self, digit: u8, bitmap: InkBitmap) {
        if (1..=9).contains(&digit) {
            self.by_digit[usize::from(digit)].push(bitmap);
        }
    }

    /// Number of examples kept.
    pub fn len(&self) -> usize {
        self.by_digit.iter().map(Vec::len).sum()
    }

    /// Whether no example is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Examples of `digit`.
    pub fn of(&self, digit: u8) -> &[InkBitmap] {
        self.by_digit
            .get(usize::from(digit))
            .map_or(&[], |v| v.as_slice())
    }

    /// A random example of `digit`, if there is one.
    pub fn pick(&self, digit: u8, rng: &mut StdRng) -> Option<&InkBitmap> {
        let examples = self.of(digit);
        (!examples.is_empty()).then(|| &examples[rng.random_range(0..examples.len())])
    }
}

/// Labelled digit images from the bytes of an IDX image file (magic 0x803:
/// count, rows, columns, then one byte per pixel, 0 = background) and its IDX
/// label file (magic 0x801: count, then one byte per label), as MNIST ships
/// them. Blank images (no ink) are left out. Errors say what is wrong.
pub fn parse_idx(images: &[u8], labels: &[u8]) -> Result<Vec<(u8, InkBitmap)>, String> {
    let word = |bytes: &[u8], at: usize| -> Result<usize, String> {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or_else(|| "IDX file shorter than its header".to_string())
    };
    if word(images, 0)? != 0x803 {
        return Err("not an IDX image file (magic 0x803)".into());
    }
    if word(labels, 0)? != 0x801 {
        return Err("not an IDX label file (magic 0x801)".into());
    }
    let (count, rows, cols) = (word(images, 4)?, word(images, 8)?, word(images, 12)?);
    if word(labels, 4)? != count {
        return Err(format!("{count} images but {} labels", word(labels, 4)?));
    }
    let size = rows * cols;
    let pixels = images
        .get(16..)
        .filter(|p| size > 0 && p.len() == count * size)
        .ok_or_else(|| format!("IDX images: expected {count} of {rows}x{cols} bytes"))?;
    let labels = labels
        .get(8..)
        .filter(|l| l.len() == count)
        .ok_or_else(|| format!("IDX labels: expected {count} bytes"))?;
    Ok(pixels
        .chunks_exact(size)
        .zip(labels)
        .filter_map(|(image, &label)| Some((label, InkBitmap::new(cols, rows, image.to_vec())?)))
        .collect())
}

/// How one written digit sits on the page (page pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// Centre of the digit's ink box.
    pub centre: (f32, f32),
    /// Height of the ink box.
    pub height: f32,
    /// Width as a multiple of the height-preserving width (narrow or wide writing).
    pub stretch: f32,
    /// Horizontal shift per pixel up (slanted writing).
    pub shear: f32,
    /// Turn of the whole digit, radians.
    pub angle: f32,
    /// Stroke weight: the coverage level where the stroke's edge is drawn,
    /// low = bold (the whole blurred stroke), high = thin (only its core).
    pub edge_level: f32,
    /// Opacity of the ink, 0..1.
    pub strength: f32,
    /// Pencil grain: share of each pixel's ink randomly missing (0 = pen).
    pub grain: f32,
}

/// Width of the soft edge around the edge level, in coverage units.
const EDGE_SOFTNESS: f32 = 0.12;

impl Placement {
    /// A random placement of a digit in the cell centred at `centre` of side
    /// `cell`: mostly near the middle, one in six pushed towards a side far
    /// enough to touch or cross the grid line; `slant` is the writer's lean.
    pub fn random(centre: (f32, f32), cell: f32, slant: f32, rng: &mut StdRng) -> Placement {
        let reach = if rng.random_bool(1.0 / 6.0) {
            0.32
        } else {
            0.12
        };
        let mut offset = || rng.random_range(-reach..=reach) * cell;
        let centre = (centre.0 + offset(), centre.1 + offset());
        Placement {
            centre,
            height: cell * rng.random_range(0.38..0.86f32),
            stretch: rng.random_range(0.75..1.25),
            shear: slant + rng.random_range(-0.1..0.1f32),
            angle: rng.random_range(-0.15..0.15),
            edge_level: rng.random_range(0.12..0.85),
            strength: rng.random_range(0.75..1.0),
            grain: 0.0,
        }
    }

    /// The same placement written in pencil: thinner, lighter, grainy.
    pub fn in_pencil(self, rng: &mut StdRng) -> Placement {
        Placement {
            edge_level: rng.random_range(0.45..0.9),
            strength: rng.random_range(0.4..0.85),
            grain: rng.random_range(0.2..0.6),
            ..self
        }
    }
}

/// Draws `bitmap` onto an opaque `pixmap` in `ink` as `placement` says.
///
/// Inverse mapping: every page pixel of the digit's box is taken back through
/// the turn, slant and scale into the bitmap, whose bilinear coverage passes a
/// soft threshold at the edge level (the stroke weight) before blending.
pub fn draw_written(
    pixmap: &mut Pixmap,
    bitmap: &InkBitmap,
    placement: &Placement,
    ink: [u8; 3],
    rng: &mut StdRng,
) {
    let (bw, bh) = (bitmap.width as f32, bitmap.height as f32);
    let scale_y = placement.height / bh;
    let scale_x = scale_y * placement.stretch;
    let (sin, cos) = placement.angle.sin_cos();
    let shear = placement.shear;
    // Bitmap point (u, v) to the page, for the box's corners.
    let forward = |u: f32, v: f32| {
        let (a, b) = ((u - bw / 2.0) * scale_x, (v - bh / 2.0) * scale_y);
        let a = a - shear * b;
        (
            placement.centre.0 + a * cos - b * sin,
            placement.centre.1 + a * sin + b * cos,
        )
    };
    let corners = [(0.0, 0.0), (bw, 0.0), (bw, bh), (0.0, bh)].map(|(u, v)| forward(u, v));
    let (w, h) = (pixmap.width() as i64, pixmap.height() as i64);
    let fold = |f: fn(f32, f32) -> f32, pick: fn(&(f32, f32)) -> f32, init: f32| {
        corners.iter().map(pick).fold(init, f)
    };
    let x0 = (fold(f32::min, |p| p.0, f32::MAX).floor() as i64 - 1).max(0);
    let x1 = (fold(f32::max, |p| p.0, f32::MIN).ceil() as i64 + 1).min(w - 1);
    let y0 = (fold(f32::min, |p| p.1, f32::MAX).floor() as i64 - 1).max(0);
    let y1 = (fold(f32::max, |p| p.1, f32::MIN).ceil() as i64 + 1).min(h - 1);
    let low = placement.edge_level - EDGE_SOFTNESS;
    let data = pixmap.data_mut();
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (dx, dy) = (
                x as f32 + 0.5 - placement.centre.0,
                y as f32 + 0.5 - placement.centre.1,
            );
            let b = -dx * sin + dy * cos;
            let a = dx * cos + dy * sin + shear * b;
            let (u, v) = (a / scale_x + bw / 2.0, b / scale_y + bh / 2.0);
            let c = bitmap.coverage(u - 0.5, v - 0.5);
            let t = ((c - low) / (2.0 * EDGE_SOFTNESS)).clamp(0.0, 1.0);
            let mut alpha = t * t * (3.0 - 2.0 * t) * placement.strength;
            if alpha <= 0.0 {
                continue;
            }
            if placement.grain > 0.0 {
                alpha *= 1.0 - placement.grain * rng.random::<f32>();
            }
            let at = ((y * w + x) * 4) as usize;
            for (k, &colour) in ink.iter().enumerate() {
                let old = f32::from(data[at + k]);
                data[at + k] = (old * (1.0 - alpha) + f32::from(colour) * alpha).round() as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// A 28x28 "1": a vertical bar three pixels wide, rows 4-23.
    fn bar() -> InkBitmap {
        let mut ink = vec![0u8; 28 * 28];
        for y in 4..24 {
            for x in 12..15 {
                ink[y * 28 + x] = 255;
            }
        }
        InkBitmap::new(28, 28, ink).expect("inked")
    }

    fn inked_pixels(pixmap: &Pixmap) -> Vec<(u32, u32)> {
        let w = pixmap.width();
        pixmap
            .data()
            .chunks(4)
            .enumerate()
            .filter(|(_, p)| p[0] < 128)
            .map(|(i, _)| (i as u32 % w, i as u32 / w))
            .collect()
    }

    #[test]
    fn bitmaps_are_trimmed_to_their_ink() {
        assert_eq!(bar().size(), (3, 20));
        assert!(InkBitmap::new(28, 28, vec![0; 28 * 28]).is_none());
        assert!(InkBitmap::new(28, 27, vec![0; 28 * 28]).is_none());
    }

    #[test]
    fn a_digit_lands_where_placed_with_the_height_asked_and_weight_thins_it() {
        let mut rng = StdRng::seed_from_u64(1);
        let draw = |edge_level: f32, rng: &mut StdRng| {
            let mut pixmap = Pixmap::new(100, 100).expect("pixmap");
            pixmap.fill(tiny_skia::Color::WHITE);
            let placement = Placement {
                centre: (40.0, 60.0),
                height: 40.0,
                stretch: 1.0,
                shear: 0.0,
                angle: 0.0,
                edge_level,
                strength: 1.0,
                grain: 0.0,
            };
            draw_written(&mut pixmap, &bar(), &placement, [0, 0, 0], rng);
            inked_pixels(&pixmap)
        };
        let bold = draw(0.2, &mut rng);
        let (ys, xs): (Vec<u32>, Vec<u32>) = bold.iter().map(|&(x, y)| (y, x)).unzip();
        let (top, bottom) = (ys.iter().min().unwrap(), ys.iter().max().unwrap());
        assert!(
            (39..=41).contains(top) && (78..=80).contains(bottom),
            "{top}..{bottom}"
        );
        let mid = xs.iter().sum::<u32>() as f32 / xs.len() as f32;
        assert!((mid - 39.5).abs() < 1.0, "{mid}");
        let thin = draw(0.85, &mut rng);
        assert!(thin.len() < bold.len(), "{} vs {}", thin.len(), bold.len());
    }

    #[test]
    fn a_crossbar_crosses_the_stroke_as_thick_as_the_pen() {
        let crossed = bar()
            .with_crossbar(0.5, 2.0, 0.0)
            .expect("the bar meets row 10");
        let (w, h) = crossed.size();
        assert_eq!(h, 20);
        // The bar is twice the 3-pixel stroke's width long, plus its round
        // ends and their soft edge.
        assert!((6..=10).contains(&w), "{w}");
        let row = |y: usize| &crossed.ink[y * w..(y + 1) * w];
        let inked = |y: usize| row(y).iter().filter(|&&v| v > 128).count();
        assert!(inked(10) >= 7, "{:?}", row(10));
        assert!(inked(9) > 3 && inked(11) > 3, "the bar is 3 pixels thick");
        assert!(
            inked(2) == 3 && inked(13) == 3,
            "the stroke elsewhere is untouched"
        );
        let dot = InkBitmap::new(3, 3, vec![0, 0, 255, 0, 0, 0, 0, 0, 0]).expect("a dot");
        assert!(dot.with_crossbar(0.9, 1.0, 0.0).is_some());
    }

    #[test]
    fn idx_files_parse_and_bad_ones_are_refused() {
        let mut images = vec![0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3];
        images.extend([0, 200, 0, 0, 255, 0]); // a 2x3 "1"
        images.extend([0; 6]); // blank: left out
        let labels = vec![0, 0, 8, 1, 0, 0, 0, 2, 1, 7];
        let digits = parse_idx(&images, &labels).expect("valid");
        assert_eq!(digits.len(), 1);
        assert_eq!(digits[0].0, 1);
        assert_eq!(digits[0].1.size(), (1, 2));
        assert!(parse_idx(&images[..20], &labels).is_err());
        assert!(parse_idx(&labels, &images).is_err());
        assert!(parse_idx(&images, &labels[..9]).is_err());
    }

    #[test]
    fn examples_of_zero_are_not_kept() {
        let mut digits = WrittenDigits::default();
        digits.push(0, bar());
        digits.push(1, bar());
        assert_eq!(digits.len(), 1);
        let mut rng = StdRng::seed_from_u64(2);
        assert!(digits.pick(1, &mut rng).is_some() && digits.pick(7, &mut rng).is_none());
    }
}
