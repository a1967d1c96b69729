//! Finding playing cards in a photo: bright, card-shaped quadrilaterals.
//!
//! Steps (seed 000, adapted to real tables):
//! 1. shrink the photo to about a megapixel ([`crate::shrink`]); cards stay
//!    tens of pixels wide even with 21 on the table;
//! 2. take the darkest channel ("whiteness", after a white balance on the
//!    brightest pixels, so that a cold or warm cast does not lower the paper's
//!    weakest channel) and threshold it with Otsu, so dark cloth, grey cushions
//!    and saturated wood all fall below white paper;
//! 3. open the mask a little to cut the thin bridges between touching cards
//!    (a grey opening of the whiteness, which equals opening every mask cut from it);
//! 4. fit a quadrilateral to every outer contour ([`crate::quad::fit_quad`]) and
//!    keep those that look like a card: convex, filled by the contour, with a
//!    card's aspect ratio (on the picture, or in space through a guessed
//!    camera for a card foreshortened by a steep view, [`crate::quad::Camera`]),
//!    and of a size consistent with the cards around it ([`typical`]);
//! 5. a blob that is too big to be one card (cards that touch along a side) is
//!    eroded until it falls apart, and each part is grown back and tried again;
//! 6. a quadrilateral shaped like two cards side by side (cards that overlap,
//!    which no erosion parts) is cut at the seam between them ([`double`]).
//! 7. steps 2-6 run at four threshold levels, once more with the thin dark
//!    seams between cards laid close together cut, once at Otsu's level of
//!    the bright pixels alone (cards whiter than a pale desk), and once on the
//!    whiteness above its local mean (a white desk that darkens from one side
//!    to the other); where these show fewer than a table's worth of cards,
//!    once more on the regions the colour edges close (a desk as white as
//!    the cards, [`edge_regions`]), and cards are laid around their symbols
//!    where two sides meeting at a corner show (a white card whose lit
//!    sides do not, cards edge to edge: [`symbols`]); where passes disagree
//!    about a card, the outline with the sharper edges wins ([`edges`]);
//! 8. once a card's size is known, a block of cards laid edge to edge in
//!    rows (one blob, whole numbers of cards each way) is cut along its
//!    lattice ([`blocks`]).
//!
//! The size of a typical card, which every candidate is measured against,
//! comes from the pass with the most cards of one size, and follows the
//! table's perspective where enough cards show it; blobs lying inside another
//! blob's outline (the paper inside an open symbol) never count.
//!
//! The quadrilaterals are returned in the coordinates of the photo given.

mod blocks;
pub mod cores;
mod double;
mod edge_regions;
mod edges;
pub mod neighbours;
mod nested;
mod plane;
pub mod refine;
mod seams;
mod symbols;
mod typical;
mod zoom;

use image::{GrayImage, Luma, RgbImage};
use imageproc::geometry::contour_area;
use imageproc::point::Point;

use crate::contours::{outer_contours, outer_contours_above};
use crate::crop::ink_colour_spread;
use crate::morphology::{dilate, erode, open_gray};
use crate::quad::{Camera, Point2, Quad, fit_quad};
use crate::shrink::{shrink_by, shrink_factor};
use crate::threshold::{Histogram, balanced_whiteness_with_histogram, otsu_level_of};
use symbols::SymbolCards;
use typical::{Erosion, Found, Typical, median};

/// What counts as a card, and how hard to look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CardFinder {
    /// Longer side, in pixels, of the shrunken copy that detection works on.
    pub work_side: u32,
    /// Smallest card area as a fraction of the photo's area.
    pub min_area_fraction: f32,
    /// Largest card area as a fraction of the photo's area.
    pub max_area_fraction: f32,
    /// Largest area of a card photographed up close, filling the frame
    /// (an upright frame, 0.85). Outlines between `max_area_fraction` and
    /// this never measure the typical card (a block of cards edge to edge
    /// is as large): they are read as a larger card size, or where no
    /// smaller card shows.
    pub close_up_area_fraction: f32,
    /// Accepted range of long side over short side (a SET card is 1.56; tilt changes it).
    pub aspect: (f32, f32),
    /// Accepted range of a card's true long side over short side, measured
    /// through a guessed camera ([`Camera`]), for a card whose picture is too
    /// square or too long for `aspect`: a card on a table seen at a steep angle.
    pub true_aspect: (f32, f32),
    /// Smallest outline area over fitted quadrilateral area (rounded corners cost ~2%).
    pub min_fill: f32,
    /// Cards smaller than this fraction of the median card are dropped (specks, far clutter).
    pub min_relative_area: f32,
    /// Smallest ratio of two opposite sides (perspective shortens the far side
    /// of a card, never to a point: a near-triangle is a patch of something else).
    pub min_opposite_ratio: f32,
}

impl Default for CardFinder {
    fn default() -> CardFinder {
        CardFinder {
            work_side: 1000,
            min_area_fraction: 0.0008,
            max_area_fraction: 0.5,
            close_up_area_fraction: 0.85,
            aspect: (1.2, 2.1),
            true_aspect: (1.3, 1.9),
            min_fill: 0.88,
            min_relative_area: 0.5,
            min_opposite_ratio: 0.5,
        }
    }
}

impl CardFinder {
    /// Every card-shaped quadrilateral in `image`, in its pixel coordinates,
    /// corners in portrait order ([`Quad::portrait`]), sorted top to bottom then left to right.
    pub fn find(&self, image: &RgbImage) -> Vec<Quad> {
        self.find_each_size(image, 1)
            .into_iter()
            .next()
            .unwrap_or_default()
    }

    /// The cards of `image` as [`CardFinder::find`] gives them (first), then
    /// as they are if a card is larger: up to `most` readings in all, one per
    /// size some pass found cards of, most cards of one size first.
    ///
    /// The size shown by the most cards is wrong where a few checks of a
    /// cloth, shapes on a desk or the paper inside open symbols outnumber a
    /// lone card; then the reading of another size holds the card, which only
    /// naming the candidates tells (the caller's classifier).
    pub fn find_each_size(&self, image: &RgbImage, most: usize) -> Vec<Vec<Quad>> {
        let factor = shrink_factor(image.width(), image.height(), self.work_side);
        let small = shrink_by(image, factor);
        let mut readings = self.find_in_work_image(&small, most);
        self.straighten_first(&small, &mut readings);
        scaled_up(&mut readings, factor);
        readings
    }

    /// The cards of `image` as [`CardFinder::find_each_size`] gives them in
    /// the picture stretched from top to bottom by as much as its symbols
    /// lie flatter than upright ones, or where they do not say so, as much
    /// as its outlines squarer than a card say ([`CardFinder::squares_stretch`]),
    /// mapped back; nothing where neither does. A steep view squashes a table from top
    /// to bottom, and a white card on a white desk seen at a slant shows
    /// only its shadowed sides: no outline closes, and the cards laid
    /// around its symbols, upright rectangles of a card's proportions, do
    /// not fit squashed cards; stretched upright, they do. The second
    /// edition's rectangles lie flat in any view, and the checks of a cloth
    /// stretched pass for cards: the caller asks this only where the cards
    /// read are not seen straight down ([`CardFinder::seen_straight_down`]),
    /// and names what it finds. `further` stretches the picture that many
    /// times more than its symbols say (1 for as much as they say; the
    /// greatest stretch grows with it).
    pub fn find_each_size_stretched(
        &self,
        image: &RgbImage,
        most: usize,
        further: f32,
    ) -> Vec<Vec<Quad>> {
        let factor = shrink_factor(image.width(), image.height(), self.work_side);
        let small = shrink_by(image, factor);
        // Both measures look at the balanced whiteness.
        let (white, histogram) = balanced_whiteness_with_histogram(&small);
        let flat = flatness_on(&small, &white)
            .filter(|&flatness| flatness >= FLAT_SYMBOLS)
            .map(|flatness| flatness / UPRIGHT_SYMBOLS);
        let squares = || self.squares_stretch(&small, &white, histogram);
        let Some(stretch) = flat.or_else(squares) else {
            return Vec::new();
        };
        let stretch = (further * stretch).clamp(1.0, further * MAX_STRETCH);
        self.find_each_size_stretched_by(&small, factor, most, stretch)
    }

    /// How much `small` (a picture at working size) is stretched where its
    /// symbols do not say it: where a few outlines four-sided and filled
    /// like a card are squarer than one ([`CardFinder::square_outlines`]),
    /// most of them holding coloured ink ([`SQUARE_CARDS`],
    /// [`MOST_SQUARE_CARDS`]), as much as brings their median to a card's
    /// proportions. Seen steeply
    /// through a long lens (a phone's second camera), cards are about square
    /// on the picture with little perspective to judge them by in space,
    /// and their symbols too small or too few to measure.
    fn squares_stretch(
        &self,
        small: &RgbImage,
        white: &GrayImage,
        histogram: Histogram,
    ) -> Option<f32> {
        let squares = self.square_outlines(small, white, histogram);
        if squares.len() > MOST_SQUARE_CARDS {
            return None;
        }
        let aspects: Vec<f32> = squares
            .iter()
            .filter(|square| holds_coloured_ink(small, square))
            .map(Quad::aspect)
            .collect();
        if aspects.len() < SQUARE_CARDS.max(squares.len().div_ceil(2)) {
            return None;
        }
        median(aspects).map(|aspect| CARD_ASPECT / aspect.max(1.0))
    }

    /// Outlines of `small` four-sided and filled like a card but squarer
    /// than one on the picture (long over short side under
    /// [`CardFinder::aspect`]'s least), cut at Otsu's level of its balanced
    /// whiteness `white` (whose `histogram` is given) and at Otsu's level of
    /// its bright part alone (a pale desk), each once.
    fn square_outlines(
        &self,
        small: &RgbImage,
        white: &GrayImage,
        histogram: Histogram,
    ) -> Vec<Quad> {
        let otsu = otsu_level_of(&histogram);
        let opened = open_gray(white, 1);
        let image_area = (small.width() * small.height()) as f32;
        let sized = |area: f32| {
            (self.min_area_fraction * image_area..=self.max_area_fraction * image_area)
                .contains(&area)
        };
        let mut squares: Vec<Quad> = Vec::new();
        for level in [otsu, bright_part_level(histogram, otsu)] {
            for points in outer_contours_above(&opened, level) {
                let area = contour_area(&points) as f32;
                if points.len() < 12 || !sized(area) {
                    continue;
                }
                let Some(quad) = fit_quad(&points) else {
                    continue;
                };
                let fill = area / quad.area().max(1.0);
                if self.four_sided_like_a_card(&quad)
                    && (self.min_fill..=1.1).contains(&fill)
                    && quad.aspect() < self.aspect.0
                    && !squares.iter().any(|q| q.shares_centre_with(&quad))
                {
                    squares.push(quad);
                }
            }
        }
        squares
    }

    /// The cards of `small` (`image` shrunk by `factor` to working size) as
    /// [`CardFinder::find_each_size`] gives them in it stretched from top to
    /// bottom `stretch` times, mapped back to `image`'s pixels.
    fn find_each_size_stretched_by(
        &self,
        small: &RgbImage,
        factor: u32,
        most: usize,
        stretch: f32,
    ) -> Vec<Vec<Quad>> {
        let height = (small.height() as f32 * stretch).round() as u32;
        let tall = crate::resample::resize_triangle(small, small.width(), height);
        let mut readings = self.find_in_work_image(&tall, most);
        let back = small.height() as f32 / height as f32;
        for quad in readings.iter_mut().flatten() {
            *quad = quad.map(|[x, y]| [x, y * back]);
        }
        self.straighten_first(small, &mut readings);
        scaled_up(&mut readings, factor);
        readings
    }

    /// Whether `cards` (outlines read in a picture) say it was taken about
    /// straight down: at least [`STEEP_VIEW_SUPPORT`] of them, and two
    /// thirds of all, card-shaped on the picture itself (long over short
    /// side within [`STEEP_VIEW_ASPECT`] of a card's). Then stretching the
    /// picture upright ([`CardFinder::find_each_size_stretched`]) is not
    /// worth its cost. (Seen straight down a card keeps its shape however it
    /// is turned; seen steeply, turned cards stretch and upright ones squash,
    /// and their median could pass for a card's.)
    pub fn seen_straight_down(cards: &[Quad]) -> bool {
        let shaped = cards.iter().filter(|q| card_shaped(q.aspect())).count();
        shaped >= STEEP_VIEW_SUPPORT && 3 * shaped >= 2 * cards.len()
    }

    /// How flat the symbols of `image` lie, at the finder's working size:
    /// the median length over thickness of those lying level, `None` where
    /// too few show (what [`CardFinder::find_each_size_stretched`] measures).
    pub fn symbol_flatness(&self, image: &RgbImage) -> Option<f32> {
        let factor = shrink_factor(image.width(), image.height(), self.work_side);
        let small = shrink_by(image, factor);
        flatness_on(&small, &balanced_whiteness_with_histogram(&small).0)
    }

    /// A steep view is looked at again straightened, with the likeliest
    /// reading (the first) only ([`plane`]).
    fn straighten_first(&self, small: &RgbImage, readings: &mut [Vec<Quad>]) {
        if let Some(quads) = readings.first_mut()
            && let Some(view) = plane::straight_down(small, quads)
        {
            self.look_straight_down(&view, quads);
            let areas = quads.iter().map(Quad::area).collect();
            sort_in_reading_order(quads, median(areas).unwrap_or(1.0));
        }
    }

    /// Cards laid around faint symbols (washed-out ink on pale cards) beside
    /// `cards`, cards already read in `image` (both in its pixels): of about
    /// their size, near them, where none of them lies, their paper about as
    /// white as theirs. Faint ink is looked for only beside cards: on a desk
    /// with none, print, tape and shadows pass for it.
    pub fn faint_symbol_cards_beside(&self, image: &RgbImage, cards: &[Quad]) -> Vec<Quad> {
        if cards.is_empty() {
            return Vec::new();
        }
        let (small, above_mean, scale) = self.ink_view(image);
        let known: Vec<Quad> = cards
            .iter()
            .map(|quad| quad.map(|p| [p[0] / scale, p[1] / scale]))
            .collect();
        let dullest = cards
            .iter()
            .map(|card| neighbours::paper_level(image, card))
            .fold(f32::INFINITY, f32::min);
        symbols::faint_cards_beside(&small, &above_mean, &known)
            .into_iter()
            .map(|quad| quad.map(|p| [p[0] * scale, p[1] * scale]))
            .filter(|quad| neighbours::paper_level(image, quad) >= FAINT_PAPER_SHARE * dullest)
            .collect()
    }

    /// Cards laid around faint symbols anywhere in `image` (in its pixels):
    /// a lone washed-out or defocused card on a white desk, which no other
    /// pass sees. For a picture where nothing else was read: faint ink on a
    /// desk with no card (print, tape, shadows) is taken for cards here too,
    /// and outlines too small for a card are the caller's to drop.
    pub fn faint_symbol_cards(&self, image: &RgbImage) -> Vec<Quad> {
        let (small, above_mean, scale) = self.ink_view(image);
        symbols::faint_cards(&small, &above_mean)
            .into_iter()
            .map(|quad| quad.map(|p| [p[0] * scale, p[1] * scale]))
            .collect()
    }

    /// The working picture the symbols are looked for in, its whiteness over
    /// the local mean (see [`symbols::cards_from_symbols`]), and the
    /// picture's pixels per working pixel.
    fn ink_view(&self, image: &RgbImage) -> (RgbImage, GrayImage, f32) {
        let factor = shrink_factor(image.width(), image.height(), self.work_side);
        let small = shrink_by(image, factor);
        let (white, _) = balanced_whiteness_with_histogram(&small);
        let above_mean = above_local_mean(&white, local_mean_radius(&white));
        (small, above_mean, factor as f32)
    }

    /// The cards found in a straightened steep view ([`plane`]), mapped
    /// back to the picture: each replaces the outline found first on the
    /// same card (seen straight down, cards are upright rectangles of one
    /// size, which the finder's tests are made for) or joins the others.
    fn look_straight_down(&self, view: &plane::StraightDown, quads: &mut Vec<Quad>) {
        // Seen straight down, a card is a card's shape on the picture
        // itself: none is one only in space (a square would pass for a
        // foreshortened card).
        let straight = CardFinder {
            true_aspect: (f32::INFINITY, f32::NEG_INFINITY),
            ..*self
        };
        for found in straight
            .find_in_work_image(&view.image, 1)
            .into_iter()
            .flatten()
        {
            let quad = view.to_photo(&found);
            match quads.iter().position(|q| q.shares_centre_with(&quad)) {
                Some(i) => quads[i] = quad,
                None => quads.push(quad),
            }
        }
    }

    /// Detection on an image already at working size.
    ///
    /// One threshold rarely suits every card: a card in shadow or under a
    /// colour cast can sit below Otsu's level while its neighbours are far
    /// above it. So the mask is cut at Otsu's level and then at lower and
    /// higher levels, and a card found at a later level is added where no
    /// earlier card lies. Where one does, the levels disagree about its outline
    /// (one of them took in a bright patch beside the card): the outline with
    /// clearly sharper edges all round wins ([`edges`]).
    ///
    /// Up to `most` readings, one per card size (see [`CardFinder::find_each_size`]).
    fn find_in_work_image(&self, image: &RgbImage, most: usize) -> Vec<Vec<Quad>> {
        let (white, histogram) = balanced_whiteness_with_histogram(image);
        let otsu = otsu_level_of(&histogram);
        // Opening commutes with thresholding: one grey opening serves every level.
        let opened = open_gray(&white, 1);
        let mut close_ups = Vec::new();
        let mut per_level: Vec<Vec<Found>> = Vec::new();
        for factor in LEVEL_FACTORS {
            let level = (f32::from(otsu) * factor).round().clamp(1.0, 250.0) as u8;
            let (found, close) = self.find_at_level_with_close_ups(&opened, level);
            per_level.push(found);
            close_ups.extend(close);
        }
        // Last, Otsu's level again with the thin dark seams between cards cut:
        // cards laid edge to edge, or touching at their corners, are one blob at
        // every level, and no single card shows how large a card is.
        let seams_cut = open_gray(&seams::cut_seams(&white), 1);
        per_level.push(self.find_at_level(&seams_cut, otsu));
        // On a white or pale desk, desk and cards are both above Otsu's level
        // (which parts ink from paper): Otsu's level of the bright part alone
        // parts the desk from the whiter cards...
        per_level.push(self.find_at_level(&opened, bright_part_level(histogram, otsu)));
        // ...and where the desk darkens from one side to the other, no level
        // does: the whiteness above its local mean does.
        let above_mean = above_local_mean(&opened, local_mean_radius(&opened));
        per_level.push(self.find_at_level(&above_mean, LOCAL_MEAN_MIDDLE + ABOVE_LOCAL_MEAN));
        let (by_edges, symbols, edge_close_ups) =
            self.find_by_outlines(image, &white, most_supported(&per_level).as_ref());
        close_ups.extend(edge_close_ups);
        // Where the cards are no whiter than the desk, the whitest blobs
        // are the paper inside their open symbols, or a lone card's shadow:
        // never a card of their own.
        for found in &mut per_level {
            found.retain(|f| !within_symbol_card(&f.quad, &symbols.cards));
        }
        let by_whiteness = most_supported(&per_level);
        let whiteness_support = by_whiteness.as_ref().map_or(0, |t| t.support);
        // The edges or the symbols set the typical card where no level shows
        // a card, or where they show more cards than any level (a white desk)
        // and at least a few: on a lone card close up the edges also close
        // the symbols, which pass for small cards. Cards card-shaped only in
        // space count: on a steep view of a white desk the edges close every
        // card, most of them too square on the picture (steep table 452: 3
        // of 7 card-shaped on the picture, 4 cards read; counted in space,
        // all 12; docs/evaluation.md, session 28).
        let typical = [&by_edges, &symbols.cards]
            .into_iter()
            .filter_map(|found| Some((found, Typical::of(found)?)))
            .rev()
            .max_by_key(|(_, typical)| typical.support)
            .filter(|(found, t)| {
                let support = t.support_in_space(found);
                whiteness_support == 0
                    || (support >= EDGE_TYPICAL_MIN && support > whiteness_support)
            })
            .map(|(_, typical)| typical)
            .or(by_whiteness);
        per_level.push(by_edges);
        per_level.push(symbols.cards);
        // A card filling the frame measures the typical card only where
        // nothing smaller does; otherwise it is a larger size to read.
        let typical = typical.or_else(|| Typical::of(&close_ups));
        per_level.push(close_ups);
        let Some(typical) = typical else {
            return Vec::new();
        };
        let larger_sizes = larger_sizes(&per_level, &typical, most.saturating_sub(1));
        // Once a card's size is known: blocks of cards laid edge to edge,
        // row after row, which no pass parts (last: they only add cards).
        // (A steep view's cards are no lattice of one size.)
        if seen_upright(&typical) {
            let cells = blocks::cells_of_blocks(&opened, otsu, &typical);
            per_level.push(cells.into_iter().map(Found::whole).collect());
        }
        std::iter::once(typical)
            .chain(larger_sizes)
            .map(|typical| {
                let mut kept = self.one_outline_per_card(
                    image,
                    &white,
                    &per_level,
                    &typical,
                    &symbols.centres,
                );
                sort_in_reading_order(&mut kept, typical.area);
                kept
            })
            .collect()
    }

    /// The candidates of every pass that fit the typical card, each card
    /// once: where several outlines fall on one card, the first is kept
    /// unless a later one has clearly sharper edges, or sits clearly nearer
    /// the middle of the card's symbols (`symbol_centres`).
    fn one_outline_per_card(
        &self,
        image: &RgbImage,
        white: &GrayImage,
        candidates: &[Vec<Found>],
        typical: &Typical,
        symbol_centres: &[Point2],
    ) -> Vec<Quad> {
        // Each card with its edge contrast (see [`edges`]) and, once asked
        // for, how clearly its faintest side shows in colour
        // ([`symbols::faintest_side`]; read only where outlines compete).
        let mut kept: Vec<(Quad, f32, Option<f32>)> = Vec::new();
        let faintest = |quad: Quad, known: &mut Option<f32>| {
            *known.get_or_insert_with(|| symbols::faintest_side(image, &quad))
        };
        for found in candidates.iter().flatten() {
            if !typical.accepts(found, self.min_relative_area) {
                continue;
            }
            let quads = match double::split_double(
                white,
                &found.quad,
                typical.area_for(&found.quad),
                typical.aspect,
            ) {
                Some(halves) => halves.to_vec(),
                None => vec![found.quad],
            };
            for quad in quads {
                let overlapping: Vec<usize> = (0..kept.len())
                    .filter(|&i| kept[i].0.shares_centre_with(&quad))
                    .collect();
                let contrast = edges::edge_contrast(white, &quad);
                let mut shows = None;
                match overlapping[..] {
                    [] => kept.push((quad, contrast, shows)),
                    // The same card seen at another level.
                    // (An outline smaller than a card there is laid around
                    // some of its symbols only, whose middle is not the card's.)
                    [i] if clearly_sharper(contrast, kept[i].1)
                        || clearly_shows(
                            faintest(quad, &mut shows),
                            faintest(kept[i].0, &mut kept[i].2),
                        )
                        || (better_centred(&quad, &kept[i].0, symbol_centres)
                            && quad.area() >= CENTRED_MIN_AREA * typical.area_for(&quad)) =>
                    {
                        kept[i] = (quad, contrast, shows)
                    }
                    _ => {}
                }
            }
        }
        kept.into_iter().map(|(quad, ..)| quad).collect()
    }

    /// Where nothing is whiter than the desk, only the cards' outlines part
    /// them from it: the cards in the regions the edges close, and the cards
    /// laid around their symbols (a card whose edges close no region, cards
    /// edge to edge), and apart, the cards filling the frame the edges close.
    /// Where the whiteness already shows a full table of one size, none is
    /// looked for (the edges cost a third of a frame).
    fn find_by_outlines(
        &self,
        image: &RgbImage,
        white: &GrayImage,
        by_whiteness: Option<&Typical>,
    ) -> (Vec<Found>, SymbolCards, Vec<Found>) {
        let no_symbols = || SymbolCards {
            cards: Vec::new(),
            centres: Vec::new(),
        };
        if by_whiteness.is_some_and(|t| t.support >= EDGES_BELOW_SUPPORT) {
            return (Vec::new(), no_symbols(), Vec::new());
        }
        // The symbols' cards are upright rectangles of a card's proportions:
        // where the whiteness shows cards of other proportions (a steep
        // view), they would be misplaced.
        let mut by_symbols = if by_whiteness.is_none_or(seen_upright) {
            // Ink read from the whiteness before opening: the opening wipes
            // the thin paper between stacked symbols, which then merge into
            // one blob shaped like no symbol.
            let (above_mean, above_paper) =
                above_local_mean_and_paper(white, local_mean_radius(white));
            symbols::cards_from_symbols(image, &above_mean, &above_paper)
        } else {
            no_symbols()
        };
        // No smaller than a card of any other pass: the squares of a
        // checked cloth, coloured and in rows, pass for symbols, and the
        // small cards laid around them set the typical card.
        let smallest = self.min_area_fraction * (image.width() * image.height()) as f32;
        by_symbols.cards.retain(|c| c.quad.area() >= smallest);
        // A region of edges within a card found around its symbols is one
        // of them (a closed symbol outline), not a small card.
        let (mut by_edges, close_ups) = self.find_by_edges(image);
        by_edges.retain(|e| !within_symbol_card(&e.quad, &by_symbols.cards));
        (by_edges, by_symbols, close_ups)
    }

    /// Cards in the regions the picture's edges close ([`edge_regions`]),
    /// grown back over the half of the edge band they lost, and apart, whole
    /// cards filling the frame: a card held close whose paper merges with a
    /// bright patch of the desk (a lamp's glow) at every whiteness level is
    /// still closed by its edges.
    fn find_by_edges(&self, image: &RgbImage) -> (Vec<Found>, Vec<Found>) {
        let (mut found, mut close_ups) =
            self.find_in_edge_regions(image, edge_regions::Steps::FINE);
        // A card held close on a grainy or defocused picture: grain and
        // blotches close regions of their own all over its paper at full
        // size, cutting the card's region apart, while its outline, long and
        // shadowed, still shows on a copy a few hundred pixels across, where
        // the grain is averaged away. Only large cards are taken from it.
        let factor = shrink_factor(image.width(), image.height(), COARSE_EDGES_SIDE);
        if factor > 1 {
            let (coarse, coarse_close_ups) =
                self.find_in_edge_regions(&shrink_by(image, factor), edge_regions::Steps::COARSE);
            let large = COARSE_EDGES_MIN_AREA * (image.width() * image.height()) as f32;
            let scale = |mut card: Found| {
                card.quad = card
                    .quad
                    .map(|p| [p[0] * factor as f32, p[1] * factor as f32]);
                card
            };
            found.extend(
                coarse
                    .into_iter()
                    .map(scale)
                    .filter(|c| c.quad.area() >= large),
            );
            close_ups.extend(coarse_close_ups.into_iter().map(scale));
        }
        (found, close_ups)
    }

    /// The cards and close-ups of [`CardFinder::find_by_edges`] at the size
    /// `image` is given in.
    fn find_in_edge_regions(
        &self,
        image: &RgbImage,
        steps: edge_regions::Steps,
    ) -> (Vec<Found>, Vec<Found>) {
        let regions = edge_regions::edge_regions(image, steps);
        let (mut found, mut close_ups) =
            self.find_at_level_with_close_ups(&regions, edge_regions::REGION - 1);
        for card in found.iter_mut().chain(&mut close_ups) {
            // A side moved out by the band's half width moves a corner along
            // its diagonal by about that times the square root of two.
            card.quad = card
                .quad
                .expanded(edge_regions::BAND_HALF_WIDTH * std::f32::consts::SQRT_2);
        }
        (found, close_ups)
    }

    /// Cards in the mask of pixels of the opened whiteness brighter than `level`.
    fn find_at_level(&self, opened: &GrayImage, level: u8) -> Vec<Found> {
        self.find_at_level_with_close_ups(opened, level).0
    }

    /// Cards in the mask of pixels of the opened whiteness brighter than
    /// `level`, and apart, whole cards filling the frame (larger than
    /// `max_area_fraction` of it, up to `close_up_area_fraction`).
    fn find_at_level_with_close_ups(
        &self,
        opened: &GrayImage,
        level: u8,
    ) -> (Vec<Found>, Vec<Found>) {
        let (width, height) = (opened.width() as i32, opened.height() as i32);
        let image_area = (width * height) as f32;
        let camera = Camera::guess(opened.width(), opened.height());
        let mut candidates = Vec::new();
        let mut close_ups = Vec::new();
        // Blobs too large for a card still hold the paper inside open
        // symbols in their holes (see below).
        let mut larger = Vec::new();
        for points in outer_contours_above(opened, level) {
            if points.len() < 12 {
                continue;
            }
            // A card cut by the edge of the picture is not a whole card (one that
            // merely touches the edge with a corner is).
            let on_edge = points
                .iter()
                .filter(|p| p.x <= 0 || p.y <= 0 || p.x >= width - 1 || p.y >= height - 1)
                .count();
            let cut = on_edge * 20 > points.len();
            let area = contour_area(&points) as f32;
            if area > self.max_area_fraction * image_area {
                let close_up = area <= self.close_up_area_fraction * image_area && !cut;
                if close_up && let Some((quad, in_space)) = self.card_quad(&points, area, &camera) {
                    close_ups.push(Found {
                        quad,
                        cut: false,
                        in_space,
                        erosion: Erosion::Whole,
                    });
                }
                larger.push(points);
                continue;
            }
            if area < self.min_area_fraction * image_area {
                continue;
            }
            let shape = self.card_quad(&points, area, &camera);
            candidates.push((points, area, shape, cut));
        }
        // Paper inside an open symbol is a blob of its own, inside the card's
        // outline; where the card's outline is no card (cards that touch), it
        // would pass for a small card. Where the cards are one blob with a
        // cloth as bright, that blob is too large for a card; a card lying
        // in a hole of such a blob (a bright cloth around it) shows its
        // symbols in its middle, the paper inside a symbol shows none.
        let outlines: Vec<(&[Point<i32>], f32)> = candidates
            .iter()
            .map(|(points, area, ..)| (points.as_slice(), *area))
            .collect();
        let nested = nested::inside_a_larger_outline(&outlines);
        let candidates: Vec<_> = candidates
            .into_iter()
            .zip(nested)
            .filter(|((points, ..), nested)| {
                let in_a_cloths_hole = || {
                    !larger.is_empty()
                        && nested::bare_paper(opened, level, points)
                        && nested::inside_one_of(points, &larger)
                };
                !(*nested || in_a_cloths_hole())
            })
            .map(|(candidate, _)| candidate)
            .collect();
        let typical = median(
            candidates
                .iter()
                .filter_map(|(_, _, shape, _)| match shape {
                    // Cards judged only in space are measured, not measures.
                    Some((quad, false)) => Some(quad.area()),
                    _ => None,
                })
                .collect(),
        );
        let mut found = Vec::new();
        for (outline, area, shape, cut) in candidates {
            // Twice a typical card: maybe two that touch. Try to split; keep the
            // single quadrilateral when the blob does not fall apart. (A blob of
            // more than a few cards' area is a bright desk or a pattern: eroding
            // it costs more than all the rest and gives no card.)
            let parts = match typical {
                Some(t) if (1.7 * t..=MAX_SPLIT_AREA * t).contains(&area) => {
                    self.split_blob(opened, level, &outline, t)
                }
                _ => Vec::new(),
            };
            if parts.len() >= 2 {
                // A large card on its own (the near row of a steep table)
                // also falls apart where its paper is narrow beside a wide
                // symbol: the blob stays a candidate, first, where it is the
                // size a card has there ([`Typical::accepts`]).
                if let Some((quad, in_space)) = shape {
                    found.push(Found {
                        quad,
                        cut,
                        in_space,
                        erosion: Erosion::FellApart,
                    });
                }
                found.extend(parts.into_iter().map(|(quad, in_space)| Found {
                    quad,
                    cut,
                    in_space,
                    erosion: Erosion::Part,
                }));
            } else if let Some((quad, in_space)) = shape {
                found.push(Found {
                    quad,
                    cut,
                    in_space,
                    erosion: Erosion::Whole,
                });
            }
        }
        (found, close_ups)
    }

    /// The quadrilateral of an outline if it looks like one card, seen by
    /// `camera`, and whether it was judged in space (its picture has no card's
    /// proportions).
    fn card_quad(
        &self,
        outline: &[Point<i32>],
        area: f32,
        camera: &Camera,
    ) -> Option<(Quad, bool)> {
        let quad = fit_quad(outline)?;
        let fill = area / quad.area().max(1.0);
        let shaped = self.four_sided_like_a_card(&quad) && fill >= self.min_fill && fill <= 1.1;
        if !shaped {
            return None;
        }
        let aspect = quad.aspect();
        if (self.aspect.0..=self.aspect.1).contains(&aspect) {
            return Some((
                quad.portrait_checked_by(camera, SPACE_ORIENTATION_MARGIN),
                false,
            ));
        }
        // Too square on the picture (a far card foreshortened by a steep
        // view), or too long (a near one stretched by a close, steep view): a
        // card only if it is one in space. Such cards never set the typical
        // card's size ([`Typical::of`]): the paper inside a long symbol is
        // one of them, and must not make the card around it look too large.
        let (low, high) = quad.rectified_aspect_range(camera, CORNER_WOBBLE)?;
        let in_space =
            aspect <= STRETCHED_ASPECT && low >= self.true_aspect.0 && high <= self.true_aspect.1;
        in_space.then(|| (quad.portrait_seen_by(camera), true))
    }

    /// Whether `quad` is convex with no side under [`CardFinder::min_opposite_ratio`]
    /// of the side facing it: perspective shortens a card's far side, never to
    /// a point. Every outline fitted to a contour passes; those other passes
    /// make (laid around symbols, mapped back from a straightened view, cut
    /// along a lattice) are not tested here, and the reader tests them.
    pub fn four_sided_like_a_card(&self, quad: &Quad) -> bool {
        let [a, b, c, d] = quad.side_lengths();
        let ratio = |p: f32, q: f32| p.min(q) / p.max(q).max(f32::EPSILON);
        quad.is_convex() && ratio(a, c).min(ratio(b, d)) >= self.min_opposite_ratio
    }

    /// Cards that touch form one blob: erode it until it separates into
    /// card-sized parts, then grow each part back by as much and fit it alone.
    fn split_blob(
        &self,
        opened: &GrayImage,
        level: u8,
        blob: &[Point<i32>],
        typical_area: f32,
    ) -> Vec<(Quad, bool)> {
        let (x0, y0, x1, y1) = bounds(blob);
        let pad = 2;
        let (w, h) = (
            (x1 - x0 + 1 + 2 * pad) as u32,
            (y1 - y0 + 1 + 2 * pad) as u32,
        );
        // Only the blob itself, filled, in a small canvas of its own.
        let mut own = GrayImage::new(w, h);
        let polygon: Vec<Point<i32>> = blob
            .iter()
            .map(|p| Point::new(p.x - x0 + pad, p.y - y0 + pad))
            .collect();
        crate::fill::fill_polygon(&mut own, &polygon, 255);
        for (x, y, p) in own.enumerate_pixels_mut() {
            let (mx, my) = (x as i32 + x0 - pad, y as i32 + y0 - pad);
            let inside = mx >= 0
                && my >= 0
                && (mx as u32) < opened.width()
                && (my as u32) < opened.height()
                && opened.get_pixel(mx as u32, my as u32).0[0] > level;
            if !inside {
                *p = Luma([0]);
            }
        }
        let camera = Camera::guess(opened.width(), opened.height());
        let short_side = (typical_area / CARD_ASPECT).sqrt();
        let mut quads = Vec::new();
        for step in [0.06f32, 0.1, 0.15, 0.2] {
            let k = (step * short_side).round().clamp(1.0, 255.0) as u8;
            let eroded = erode(&own, k);
            let parts: Vec<_> = outer_contours(&eroded)
                .into_iter()
                .filter(|points| points.len() >= 12)
                .collect();
            if parts.len() < 2 {
                continue;
            }
            for part in parts {
                for points in grown_back(&own, &part, k) {
                    if points.len() < 12 {
                        continue;
                    }
                    let area = contour_area(&points) as f32;
                    // A part must be card-sized: eroding paper with symbols in it
                    // also breaks off the strips between the symbols.
                    let card_sized = area >= self.min_relative_area * typical_area;
                    if let Some((quad, in_space)) = self
                        .card_quad(&points, area, &camera)
                        .filter(|_| card_sized)
                    {
                        let offset = [(x0 - pad) as f32, (y0 - pad) as f32];
                        let quad = quad.map(|p| [p[0] + offset[0], p[1] + offset[1]]);
                        quads.push((quad, in_space));
                    }
                }
            }
            if !quads.is_empty() {
                break;
            }
        }
        quads
    }
}

/// The typical card of the pass with the most cards of one size: where
/// cards touch, a pass may find one card and a block of cards that passes
/// for a large card. Of equals, the size most passes agree on (within
/// [`SIZES_APART`]), then the earliest: a lone card merged at one level
/// with something as pale beside it is found alone at the others
/// (photographed-cards table 718: a card and the glow of a lamp behind it
/// at one level, the card alone at three).
fn most_supported(passes: &[Vec<Found>]) -> Option<Typical> {
    let typicals: Vec<Typical> = passes
        .iter()
        .filter_map(|found| Typical::of(found))
        .collect();
    let agreeing = |t: &Typical| {
        typicals
            .iter()
            .filter(|o| o.area.max(t.area) <= SIZES_APART * o.area.min(t.area))
            .count()
    };
    typicals
        .iter()
        .rev()
        .max_by_key(|t| (t.support, agreeing(t)))
        .cloned()
}

/// Up to `most` typical cards of the passes, each larger than `chosen` and
/// of another size than each other (by more than [`SIZES_APART`]), those of
/// the most cards first. Only larger: what outnumbers a lone card is
/// smaller (checks, shapes, symbols, pips); the readings of smaller sizes
/// found patches of print on paper that pass for cards.
fn larger_sizes(passes: &[Vec<Found>], chosen: &Typical, most: usize) -> Vec<Typical> {
    let mut typicals: Vec<Typical> = passes
        .iter()
        .filter_map(|f| Typical::of(f))
        .filter(|t| t.area > SIZES_APART * chosen.area)
        .collect();
    typicals.sort_by_key(|t| std::cmp::Reverse(t.support));
    let apart = |a: &Typical, b: &Typical| a.area.max(b.area) > SIZES_APART * a.area.min(b.area);
    let mut picked: Vec<Typical> = Vec::new();
    for typical in typicals {
        if picked.len() < most && picked.iter().all(|p| apart(&typical, p)) {
            picked.push(typical);
        }
    }
    picked
}

/// Whether `quad` lies within (or just beside) a card laid around its
/// symbols and is less than half its size: one of its symbols, the paper
/// inside one, or the card's shadow; not a card. (A neighbouring card's
/// middle lies a card's width or more from this card's.)
fn within_symbol_card(quad: &Quad, symbol_cards: &[Found]) -> bool {
    symbol_cards.iter().any(|s| {
        let grown = s.quad.scaled(SYMBOL_CARD_REACH);
        grown.contains(quad.centre()) && quad.area() < 0.5 * s.quad.area()
    })
}

/// Whether the cards measured by `typical` are seen about straight down:
/// upright rectangles of a card's proportions and of one size (too few
/// cards to tell counts as upright).
fn seen_upright(typical: &Typical) -> bool {
    typical.support < STEEP_VIEW_SUPPORT
        || card_shaped(typical.aspect)
        || typical.depth_spread() < STEEP_VIEW_DEPTH
}

/// Whether a long over short side of `aspect` is a card's, seen about
/// straight down ([`STEEP_VIEW_ASPECT`]).
fn card_shaped(aspect: f32) -> bool {
    (aspect / CARD_ASPECT - 1.0).abs() <= STEEP_VIEW_ASPECT
}

/// How far the middle of the symbols within `quad` lies from its centre,
/// over its side (the nearest group's, where several lie within); `None`
/// where no group does.
fn off_centre(quad: &Quad, symbol_centres: &[Point2]) -> Option<f32> {
    let centre = quad.centre();
    let side = quad.area().sqrt();
    symbol_centres
        .iter()
        .filter(|&&p| quad.contains(p))
        .map(|p| (p[0] - centre[0]).hypot(p[1] - centre[1]) / side)
        .min_by(f32::total_cmp)
}

/// Whether an outline sits clearly nearer its symbols' middle than another
/// on the same card: the other is off by more than [`OFF_CENTRE`] and this
/// one by under half as much (a card's outline that took in its shadow, or
/// lost a side as pale as the desk, is off its symbols' middle).
fn better_centred(quad: &Quad, than: &Quad, symbol_centres: &[Point2]) -> bool {
    match (
        off_centre(quad, symbol_centres),
        off_centre(than, symbol_centres),
    ) {
        (Some(new), Some(old)) => old > OFF_CENTRE && new < 0.5 * old,
        _ => false,
    }
}

/// Whether an outline's edges are sharper than another's by enough to replace it.
fn clearly_sharper(contrast: f32, than: f32) -> bool {
    contrast >= than + 20.0 && contrast >= 1.25 * than
}

/// Whether an outline's faintest side shows clearly where another's does
/// not: on a white desk one side of a card may match the desk's level, and
/// the outline found at that level runs through the card's paper there,
/// where every side of the card's own outline steps in some channel; or
/// shows faintly, where the other's barely shows at all ([`FAINT_SHOWS`]).
fn clearly_shows(faintest: f32, than: f32) -> bool {
    (faintest >= SHOWS_CLEARLY && faintest >= SHOWS_CLEARER * than)
        || (faintest >= FAINT_SHOWS && faintest >= FAINT_SHOWS_CLEARER * than)
}

/// The outlines of one eroded `part` of a blob grown back by `k` pixels
/// within the blob (`own`), in `own`'s coordinates. The work stays in the
/// part's own box: a blob of many cards has many parts, and a canvas the size
/// of the blob for each cost more than all the rest of the finder.
fn grown_back(own: &GrayImage, part: &[Point<i32>], k: u8) -> Vec<Vec<Point<i32>>> {
    let margin = i32::from(k) + 1;
    let (x0, y0, x1, y1) = bounds(part);
    let (x0, y0) = ((x0 - margin).max(0), (y0 - margin).max(0));
    let x1 = (x1 + margin).min(own.width() as i32 - 1);
    let y1 = (y1 + margin).min(own.height() as i32 - 1);
    let (w, h) = ((x1 - x0 + 1) as u32, (y1 - y0 + 1) as u32);
    let mut single = GrayImage::new(w, h);
    let local: Vec<Point<i32>> = part
        .iter()
        .map(|p| Point::new(p.x - x0, p.y - y0))
        .collect();
    crate::fill::fill_polygon(&mut single, &local, 255);
    let mut grown = dilate(&single, k);
    for (x, y, g) in grown.enumerate_pixels_mut() {
        let o = own.get_pixel(x + x0 as u32, y + y0 as u32).0[0];
        g.0[0] = g.0[0].min(o);
    }
    outer_contours(&grown)
        .into_iter()
        .map(|points| {
            points
                .into_iter()
                .map(|p| Point::new(p.x + x0, p.y + y0))
                .collect()
        })
        .collect()
}

fn bounds(points: &[Point<i32>]) -> (i32, i32, i32, i32) {
    points.iter().fold(
        (i32::MAX, i32::MAX, i32::MIN, i32::MIN),
        |(x0, y0, x1, y1), p| (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y)),
    )
}

/// Longest picture of a card judged in space: a near card in a steep view
/// close to the table.
const STRETCHED_ASPECT: f32 = 2.8;

/// Radius of the local mean of whiteness, as a share of the working image's
/// longer side: about a card and a half at the usual framing, so that the mean
/// around a card takes in the desk beside it.
const LOCAL_MEAN_RADIUS: f32 = 0.12;
/// The grey level [`above_local_mean`] gives a pixel equal to its local mean.
const LOCAL_MEAN_MIDDLE: u8 = 128;
/// How much whiter than its surroundings card paper must be, in grey levels.
const ABOVE_LOCAL_MEAN: u8 = 8;

/// The radius of the local mean for a picture of this size.
pub(crate) fn local_mean_radius(image: &GrayImage) -> u32 {
    ((LOCAL_MEAN_RADIUS * image.width().max(image.height()) as f32) as u32).max(1)
}

/// Each pixel's whiteness over the mean of the square of `radius` around it,
/// as `LOCAL_MEAN_MIDDLE + difference` (clamped).
pub(crate) fn above_local_mean(white: &GrayImage, radius: u32) -> GrayImage {
    above_level(white, &crate::blur::box_mean(white, radius))
}

/// Each pixel's whiteness over the mean of the square of `radius` around it
/// ([`above_local_mean`]) and over the level of paper there ([`local_paper`]).
pub(crate) fn above_local_mean_and_paper(white: &GrayImage, radius: u32) -> (GrayImage, GrayImage) {
    let mean = crate::blur::box_mean(white, radius);
    let paper = local_paper(white, &mean, radius);
    (above_level(white, &mean), above_level(white, &paper))
}

/// The level of paper about each pixel: the mean of the upper half of the
/// square of `radius` around it (the pixels whiter than their own local
/// `mean`), or the mean of all where that is higher. On a plain desk the
/// two lie a few levels apart; where a card lies on a busy surface of dark
/// and white (stripes, terrazzo, a flowered cloth) the mean of all sinks
/// towards the middle, no whiter than a symbol's pale ink, while the upper
/// half is paper.
fn local_paper(white: &GrayImage, mean: &GrayImage, radius: u32) -> GrayImage {
    let upper = |keep: fn(u8) -> u8| {
        let pixels = white
            .as_raw()
            .iter()
            .zip(mean.as_raw())
            .map(|(&w, &m)| if w > m { keep(w) } else { 0 })
            .collect();
        GrayImage::from_raw(white.width(), white.height(), pixels)
            .unwrap_or_else(|| unreachable!("one byte a pixel"))
    };
    // The upper half's mean is the mean of its whiteness over the mean of
    // its share (both over the whole square, rounded to bytes).
    let sum = crate::blur::box_mean(&upper(|w| w), radius);
    let share = crate::blur::box_mean(&upper(|_| 255), radius);
    let paper: Vec<u8> = sum
        .as_raw()
        .iter()
        .zip(share.as_raw())
        .zip(mean.as_raw())
        .map(|((&s, &f), &m)| {
            let upper_mean = (u32::from(s) * 255)
                .checked_div(u32::from(f))
                .map_or(0, |level| level.min(255) as u8);
            upper_mean.max(m)
        })
        .collect();
    GrayImage::from_raw(white.width(), white.height(), paper)
        .unwrap_or_else(|| unreachable!("one byte a pixel"))
}

/// Each pixel's whiteness over `level`'s, as `LOCAL_MEAN_MIDDLE +
/// difference` (clamped).
fn above_level(white: &GrayImage, level: &GrayImage) -> GrayImage {
    let mut out = GrayImage::new(white.width(), white.height());
    for ((o, &w), &l) in out.iter_mut().zip(white.as_raw()).zip(level.as_raw()) {
        let difference = i16::from(w) - i16::from(l);
        *o = (i16::from(LOCAL_MEAN_MIDDLE) + difference).clamp(0, 255) as u8;
    }
    out
}

/// Largest blob, in typical cards, that is eroded to part touching cards.
const MAX_SPLIT_AREA: f32 = 8.0;
/// A card-shaped outline is turned the way space, not the picture, says
/// only where space says so by this factor (tried on stress tables 6-53:
/// 1.1 to 1.3 read 455-456 steep cards of 576, 1.0 448, the picture alone
/// 453; no other condition changed).
const SPACE_ORIENTATION_MARGIN: f32 = 1.2;
/// Cards of one size the edges must show before they set the typical card
/// (tried on stress tables 6-17: 4 and 5 read the same).
const EDGE_TYPICAL_MIN: usize = 4;
/// The edges are looked for only where the whiteness shows fewer cards of
/// one size than this (a table of 12 or more read by the whiteness is
/// whole). Tried on stress tables 6-17: below 6 or 9, cards among
/// lookalikes lost 8 and 6 of the 10 cards the edges add there; 12 lost none.
const EDGES_BELOW_SUPPORT: usize = 12;

/// The longer side of the coarse copy the edges are also followed on, in
/// pixels: a quarter of a webcam frame's, where a card held close is still
/// a hundred pixels and more across ([`CardFinder::find_by_edges`]).
const COARSE_EDGES_SIDE: u32 = 250;
/// The least share of the frame a card found on the coarse copy covers.
const COARSE_EDGES_MIN_AREA: f32 = 0.2;

/// A card around faint symbols must be paper at least this share as white
/// as the dullest card read (a red disc on a checked cloth, its rectangle
/// half checks, read 0.75; pale cards on a cream desk 1.0 and more).
const FAINT_PAPER_SHARE: f32 = 0.85;
/// A side shows clearly where it steps (or is a seam) by this many levels,
/// and an outline replaces another on the same card where its faintest side
/// shows this many times as clearly (tried on alone-on-white stress tables
/// 496-795: the outlines that lost a side read 0.0-3.0, the card's 2.4-17).
const SHOWS_CLEARLY: f32 = 2.0;
const SHOWS_CLEARER: f32 = 2.0;
/// Where a card is as grey as its desk, its own outline's faintest side
/// steps by a level or less, and one found by the whiteness that cuts
/// through its paper by a fraction of that: an outline replaces another
/// whose faintest side shows this many times less, faint as it may be
/// (stress tables: filling-the-frame 480, a grey card on a grey desk, 0.49
/// against 0.04; alone-on-white 734, 1.38 against 0.28; one card more named
/// on each of 448-495 and 496-795, nothing else changed on 400-795, clutter
/// tables 800-1699 or the photos; docs/evaluation.md, session 28).
const FAINT_SHOWS: f32 = 0.4;
const FAINT_SHOWS_CLEARER: f32 = 4.0;
/// An outline whose centre lies this share of its side or more from its
/// symbols' middle may give way to one better centred (tried on stress
/// tables 6-17: 0.03 and 0.08 no better).
const OFF_CENTRE: f32 = 0.05;
/// An outline better centred on the symbols replaces another only when at
/// least this share of a typical card's area there.
const CENTRED_MIN_AREA: f32 = 0.8;
/// How far beyond a card laid around its symbols, as a factor of its size
/// about its middle, a small whiteness blob still counts as part of it (its
/// shadow, on a white desk). Tried on stress tables 6-53: 1.3 found two lone
/// cards more than 1.0, 1.5 one more but lost a steep card.
const SYMBOL_CARD_REACH: f32 = 1.3;

/// Two typical cards are of other sizes when one's area is more than this
/// times the other's: each then accepts candidates the other turns away
/// ([`Typical::accepts`] takes half to two and a half times a card).
const SIZES_APART: f32 = 2.0;

/// A card's long side over its short side.
const CARD_ASPECT: f32 = 1.56;
/// A steep view: at least this many cards of one size whose median aspect
/// differs from a card's by more than this share, and the nearest this many
/// times the size of the farthest (cards edge to edge on a flat table give
/// pieces of odd proportions, but of one size).
const STEEP_VIEW_SUPPORT: usize = 5;
const STEEP_VIEW_ASPECT: f32 = 0.1;
const STEEP_VIEW_DEPTH: f32 = 1.25;

/// How far, in pixels of the working image, a fitted corner may be off: a
/// card's true aspect must hold when any corner moves this much.
const CORNER_WOBBLE: f32 = 0.5;

/// Otsu's level of the part of a whiteness `histogram` above `otsu` (its
/// Otsu level): on a white or pale desk, what parts the desk from the whiter
/// cards.
fn bright_part_level(mut histogram: Histogram, otsu: u8) -> u8 {
    histogram[..=usize::from(otsu)].fill(0);
    otsu_level_of(&histogram)
}

/// Whether `quad` of `image`, cut out at about its own size, holds coloured
/// ink ([`ink_colour_spread`] at least [`SQUARE_INK_SPREAD`]): a card's
/// symbols, not a sudoku's cells or blocks with their black digits (the
/// squares of a printed page).
fn holds_coloured_ink(image: &RgbImage, quad: &Quad) -> bool {
    let side = quad.area().sqrt().clamp(16.0, 96.0) as u32;
    crate::warp::warp_quad(image, quad, side, side)
        .and_then(|inside| ink_colour_spread(&inside))
        .is_some_and(|spread| spread >= SQUARE_INK_SPREAD)
}

/// [`symbols::flatness`] of a picture at working size, on its balanced
/// whiteness `white`.
fn flatness_on(small: &RgbImage, white: &GrayImage) -> Option<f32> {
    let above_mean = above_local_mean(white, local_mean_radius(white));
    symbols::flatness(small, &above_mean)
}

/// Threshold levels tried, as multiples of Otsu's level, in order of trust.
const LEVEL_FACTORS: [f32; 4] = [1.0, 0.75, 1.25, 0.5];

/// Symbols lying flatter than this (length over thickness, the median over
/// a picture) are squashed by the view. Stress tables 400-447
/// (`stress_flatness`): eight upright conditions measure 1.55-2.70 (median
/// 2.0-2.2), steep ones 1.84-3.46 (median 3.06); the bar leaves upright
/// tables a tenth of room. (3.0 until session 22, set when the second
/// edition's symbols were drawn too thin and upright tables reached 3.0.)
const FLAT_SYMBOLS: f32 = 2.8;
/// The median flatness of symbols seen straight on (upright stress tables
/// 400-447: 2.0-2.2 per condition): the stretch that brings the picture's
/// symbols back to it.
const UPRIGHT_SYMBOLS: f32 = 2.1;
/// The most a picture is stretched.
const MAX_STRETCH: f32 = 2.0;
/// Fewest outlines squarer than a card, holding coloured ink, that stretch
/// a picture whose symbols do not ([`CardFinder::squares_stretch`]); at
/// least half of all such outlines must hold it.
const SQUARE_CARDS: usize = 4;
/// The most such outlines, with ink or without: a SET table holds 21 cards
/// at most, a sudoku page 81 cells (a third of them with coloured digits on
/// some of the shared sudoku photos).
const MOST_SQUARE_CARDS: usize = 24;
/// The least [`ink_colour_spread`] of such an outline's ink: red and green
/// cards measure 0.24 and over, black print on card-free pages 0.03-0.18
/// (`crop::ink_colour_spread`'s survey).
const SQUARE_INK_SPREAD: f32 = 0.2;

/// Quadrilaterals found in a picture shrunk by `factor`, in its own pixels.
fn scaled_up(readings: &mut [Vec<Quad>], factor: u32) {
    let scale = factor as f32;
    for quad in readings.iter_mut().flatten() {
        *quad = quad.map(|p| [p[0] * scale, p[1] * scale]);
    }
}

/// Reading order: rows of cards top to bottom (rows a card's short side
/// apart, for cards of `card_area`), then left to right.
pub fn sort_in_reading_order(quads: &mut [Quad], card_area: f32) {
    sort_in_reading_order_by(quads, card_area, |q| q);
}

/// [`sort_in_reading_order`] for items that carry a card outline.
pub fn sort_in_reading_order_by<T>(items: &mut [T], card_area: f32, quad: impl Fn(&T) -> &Quad) {
    let row_height = (card_area / CARD_ASPECT).sqrt().max(1.0);
    items.sort_by(|a, b| {
        let (ca, cb) = (quad(a).centre(), quad(b).centre());
        let (ra, rb) = ((ca[1] / row_height).floor(), (cb[1] / row_height).floor());
        ra.total_cmp(&rb).then(ca[0].total_cmp(&cb[0]))
    });
}

/// Finds cards with the default settings (see [`CardFinder`]).
pub fn find_cards(image: &RgbImage) -> Vec<Quad> {
    CardFinder::default().find(image)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;
    use imageproc::drawing::{draw_filled_ellipse_mut, draw_polygon_mut};

    #[test]
    fn the_local_paper_is_the_whiter_half_on_stripes_and_the_mean_on_a_plain_desk() {
        let plain = GrayImage::from_pixel(120, 90, Luma([200]));
        let mean = crate::blur::box_mean(&plain, 20);
        assert!(
            local_paper(&plain, &mean, 20)
                .pixels()
                .all(|p| p.0[0] == 200)
        );
        // Dark and white stripes six pixels wide: the mean lies halfway,
        // the paper on the white.
        let stripes = GrayImage::from_fn(120, 90, |x, _| {
            Luma([if x / 6 % 2 == 0 { 40 } else { 220 }])
        });
        let mean = crate::blur::box_mean(&stripes, 20);
        let paper = local_paper(&stripes, &mean, 20);
        let (m, p) = (mean.get_pixel(60, 45).0[0], paper.get_pixel(60, 45).0[0]);
        assert!((120..=140).contains(&m), "{m}");
        assert!((215..=220).contains(&p), "{p}");
    }

    #[test]
    fn of_passes_with_one_card_each_the_size_most_of_them_see_is_typical() {
        let card = |width: f32| {
            Found::whole(Quad {
                corners: [
                    [0.0, 0.0],
                    [width, 0.0],
                    [width, 1.56 * width],
                    [0.0, 1.56 * width],
                ],
            })
        };
        // The first pass sees the card merged with a glow beside it (twice
        // its size and more), the next two the card alone.
        let passes = vec![vec![card(150.0)], vec![card(100.0)], vec![card(104.0)]];
        let typical = most_supported(&passes).expect("a typical card");
        assert!(
            (typical.area - 100.0 * 156.0).abs() < 1.0,
            "{}",
            typical.area
        );
        // More cards of one size still win over agreement.
        let passes = vec![
            vec![card(150.0), card(150.0)],
            vec![card(100.0)],
            vec![card(104.0)],
        ];
        let typical = most_supported(&passes).expect("a typical card");
        assert!(
            (typical.area - 150.0 * 234.0).abs() < 1.0,
            "{}",
            typical.area
        );
    }

    #[test]
    fn cards_of_a_cards_shape_are_seen_straight_down_and_squashed_ones_not() {
        let card = |x: f32, height: f32| Quad {
            corners: [[x, 0.0], [x + 100.0, 0.0], [x + 100.0, height], [x, height]],
        };
        let row = |height: f32, count: usize| -> Vec<Quad> {
            (0..count).map(|k| card(120.0 * k as f32, height)).collect()
        };
        assert!(CardFinder::seen_straight_down(&row(156.0, 5)));
        // A steep view squashes cards along the table: 1.15 over 1.56.
        assert!(!CardFinder::seen_straight_down(&row(115.0, 5)));
        // Too few cards to tell.
        assert!(!CardFinder::seen_straight_down(&row(156.0, 4)));
        // A steep view of cards turned every way: upright ones squashed,
        // turned ones stretched, five card-shaped between them, so that
        // their median is a card's; but not two thirds of them are.
        let mixed: Vec<Quad> = [100.0, 105.0, 110.0, 115.0, 150.0, 152.0, 156.0, 158.0]
            .into_iter()
            .chain([160.0, 220.0, 230.0, 240.0, 250.0])
            .enumerate()
            .map(|(k, height)| card(120.0 * k as f32, height))
            .collect();
        assert!(!CardFinder::seen_straight_down(&mixed));
    }

    /// A dark table with white paper polygons on it.
    fn table(polygons: &[&[(i32, i32)]]) -> RgbImage {
        table_of_size(400, 300, polygons)
    }

    fn table_of_size(width: u32, height: u32, polygons: &[&[(i32, i32)]]) -> RgbImage {
        let mut image = RgbImage::from_pixel(width, height, Rgb([40, 60, 40]));
        for polygon in polygons {
            let points: Vec<Point<i32>> = polygon.iter().map(|&(x, y)| Point::new(x, y)).collect();
            draw_polygon_mut(&mut image, &points, Rgb([235, 235, 230]));
        }
        image
    }

    #[test]
    fn faint_symbols_make_cards_only_beside_cards_already_read() {
        // Two white cards on a pale desk, each with two ovals: vivid red on
        // the first, washed-out pink on the second.
        use imageproc::drawing::draw_filled_rect_mut;
        use imageproc::rect::Rect;
        let mut desk = RgbImage::from_pixel(480, 300, Rgb([226, 224, 218]));
        let card = |x: i32| Quad {
            corners: [
                [x as f32, 80.0],
                [x as f32 + 80.0, 80.0],
                [x as f32 + 80.0, 205.0],
                [x as f32, 205.0],
            ],
        };
        for (x, ink) in [(120, Rgb([200, 30, 40])), (260, Rgb([236, 190, 196]))] {
            draw_filled_rect_mut(
                &mut desk,
                Rect::at(x + 3, 83).of_size(80, 125),
                Rgb([200, 198, 192]),
            );
            draw_filled_rect_mut(
                &mut desk,
                Rect::at(x, 80).of_size(80, 125),
                Rgb([246, 246, 244]),
            );
            for dy in [-17, 17] {
                draw_filled_ellipse_mut(&mut desk, (x + 40, 142 + dy), 27, 13, ink);
            }
        }
        let finder = CardFinder::default();
        let beside = finder.faint_symbol_cards_beside(&desk, &[card(120)]);
        assert_eq!(beside.len(), 1, "{beside:?}");
        assert!(beside[0].contains([300.0, 142.0]), "{beside:?}");
        assert!(finder.faint_symbol_cards_beside(&desk, &[]).is_empty());
        // Nothing beside a card far away.
        let far = card(120).map(|p| [p[0] - 110.0, p[1] - 400.0]);
        assert!(finder.faint_symbol_cards_beside(&desk, &[far]).is_empty());
    }

    #[test]
    fn an_outline_replaces_another_whose_faintest_side_barely_shows() {
        assert!(clearly_shows(6.9, 0.0));
        assert!(clearly_shows(2.4, 1.0));
        assert!(!clearly_shows(6.0, 3.05), "both outlines show all round");
        assert!(
            !clearly_shows(1.5, 0.5),
            "both faint, neither clearly fainter: noise decides nothing"
        );
        assert!(
            clearly_shows(0.49, 0.04),
            "a grey card's outline, against one through its paper"
        );
        assert!(clearly_shows(1.38, 0.28));
        assert!(!clearly_shows(0.3, 0.04), "nothing that shows");
    }

    #[test]
    fn a_card_in_perspective_is_found_and_a_near_triangle_is_not() {
        // A card seen tilted: the far side 70% of the near one.
        let card: &[(i32, i32)] = &[(60, 60), (130, 60), (145, 170), (45, 170)];
        // A bright patch of a card's size and proportions, but with a side a
        // quarter of the one opposite.
        let patch: &[(i32, i32)] = &[(250, 80), (280, 80), (320, 180), (210, 180)];
        let found = find_cards(&table(&[card, patch]));
        assert_eq!(found.len(), 1, "{found:?}");
        let centre = found[0].centre();
        assert!(
            (centre[0] - 95.0).abs() < 5.0 && (centre[1] - 115.0).abs() < 5.0,
            "{centre:?}"
        );
    }

    /// Where a point of a table tilted 50 degrees from facing the camera
    /// falls on an 800 x 600 picture, seen through `lens` times the guessed
    /// camera's focal length from `lens` times as far (table units: a card
    /// is 1 wide).
    fn steep_view(lens: f32) -> impl Fn(f32, f32) -> (i32, i32) {
        let camera = Camera::guess(800, 600);
        let tilt = 50f32.to_radians();
        move |x: f32, y: f32| {
            let (depth, height) = (9.0 * lens + y * tilt.sin(), -y * tilt.cos());
            let focal = lens * camera.focal;
            let u = camera.principal[0] + focal * x / depth;
            let v = camera.principal[1] + focal * height / depth;
            (u.round() as i32, v.round() as i32)
        }
    }

    /// Three rows of four cards (1 x 1.56, gaps of 0.3) on the table
    /// `project` sees, as picture polygons.
    fn twelve_cards(project: &impl Fn(f32, f32) -> (i32, i32)) -> Vec<Vec<(i32, i32)>> {
        (0..12)
            .map(|i| {
                let (x, y) = (-2.45 + 1.3 * (i % 4) as f32, 1.86 - 1.86 * (i / 4) as f32);
                vec![
                    project(x, y),
                    project(x + 1.0, y),
                    project(x + 1.0, y - 1.56),
                    project(x, y - 1.56),
                ]
            })
            .collect()
    }

    #[test]
    fn cards_far_away_on_a_steep_table_are_found_and_a_square_is_not() {
        // Seen by the guessed camera of an 800 x 600 picture: the far row's
        // pictures are about square, the near row's close to a card's own
        // shape.
        let project = steep_view(1.0);
        let cards = twelve_cards(&project);
        let far = Quad {
            corners: cards[0]
                .iter()
                .map(|&(u, v)| [u as f32, v as f32])
                .collect::<Vec<_>>()[..4]
                .try_into()
                .expect("four corners"),
        };
        assert!(
            far.aspect() < 1.2,
            "the far card looks square: {}",
            far.aspect()
        );
        // A square sheet of paper on the table beside the near row. (A
        // square in the picture would be a card's shape on the table, and
        // far away a square on the table looks like a card in the picture.)
        let (x, y) = (2.95, -1.86);
        let square = [
            project(x, y),
            project(x + 1.3, y),
            project(x + 1.3, y - 1.3),
            project(x, y - 1.3),
        ];
        let mut polygons: Vec<&[(i32, i32)]> = cards.iter().map(Vec::as_slice).collect();
        polygons.push(&square);
        let found = find_cards(&table_of_size(800, 600, &polygons));
        assert_eq!(found.len(), 12, "{found:?}");
        let (u, v) = project(x + 0.65, y - 0.65);
        assert!(found.iter().all(|q| !q.contains([u as f32, v as f32])));
    }

    #[test]
    fn a_steep_table_through_a_long_lens_is_found_stretched_and_three_squares_are_not() {
        // Through a lens of twice the guessed focal length from twice as
        // far: every card about square on the picture, with too little
        // perspective to be judged a card in space.
        let cards = twelve_cards(&steep_view(2.0));
        let polygons: Vec<&[(i32, i32)]> = cards.iter().map(Vec::as_slice).collect();
        // Each card with a red oval in its middle (a card's ink), or none.
        let table = |count: usize, inked: bool| {
            let mut image = table_of_size(800, 600, &polygons[..count]);
            for corners in cards.iter().take(count).filter(|_| inked) {
                let x = corners.iter().map(|c| c.0).sum::<i32>() / 4;
                let y = corners.iter().map(|c| c.1).sum::<i32>() / 4;
                draw_filled_ellipse_mut(&mut image, (x, y), 14, 6, Rgb([200, 30, 40]));
            }
            image
        };
        let finder = CardFinder::default();
        let stretched = |count: usize, inked: bool| {
            let readings = finder.find_each_size_stretched(&table(count, inked), 1, 1.0);
            readings.first().map_or(0, Vec::len)
        };
        assert!(
            finder.find(&table(12, true)).len() < 3,
            "judged in space, few are cards"
        );
        assert_eq!(stretched(12, true), 12);
        // Three such outlines alone are too few to stretch a picture by, and
        // blank ones are a page's cells, not cards.
        assert_eq!(stretched(3, true), 0);
        assert_eq!(stretched(12, false), 0);
    }

    #[test]
    fn a_blob_by_a_card_found_around_its_symbols_is_part_of_it_and_a_neighbour_is_not() {
        let rectangle = |x: f32, y: f32, w: f32, h: f32| {
            Found::whole(Quad {
                corners: [[x, y], [x + w, y], [x + w, y + h], [x, y + h]],
            })
        };
        // A card 100 x 156 laid around its symbols.
        let card = [rectangle(100.0, 100.0, 100.0, 156.0)];
        // The paper inside one of its open symbols, and its shadow just
        // beyond its lower right corner.
        let inside = rectangle(130.0, 150.0, 40.0, 20.0).quad;
        let shadow = rectangle(195.0, 240.0, 30.0, 30.0).quad;
        assert!(within_symbol_card(&inside, &card));
        assert!(within_symbol_card(&shadow, &card));
        // A neighbouring card, whole or its outline found only in part.
        let neighbour = rectangle(205.0, 100.0, 100.0, 156.0).quad;
        let part = rectangle(215.0, 130.0, 60.0, 60.0).quad;
        assert!(!within_symbol_card(&neighbour, &card));
        assert!(!within_symbol_card(&part, &card));
    }

    #[test]
    fn a_lone_card_among_smaller_shapes_is_in_the_reading_of_a_larger_size() {
        // Six small card-shaped patches of a paler grey than the card (a
        // cloth's pattern), and the card, about nine times their area.
        let mut image = table_of_size(
            480,
            300,
            &[&[(200, 140), (275, 140), (275, 257), (200, 257)]],
        );
        for i in 0..6 {
            let (x, y) = (40 + 60 * i, 40);
            let patch =
                [(x, y), (x + 20, y), (x + 20, y + 32), (x, y + 32)].map(|(x, y)| Point::new(x, y));
            draw_polygon_mut(&mut image, &patch, Rgb([170, 170, 165]));
        }
        let finder = CardFinder::default();
        let readings = finder.find_each_size(&image, 3);
        assert_eq!(finder.find(&image), readings[0]);
        assert_eq!(readings[0].len(), 6, "the patches outnumber the card");
        assert_eq!(readings.len(), 2, "one larger size: the card's");
        assert_eq!(readings[1].len(), 1);
        assert!(readings[1][0].contains([230.0, 187.0]));
    }

    #[test]
    fn the_paper_inside_open_symbols_is_no_card_where_the_cloth_is_as_bright() {
        use imageproc::drawing::draw_filled_rect_mut;
        use imageproc::rect::Rect;
        let rect = |image: &mut GrayImage, (x, y, w, h): (i32, i32, u32, u32), value: u8| {
            draw_filled_rect_mut(image, Rect::at(x, y).of_size(w, h), Luma([value]));
        };
        // Cut below the cloth's whiteness, cloth and touching cards are one
        // blob too large for a card; the paper inside each open symbol (a
        // ring of ink round bare paper) lies in a hole of it, card-shaped.
        let mut image = GrayImage::from_pixel(400, 300, Luma([150]));
        for i in 0..4 {
            let x = 20 + 60 * i;
            rect(&mut image, (x, 40, 46, 30), 60);
            rect(&mut image, (x + 3, 43, 40, 24), 230);
        }
        // A card in a hole of the cloth's blob (a dark edge all round) shows
        // its symbol in its middle: a card.
        rect(&mut image, (300, 150, 84, 122), 50);
        rect(&mut image, (305, 155, 74, 112), 230);
        rect(&mut image, (322, 199, 40, 24), 60);
        let found = CardFinder::default().find_at_level(&image, 100);
        assert_eq!(
            found.len(),
            1,
            "{:?}",
            found.iter().map(|f| f.quad).collect::<Vec<_>>()
        );
        assert!(found[0].quad.contains([342.0, 211.0]));
    }

    #[test]
    fn a_card_filling_an_upright_frame_is_found_and_a_block_of_cards_still_parts() {
        // One card over 60% of a 300x400 picture, as a phone held upright
        // frames it.
        let close_up = table_of_size(300, 400, &[&[(30, 15), (270, 15), (270, 385), (30, 385)]]);
        let cards = find_cards(&close_up);
        assert_eq!(cards.len(), 1, "{cards:?}");
        assert!(cards[0].area() > 0.6 * 300.0 * 400.0);
        // Six cards two rows deep, a hair apart, covering over half the
        // picture: the six are read, not the block around them.
        let mut polygons: Vec<Vec<(i32, i32)>> = Vec::new();
        for row in 0..2 {
            for col in 0..3 {
                let (x, y) = (20 + 122 * col, 10 + 186 * row);
                polygons.push(vec![(x, y), (x + 118, y), (x + 118, y + 182), (x, y + 182)]);
            }
        }
        let refs: Vec<&[(i32, i32)]> = polygons.iter().map(Vec::as_slice).collect();
        let block = table_of_size(400, 400, &refs);
        let cards = find_cards(&block);
        assert_eq!(cards.len(), 6, "{cards:?}");
    }
}
