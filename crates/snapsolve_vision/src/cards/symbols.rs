//! Cards found around their symbols.
//!
//! Where a card is as white as the desk, or lies edge to edge with others, no
//! level of whiteness parts it from what surrounds it, and its outline may be
//! too faint to close a region of edges: the lit side of a white card on a
//! white desk steps by a level or two. Its symbols still stand out, and they
//! say where the card is: one to three inked shapes of one size, stacked
//! along the card's long axis, each lying across it, centred on the card.
//!
//! So the ink blobs shaped like symbols are grouped into cards, a card of
//! the proportions the symbols imply is laid around each group, and its
//! sides are moved to where the picture steps most along them. Summed along
//! a whole side, a step of a level or two stands well above pixel noise and
//! paper grain, which cancel out; the symbols' own edges are kept out of
//! reach by starting outside them.
//!
//! Print and handwriting look like symbols too. What is kept out, tried on
//! the card-free training photos (the sudoku photos, white paper with
//! digits in a grid) and the stress tables 6-17: blobs with no colour (SET
//! inks are red, green, purple), thin strokes (a 1), chains of more than
//! three, a card with only two facing sides showing (the lines either side
//! of a digit), and a card whose paper holds other ink (grid lines, another
//! digit). Blobs greyer than a SET ink but not grey (a faded purple) count
//! only stacked two or three as on a card. What is still taken for a card
//! there is the card network's to reject.

mod blobs;
mod edge_band;
mod sides;
mod stack;

use image::{GrayImage, RgbImage};

use super::typical::Found;
use super::{CARD_ASPECT, LOCAL_MEAN_MIDDLE as MIDDLE};
use crate::quad::{Point2, Quad, sub};
use blobs::{Symbol, groups, shaped_blobs, stacks, symbols};
use sides::{
    Bilinear, ColourAt, Colours, MOST_REFINED_MOVE, STEP_REACH, Side, distances, mirrored,
    pair_profile, placed_by_aspect, quad_of, rectangle, refine, side_step, sides_of,
};

/// How much darker than its surroundings ink is, in levels of whiteness
/// above the local mean (see `above_local_mean`).
const INK_DEPTH: u8 = 40;
/// The card's half width over the symbols' half length, tried from one end
/// to the other (a card is 1.5 standard symbols wide, 1.55 of the second
/// edition's as printed).
const HALF_WIDTH_OVER_SYMBOL: (f32, f32) = (1.25, 2.0);
/// Share of a card's width, at its rim, where ink need not be its own.
const RIM: f32 = 0.05;
/// Pixels around a symbol's box that still count as its ink.
pub(super) const SYMBOL_MARGIN: f32 = 2.0;
/// Largest share of a card's paper (rim and symbols left out) that may be
/// ink of something else.
const MAX_FOREIGN_INK: f32 = 0.003;
/// Where this many cards are found (or two that agree, see
/// [`alike_range`]), the others are fitted again within this factor of their
/// median half width over symbol length.
const ALIKE_CARDS: usize = 3;
const ALIKE_SLACK: f32 = 1.15;
/// The short sides lie within this range of a card's proportions from the
/// long ones (perspective, printing).
const ASPECT_SLACK: (f32, f32) = (0.92, 1.08);
/// Sides are read at least this share of a symbol's half length beyond the
/// symbols (plus the reach of a step), clear of their edges.
const CLEARANCE: f32 = 0.12;
/// How far, as a share of its shorter side, a card's outline may reach
/// beyond the picture: its rounded corner's paper stops about this far inside
/// the outline's corner (a radius of 0.06 of the card's width, 0.4 of it along the
/// diagonal, with a little to spare), so a card whose paper touches the
/// frame is whole.
const ROUNDED_CORNER_REACH: f32 = 0.03;
/// Fainter ink, read beside cards already read (tried on stress tables
/// 400-447: 28 and 22 found as many cards, 22 one false card more; 30 read
/// everywhere gave 8 false cards more on clutter tables 800-1099).
const FAINT_INK_DEPTH: u8 = 28;
/// How far from a card, in its longer sides, another is looked for, and by
/// how much their areas may differ.
const BESIDE: f32 = 2.5;
const ALIKE_AREA: f32 = 1.6;
/// A lone symbol's frame is tried turned by up to this many steps of this
/// many radians either way (2 degrees, to 10), and taken turned where its
/// sides show this many times as much as unturned (tried on alone-on-white
/// stress tables 496-795 and tables 400-447: turns to 6 or 10 degrees,
/// taken at 1, 1.25 or 1.5 times; at 1, printed pages and a filled-in grid
/// gave 2-4 false cards more; at 1.5, fewer cards right).
const LONE_SYMBOL_TURN_STEPS: i32 = 5;
const LONE_SYMBOL_TURN_STEP: f32 = 2.0 * std::f32::consts::PI / 180.0;
const TURNED_SHOWS_MORE: f32 = 1.25;
/// Around symbols up to this half length (working pixels) a card's sides
/// are read every two pixels along while they are sought; around larger
/// ones, that much more sparsely, so a fit costs no more per distance tried
/// than around a symbol this size. The distances stay a pixel apart and the
/// sides found are refined at full density (sought more coarsely too, two
/// cards filling the frame of 96 were lost). A blob 234 pixels long cost
/// 25 ms to fit on the bench's frame with no card, a fifth of the frame
/// (BENCHMARKS.md, session 30).
const FINEST_HALF_LENGTH: f32 = 40.0;
/// A side shows where it steps (or is a seam darker) by this many levels
/// on average, in its strongest channel.
const MIN_SIDE_STEP: f32 = 3.0;

/// What the symbols of a picture say about its cards.
pub(super) struct SymbolCards {
    /// The cards laid around groups of symbols.
    pub cards: Vec<Found>,
    /// The middle of every group of symbols, card laid around it or not: a
    /// card's symbols sit in its middle, so an outline of a card far off
    /// its symbols' middle is misplaced.
    pub centres: Vec<Point2>,
}

/// Cards around the symbols of `image` (the working picture), whose ink is
/// read from `above_mean` (its whiteness, not opened, over its local mean,
/// centred on 128) and `above_paper` (over the local level of paper:
/// `cards::above_local_mean_and_paper`).
///
/// Against the mean first, as always. Against the paper, the pale symbols
/// of a card lying on a busy surface of dark and white show as ink too
/// (photographed-cards stress table 497: six cards, none found before, four
/// now); those are added where no symbol lies, and only with paper round
/// them ([`Symbol::on_paper`]: a piece of a checked cloth's dark square, cut
/// by the objects on it, is shaped like a symbol too; clutter table 892 read
/// one as a card). A card around such symbols must be blank of other ink
/// against the paper: print on a page among dark cloth is ink there (the
/// printed pattern of textures-no-cards table 431 gave a false card). The
/// others are judged as before: against the paper, the shadows on a white
/// desk seen steeply take cards out (steep-angle table 451: 11 of 12 named,
/// 6 so).
///
/// Blobs of a washed-out ink (`ShapedBlobs::greyish`), found both ways
/// alike, are grouped among themselves, and only their stacks of two or
/// three, where no coloured symbol lies, are laid cards around.
pub(super) fn cards_from_symbols(
    image: &RgbImage,
    above_mean: &GrayImage,
    above_paper: &GrayImage,
) -> SymbolCards {
    let mean = shaped_blobs(image, above_mean, INK_DEPTH);
    let paper = shaped_blobs(image, above_paper, INK_DEPTH);
    // A blob found both ways is one symbol, cut as against the mean.
    let both_ways = |against_mean: &[Symbol], against_paper: &[Symbol]| -> Vec<Symbol> {
        let more = against_paper.iter().filter(|s| {
            !s.overlaps_any(against_mean) && s.on_paper(above_paper, INK_DEPTH, against_paper)
        });
        against_mean.iter().chain(more).copied().collect()
    };
    // A group with a symbol found against the paper only is judged there.
    let group = |symbols: Vec<Symbol>, against_mean: &[Symbol]| {
        let paper_only = |s: &Symbol| !s.overlaps_any(against_mean);
        let ink = if symbols.iter().any(paper_only) {
            above_paper
        } else {
            above_mean
        };
        Group { symbols, ink }
    };
    let found = both_ways(&mean.coloured, &paper.coloured);
    let mut groups: Vec<Group> = groups(&found)
        .into_iter()
        .map(|symbols| group(symbols, &mean.coloured))
        .collect();
    // Stacks of washed-out symbols, where no coloured symbol lies.
    let apart = |stack: &Vec<Symbol>| !stack.iter().any(|s| s.overlaps_any(&found));
    groups.extend(
        stacks(&both_ways(&mean.greyish, &paper.greyish))
            .into_iter()
            .filter(apart)
            .map(|symbols| group(symbols, &mean.greyish)),
    );
    cards_of_groups(image, groups)
}

/// A group of symbols, and the ink (whiteness over a level, centred on
/// 128) against which its card's paper must be blank: the ink its symbols
/// were found in.
struct Group<'a> {
    symbols: Vec<Symbol>,
    ink: &'a GrayImage,
}

/// How flat the symbols of `image` lie (`above_mean` as for
/// [`cards_from_symbols`]): the median, over the symbols lying across the
/// picture (within 30 degrees of level), of their length over thickness;
/// `None` with fewer than [`FLAT_SYMBOLS_MIN`] of them.
pub(super) fn flatness(image: &RgbImage, above_mean: &GrayImage) -> Option<f32> {
    let mut ratios: Vec<f32> = symbols(image, above_mean, INK_DEPTH)
        .iter()
        .filter(|s| s.axis[0].abs() >= 30f32.to_radians().cos())
        .map(|s| s.half_length / s.half_thickness.max(0.5))
        .collect();
    if ratios.len() < FLAT_SYMBOLS_MIN {
        return None;
    }
    ratios.sort_by(f32::total_cmp);
    Some(ratios[ratios.len() / 2])
}

/// Fewest symbols lying across the picture that [`flatness`] measures.
const FLAT_SYMBOLS_MIN: usize = 3;

/// Cards around fainter symbols ([`FAINT_INK_DEPTH`]: washed-out ink on
/// pale cards) beside `cards` (cards already read, in `image`'s pixels),
/// of about their size, where none of them lies. Faint ink alone is not
/// enough: print, tape and shadows on a desk with no card pass for it.
pub(super) fn faint_cards_beside(
    image: &RgbImage,
    above_mean: &GrayImage,
    cards: &[Quad],
) -> Vec<Quad> {
    // A group whose middle lies on a card read is that card's symbols.
    let wanted = |middle: Point2| !cards.iter().any(|card| card.contains(middle));
    cards_of_ink(image, above_mean, FAINT_INK_DEPTH, wanted)
        .cards
        .into_iter()
        .map(|found| found.quad)
        .filter(|quad| {
            !cards.iter().any(|card| card.shares_centre_with(quad))
                && cards.iter().any(|card| near(card, quad))
        })
        .collect()
}

/// Cards around fainter symbols ([`FAINT_INK_DEPTH`]) anywhere in `image`
/// (`above_mean` as for [`cards_from_symbols`]): a lone pale or defocused
/// card on a white desk, whose symbols are all that marks it. Print, tape
/// and shadows pass for faint ink too, so these are for a picture where
/// nothing else was read, and for the card network to doubt.
pub(super) fn faint_cards(image: &RgbImage, above_mean: &GrayImage) -> Vec<Quad> {
    let groups = groups(&symbols(image, above_mean, FAINT_INK_DEPTH));
    if groups.len() > MOST_LONE_CARD_GROUPS {
        return Vec::new();
    }
    cards_of_groups(image, in_ink(above_mean, groups))
        .cards
        .into_iter()
        .map(|found| found.quad)
        .collect()
}

/// Most groups of faint symbols a picture may hold for [`faint_cards`] to fit
/// cards around them: a lone card gives one, a table of cards no more than a
/// deal; a cluttered desk gives hundreds (a rendered clutter table at 960x720:
/// 216), and fitting a card around each took 150 ms.
const MOST_LONE_CARD_GROUPS: usize = 24;

/// Whether `b` lies within [`BESIDE`] of `a`'s longer side from it, centre to
/// centre, and is of about its size.
fn near(a: &Quad, b: &Quad) -> bool {
    let long = a.side_lengths().into_iter().fold(0.0f32, f32::max);
    let d = sub(a.centre(), b.centre());
    let sizes = a.area() / b.area().max(1.0);
    d[0].hypot(d[1]) <= BESIDE * long && (1.0 / ALIKE_AREA..=ALIKE_AREA).contains(&sizes)
}

/// The cards laid around the symbols of ink `depth` levels below the mean.
/// Only groups of symbols whose middle `wanted` accepts are fitted (fitting
/// costs most of this).
fn cards_of_ink(
    image: &RgbImage,
    above_mean: &GrayImage,
    depth: u8,
    wanted: impl Fn(Point2) -> bool,
) -> SymbolCards {
    let mut groups = groups(&symbols(image, above_mean, depth));
    groups.retain(|group| wanted(Frame::of(group).centre));
    cards_of_groups(image, in_ink(above_mean, groups))
}

/// The cards laid around `groups` of symbols.
fn cards_of_groups(image: &RgbImage, groups: Vec<Group>) -> SymbolCards {
    if groups.len() >= FLOAT_COLOURS_FROM {
        cards_of_groups_in(&Colours::of(image), groups)
    } else {
        cards_of_groups_in(&Bilinear::new(image), groups)
    }
}

/// `groups` of symbols found in `above_mean` (its whiteness over its local
/// mean), each judged against it.
fn in_ink(above_mean: &GrayImage, groups: Vec<Vec<Symbol>>) -> Vec<Group<'_>> {
    groups
        .into_iter()
        .map(|symbols| Group {
            symbols,
            ink: above_mean,
        })
        .collect()
}

/// Groups of symbols from which the picture's colours are widened to floats
/// once ([`Colours`]) rather than read from its bytes sample by sample: the
/// widening costs a millisecond on a 960x720 frame (the webcam bench frame
/// 20.9 → 21.7 ms, where no group is fitted), and saves 13 of 105 on a
/// cluttered one with no card (216 groups, two fits each, some 0.06 ms a
/// group saved; BENCHMARKS.md, session 32).
const FLOAT_COLOURS_FROM: usize = 32;

/// [`cards_of_groups`], the picture's colours read from `colours`.
fn cards_of_groups_in(colours: &impl ColourAt, groups: Vec<Group>) -> SymbolCards {
    // Cards of one table are alike: where a few are found, their width over
    // their symbols' length says how wide the others are (a free fit of a
    // card whose own sides barely show may land on a neighbour's shadow).
    let crowded: Vec<bool> = groups
        .iter()
        .map(|group| ink_crowds(group.ink, &group.symbols))
        .collect();
    let fit_group = |symbols: &[Symbol], ink: &GrayImage, crowded: bool, range: (f32, f32)| {
        if crowded {
            return Err(Refused::OtherInk);
        }
        let (quad, ratio) = fit_card(colours, symbols, range).ok_or(Refused::NoSides)?;
        if !blank_between(ink, &quad, symbols) {
            return Err(Refused::OtherInk);
        }
        Ok(Fit {
            quad,
            ratio,
            centre: Frame::of(symbols).centre,
        })
    };
    // A group whose card holds other ink is tried again with the symbols its
    // stack lacks, where their places hold ink ([`stack`]); one whose sides
    // do not show is not (on a cluttered frame with no card, the second
    // fits of those cost a fifth of the frame).
    let fit = |k: usize, range: (f32, f32)| {
        let Group { symbols, ink } = &groups[k];
        match fit_group(symbols, ink, crowded[k], range) {
            Ok(fitted) => Some(fitted),
            Err(Refused::NoSides) => None,
            Err(Refused::OtherInk) => {
                let whole = stack::completed(ink, symbols)?;
                fit_group(&whole, ink, ink_crowds(ink, &whole), range).ok()
            }
        }
    };
    let first: Vec<Option<Fit>> = (0..groups.len())
        .map(|k| fit(k, HALF_WIDTH_OVER_SYMBOL))
        .collect();
    let ratios: Vec<f32> = first.iter().flatten().map(|fitted| fitted.ratio).collect();
    let fits: Vec<Option<Fit>> = if let Some(range) = alike_range(ratios) {
        let alike = |ratio: f32| (range.0..=range.1).contains(&ratio);
        first
            .into_iter()
            .enumerate()
            .map(|(k, fitted)| match fitted {
                Some(Fit { ratio, .. }) if alike(ratio) => fitted,
                _ => fit(k, range),
            })
            .collect()
    } else {
        first
    };
    // The middle of a completed stack is its card's, not that of the
    // symbols found.
    let centres = groups
        .iter()
        .zip(&fits)
        .map(|(group, fitted)| {
            fitted
                .as_ref()
                .map_or_else(|| Frame::of(&group.symbols).centre, |f| f.centre)
        })
        .collect();
    let cards = fits
        .into_iter()
        .flatten()
        .map(|fitted| Found::whole(fitted.quad))
        .collect();
    SymbolCards { cards, centres }
}

/// Why no card was laid around a group of symbols.
enum Refused {
    /// No two sides meeting at a corner show.
    NoSides,
    /// The card's paper holds ink other than its symbols'.
    OtherInk,
}

/// A card laid around a group of symbols: its outline, its half width over
/// the symbols' half length, and the middle of the symbols it was laid
/// around.
struct Fit {
    quad: Quad,
    ratio: f32,
    centre: Point2,
}

/// The range of half width over symbol length that the cards fitted first
/// (their `ratios`) say every card of the table has: within [`ALIKE_SLACK`]
/// of their median, where at least [`ALIKE_CARDS`] were fitted, or two that
/// agree within it. In a block of touching washed-out cards two may be all
/// that fit at first, the others' sides landing on their neighbours'
/// symbols (21-touching table 493: 4 cards read, 16 with two). Two that do
/// not agree may be a note paper and a coloured box on a cluttered desk
/// (clutter table 1444 read a false card from them; docs/evaluation.md,
/// session 29).
fn alike_range(mut ratios: Vec<f32>) -> Option<(f32, f32)> {
    ratios.sort_by(f32::total_cmp);
    let median = *ratios.get(ratios.len() / 2)?;
    let range = (median / ALIKE_SLACK, median * ALIKE_SLACK);
    let two_agree = ratios.len() == 2 && range.0 <= ratios[0];
    (ratios.len() >= ALIKE_CARDS || two_agree).then_some(range)
}

/// Where a group of symbols says its card lies: their middle, the card's
/// axes (`u` across it, along the symbols' length; `v` along it), how far
/// the symbols reach along each, and the longest symbol's half length.
struct Frame {
    centre: Point2,
    u: Point2,
    v: Point2,
    symbols_u: f32,
    symbols_v: f32,
    half_length: f32,
}

impl Frame {
    fn of(group: &[Symbol]) -> Frame {
        let n = group.len() as f32;
        let centre = [
            group.iter().map(|s| s.centre[0]).sum::<f32>() / n,
            group.iter().map(|s| s.centre[1]).sum::<f32>() / n,
        ];
        // The symbols' axes, signs aligned, averaged.
        let first = group[0].axis;
        let summed = group.iter().fold([0.0, 0.0], |acc, s| {
            let sign = dot(s.axis, first).signum();
            [acc[0] + sign * s.axis[0], acc[1] + sign * s.axis[1]]
        });
        let norm = summed[0].hypot(summed[1]).max(f32::EPSILON);
        let mut u = [summed[0] / norm, summed[1] / norm];
        // Two or three symbols lie on the card's long axis, whatever their
        // shape: the line through their middles gives the card's turn
        // exactly, where a squiggle's own axis (an S, symmetric about its
        // centre only) is turned some degrees from the card's.
        if let Some(along) = stacking_direction(group, u) {
            u = across(along);
            if dot(u, summed) < 0.0 {
                u = [-u[0], -u[1]];
            }
        }
        let v = across(u);
        let reach = |direction: Point2, half: fn(&Symbol) -> f32| {
            group
                .iter()
                .map(|s| dot(sub(s.centre, centre), direction).abs() + half(s))
                .fold(0.0f32, f32::max)
        };
        Frame {
            centre,
            u,
            v,
            symbols_u: reach(u, |s| s.half_length),
            symbols_v: reach(v, |s| s.half_thickness),
            half_length: group.iter().map(|s| s.half_length).fold(0.0f32, f32::max),
        }
    }

    /// The frame turned by `angle` radians about its centre.
    fn turned(&self, angle: f32) -> Frame {
        let (sin, cos) = angle.sin_cos();
        let u = [
            cos * self.u[0] - sin * self.u[1],
            sin * self.u[0] + cos * self.u[1],
        ];
        Frame {
            u,
            v: across(u),
            ..*self
        }
    }
}

/// The card around a group of symbols, if two of its sides that meet at a
/// corner show, whose half width over the symbols' half length lies in
/// `ratio`; and that ratio.
fn fit_card(colours: &impl ColourAt, group: &[Symbol], ratio: (f32, f32)) -> Option<(Quad, f32)> {
    let (frame, (a, b)) = best_turn(colours, group, ratio)?;
    let mut sides =
        rectangle(frame.centre, frame.u, frame.v, a, b).map(|side| refine(colours, side));
    let shows = sides.map(|s| side_step(colours, &s) >= MIN_SIDE_STEP);
    // Two sides facing each other alone are no card: they are the lines
    // either side of a digit in a grid, or of a word in a table.
    if !(0..4).any(|k| shows[k] && shows[(k + 1) % 4]) {
        return None;
    }
    place_hidden_sides(&mut sides, shows, frame.centre);
    let quad = quad_of(&sides)?;
    // A card filling the frame reaches its edges: its paper stops short of
    // the outline's corners, which may lie a little beyond the picture.
    // (`clear`: pixels a corner keeps from the edge; beyond it where negative.)
    let shorter = quad.shortest_side();
    let clear = 1.0 - ROUNDED_CORNER_REACH * shorter;
    let (right, bottom) = colours.last_pixel();
    let inside = |p: &Point2| {
        p[0] >= clear && p[1] >= clear && p[0] <= right - clear && p[1] <= bottom - clear
    };
    quad.corners
        .iter()
        .all(inside)
        .then_some((quad, a / frame.half_length))
}

/// The frame a group's card is fitted in, and the half width and half
/// length of its best rectangle there ([`best_rectangle`]). Two or more
/// symbols say the card's turn exactly (the line through their middles); a
/// lone symbol's own axis may be some degrees off (a squiggle is symmetric
/// about its centre only), so its frame is also tried turned by up to
/// [`LONE_SYMBOL_TURN_STEPS`] steps either way, and a turned rectangle is
/// taken where its sides show clearly more ([`TURNED_SHOWS_MORE`]): turned
/// freely, a rectangle finds sides along the rows of a printed page.
fn best_turn(
    colours: &impl ColourAt,
    group: &[Symbol],
    ratio: (f32, f32),
) -> Option<(Frame, (f32, f32))> {
    let frame = Frame::of(group);
    let fit = |k: i32| {
        let turned = frame.turned(k as f32 * LONE_SYMBOL_TURN_STEP);
        let (a, b, shows) = best_rectangle(colours, &turned, ratio)?;
        let weighed = if k == 0 {
            TURNED_SHOWS_MORE * shows
        } else {
            shows
        };
        Some((weighed, turned, (a, b)))
    };
    if group.len() > 1 {
        return fit(0).map(|(_, frame, rectangle)| (frame, rectangle));
    }
    let by_weight =
        |x: &(f32, Frame, (f32, f32)), y: &(f32, Frame, (f32, f32))| x.0.total_cmp(&y.0);
    // Every other turn first, then the two beside the best of them: how
    // clearly a rectangle's sides show changes smoothly with its turn.
    // Seven fits where every turn took eleven: a fifth less time on a frame
    // with no card, the stress tables read as well or a little better
    // (docs/evaluation.md, session 27).
    let steps = LONE_SYMBOL_TURN_STEPS;
    let (k, coarse) = (-steps..=steps)
        .filter(|k| k % 2 == 0)
        .filter_map(|k| fit(k).map(|f| (k, f)))
        .max_by(|x, y| by_weight(&x.1, &y.1))?;
    let beside = [k - 1, k + 1]
        .into_iter()
        .filter(|k| k.abs() <= steps)
        .filter_map(fit);
    std::iter::once(coarse)
        .chain(beside)
        .max_by(by_weight)
        .map(|(_, frame, rectangle)| (frame, rectangle))
}

/// Half width and half length of the rectangle about the symbols, of about
/// a card's proportions, whose four sides show most together, and how much
/// they show; its sides are read clear of the symbols' own edges.
fn best_rectangle(
    colours: &impl ColourAt,
    frame: &Frame,
    ratio: (f32, f32),
) -> Option<(f32, f32, f32)> {
    let clearance = STEP_REACH + CLEARANCE * frame.half_length;
    let widths = distances(
        (ratio.0 * frame.half_length).max(frame.symbols_u + clearance),
        ratio.1 * frame.half_length,
    );
    let heights = distances(
        (ASPECT_SLACK.0 * CARD_ASPECT * widths.first()?).max(frame.symbols_v + clearance),
        ASPECT_SLACK.1 * CARD_ASPECT * widths.last()?,
    );
    let coarseness = (frame.half_length / FINEST_HALF_LENGTH).max(1.0);
    let across = pair_profile(
        colours,
        frame.centre,
        frame.u,
        &widths,
        CARD_ASPECT,
        coarseness,
    );
    let along = pair_profile(
        colours,
        frame.centre,
        frame.v,
        &heights,
        1.0 / CARD_ASPECT,
        coarseness,
    );
    let mut best: Option<(f32, f32, f32)> = None;
    for (&a, &score_a) in widths.iter().zip(&across) {
        for (&b, &score_b) in heights.iter().zip(&along) {
            let score = score_a + score_b;
            if (ASPECT_SLACK.0..=ASPECT_SLACK.1).contains(&(b / a / CARD_ASPECT))
                && best.is_none_or(|(s, ..)| score > s)
            {
                best = Some((score, a, b));
            }
        }
    }
    best.map(|(score, a, b)| (a, b, score))
}

/// Places the sides that do not show (the lit side of a white card on a
/// white desk, paper meeting paper between cards edge to edge) from those
/// that do: the symbols sit in the card's middle, so such a side mirrors
/// the side opposite it; where neither of two opposite sides shows, the
/// card's proportions place both.
fn place_hidden_sides(sides: &mut [Side; 4], shows: [bool; 4], centre: Point2) {
    for k in 0..4 {
        let opposite = (k + 2) % 4;
        if !shows[k] && shows[opposite] {
            sides[k] = mirrored(&sides[opposite], centre);
        }
    }
    for k in 0..2 {
        if !shows[k] && !shows[k + 2] {
            for side in [k, k + 2] {
                sides[side] = placed_by_aspect(sides, side, centre);
            }
        }
    }
}

/// Whether a card's paper holds no ink but its symbols' (a digit in a
/// sudoku cell passes for a symbol, but the card laid around it takes in
/// grid lines and other digits), ink read from `ink` (whiteness over a
/// level, centred on 128). The card's rim is left out: shadows and a
/// neighbour's edge may lie on it; and so is a line of ink along one long side,
/// a little further in: the card's own shaded edge ([`edge_band`]).
fn blank_between(ink: &GrayImage, quad: &Quad, group: &[Symbol]) -> bool {
    let inner = quad.scaled(1.0 - RIM);
    let (paper, foreign) = ink_counts(ink, &inner, group);
    let blank = |foreign: usize| (foreign as f32) <= MAX_FOREIGN_INK * paper as f32;
    blank(foreign)
        || blank(foreign.saturating_sub(edge_band::shaded_edge_ink(ink, quad, &inner, group)))
}

/// Whether the smallest card a group of symbols could have (in any range a
/// fit tries, rim left out) already holds more ink of something else than
/// the largest card it could have may hold ([`blank_between`]): a speck of
/// print among print, whose fits [`blank_between`] would refuse after they
/// cost most of a frame with no card (383 of its 424 fits; BENCHMARKS.md,
/// session 34). Nearly, not strictly, the same test: a refined side may
/// turn the fitted card off the smallest one's corners.
fn ink_crowds(ink: &GrayImage, group: &[Symbol]) -> bool {
    let frame = Frame::of(group);
    let (low, high) = (
        HALF_WIDTH_OVER_SYMBOL.0 / ALIKE_SLACK,
        HALF_WIDTH_OVER_SYMBOL.1 * ALIKE_SLACK,
    );
    let clearance = STEP_REACH + CLEARANCE * frame.half_length;
    let a = (low * frame.half_length).max(frame.symbols_u + clearance);
    let b = (ASPECT_SLACK.0 * CARD_ASPECT * a).max(frame.symbols_v + clearance);
    let Some(smallest) = quad_of(&rectangle(frame.centre, frame.u, frame.v, a, b)) else {
        return false;
    };
    let (_, foreign) = ink_counts(ink, &smallest.scaled(1.0 - RIM), group);
    let a_most = high * frame.half_length + MOST_REFINED_MOVE;
    let b_most = ASPECT_SLACK.1 * CARD_ASPECT * a_most + MOST_REFINED_MOVE;
    foreign as f32 > MAX_FOREIGN_INK * 4.0 * a_most * b_most
}

/// The pixels of `inner` (a card's paper) outside `group`'s symbols, and
/// how many of them are ink.
fn ink_counts(ink: &GrayImage, inner: &Quad, group: &[Symbol]) -> (usize, usize) {
    paper_pixels(ink, inner, group).fold((0, 0), |(paper, foreign), (_, inked)| {
        (paper + 1, foreign + usize::from(inked))
    })
}

/// The pixels of `ink` inside `inner` and outside `group`'s symbols grown by
/// [`SYMBOL_MARGIN`] (a card's paper, its symbols left out), at their
/// middles, each with whether it is ink ([`INK_DEPTH`] below the middle).
fn paper_pixels<'a>(
    ink: &'a GrayImage,
    inner: &'a Quad,
    group: &'a [Symbol],
) -> impl Iterator<Item = (Point2, bool)> + 'a {
    let span = |v: [f32; 4], limit: u32| {
        let low = v.iter().copied().fold(f32::MAX, f32::min).max(0.0) as u32;
        let high = (v.iter().copied().fold(f32::MIN, f32::max).max(0.0) as u32)
            .min(limit.saturating_sub(1));
        low..=high
    };
    let xs = span(inner.corners.map(|p| p[0]), ink.width());
    span(inner.corners.map(|p| p[1]), ink.height())
        .flat_map(move |y| xs.clone().map(move |x| (x, y)))
        .filter_map(move |(x, y)| {
            let p = [x as f32 + 0.5, y as f32 + 0.5];
            let paper =
                inner.contains(p) && !group.iter().any(|s| s.covers_within(p, SYMBOL_MARGIN));
            paper.then(|| (p, ink.get_pixel(x, y)[0] < MIDDLE - INK_DEPTH))
        })
}

/// How clearly the faintest side of `quad` shows ([`side_step`], levels).
pub(super) fn faintest_side(image: &RgbImage, quad: &Quad) -> f32 {
    let colours = Bilinear::new(image);
    sides_of(quad)
        .iter()
        .map(|side| side_step(&colours, side))
        .fold(f32::MAX, f32::min)
}

/// The unit direction from the first to the last of two or more symbols
/// ordered across `axis`, or `None` for one symbol (or symbols on top of
/// each other).
fn stacking_direction(group: &[Symbol], axis: Point2) -> Option<Point2> {
    let normal = across(axis);
    let position = |s: &Symbol| dot(s.centre, normal);
    let first = group
        .iter()
        .min_by(|a, b| position(a).total_cmp(&position(b)))?;
    let last = group
        .iter()
        .max_by(|a, b| position(a).total_cmp(&position(b)))?;
    let d = sub(last.centre, first.centre);
    let length = d[0].hypot(d[1]);
    (group.len() >= 2 && length > 1.0).then(|| [d[0] / length, d[1] / length])
}

/// The unit vector a quarter turn from `axis`.
fn across(axis: Point2) -> Point2 {
    [-axis[1], axis[0]]
}

fn dot(a: Point2, b: Point2) -> f32 {
    a[0] * b[0] + a[1] * b[1]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{above_local_mean, above_local_mean_and_paper, local_mean_radius};
    use crate::threshold::balanced_whiteness_with_histogram;
    use image::Rgb;
    use imageproc::drawing::{draw_filled_ellipse_mut, draw_filled_rect_mut};
    use imageproc::rect::Rect;

    /// The finder's own inputs for `image`: the whiteness over its local
    /// mean and over its local paper.
    fn cards_in(image: &RgbImage) -> Vec<Quad> {
        cards_with(image, true)
    }

    /// [`cards_in`], symbols looked for against the local paper too or not.
    fn cards_with(image: &RgbImage, against_paper: bool) -> Vec<Quad> {
        let (white, _) = balanced_whiteness_with_histogram(image);
        let (above_mean, above_paper) =
            above_local_mean_and_paper(&white, local_mean_radius(&white));
        let above_paper = if against_paper {
            above_paper
        } else {
            above_mean.clone()
        };
        cards_from_symbols(image, &above_mean, &above_paper)
            .cards
            .into_iter()
            .map(|found| found.quad)
            .collect()
    }

    #[test]
    fn pale_symbols_on_a_card_among_dark_and_white_stripes_show_against_the_paper() {
        // A card on a surface of dark and white stripes (turned, as stripes
        // along its sides would pass for them), as white as the
        // white ones: around it the mean of all is halfway, no darker than
        // its two pale purple ovals; its paper is far whiter.
        let mut image = RgbImage::from_fn(400, 300, |x, y| {
            Rgb(if ((x + y) / 20) % 2 == 0 {
                [35; 3]
            } else {
                [235, 235, 232]
            })
        });
        rect(&mut image, 155, 80, 90, 140, [240, 240, 236]);
        for k in 0..2 {
            draw_filled_ellipse_mut(
                &mut image,
                (200, 130 + 40 * k),
                28,
                12,
                Rgb([185, 160, 210]),
            );
        }
        assert!(cards_with(&image, false).is_empty());
        let found = cards_with(&image, true);
        assert_eq!(found.len(), 1, "{found:?}");
        let centre = found[0].centre();
        assert!(
            (centre[0] - 200.0).abs() < 4.0 && (centre[1] - 150.0).abs() < 4.0,
            "{centre:?}"
        );
    }

    fn rect(image: &mut RgbImage, x: i32, y: i32, w: u32, h: u32, colour: [u8; 3]) {
        draw_filled_rect_mut(image, Rect::at(x, y).of_size(w, h), Rgb(colour));
    }

    /// The pixel `u` along and `v` across axes turned by `turn` about `centre`.
    fn turned(centre: Point2, turn: f32) -> impl Fn(f32, f32) -> imageproc::point::Point<i32> {
        let (sin, cos) = turn.sin_cos();
        move |u, v| {
            imageproc::point::Point::new(
                (centre[0] + u * cos - v * sin).round() as i32,
                (centre[1] + u * sin + v * cos).round() as i32,
            )
        }
    }

    /// Fills the rectangle of half sides `half_u` and `half_v` in the turned axes `at`.
    fn fill_turned_rect(
        image: &mut RgbImage,
        at: &impl Fn(f32, f32) -> imageproc::point::Point<i32>,
        half_u: f32,
        half_v: f32,
        colour: [u8; 3],
    ) {
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(s, t)| at(s * half_u, t * half_v));
        imageproc::drawing::draw_polygon_mut(image, &corners, Rgb(colour));
    }

    #[test]
    fn symbols_squashed_by_a_slanted_view_lie_flatter() {
        // Three red ovals on white paper, twice as long as thick, then the
        // same squashed to 0.6 of their height, as a table seen at a slant.
        let flatness_of = |height: i32| {
            let mut image = RgbImage::from_pixel(400, 300, Rgb([235, 235, 230]));
            for i in 0..3 {
                let centre = (100 + 100 * i, 150);
                draw_filled_ellipse_mut(&mut image, centre, 30, height, Rgb([200, 30, 40]));
            }
            crate::cards::CardFinder::default().symbol_flatness(&image)
        };
        let upright = flatness_of(15).expect("three symbols");
        let squashed = flatness_of(9).expect("three symbols");
        assert!((1.7..2.4).contains(&upright), "{upright}");
        assert!(squashed > 3.0, "{squashed}");
    }

    #[test]
    fn stacked_symbols_turn_the_card_by_their_middles_not_their_own_axes() {
        // Three squiggles down a card turned by 0.1 rad: each one's own axis
        // is turned 0.15 rad further (an S is not mirror-symmetric).
        let turn: f32 = 0.1;
        let along = [-turn.sin(), turn.cos()];
        let own = [(turn + 0.15).cos(), (turn + 0.15).sin()];
        let group: Vec<Symbol> = (-1..=1)
            .map(|k| Symbol {
                centre: [
                    100.0 + 20.0 * k as f32 * along[0],
                    100.0 + 20.0 * k as f32 * along[1],
                ],
                axis: own,
                half_length: 15.0,
                half_thickness: 6.0,
            })
            .collect();
        let frame = Frame::of(&group);
        assert!(dot(frame.v, along).abs() > 0.9999, "{:?}", frame.v);
        assert!(
            dot(frame.u, [turn.cos(), turn.sin()]) > 0.9999,
            "{:?}",
            frame.u
        );
        // A lone symbol has only its own axis to go by.
        assert!(dot(Frame::of(&group[..1]).u, own) > 0.9999);
    }

    #[test]
    fn a_lone_symbol_turned_from_its_card_is_fitted_in_the_cards_turn() {
        // A card turned by 0.12 rad; its lone squiggle's own axis is turned
        // 8 degrees further.
        let turn: f32 = 0.12;
        let u = [turn.cos(), turn.sin()];
        let mut table = RgbImage::from_pixel(400, 300, Rgb([200, 200, 200]));
        let at = turned([200.0, 150.0], turn);
        fill_turned_rect(&mut table, &at, 40.0, 62.0, [245, 245, 245]);
        let own = turn + 8f32.to_radians();
        let squiggle = Symbol {
            centre: [200.0, 150.0],
            axis: [own.cos(), own.sin()],
            half_length: 26.0,
            half_thickness: 10.0,
        };
        let (frame, _) =
            best_turn(&Colours::of(&table), &[squiggle], HALF_WIDTH_OVER_SYMBOL).expect("a card");
        let off = dot(frame.u, u).clamp(-1.0, 1.0).acos().to_degrees();
        assert!(off <= 2.5, "{off} degrees off");
    }

    #[test]
    fn a_white_card_on_a_white_desk_is_found_from_its_shadow_sides_alone() {
        // Paper two levels whiter than the desk: its lit top and left sides
        // do not show; a soft shadow lies along its right and bottom sides.
        let mut table = RgbImage::from_pixel(400, 300, Rgb([238, 238, 238]));
        rect(&mut table, 153, 83, 80, 125, [214, 214, 214]);
        rect(&mut table, 150, 80, 80, 125, [240, 240, 240]);
        for dy in [-17, 17] {
            draw_filled_ellipse_mut(&mut table, (190, 142 + dy), 27, 13, Rgb([200, 30, 40]));
        }
        let cards = cards_in(&table);
        assert_eq!(cards.len(), 1, "{cards:?}");
        let truth = [[150.0, 80.0], [230.0, 80.0], [230.0, 205.0], [150.0, 205.0]];
        for corner in truth {
            let nearest = cards[0]
                .corners
                .iter()
                .map(|c| (c[0] - corner[0]).hypot(c[1] - corner[1]))
                .fold(f32::MAX, f32::min);
            assert!(nearest < 4.0, "{corner:?} off by {nearest}: {cards:?}");
        }
    }

    #[test]
    fn a_card_filling_the_frames_height_is_found_around_its_large_symbol() {
        // A 400x300 close-up: the card is 190 wide and 285 tall, its lone
        // oval 110 long (over a quarter of the picture's longer side).
        let mut table = RgbImage::from_pixel(400, 300, Rgb([60, 50, 70]));
        rect(&mut table, 108, 8, 190, 285, [235, 232, 225]);
        draw_filled_ellipse_mut(&mut table, (203, 150), 55, 26, Rgb([40, 140, 60]));
        let cards = cards_in(&table);
        assert_eq!(cards.len(), 1, "{cards:?}");
        let centre = cards[0].centre();
        assert!(
            (centre[0] - 203.0).abs() < 8.0 && (centre[1] - 150.0).abs() < 8.0,
            "{cards:?}"
        );
        // Its sides land on the card's edges (they are sought sparsely
        // around an oval this long, then refined).
        let [top, right, bottom, left] = cards[0].side_lengths();
        let close = |found: f32, card: f32| (found - card).abs() <= 4.0;
        assert!(close(top, 190.0) && close(bottom, 190.0), "{cards:?}");
        assert!(close(left, 285.0) && close(right, 285.0), "{cards:?}");
    }

    #[test]
    fn a_turned_card_whose_corners_touch_the_frame_is_found_around_its_symbols() {
        // A 300x400 close-up of a card turned 12 degrees, 236 wide and 344
        // tall: its left and right corners reach a pixel or two past the
        // frame, with two ovals stacked along it, each 140 long.
        let centre = [150.0f32, 200.0f32];
        let at = turned(centre, 12f32.to_radians());
        let mut table = RgbImage::from_pixel(300, 400, Rgb([70, 60, 80]));
        fill_turned_rect(&mut table, &at, 118.0, 172.0, [235, 232, 225]);
        for middle in [-45.0f32, 45.0] {
            let oval: Vec<_> = (0..48)
                .map(|k| {
                    let t = k as f32 * std::f32::consts::TAU / 48.0;
                    at(70.0 * t.cos(), middle + 30.0 * t.sin())
                })
                .collect();
            imageproc::drawing::draw_polygon_mut(&mut table, &oval, Rgb([40, 140, 60]));
        }
        let cards = cards_in(&table);
        assert_eq!(cards.len(), 1, "{cards:?}");
        let found = cards[0].centre();
        assert!(
            (found[0] - centre[0]).abs() < 8.0 && (found[1] - centre[1]).abs() < 8.0,
            "{cards:?}"
        );
    }

    #[test]
    fn an_outline_cut_through_the_paper_has_a_side_that_does_not_show() {
        // The card of the test above: its own outline steps on every side
        // (the lit ones by two levels); one that lost the card's top part
        // runs through its paper there.
        let mut table = RgbImage::from_pixel(400, 300, Rgb([238, 238, 238]));
        rect(&mut table, 153, 83, 80, 125, [214, 214, 214]);
        rect(&mut table, 150, 80, 80, 125, [240, 240, 240]);
        let outline = |top: f32| Quad {
            corners: [[150.0, top], [230.0, top], [230.0, 205.0], [150.0, 205.0]],
        };
        let own = faintest_side(&table, &outline(79.5));
        let cut = faintest_side(&table, &outline(110.0));
        assert!(own >= 1.5, "{own}");
        assert!(cut < 0.5, "{cut}");
    }

    #[test]
    fn two_cards_set_the_width_of_the_others_only_where_they_agree() {
        let (low, high) = alike_range(vec![1.39, 1.45]).expect("two that agree");
        assert!(low < 1.39 && high > 1.45);
        assert_eq!(alike_range(vec![1.25, 1.57]), None);
        assert_eq!(alike_range(vec![1.4]), None);
        assert_eq!(alike_range(Vec::new()), None);
        // Three or more set it from their median whether or not they agree.
        let (low, high) = alike_range(vec![2.0, 1.25, 1.6]).expect("three");
        assert!(low < 1.6 && high > 1.6 && high < 2.0);
    }

    #[test]
    fn a_line_along_one_long_side_is_the_cards_edge_but_not_along_two_a_short_one_or_running_on() {
        // Ink as the finder reads it (whiteness over the local mean, centred
        // on MIDDLE): a card's paper, one red oval in its middle, and dark
        // lines two pixels wide a few pixels inside its sides, each given
        // as (left, top, right, bottom).
        let card = Quad {
            corners: [[100.0, 90.0], [200.0, 90.0], [200.0, 240.0], [100.0, 240.0]],
        };
        let oval = Symbol {
            centre: [150.0, 165.0],
            axis: [1.0, 0.0],
            half_length: 30.0,
            half_thickness: 14.0,
        };
        let paper_with = |lines: &[(u32, u32, u32, u32)]| {
            let mut ink = GrayImage::from_pixel(300, 300, image::Luma([MIDDLE + 20]));
            for &(left, top, right, bottom) in lines {
                for y in top..bottom {
                    for x in left..right {
                        ink.put_pixel(x, y, image::Luma([MIDDLE - 80]));
                    }
                }
            }
            blank_between(&ink, &card, &[oval])
        };
        assert!(paper_with(&[]));
        // The card's shaded edge along its right side.
        assert!(paper_with(&[(192, 100, 194, 230)]));
        // Lines along two sides: a grid's lines by a cell.
        assert!(!paper_with(&[(192, 100, 194, 230), (106, 100, 108, 230)]));
        // A line along the bottom, a short side: as likely the next symbol
        // of a stack the card was laid too high on.
        assert!(!paper_with(&[(108, 228, 192, 230)]));
        // A line running on beyond both ends of the side: a grid line.
        assert!(!paper_with(&[(192, 20, 194, 290)]));
    }

    #[test]
    fn a_symbol_among_print_is_crowded_and_one_on_blank_paper_is_not() {
        // A red oval alone on a card; then the same oval with dark specks of
        // print round it, within the smallest card it could have.
        let oval = |specks: bool| {
            let mut table = RgbImage::from_pixel(300, 300, Rgb([60, 60, 70]));
            rect(&mut table, 100, 90, 100, 150, [240, 240, 238]);
            draw_filled_ellipse_mut(&mut table, (150, 165), 30, 14, Rgb([200, 30, 40]));
            if specks {
                for (x, y) in [
                    (122, 128),
                    (172, 128),
                    (122, 196),
                    (172, 196),
                    (147, 128),
                    (147, 196),
                ] {
                    rect(&mut table, x, y, 6, 6, [30, 30, 30]);
                }
            }
            let (white, _) = balanced_whiteness_with_histogram(&table);
            let above_mean = above_local_mean(&white, local_mean_radius(&white));
            let groups = groups(&symbols(&table, &above_mean, INK_DEPTH));
            assert_eq!(groups.len(), 1, "{groups:?}");
            ink_crowds(&above_mean, &groups[0])
        };
        assert!(!oval(false));
        assert!(oval(true));
    }

    #[test]
    fn a_card_of_two_washed_out_symbols_is_found_but_grey_print_is_not() {
        // A white card on a dark table with two stacked ovals: of a faded
        // purple (channels 12 levels apart: greyer than a SET ink), then grey.
        let card = |ink: [u8; 3], middles: &[i32]| {
            let mut table = RgbImage::from_pixel(300, 300, Rgb([60, 60, 70]));
            rect(&mut table, 100, 70, 100, 156, [240, 240, 238]);
            for &y in middles {
                draw_filled_ellipse_mut(&mut table, (150, y), 30, 14, Rgb(ink));
            }
            cards_in(&table).len()
        };
        assert_eq!(card([108, 100, 112], &[128, 168]), 1);
        assert_eq!(card([100, 100, 100], &[128, 168]), 0);
        // One such symbol alone is too like a blot of print.
        assert_eq!(card([108, 100, 112], &[148]), 0);
    }

    #[test]
    fn digits_in_a_grid_are_no_cards() {
        // Grey digit-like blobs, each in a cell of a ruled grid.
        let mut page = RgbImage::from_pixel(400, 400, Rgb([235, 235, 230]));
        for k in 0..=6 {
            rect(&mut page, 20 + 60 * k, 20, 2, 362, [60, 60, 60]);
            rect(&mut page, 20, 20 + 60 * k, 362, 2, [60, 60, 60]);
        }
        for (i, j) in [(0, 0), (1, 2), (2, 4), (3, 1), (4, 3), (5, 5), (2, 2)] {
            let (x, y) = (51 + 60 * i, 51 + 60 * j);
            draw_filled_ellipse_mut(&mut page, (x, y), 7, 16, Rgb([40, 40, 40]));
        }
        assert_eq!(cards_in(&page), Vec::<Quad>::new());
    }
}
