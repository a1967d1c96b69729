//! Cards laid edge to edge in rows: one block of paper, cut along its lattice.
//!
//! Cards that touch along their sides, row after row, make one bright blob
//! at every level: a filled quadrilateral as many cards wide and tall as the
//! layout, with no seam that erosion or the seam cut can find (the cards'
//! rounded corners leave only pinholes). Once other passes show how large a
//! card is, such a block is recognised by its size: its sides are close to
//! whole numbers of card sides, in one of the two ways a card can lie. It is
//! then cut into that many cells by the block's own perspective (each cell
//! is mapped from the unit square through the block's homography), and each
//! cell is a candidate card, which the reader's card/not-a-card logit still
//! has to accept. Most cells must show a card's blank margin: a sudoku page's
//! boxes and blank rows, which pass for blocks once its cells pass for
//! cards, are crossed by print where a card has none.

use image::GrayImage;
use imageproc::geometric_transformations::Projection;

use super::double::whiteness_along;
use super::typical::Typical;
use crate::contours::outer_contours_above;
use crate::quad::{Point2, Quad, fit_quad};

/// A block must be at least this filled by its outline (rounded corners and
/// the pinholes between cards cost a little).
const MIN_FILL: f32 = 0.9;
/// Each side of a block is within this much of a whole number of cards.
const WHOLE: f32 = 0.2;
/// Fewest and most cards a block is cut into (two cards are `double`'s).
const CARDS: (usize, usize) = (3, 30);
/// A cell's margin is looked at this far in from its corners, as a share of
/// the way to its centre: 7.5% of the card's side in from each edge, where
/// a card's symbols do not reach (rendered cards with large symbols leave
/// less than 10% at their ends).
const MARGIN_INSET: f32 = 0.15;
/// Least share of a block's cells with a blank margin (a lattice fitted a
/// little off, a neighbour's shadow).
const BLANK_SHARE: f32 = 0.75;
/// Share of a margin line that may cross ink: the tip of a large symbol
/// reaching into a card's margin (three stacked symbols come within a few
/// percent of its ends), not the print or ruled lines of a page, which
/// cross it from end to end.
const MARGIN_INK: f32 = 0.1;
/// Opposite sides of a block differ at most this much (perspective, not a trapezoid of clutter).
const MIN_OPPOSITE_RATIO: f32 = 0.7;
/// Most of a block's outline that may run along the picture's edge. A desk
/// paler than the ink of a lone card's symbols is one blob that fills the
/// frame, and cut into a lattice it passes for a block of cards whose cells
/// then crowd out the lone card ("a card alone in a crowd", photographed-cards
/// table 702); a block of real cards cut off by the frame gives partial cards,
/// read by the other passes.
const MOST_ON_PICTURE_EDGE: f32 = 0.1;

/// The cells of every block of touching cards in the mask of `grey` above
/// `level`, measured against the typical card where each block lies.
pub(super) fn cells_of_blocks(grey: &GrayImage, level: u8, typical: &Typical) -> Vec<Quad> {
    let mut cells = Vec::new();
    for outline in outer_contours_above(grey, level) {
        if outline.len() < 40 || share_on_edge(grey, &outline) > MOST_ON_PICTURE_EDGE {
            continue;
        }
        let area = imageproc::geometry::contour_area(&outline) as f32;
        if area < (CARDS.0 as f32 - 0.5) * typical.area {
            continue;
        }
        let Some(block) = fit_quad(&outline) else {
            continue;
        };
        let card_area = typical.area_for(&block);
        let cards = area / card_area;
        if cards <= CARDS.1 as f32 + 0.5
            && block.is_convex()
            && area / block.area().max(1.0) >= MIN_FILL
        {
            cells.extend(cut_block(grey, level, &block, card_area, typical.aspect));
        }
    }
    cells
}

/// The share of `outline`'s points that lie on the edge of `grey`.
fn share_on_edge(grey: &GrayImage, outline: &[imageproc::point::Point<i32>]) -> f32 {
    let (right, bottom) = (grey.width() as i32 - 2, grey.height() as i32 - 2);
    let on_edge = outline
        .iter()
        .filter(|p| p.x <= 1 || p.y <= 1 || p.x >= right || p.y >= bottom)
        .count();
    on_edge as f32 / outline.len().max(1) as f32
}

/// `block` cut into cards, or nothing when its sides are no whole numbers
/// of card sides (a sheet of paper, a box) or too few of its cells show a
/// card's blank margin in the mask of `grey` above `level` (a printed page).
fn cut_block(
    grey: &GrayImage,
    level: u8,
    block: &Quad,
    card_area: f32,
    card_aspect: f32,
) -> Vec<Quad> {
    let [a, b, c, d] = block.side_lengths();
    if a.min(c) < MIN_OPPOSITE_RATIO * a.max(c) || b.min(d) < MIN_OPPOSITE_RATIO * b.max(d) {
        return Vec::new();
    }
    // Sides 0->1 (and 2->3) span `across` cards, sides 1->2 (and 3->0) `down`.
    let (along_first, along_second) = ((a + c) / 2.0, (b + d) / 2.0);
    let short = (card_area / card_aspect).sqrt();
    let long = short * card_aspect;
    let fits = |first: f32, second: f32| {
        let (n, m) = (along_first / first, along_second / second);
        let error = (n - n.round()).abs().max((m - m.round()).abs());
        (error, n.round() as usize, m.round() as usize)
    };
    // Cards upright or lying along the first side: whichever fits better.
    let (error, across, down) = [fits(short, long), fits(long, short)]
        .into_iter()
        .min_by(|x, y| x.0.total_cmp(&y.0))
        .unwrap_or((f32::INFINITY, 0, 0));
    let count = across * down;
    if error > WHOLE || across == 0 || down == 0 || !(CARDS.0..=CARDS.1).contains(&count) {
        return Vec::new();
    }
    let Some(to_block) = Projection::from_control_points(
        [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)],
        block.corners.map(|p| (p[0], p[1])),
    ) else {
        return Vec::new();
    };
    let at = |i: usize, j: usize| -> Point2 {
        let (x, y) = to_block * (i as f32 / across as f32, j as f32 / down as f32);
        [x, y]
    };
    let mut cells = Vec::with_capacity(count);
    for j in 0..down {
        for i in 0..across {
            let cell = Quad {
                corners: [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)],
            };
            cells.push(cell.portrait());
        }
    }
    let blank = cells
        .iter()
        .filter(|c| blank_margin(grey, level, c))
        .count();
    if (blank as f32) < BLANK_SHARE * cells.len() as f32 {
        return Vec::new();
    }
    cells
}

/// Whether `cell` has a card's blank margin: the lines a little inside its
/// four sides (in their middle 80%) are paper, above `level`, all along but
/// for [`MARGIN_INK`] of their length. A
/// cell of a made-up lattice over a printed page or a sheet of paper is
/// crossed by the page's lines and print; a card's symbols stay clear of
/// its edges.
fn blank_margin(grey: &GrayImage, level: u8, cell: &Quad) -> bool {
    let c = &cell.corners;
    let centre = cell.centre();
    let inset = |p: Point2| {
        [
            p[0] + MARGIN_INSET * (centre[0] - p[0]),
            p[1] + MARGIN_INSET * (centre[1] - p[1]),
        ]
    };
    (0..4).all(|i| {
        whiteness_along(grey, inset(c[i]), inset(c[(i + 1) % 4]), MARGIN_INK) > f32::from(level)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::typical::Found;
    use image::Luma;

    fn rectangle(w: f32, h: f32) -> Quad {
        Quad {
            corners: [
                [10.0, 10.0],
                [10.0 + w, 10.0],
                [10.0 + w, 10.0 + h],
                [10.0, 10.0 + h],
            ],
        }
    }

    /// Blank paper all over.
    fn paper() -> GrayImage {
        GrayImage::from_pixel(120, 120, Luma([220]))
    }

    #[test]
    fn a_block_of_three_by_two_cards_is_cut_into_six() {
        // Cards 20 x 31.2 (aspect 1.56), three across and two down.
        let cells = cut_block(&paper(), 128, &rectangle(60.0, 62.4), 20.0 * 31.2, 1.56);
        assert_eq!(cells.len(), 6);
        for cell in &cells {
            assert!((cell.area() - 20.0 * 31.2).abs() < 1.0, "{}", cell.area());
            assert!((cell.aspect() - 1.56).abs() < 0.01);
        }
        // Cards lying across: two across, three down.
        assert_eq!(
            cut_block(&paper(), 128, &rectangle(62.4, 60.0), 20.0 * 31.2, 1.56).len(),
            6
        );
    }

    #[test]
    fn a_sheet_of_no_whole_number_of_cards_is_left_alone() {
        // 2.5 cards across.
        assert!(cut_block(&paper(), 128, &rectangle(50.0, 62.4), 20.0 * 31.2, 1.56).is_empty());
        // A card and a half each way: too few cards, and not whole.
        assert!(cut_block(&paper(), 128, &rectangle(30.0, 46.8), 20.0 * 31.2, 1.56).is_empty());
    }

    #[test]
    fn a_block_crossed_by_print_is_no_row_of_cards() {
        // A printed line along the first row's lower margin.
        let mut page = paper();
        for x in 0..120 {
            page.put_pixel(x, 38, Luma([40]));
        }
        assert!(cut_block(&page, 128, &rectangle(60.0, 62.4), 20.0 * 31.2, 1.56).is_empty());
    }

    #[test]
    fn a_symbol_tip_in_a_margin_leaves_it_blank() {
        // Cards 100 x 156, three across and two down; a symbol's tip, 3
        // pixels wide, crosses the top margin line (y = 21.7) of the first
        // two cards, whose middle 80% is 68 pixels long.
        let mut page = GrayImage::from_pixel(400, 400, Luma([220]));
        for x0 in [55, 155] {
            for x in x0..x0 + 3 {
                for y in 18..25 {
                    page.put_pixel(x, y, Luma([40]));
                }
            }
        }
        let block = rectangle(300.0, 312.0);
        assert_eq!(cut_block(&page, 128, &block, 100.0 * 156.0, 1.56).len(), 6);
        // Ink across a quarter of each line is no card's margin.
        for x0 in [55, 155] {
            for x in x0..x0 + 20 {
                for y in 18..25 {
                    page.put_pixel(x, y, Luma([40]));
                }
            }
        }
        assert!(cut_block(&page, 128, &block, 100.0 * 156.0, 1.56).is_empty());
    }

    #[test]
    fn blocks_are_found_in_a_mask() {
        let mut grey = GrayImage::new(120, 120);
        for y in 20..82 {
            for x in 30..90 {
                grey.put_pixel(x, y, Luma([220]));
            }
        }
        let typical = Typical::of(&[Found::whole(rectangle(20.0, 31.2))]).expect("a typical card");
        let cells = cells_of_blocks(&grey, 128, &typical);
        assert_eq!(cells.len(), 6, "{cells:?}");
    }

    #[test]
    fn a_desk_filling_the_frame_is_no_block_of_cards() {
        // The same three by two cards' worth of paper, but reaching the
        // picture's edges all round: a pale desk, not a block of cards.
        let grey = GrayImage::from_pixel(62, 64, Luma([220]));
        let typical = Typical::of(&[Found::whole(rectangle(20.0, 31.2))]).expect("a typical card");
        assert!(cells_of_blocks(&grey, 128, &typical).is_empty());
    }
}
