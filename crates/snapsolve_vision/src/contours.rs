//! Outer borders of the blobs in a binary mask (any non-zero pixel is foreground).
//!
//! Suzuki and Abe's border following (1985), as imageproc's `find_contours`
//! implements it, but returning only the outer borders, which is all that the
//! card finder, the grid outlines and the features classifier use. Hole borders
//! are still followed (their pixels must be marked, or a pixel on a hole's
//! border would start a false outer border), just not collected.
//!
//! Every outer border is identical to imageproc's `Outer` contour: same start
//! pixel, same order of points (8-connected, down the left side first), so fitting
//! quadrilaterals to them gives the same corners. The difference is speed:
//! the mask is copied once into a label array framed by a one-pixel zero
//! border, so neighbours are read without bounds checks, and the eight
//! directions are an index instead of a rotated `VecDeque`.
//!
//! One deliberate difference: imageproc never starts an outer border in
//! column 0 (it wants a 0-pixel on the left inside the image), so a blob whose
//! first pixel in raster order lies on the left edge comes back as a hole
//! border, or not at all. Here the outside of the image counts as background,
//! as in the paper, and such a blob has its outer border like any other.

use image::GrayImage;
use imageproc::point::Point;

/// Clockwise neighbours (y grows downwards), starting west, as `(dx, dy)`.
const DIRECTIONS: [(isize, isize); 8] = [
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
];
/// Index of east in [`DIRECTIONS`].
const EAST: usize = 4;
/// Index of west in [`DIRECTIONS`].
const WEST: usize = 0;

/// The outer border of every blob of `mask`, in raster order of their first pixel.
pub fn outer_contours(mask: &GrayImage) -> Vec<Vec<Point<i32>>> {
    outer_contours_above(mask, 0)
}

/// The outer border of every blob of pixels brighter than `level`: the same
/// as `outer_contours(&mask_above(image, level))` without making the mask.
pub fn outer_contours_above(image: &GrayImage, level: u8) -> Vec<Vec<Point<i32>>> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    if w == 0 || h == 0 {
        return Vec::new();
    }
    let mut labels = Labels::new(image, level);
    let mut contours = Vec::new();
    for y in 0..h {
        let row = labels.index(0, y);
        let mut x = 0;
        while x < w {
            // Eight pixels at a time: none of them starts a border when all are
            // background, or when they and both their neighbours are foreground.
            let span = 8.min(w - x);
            if span == 8 && labels.nothing_starts_in(row + x) {
                x += 8;
                continue;
            }
            for x in x..x + span {
                labels.start_border_at(row + x, x + 1 == w, &mut contours);
            }
            x += span;
        }
    }
    contours
}

/// Background, never on a border.
const BACKGROUND: u8 = 0;
/// Foreground not yet on any border.
const UNSEEN: u8 = 1;
/// On a border that does not pass on its east side.
const SEEN: u8 = 2;
/// On a border whose east neighbour was examined as background (the pixel
/// at which a hole's border may not start again).
const SEEN_EAST: u8 = 3;

/// The mask as pixel states in a frame of background.
///
/// Suzuki and Abe number each border and write the number (negated on the
/// east side) into its pixels to build the hierarchy of borders. Outer
/// borders alone need only whether a pixel was seen and on which side, so
/// one byte a pixel does: a quarter of the memory the numbers took.
struct Labels {
    values: Vec<u8>,
    /// Row length including the frame.
    stride: usize,
    /// Width of the mask.
    width: usize,
    offsets: [isize; 8],
}

impl Labels {
    fn new(image: &GrayImage, level: u8) -> Labels {
        let (w, h) = (image.width() as usize, image.height() as usize);
        let stride = w + 2;
        let mut values = vec![BACKGROUND; stride * (h + 2)];
        for (row, src) in values[stride..]
            .chunks_exact_mut(stride)
            .zip(image.as_raw().chunks_exact(w))
        {
            for (v, &p) in row[1..=w].iter_mut().zip(src) {
                *v = u8::from(p > level);
            }
        }
        let offsets = DIRECTIONS.map(|(dx, dy)| dx + dy * stride as isize);
        Labels {
            values,
            stride,
            width: w,
            offsets,
        }
    }

    fn index(&self, x: usize, y: usize) -> usize {
        (y + 1) * self.stride + x + 1
    }

    fn point(&self, i: usize) -> Point<i32> {
        Point::new((i % self.stride) as i32 - 1, (i / self.stride) as i32 - 1)
    }

    fn neighbour(&self, i: usize, direction: usize) -> usize {
        i.wrapping_add_signed(self.offsets[direction])
    }

    /// Whether no border can start at the eight pixels from `i` (all in one
    /// row; the frame holds their neighbours). Whether a pixel is background
    /// never changes, so this may be asked before the borders through these
    /// pixels are followed.
    fn nothing_starts_in(&self, i: usize) -> bool {
        let eight = |from: usize| {
            let bytes: [u8; 8] = self.values[from..from + 8]
                .try_into()
                .unwrap_or_else(|_| unreachable!("eight bytes"));
            u64::from_le_bytes(bytes)
        };
        // States are 0..=3: a byte is foreground when either low bit is set.
        const LOW: u64 = 0x0101_0101_0101_0101;
        let all_foreground = |v: u64| (v | v >> 1) & LOW == LOW;
        eight(i) == 0 || all_foreground(eight(i - 1)) && all_foreground(eight(i + 1))
    }

    /// Follows the border that starts at pixel `i`, if one does; outer borders
    /// are pushed to `contours`, hole borders only marked.
    fn start_border_at(
        &mut self,
        i: usize,
        last_column: bool,
        contours: &mut Vec<Vec<Point<i32>>>,
    ) {
        let value = self.values[i];
        if value == BACKGROUND {
            return;
        }
        if value == UNSEEN && self.values[i - 1] == BACKGROUND {
            let mut points = Vec::new();
            self.follow(i, WEST, Some(&mut points));
            contours.push(points);
        } else if value != SEEN_EAST && !last_column && self.values[i + 1] == BACKGROUND {
            // A hole's border (imageproc starts none in the last column): marked, not kept.
            self.follow(i, EAST, None);
        }
    }

    /// Follows the border that starts at pixel `start` with the 0-pixel in
    /// direction `from`, marking its pixels, pushing them to `points`.
    fn follow(&mut self, start: usize, from: usize, mut points: Option<&mut Vec<Point<i32>>>) {
        // Clockwise from the 0-pixel: the first foreground neighbour.
        let Some(first) = (0..8)
            .map(|k| (from + k) % 8)
            .find(|&d| self.values[self.neighbour(start, d)] != BACKGROUND)
        else {
            // An isolated pixel.
            if let Some(points) = points {
                points.push(self.point(start));
            }
            self.values[start] = SEEN_EAST;
            return;
        };
        let pos1 = self.neighbour(start, first);
        // `previous` is the direction from the current pixel back to the previous one;
        // the position is carried along (dividing the index by the stride each step cost ~5%).
        let (mut current, mut previous) = (start, first);
        let mut at = self.point(start);
        loop {
            if let Some(points) = points.as_deref_mut() {
                points.push(at);
            }
            // Counter-clockwise from just before the previous pixel: the next one.
            let mut east_examined = false;
            let mut next = previous;
            for k in 1..=8 {
                let d = (previous + 8 - k) % 8;
                if self.values[self.neighbour(current, d)] != BACKGROUND {
                    next = d;
                    break;
                }
                if d == EAST {
                    east_examined = true;
                }
            }
            let last_column = at.x as usize + 1 == self.width;
            if last_column || east_examined {
                self.values[current] = SEEN_EAST;
            } else if self.values[current] == UNSEEN {
                self.values[current] = SEEN;
            }
            let following = self.neighbour(current, next);
            if following == start && current == pos1 {
                break;
            }
            previous = (next + 4) % 8;
            current = following;
            let (dx, dy) = DIRECTIONS[next];
            at = Point::new(at.x + dx as i32, at.y + dy as i32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;
    use imageproc::contours::{BorderType, find_contours};
    use rand::{Rng, SeedableRng};

    fn imageproc_outer(mask: &GrayImage) -> Vec<Vec<Point<i32>>> {
        find_contours::<i32>(mask)
            .into_iter()
            .filter(|c| c.border_type == BorderType::Outer)
            .map(|c| c.points)
            .collect()
    }

    /// Random blobs: noise, then a few filled rectangles and rings.
    fn random_mask(rng: &mut impl Rng, w: u32, h: u32) -> GrayImage {
        let density = rng.random_range(0.0..1.0);
        let mut mask = GrayImage::from_fn(w, h, |_, _| {
            Luma([if rng.random_bool(density) {
                rng.random_range(1..=255)
            } else {
                0
            }])
        });
        for _ in 0..rng.random_range(0..4) {
            let (x0, y0) = (rng.random_range(0..w), rng.random_range(0..h));
            let (x1, y1) = (rng.random_range(x0..w), rng.random_range(y0..h));
            let value = if rng.random_bool(0.5) { 255 } else { 0 };
            for y in y0..=y1 {
                for x in x0..=x1 {
                    mask.put_pixel(x, y, Luma([value]));
                }
            }
        }
        mask
    }

    #[test]
    fn outer_borders_match_imageproc_away_from_the_left_edge() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..2000 {
            // Wide enough for whole runs of eight pixels to be skipped.
            let (w, h) = (rng.random_range(1..70), rng.random_range(1..30));
            let mut mask = random_mask(&mut rng, w, h);
            // imageproc's column-0 quirk aside (see the next test), every border is the same.
            for y in 0..h {
                mask.put_pixel(0, y, Luma([0]));
            }
            assert_eq!(outer_contours(&mask), imageproc_outer(&mask), "{w}x{h}");
        }
    }

    #[test]
    fn borders_above_a_level_are_the_borders_of_the_mask() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        for _ in 0..200 {
            let (w, h) = (rng.random_range(1..70), rng.random_range(1..30));
            let image = random_mask(&mut rng, w, h);
            let level = rng.random();
            let mask = crate::threshold::mask_above(&image, level);
            assert_eq!(outer_contours_above(&image, level), outer_contours(&mask));
        }
    }

    #[test]
    fn a_blob_on_the_left_edge_has_an_outer_border() {
        // imageproc reports this square as a hole border; it is the outside of a blob.
        let mut mask = GrayImage::new(6, 6);
        for y in 1..4 {
            for x in 0..3 {
                mask.put_pixel(x, y, Luma([255]));
            }
        }
        assert!(imageproc_outer(&mask).is_empty());
        let contours = outer_contours(&mask);
        assert_eq!(contours.len(), 1);
        let expected: Vec<Point<i32>> = [
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 3),
            (2, 3),
            (2, 2),
            (2, 1),
            (1, 1),
        ]
        .iter()
        .map(|&(x, y)| Point::new(x, y))
        .collect();
        assert_eq!(contours[0], expected);
    }

    #[test]
    fn single_pixels_and_empty_masks() {
        assert!(outer_contours(&GrayImage::new(0, 5)).is_empty());
        assert!(outer_contours(&GrayImage::new(4, 4)).is_empty());
        let mut mask = GrayImage::new(3, 3);
        mask.put_pixel(2, 2, Luma([1]));
        assert_eq!(outer_contours(&mask), vec![vec![Point::new(2, 2)]]);
    }
}
