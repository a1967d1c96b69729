//! Where cards the finder missed should lie, guessed from the rows and
//! columns of the cards it found.
//!
//! Cards on a table lie in rows and columns, often edge to edge. Where two
//! found cards are neighbours in a row (or a column), the next place along
//! that row at the same step likely holds a card too, and so does the place
//! halfway between two cards two steps apart. A guess beyond a card is its
//! outline moved by that step; a guess between two is halfway from one
//! outline to the other, so that in a steep view it grows towards the
//! camera as the cards do (stress tables 400-447 and 448-495: 13 cards more
//! found where they lie, 8 more named). Whether a card lies there is for
//! the card network to say. Guesses darker than the cards' paper (the table beyond
//! the last card of a row) are not worth asking it about.

use image::RgbImage;

use crate::quad::{Point2, Quad, lerp, sub};

/// Neighbours are one step apart: from nearly touching (0.95 of a card) to
/// a wide gap (0.6 of a card), measured along the card's own side.
const STEP: (f32, f32) = (0.95, 1.6);
/// A hole is two steps apart, each a step as above.
const TWO_STEPS: (f32, f32) = (1.9, 3.2);
/// How far off the row's line a neighbour may lie, in card sides.
const OFF_LINE: f32 = 0.25;
/// Guesses whose centres lie closer than this share of a card's shorter
/// side are one guess.
const SAME_PLACE: f32 = 0.3;
/// A guess whose paper is darker than this share of the dullest card's
/// paper shows the table, not a card.
const PAPER_SHARE: f32 = 0.75;
/// Points sampled across and along a quadrilateral to measure its paper.
const PAPER_SAMPLES: (usize, usize) = (5, 8);

/// Outlines where a card likely lies next to `cards` in their rows and
/// columns of `image`, apart from places already taken by a card or tried
/// before (`tried`), wholly inside the picture and about as white as the
/// cards.
pub fn guesses_beside(image: &RgbImage, cards: &[Quad], tried: &[Quad]) -> Vec<Quad> {
    // Holes first: a place between two cards is guessed from both, where
    // one beyond a card copies that card's size, which a steep view's
    // nearer rows outgrow. Then the rows continued, then the corners of Ls
    // of three cards (stress tables 400-495: corners before the rows named
    // 7 cards fewer; after them, 8 more, none more right).
    let holes = pairs(cards).flat_map(|(a, b)| guesses_from_pair(a, b, Place::Between));
    let beyond = pairs(cards).flat_map(|(a, b)| guesses_from_pair(a, b, Place::Beyond));
    let corners = cards.iter().flat_map(|a| corners_beside(a, cards));
    admitted(image, cards, tried, holes.chain(beyond).chain(corners))
}

/// Outlines where a card likely lies beside a row (or column) of two of
/// `cards`, across it, a step away whose gap is theirs, admitted as
/// [`guesses_beside`] admits its own. Where things set down on the layout
/// hide the cards' neighbours, one column may be all that is read, and
/// [`guesses_beside`] guesses nothing beside it (covered-cards table 403:
/// the left column of three). A guess across a row is seldom where a card
/// lies as exactly as one along it, so these are for when it has none: a
/// refused guess is not guessed again, and the rows' guesses would find
/// its place taken.
pub fn guesses_across(image: &RgbImage, cards: &[Quad], tried: &[Quad]) -> Vec<Quad> {
    let across = pairs(cards).flat_map(|(a, b)| guesses_from_pair(a, b, Place::Across));
    admitted(image, cards, tried, across)
}

/// Every pair of `cards`, each once.
fn pairs(cards: &[Quad]) -> impl Iterator<Item = (&Quad, &Quad)> {
    cards
        .iter()
        .enumerate()
        .flat_map(move |(i, a)| cards[i + 1..].iter().map(move |b| (a, b)))
}

/// The `candidates`, in order, apart from places already taken by a card,
/// tried before or guessed already, wholly inside the picture and about as
/// white as the cards.
fn admitted(
    image: &RgbImage,
    cards: &[Quad],
    tried: &[Quad],
    candidates: impl Iterator<Item = Quad>,
) -> Vec<Quad> {
    let (width, height) = image.dimensions();
    let dullest = cards
        .iter()
        .map(|card| paper_level(image, card))
        .fold(f32::INFINITY, f32::min);
    let mut guesses: Vec<Quad> = Vec::new();
    for guess in candidates {
        let taken = cards
            .iter()
            .chain(tried)
            .chain(&guesses)
            .any(|q| q.shares_centre_with(&guess) || same_place(q, &guess));
        if !taken
            && inside(&guess, width, height)
            && paper_level(image, &guess) >= PAPER_SHARE * dullest
        {
            guesses.push(guess);
        }
    }
    guesses
}

/// The fourth corners of the Ls `a` makes with two neighbours, one along
/// each of its sides: with `b` beside it and `c` below it, the card below
/// `b` lies at `b + c - a`, corner by corner (the size of `c`, moved by the
/// step from `a` to `b`).
fn corners_beside(a: &Quad, cards: &[Quad]) -> Vec<Quad> {
    let neighbours: Vec<(&Quad, Side)> = cards
        .iter()
        .filter_map(|b| {
            let (steps, side) = steps_along_a_side(a, sub(b.centre(), a.centre()))?;
            (STEP.0..=STEP.1).contains(&steps).then_some((b, side))
        })
        .collect();
    let mut corners = Vec::new();
    for (b, side_b) in &neighbours {
        for (c, side_c) in &neighbours {
            if side_b != side_c {
                let mut corner = c.corners;
                for ((p, pb), pa) in corner.iter_mut().zip(b.corners).zip(a.corners) {
                    *p = [p[0] + pb[0] - pa[0], p[1] + pb[1] - pa[1]];
                }
                corners.push(Quad { corners: corner });
            }
        }
    }
    corners
}

/// Where a pair of cards points.
#[derive(Clone, Copy)]
enum Place {
    /// Between two cards two steps apart, where one card is missing.
    Between,
    /// Beyond each of two neighbours, along their row.
    Beyond,
    /// Beside each of two neighbours, across their row, a step away whose
    /// gap is the gap between them.
    Across,
}

/// The places of kind `place` a pair of cards points at: beyond each of them
/// along their row, where they are neighbours (each card moved by the step);
/// between them, where one card is missing (halfway from one outline to the
/// other, corner by corner, so a card between a far and a near one is of a
/// size between theirs).
fn guesses_from_pair(a: &Quad, b: &Quad, place: Place) -> Vec<Quad> {
    let step = sub(b.centre(), a.centre());
    let Some((steps, side)) = steps_along_a_side(a, step) else {
        return Vec::new();
    };
    match place {
        Place::Beyond if (STEP.0..=STEP.1).contains(&steps) => {
            vec![moved(b, step, 1.0), moved(a, step, -1.0)]
        }
        Place::Across if (STEP.0..=STEP.1).contains(&steps) => {
            let sideways = step_across(a, side, steps);
            [a, b]
                .into_iter()
                .flat_map(|card| [moved(card, sideways, 1.0), moved(card, sideways, -1.0)])
                .collect()
        }
        Place::Between if (TWO_STEPS.0..=TWO_STEPS.1).contains(&steps) => {
            vec![halfway(a, b).unwrap_or_else(|| moved(a, step, 0.5))]
        }
        _ => Vec::new(),
    }
}

/// The step from `card` to its neighbour across the row it shares with a
/// neighbour `steps` of its sides away along `side`: the card's other side
/// and the same gap (cards of a layout lie as far apart both ways).
fn step_across(card: &Quad, side: Side, steps: f32) -> Point2 {
    let (across, along) = sides_of(card);
    let length = |v: Point2| v[0].hypot(v[1]).max(f32::EPSILON);
    let (row, other) = match side {
        Side::Across => (across, along),
        Side::Along => (along, across),
    };
    let gap = (steps - 1.0) * length(row);
    let scale = 1.0 + gap / length(other);
    [other[0] * scale, other[1] * scale]
}

/// The outline halfway from `a` to `b`, corner by corner; `None` where it is
/// no larger than [`HALFWAY_AREA`] of the smaller card (the two outlines'
/// corners not in the same order on their cards).
fn halfway(a: &Quad, b: &Quad) -> Option<Quad> {
    let mut corners = a.corners;
    for (corner, other) in corners.iter_mut().zip(b.corners) {
        *corner = lerp(*corner, other, 0.5);
    }
    let quad = Quad { corners };
    (quad.area() >= HALFWAY_AREA * a.area().min(b.area())).then_some(quad)
}

/// Least area of an outline halfway between two cards, as a share of the
/// smaller card's.
const HALFWAY_AREA: f32 = 0.8;

/// How many of the card's sides `offset` runs, and along which, where it runs
/// along one side of the card `card` (within [`OFF_LINE`] of it); `None`
/// otherwise.
fn steps_along_a_side(card: &Quad, offset: Point2) -> Option<(f32, Side)> {
    let (across, along) = sides_of(card);
    let (x, y) = in_basis(offset, across, along)?;
    if y.abs() <= OFF_LINE {
        Some((x.abs(), Side::Across))
    } else if x.abs() <= OFF_LINE {
        Some((y.abs(), Side::Along))
    } else {
        None
    }
}

/// A card's side across it and its side along it, each the mean of the two
/// opposite sides.
fn sides_of(card: &Quad) -> (Point2, Point2) {
    let c = &card.corners;
    (
        mean(sub(c[1], c[0]), sub(c[2], c[3])),
        mean(sub(c[3], c[0]), sub(c[2], c[1])),
    )
}

/// Which of a card's sides a step runs along.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Across,
    Along,
}

/// `offset` as `x * u + y * v`, or `None` where `u` and `v` are parallel.
fn in_basis(offset: Point2, u: Point2, v: Point2) -> Option<(f32, f32)> {
    let det = u[0] * v[1] - u[1] * v[0];
    if det.abs() < f32::EPSILON {
        return None;
    }
    let x = (offset[0] * v[1] - offset[1] * v[0]) / det;
    let y = (u[0] * offset[1] - u[1] * offset[0]) / det;
    Some((x, y))
}

/// The whiteness (darkest channel) of the paper inside `quad`: the upper
/// quartile of points spread over its middle, where symbols, which cover
/// less than half of a card, do not reach.
pub(super) fn paper_level(image: &RgbImage, quad: &Quad) -> f32 {
    let c = &quad.corners;
    let (across, along) = PAPER_SAMPLES;
    let mut levels: Vec<u8> = Vec::with_capacity(across * along);
    for j in 0..along {
        let t = 0.1 + 0.8 * (j as f32 + 0.5) / along as f32;
        for i in 0..across {
            let s = 0.1 + 0.8 * (i as f32 + 0.5) / across as f32;
            // Bilinear across the quadrilateral's corners.
            let top = lerp(c[0], c[1], s);
            let bottom = lerp(c[3], c[2], s);
            let [x, y] = lerp(top, bottom, t);
            let (x, y) = (x.max(0.0) as u32, y.max(0.0) as u32);
            if let Some(p) = image.get_pixel_checked(x, y) {
                levels.push(p.0.into_iter().min().unwrap_or(0));
            }
        }
    }
    levels.sort_unstable();
    levels
        .get(levels.len() * 3 / 4)
        .map_or(0.0, |&level| f32::from(level))
}

fn same_place(a: &Quad, b: &Quad) -> bool {
    let shorter = a.shortest_side();
    let d = sub(a.centre(), b.centre());
    d[0].hypot(d[1]) < SAME_PLACE * shorter
}

fn inside(quad: &Quad, width: u32, height: u32) -> bool {
    quad.corners
        .iter()
        .all(|&[x, y]| x >= 0.0 && y >= 0.0 && x <= width as f32 && y <= height as f32)
}

fn moved(quad: &Quad, step: Point2, times: f32) -> Quad {
    quad.map(|[x, y]| [x + times * step[0], y + times * step[1]])
}

fn mean(a: Point2, b: Point2) -> Point2 {
    [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(x: f32, y: f32) -> Quad {
        Quad {
            corners: [[x, y], [x + 10.0, y], [x + 10.0, y + 15.0], [x, y + 15.0]],
        }
    }

    /// A white picture of `side` x `side`: every place is as white as a card.
    fn white(side: u32) -> RgbImage {
        RgbImage::from_pixel(side, side, image::Rgb([240, 240, 240]))
    }

    fn centres(quads: &[Quad]) -> Vec<Point2> {
        let mut c: Vec<Point2> = quads.iter().map(Quad::centre).collect();
        c.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        c
    }

    #[test]
    fn a_row_is_continued_both_ways_and_its_hole_filled() {
        // A row of cards edge to edge at x = 20, 30 and 50: 40 is a hole,
        // and 10 continues the row (beyond 50, only once 40 is a card).
        let row = [card(20.0, 10.0), card(30.0, 10.0), card(50.0, 10.0)];
        let guesses = guesses_beside(&white(100), &row, &[]);
        assert_eq!(centres(&guesses), vec![[15.0, 17.5], [45.0, 17.5]]);
    }

    #[test]
    fn beside_a_lone_column_cards_are_guessed_across_it_with_its_gap() {
        // A column of two cards 10 x 15, 5 apart: across it, each card's
        // neighbours lie its width plus the same gap of 5 away, both ways.
        let column = [card(40.0, 30.0), card(40.0, 50.0)];
        let across = guesses_across(&white(100), &column, &[]);
        assert_eq!(
            centres(&across),
            vec![[30.0, 37.5], [30.0, 57.5], [60.0, 37.5], [60.0, 57.5]]
        );
        // A place tried before is not guessed again.
        let across = guesses_across(&white(100), &column, &[card(25.0, 50.0)]);
        assert_eq!(
            centres(&across),
            vec![[30.0, 37.5], [60.0, 37.5], [60.0, 57.5]]
        );
    }

    #[test]
    fn a_hole_between_a_far_and_a_near_card_is_of_a_size_between_theirs() {
        // A column seen at a slant: a far card 10 wide, a near one 14 wide
        // two steps below it; the card missing between them is 12 wide.
        let far = card(20.0, 10.0);
        let near = Quad {
            corners: [[18.0, 48.0], [32.0, 48.0], [32.0, 69.0], [18.0, 69.0]],
        };
        let guesses = guesses_beside(&white(100), &[far, near], &[]);
        assert_eq!(guesses.len(), 1);
        assert_eq!(
            guesses[0].corners,
            [[19.0, 29.0], [31.0, 29.0], [31.0, 47.0], [19.0, 47.0]]
        );
        // Outlines whose corners go round their cards from different
        // places meet in a sliver halfway: the far card is moved instead.
        let turned = Quad {
            corners: [
                near.corners[1],
                near.corners[2],
                near.corners[3],
                near.corners[0],
            ],
        };
        let guesses = guesses_beside(&white(100), &[far, turned], &[]);
        assert_eq!(guesses.len(), 1);
        let [a, b, ..] = guesses[0].side_lengths();
        assert_eq!((a, b), (10.0, 15.0));
    }

    #[test]
    fn a_hole_is_guessed_from_both_sides_before_a_row_is_continued_into_it() {
        // Two far cards one step apart point one step on, where a near card
        // two steps below the second leaves a hole: the hole's guess, sized
        // between its neighbours, is the one asked about.
        let near = Quad {
            corners: [[18.0, 57.0], [32.0, 57.0], [32.0, 78.0], [18.0, 78.0]],
        };
        let column = [card(20.0, 10.0), card(20.0, 26.0), near];
        let guesses = guesses_beside(&white(100), &column, &[]);
        assert_eq!(guesses.len(), 1);
        let [across, along, ..] = guesses[0].side_lengths();
        assert_eq!((across, along), (12.0, 18.0));
    }

    #[test]
    fn the_fourth_corner_of_an_l_of_cards_is_guessed_at_the_size_of_its_row() {
        // `a` with `b` beside it and a larger `c` below it (nearer the
        // camera): the card below `b` is guessed as `c` moved by `a` to `b`.
        let (a, b) = (card(20.0, 10.0), card(30.0, 10.0));
        let c = Quad {
            corners: [[19.0, 26.0], [31.0, 26.0], [31.0, 44.0], [19.0, 44.0]],
        };
        let guesses = guesses_beside(&white(100), &[a, b, c], &[]);
        let corner = [[29.0, 26.0], [41.0, 26.0], [41.0, 44.0], [29.0, 44.0]];
        assert!(guesses.iter().any(|g| g.corners == corner), "{guesses:?}");
    }

    #[test]
    fn places_tried_or_outside_the_picture_are_not_guessed_again() {
        let row = [card(0.0, 10.0), card(12.0, 10.0)];
        // Left of the first card is outside the picture; right of the second was tried.
        let tried = [card(24.5, 10.0)];
        assert!(guesses_beside(&white(100), &row, &tried).is_empty());
    }

    #[test]
    fn places_darker_than_the_cards_are_table() {
        // White cards at x = 20 and 30 on a dark table; x = 40 is white too.
        let mut table = RgbImage::from_pixel(100, 100, image::Rgb([40, 60, 30]));
        for x in 20..50 {
            for y in 10..25 {
                table.put_pixel(x, y, image::Rgb([230, 225, 220]));
            }
        }
        let row = [card(20.0, 10.0), card(30.0, 10.0)];
        assert_eq!(
            centres(&guesses_beside(&table, &row, &[])),
            vec![[45.0, 17.5]]
        );
    }

    #[test]
    fn cards_far_apart_or_off_a_line_point_nowhere() {
        let scattered = [card(0.0, 0.0), card(40.0, 0.0), card(15.0, 20.0)];
        assert!(guesses_beside(&white(200), &scattered, &[]).is_empty());
    }
}
