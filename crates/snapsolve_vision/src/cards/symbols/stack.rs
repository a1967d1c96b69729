//! A card's stack of symbols completed where some of its symbols were not
//! found as symbols.
//!
//! A symbol whose outline touches the card's shadowed edge, or is broken by
//! a grainy desk, is no symbol-shaped blob; its ink then counts as some
//! other thing's on the card laid around the symbols that were found, and
//! the card is refused as crowded (real faces on plain desks,
//! photographed-cards stress tables 558 and 618: a lone card unread). The
//! stack says where the missing symbol lies: a pitch beyond the found ones,
//! along the card. Where that place holds about as much ink as a found
//! symbol, centred on it and not on one side of it, a symbol of the same
//! size is taken to lie there.

use image::GrayImage;

use super::blobs::Symbol;
use super::{INK_DEPTH, MIDDLE, Point2, SYMBOL_MARGIN as MARGIN, across, dot, sub};

/// Centre-to-centre pitch of stacked symbols over a symbol's length, for a
/// lone symbol (the standard deck 0.64, the second edition 0.57).
const LONE_PITCH: f32 = 0.6;
/// How far off its expected middle, along the stack, a missing symbol's ink
/// is looked for, as a share of the pitch (beyond it lies the card's edge).
const SEARCH_ALONG: f32 = 0.15;
/// A place holds a symbol when its ink is within this range of the found
/// symbol's (one card's symbols are one shape and shading).
const INK_RATIO: (f32, f32) = (0.5, 1.6);
/// Symbols shorter than this half length (working pixels, a card some 30
/// wide) are not completed: a cluttered frame's coloured print gives a
/// hundred such groups (the bench's frame with no card: 119 of its 126
/// completions, 8 ms more), and so small a card is read again enlarged
/// by the closer look (`CardFinder::find_each_size_closer`).
const SMALLEST_HALF_LENGTH: f32 = 10.0;
/// Least share of a place's ink either side of its middle.
const BALANCE: f32 = 0.3;
/// Around symbols up to this half length (pixels) ink is counted at every
/// pixel, around larger ones that much more sparsely: a cluttered frame with
/// no card holds hundreds of groups, some of large blobs.
const FINEST_HALF_LENGTH: f32 = 12.0;

/// `group` with the symbols its stack lacks, where their places hold ink
/// like theirs (ink read from `ink`, whiteness over a level centred on
/// [`MIDDLE`]); `None` where nothing is added, or where the stack would
/// pass three.
pub(super) fn completed(ink: &GrayImage, group: &[Symbol]) -> Option<Vec<Symbol>> {
    if group.iter().any(|s| s.half_length < SMALLEST_HALF_LENGTH) {
        return None;
    }
    let (model, direction, pitch, ends) = match group {
        [one] => {
            let pitch = LONE_PITCH * 2.0 * one.half_length;
            (*one, across(one.axis), pitch, (one.centre, one.centre))
        }
        [a, b] => {
            let d = sub(b.centre, a.centre);
            let pitch = d[0].hypot(d[1]);
            if pitch <= f32::EPSILON {
                return None;
            }
            (
                *a,
                [d[0] / pitch, d[1] / pitch],
                pitch,
                (a.centre, b.centre),
            )
        }
        _ => return None,
    };
    let own = ink_in(ink, &model, model.centre, 0.0, &[]).count;
    if own == 0 {
        return None;
    }
    let step = |p: Point2, k: f32| {
        [
            p[0] + k * pitch * direction[0],
            p[1] + k * pitch * direction[1],
        ]
    };
    let added: Vec<Symbol> = [step(ends.0, -1.0), step(ends.1, 1.0)]
        .into_iter()
        .filter_map(|place| {
            // The ink about the place, a little beyond a symbol's box along
            // the stack: centred off the place, it is something else's (the
            // card's shadowed edge beyond its last symbol).
            let about = ink_in(ink, &model, place, SEARCH_ALONG * pitch, group);
            let off = dot(sub(about.middle?, place), direction);
            if off.abs() > SEARCH_ALONG * pitch {
                return None;
            }
            // Two symbols' line, not the ink, says where across the card the
            // symbol lies; a lone symbol's axis is some degrees off its
            // card's turn (a squiggle's more), and the ink's middle says it.
            // The box there must hold a symbol's ink, as much either side
            // of its middle (an edge crossing the box is one-sided).
            let centre = match group {
                [_] => about.middle?,
                _ => [place[0] + off * direction[0], place[1] + off * direction[1]],
            };
            let inside = ink_in(ink, &model, centre, 0.0, group);
            let ratio = inside.count as f32 / own as f32;
            let balanced = inside
                .halves
                .iter()
                .all(|&h| h as f32 >= BALANCE * inside.count as f32);
            (balanced && (INK_RATIO.0..=INK_RATIO.1).contains(&ratio))
                .then_some(Symbol { centre, ..model })
        })
        .collect();
    if added.is_empty() || group.len() + added.len() > 3 {
        return None;
    }
    Some(group.iter().copied().chain(added).collect())
}

/// The ink pixels of a box.
struct BoxInk {
    count: usize,
    /// Their middle, if any.
    middle: Option<Point2>,
    /// How many lie either side of the box's middle across its axis.
    halves: [usize; 2],
}

/// The ink pixels in `model`'s box (grown by [`MARGIN`], and by `slack`
/// across its axis) centred at `centre`, outside the boxes of `found`
/// symbols.
fn ink_in(ink: &GrayImage, model: &Symbol, centre: Point2, slack: f32, found: &[Symbol]) -> BoxInk {
    let along = model.half_length + MARGIN;
    let aside = model.half_thickness + MARGIN + slack;
    let [ax, ay] = [model.axis[0].abs(), model.axis[1].abs()];
    // The turned box's bounds, read every `stride` pixels (counts are
    // compared with counts read alike).
    let reach = [along * ax + aside * ay, along * ay + aside * ax];
    let stride = (model.half_length / FINEST_HALF_LENGTH).ceil().max(1.0) as usize;
    // Sampled on a grid through the centre's pixel, so that sparse counts
    // are not lopsided.
    let span = |c: f32, reach: f32, limit: u32| {
        let steps = (reach / stride as f32).ceil() as i64;
        let first = c.floor() as i64 - steps * stride as i64;
        (0..=2 * steps)
            .map(move |k| first + k * stride as i64)
            .filter(move |&v| v >= 0 && v < i64::from(limit))
            .map(|v| v as u32)
    };
    let (mut count, mut sum, mut halves) = (0usize, [0.0f32; 2], [0usize; 2]);
    for y in span(centre[1], reach[1], ink.height()) {
        for x in span(centre[0], reach[0], ink.width()) {
            if ink.get_pixel(x, y)[0] >= MIDDLE - INK_DEPTH {
                continue;
            }
            let p = [x as f32 + 0.5, y as f32 + 0.5];
            let d = sub(p, centre);
            let aside_of = dot(d, across(model.axis));
            let inside = dot(d, model.axis).abs() <= along && aside_of.abs() <= aside;
            if inside && !found.iter().any(|s| s.covers_within(p, MARGIN)) {
                count += 1;
                sum = [sum[0] + p[0], sum[1] + p[1]];
                halves[usize::from(aside_of > 0.0)] += 1;
            }
        }
    }
    let middle = (count > 0).then(|| [sum[0] / count as f32, sum[1] / count as f32]);
    BoxInk {
        count,
        middle,
        halves,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;
    use imageproc::drawing::{draw_filled_rect_mut, draw_hollow_ellipse_mut};
    use imageproc::rect::Rect;

    /// Paper (whiteness at its local mean) with open ovals lying across a
    /// card stacked down it at a pitch of 34 pixels (0.64 of their length), centred on (100, y).
    fn ink_with_ovals(ys: &[i32]) -> GrayImage {
        let mut ink = GrayImage::from_pixel(200, 240, Luma([MIDDLE]));
        for &y in ys {
            for grow in 0..2 {
                draw_hollow_ellipse_mut(&mut ink, (100, y), 25 + grow, 11 + grow, Luma([20]));
            }
        }
        ink
    }

    fn oval_at(y: f32) -> Symbol {
        Symbol {
            centre: [100.0, y],
            axis: [1.0, 0.0],
            half_length: 26.5,
            half_thickness: 12.5,
        }
    }

    #[test]
    fn a_third_symbol_not_found_is_added_where_its_ink_lies() {
        let ink = ink_with_ovals(&[86, 120, 154]);
        let whole = completed(&ink, &[oval_at(86.0), oval_at(120.0)]).expect("the third oval");
        assert_eq!(whole.len(), 3);
        let added = whole[2].centre;
        assert!(
            (added[0] - 100.0).abs() < 0.01 && (added[1] - 154.0).abs() < 1.0,
            "{added:?}"
        );
    }

    #[test]
    fn a_shadowed_edge_beyond_the_stack_is_no_symbol() {
        // Two ovals found, the card's edge a little more than a pitch below
        // the lower one: ink there, but not centred where a symbol would be.
        let mut ink = ink_with_ovals(&[86, 120]);
        draw_filled_rect_mut(&mut ink, Rect::at(60, 166).of_size(80, 5), Luma([20]));
        assert!(completed(&ink, &[oval_at(86.0), oval_at(120.0)]).is_none());
    }

    #[test]
    fn blank_paper_beside_a_lone_symbol_adds_nothing() {
        let ink = ink_with_ovals(&[120]);
        assert!(completed(&ink, &[oval_at(120.0)]).is_none());
        // Three found: a full stack.
        let ink = ink_with_ovals(&[52, 86, 120, 154]);
        let three = [oval_at(86.0), oval_at(120.0), oval_at(154.0)];
        assert!(completed(&ink, &three).is_none());
    }
}
