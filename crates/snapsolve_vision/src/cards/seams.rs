//! Cutting the seams between cards laid close together.
//!
//! Cards a few pixels apart, or touching at their corners, are one blob at
//! every threshold level: the gap between them is too thin and too blurred to
//! fall below the level. It is still darker than the paper on both sides, and
//! a grey closing (which fills dark details thinner than its square) shows it.

use image::GrayImage;

use crate::morphology::close_gray;

/// Half the width of the widest seam cut by [`cut_seams`], in working pixels.
const SEAM_RADIUS: u8 = 3;
/// How much darker than its surroundings a seam must be, in levels of whiteness.
const SEAM_DEPTH: u8 = 20;

/// The whiteness with thin dark lines (a grey closing takes them away; they
/// are darker than it by at least [`SEAM_DEPTH`]) set to black: the seams
/// between cards that touch. Thin dark strokes inside a card go too, which
/// leaves its outline as it was.
pub(super) fn cut_seams(white: &GrayImage) -> GrayImage {
    let mut cut = close_gray(white, SEAM_RADIUS);
    for (c, w) in cut.iter_mut().zip(white.iter()) {
        *c = if c.saturating_sub(*w) > SEAM_DEPTH {
            0
        } else {
            *w
        };
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn a_thin_dark_line_between_papers_is_cut_and_the_paper_kept() {
        // Paper (200) with a 3-pixel seam (150) down the middle, on a dark table (30).
        let white = GrayImage::from_fn(60, 40, |x, y| {
            Luma([match (x, y) {
                (0..5, _) | (55.., _) | (_, 0..5) | (_, 35..) => 30,
                (29..32, _) => 150,
                _ => 200,
            }])
        });
        let cut = cut_seams(&white);
        assert!((29..32).all(|x| cut.get_pixel(x, 20).0[0] == 0));
        assert_eq!(cut.get_pixel(15, 20).0[0], 200);
        assert_eq!(cut.get_pixel(45, 20).0[0], 200);
        // The table beside the paper's outer edge is no seam.
        assert_eq!(cut.get_pixel(2, 20).0[0], 30);
    }
}
