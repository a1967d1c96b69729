//! The rendered stress suite: tables under named hard conditions (white cards
//! on a white desk, light wood, clutter and no card, one card close up, 21
//! cards touching, a steep angle, a dim warm room, cards among lookalikes,
//! one card alone on white, a few cards on a cluttered white desk, nine or
//! twelve cards on a busy surface, one card filling an upright frame, twelve
//! cards across the room from a webcam, twelve from a phone moving over them,
//! twelve with their rows turned any way across the picture, twelve
//! overexposed, twelve under a lamp's reflection on a glossy table, twelve
//! with things set down over some of them; on real photographs: twelve or
//! none on photographed pages of print, twelve or none on photographed wood,
//! stone and cloth; real cards, cut from the shared data's table photos, on
//! wallpapers and a white desk),
//! rendered by `snapsolve_synth` from fixed seeds so that their cards and
//! corners are known, read by the photo path, and scored card by card.
//!
//! `snapsolve eval set-stress` prints the table; `tests/set_stress.rs` holds
//! a floor per condition. Nothing here was used to train the card network
//! (training renders single crops, not tables, from other seeds).

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use image::{Rgb, RgbImage};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use snapsolve_synth::{Edition, Lighting, PlacedCard, Surface, Table, TableSpec, render_table};
use snapsolve_vision::draw::draw_quad_outline_mut;
use snapsolve_vision::{Limits, Photo, Quad};

use super::classify::CardClassifier;
use super::eval::AttributeConfusion;
use super::example::seeded_cards;
use super::table::{Finders, TableCard, TableReading, read_table_with};
use crate::distort::PHONE_FOCAL;
use crate::sudoku_photo::labels::{Split, photos_in_split};

/// Lenses of [`Condition::OtherLens`]: focal length over the picture's
/// longer side.
const OTHER_FOCALS: [f32; 4] = [0.4, 1.2, 0.5, 1.5];

/// One named hard condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// White cards on a white desk: only their soft shadows mark their edges.
    WhiteOnWhite,
    /// Twelve cards on pale wood.
    LightWood,
    /// No card at all: paper, playing cards, a phone, notes and clutter.
    ClutterNoCards,
    /// Twelve cards with lookalikes lying among them.
    CardsAmongLookalikes,
    /// One card filling much of the frame.
    SingleCloseUp,
    /// Twenty-one cards laid edge to edge.
    TwentyOneTouching,
    /// Twelve cards seen 55 degrees from straight down by a phone's camera.
    SteepAngle,
    /// Twelve cards in a dim room under a warm bulb.
    DimWarm,
    /// One card alone on a white wall or pale desk, from close up to a
    /// quarter of the frame.
    AloneOnWhite,
    /// Six to nine cards on a white desk beside everyday things (clutter and
    /// a lookalike or two).
    WhiteDeskClutter,
    /// Nine or twelve cards on terrazzo, a speckled counter, a floral cloth
    /// or carpet.
    BusySurface,
    /// One card photographed up close with a phone held upright: the card
    /// fills 80-95% of a portrait frame's height, on a table or a white desk.
    FillingTheFrame,
    /// Twelve cards seen from across the room in a webcam's 960x720 frame:
    /// cards about 40 pixels wide.
    FarAway,
    /// Twelve cards in a 960x720 frame from a phone moving over the table:
    /// every point streaked by 4-15% of a card's width.
    MovingPhone,
    /// Twelve cards photographed with the phone turned any way to their
    /// rows: the layout turned up to a quarter either way, cards on their
    /// side in the picture or across it.
    TurnedLayout,
    /// Twelve cards overexposed 1.35-1.7 times: the paper clipped white, the
    /// tint inside striped symbols nearly gone.
    Overexposed,
    /// Twelve cards on a glossy table under a lamp: its bright reflection
    /// over some of the cards washes their ink out.
    LampGlare,
    /// Twelve cards, two or three of them partly covered by things set down
    /// over a corner (a phone, a note, a box).
    CoveredCards,
    /// Twelve cards laid on a photographed page of print (real photos of
    /// newspaper and handwritten sudoku pages, some with the table beside
    /// them): paper as white as the cards, print as dark as their ink, and a
    /// real camera's grain and light under them. Needs the shared data.
    OnPrintedPages,
    /// The same photographed pages with no card on them. Needs the shared
    /// data.
    PagesNoCards,
    /// Twelve cards on photographed table surfaces: wood, parquet, marble,
    /// stone, leather, cloth, cork, crumpled paper (GIMP's patterns,
    /// [`crate::textures`]), the grain a tenth to a quarter of the picture
    /// across. Needs Debian's `gimp-data`.
    TexturedTables,
    /// The same surfaces with clutter and lookalikes and no card. Needs
    /// Debian's `gimp-data`.
    TexturesNoCards,
    /// Real cards (faces cut from the shared data's table photos,
    /// [`super::faces`]) laid twelve, six, one or nine at a time on Debian's
    /// wallpapers and paper textures (surfaces nothing here was tuned on) or
    /// on a white desk. Needs the shared data and the wallpapers.
    PhotographedCards,
    /// Twelve cards seen 50 degrees from straight down through a lens other
    /// than a phone's main one: a wide-angle lens (focal length 0.4 or 0.5
    /// of the longer side) or a photo cropped to the table (1.2 or 1.5).
    /// (Last: a condition's place seeds its tables.)
    OtherLens,
}

impl Condition {
    /// Every condition, in report order.
    pub const ALL: [Condition; 24] = [
        Condition::WhiteOnWhite,
        Condition::LightWood,
        Condition::ClutterNoCards,
        Condition::CardsAmongLookalikes,
        Condition::SingleCloseUp,
        Condition::TwentyOneTouching,
        Condition::SteepAngle,
        Condition::DimWarm,
        Condition::AloneOnWhite,
        Condition::WhiteDeskClutter,
        Condition::BusySurface,
        Condition::FillingTheFrame,
        Condition::FarAway,
        Condition::MovingPhone,
        Condition::TurnedLayout,
        Condition::Overexposed,
        Condition::LampGlare,
        Condition::CoveredCards,
        Condition::OnPrintedPages,
        Condition::PagesNoCards,
        Condition::TexturedTables,
        Condition::TexturesNoCards,
        Condition::PhotographedCards,
        Condition::OtherLens,
    ];

    /// Short name for reports and `--only`.
    pub fn name(self) -> &'static str {
        match self {
            Condition::WhiteOnWhite => "white-on-white",
            Condition::LightWood => "light-wood",
            Condition::ClutterNoCards => "clutter-no-cards",
            Condition::CardsAmongLookalikes => "cards-among-lookalikes",
            Condition::SingleCloseUp => "single-close-up",
            Condition::TwentyOneTouching => "21-touching",
            Condition::SteepAngle => "steep-angle",
            Condition::OtherLens => "other-lens",
            Condition::DimWarm => "dim-warm",
            Condition::AloneOnWhite => "alone-on-white",
            Condition::WhiteDeskClutter => "white-desk-clutter",
            Condition::BusySurface => "busy-surface",
            Condition::FillingTheFrame => "filling-the-frame",
            Condition::FarAway => "far-away",
            Condition::MovingPhone => "moving-phone",
            Condition::TurnedLayout => "turned-layout",
            Condition::Overexposed => "overexposed",
            Condition::LampGlare => "lamp-glare",
            Condition::CoveredCards => "covered-cards",
            Condition::OnPrintedPages => "on-printed-pages",
            Condition::PagesNoCards => "pages-no-cards",
            Condition::TexturedTables => "textured-tables",
            Condition::TexturesNoCards => "textures-no-cards",
            Condition::PhotographedCards => "photographed-cards",
        }
    }

    /// Why the condition's tables cannot be rendered on this machine, if
    /// they cannot: some lie on photos of the shared data folder
    /// ([`crate::data`]) or on GIMP's patterns ([`crate::textures`]), and
    /// without them [`Condition::spec`] gives them the default surface.
    pub fn missing_input(self) -> Option<String> {
        match self {
            Condition::OnPrintedPages | Condition::PagesNoCards if printed_pages().is_empty() => {
                Some(format!(
                    "its tables lie on the sudoku photos of the shared data folder, which are not \
                     there (set {} or put the folder at ../shared/data)",
                    crate::data::DATA_ENV
                ))
            }
            Condition::TexturedTables | Condition::TexturesNoCards
                if crate::textures::stress_textures().is_empty() =>
            {
                Some(format!(
                    "its tables lie on GIMP's patterns, which are not there (install Debian's \
                     gimp-data, or set {} to a folder of .pat files)",
                    crate::textures::TEXTURES_ENV
                ))
            }
            Condition::PhotographedCards if super::faces::photographed_faces().is_none() => {
                Some(format!(
                    "its cards are cut from the table photos of the shared data folder, which are \
                     not there (set {} or put the folder at ../shared/data)",
                    crate::data::DATA_ENV
                ))
            }
            Condition::PhotographedCards if wallpapers().is_empty() => Some(format!(
                "its cards lie on Debian's wallpapers, which are not there (apt-get install {})",
                WALLPAPER_PACKAGES
            )),
            _ => None,
        }
    }

    /// The condition called `name`.
    pub fn by_name(name: &str) -> Option<Condition> {
        Condition::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The table `index` of this condition (both editions in turn).
    pub fn spec(self, index: usize) -> TableSpec {
        let seed = 7_000 + 100 * self as u64 + index as u64;
        let edition = Edition::ALL[index % 2];
        let cards = |n| seeded_cards(n, seed);
        let mut spec = TableSpec::new(cards(12), edition, seed);
        spec.card_shadows = true;
        match self {
            Condition::WhiteOnWhite => {
                spec.surface = Surface::White;
                spec.clutter = 0;
            }
            Condition::LightWood => spec.surface = Surface::LightWood,
            Condition::ClutterNoCards => {
                spec.cards = Vec::new();
                spec.clutter = 3;
                spec.distractors = 6;
            }
            Condition::CardsAmongLookalikes => spec.distractors = 4,
            Condition::SingleCloseUp => {
                spec.cards = cards(1);
                (spec.width, spec.height) = (960, 720);
            }
            Condition::TwentyOneTouching => {
                spec.cards = cards(21);
                (spec.width, spec.height, spec.columns) = (2000, 1500, 7);
                spec.gap = 0.0;
                spec.max_card_turn = 0.0;
            }
            Condition::SteepAngle => {
                spec.view_tilt = 55f32.to_radians();
                spec.view_focal = Some(PHONE_FOCAL);
            }
            Condition::OtherLens => {
                spec.view_tilt = 50f32.to_radians();
                // Every lens meets both editions (which alternate by index).
                spec.view_focal = Some(OTHER_FOCALS[(index / 2) % OTHER_FOCALS.len()]);
            }
            Condition::DimWarm => spec.lighting = Lighting::DimWarm,
            Condition::AloneOnWhite => {
                spec.cards = cards(1);
                spec.surface = Surface::White;
                spec.clutter = 0;
                spec.fill = [0.25, 0.4, 0.55, 0.7][index % 4];
            }
            Condition::WhiteDeskClutter => {
                spec.cards = cards(6 + index % 4);
                spec.columns = 3;
                spec.surface = Surface::White;
                spec.clutter = 3;
                spec.distractors = 1 + index % 2;
                spec.fill = 0.55;
            }
            Condition::BusySurface => {
                // Both counts with both editions (which alternate by index).
                if (index / 2).is_multiple_of(2) {
                    (spec.cards, spec.columns) = (cards(9), 3);
                }
                // Every surface meets both editions and both counts.
                spec.surface = Surface::BUSY[(index / 4 + index) % 4];
                spec.clutter = 0;
            }
            Condition::FarAway => {
                (spec.width, spec.height) = (960, 720);
                spec.fill = 0.3;
            }
            Condition::MovingPhone => {
                (spec.width, spec.height) = (960, 720);
                spec.lighting = Lighting::Moving;
            }
            Condition::TurnedLayout => spec.max_layout_turn = std::f32::consts::FRAC_PI_2,
            Condition::Overexposed => spec.lighting = Lighting::Overexposed,
            Condition::LampGlare => spec.lighting = Lighting::Glare,
            Condition::CoveredCards => spec.covers = 2 + index % 2,
            Condition::OnPrintedPages | Condition::PagesNoCards => {
                spec.backdrop = printed_page(index, seed);
                spec.clutter = 0;
                if self == Condition::PagesNoCards {
                    spec.cards = Vec::new();
                }
            }
            Condition::TexturedTables => {
                spec.backdrop = textured_table(index, &spec);
                spec.clutter = 0;
            }
            Condition::TexturesNoCards => {
                spec.backdrop = textured_table(index, &spec);
                spec.cards = Vec::new();
                spec.clutter = 3;
                spec.distractors = 4;
            }
            Condition::PhotographedCards => lay_photographed_cards(index, &mut spec),
            Condition::FillingTheFrame => {
                spec.cards = cards(1);
                (spec.width, spec.height) = (720, 960);
                spec.fill = [0.8, 0.85, 0.9, 0.95][index % 4];
                if index.is_multiple_of(3) {
                    spec.surface = Surface::White;
                }
            }
        }
        spec
    }
}

/// The photos of printed pages that [`Condition::OnPrintedPages`] lays
/// cards on: the validation part of the shared sudoku photos (their split,
/// `sudoku_photo::labels::split_of`), which the card network never learnt
/// from (it learnt not-a-card from the training part) and which are not the
/// held-out card-free photos `snapsolve eval set-photos` reads. Empty
/// without the shared data.
fn printed_pages() -> &'static [PathBuf] {
    static PAGES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    PAGES.get_or_init(|| {
        let Some(root) = crate::data::shared_data_dir() else {
            return Vec::new();
        };
        let mut pages = photos_in_split(&root, Split::Validation).unwrap_or_default();
        pages.sort();
        pages
    })
}

/// Tiles across and down in the backdrop of table `index`: one page close up
/// (print larger than the cards), or two or three pages a side spread over
/// the table (print the size a newspaper's is beside cards).
fn tiles_a_side(index: usize) -> u32 {
    1 + (index % 3) as u32
}

/// The backdrop of table `index`: pages of [`printed_pages`] laid side by
/// side ([`tiles_a_side`]), each a random window of a photo (60-100% of the
/// largest of a tile's shape), or `None` without the shared data.
fn printed_page(index: usize, seed: u64) -> Option<Arc<RgbImage>> {
    const TILE: (u32, u32) = (640, 480);
    let pages = printed_pages();
    if pages.is_empty() {
        return None;
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let side = tiles_a_side(index);
    let mut backdrop = RgbImage::new(side * TILE.0, side * TILE.1);
    for tile in 0..side * side {
        let path = &pages[rng.random_range(0..pages.len())];
        let photo = snapsolve_vision::read_image(path, Limits::default()).ok()?;
        let page = snapsolve_synth::photo_window(&photo, TILE.0, TILE.1, 0.6..=1.0, &mut rng);
        image::imageops::replace(
            &mut backdrop,
            &page,
            i64::from(tile % side * TILE.0),
            i64::from(tile / side * TILE.1),
        );
    }
    Some(Arc::new(backdrop))
}

/// The backdrop of table `index` on a photographed surface: the stress
/// suite's textures in turn ([`crate::textures::stress_textures`]: the
/// networks never trained on them), each tiled at a size that makes its
/// repeat a tenth to a quarter of the picture's longer side; `None` without
/// them.
fn textured_table(index: usize, spec: &TableSpec) -> Option<Arc<RgbImage>> {
    let textures = crate::textures::stress_textures();
    let texture = textures.get(index.checked_rem(textures.len())?)?;
    let mut rng = StdRng::seed_from_u64(spec.seed ^ 0x7e57);
    let repeat = rng.random_range(0.1..0.25f32) * spec.width.max(spec.height) as f32;
    let scale = repeat / texture.tile.width().max(texture.tile.height()) as f32;
    Some(Arc::new(crate::textures::tiled(
        &texture.tile,
        scale,
        spec.width,
        spec.height,
    )))
}

/// Table `index` of [`Condition::PhotographedCards`]: twelve, six, one or
/// nine cards with photographed faces, on a wallpaper (two tables in three)
/// or a white desk; left as it is without the faces.
fn lay_photographed_cards(index: usize, spec: &mut TableSpec) {
    let Some(faces) = super::faces::photographed_faces() else {
        return;
    };
    let count = [12, 6, 1, 9][index % 4];
    let mut cards = faces.cards();
    cards.shuffle(&mut StdRng::seed_from_u64(spec.seed));
    cards.truncate(count);
    spec.cards = cards;
    spec.columns = if count == 12 { 4 } else { 3 };
    if count == 1 {
        // A lone card at the size the faces were cut (up to 160 pixels
        // wide), not blown up: a smaller frame.
        (spec.width, spec.height) = (640, 480);
        spec.fill = [0.25, 0.35, 0.45, 0.55][index / 4 % 4];
    }
    spec.faces = Some(faces);
    spec.clutter = 0;
    spec.backdrop = if index.is_multiple_of(3) {
        spec.surface = Surface::White;
        None
    } else {
        wallpaper(index, spec)
    };
}

/// The Debian packages that ship the wallpapers and paper textures of
/// `eval/wallpapers_card_free.jsonl` (a card-free source nothing here was
/// tuned on), as `.ci/run` installs them.
pub const WALLPAPER_PACKAGES: &str = "mate-backgrounds ukui-wallpapers \
    plasma-workspace-wallpapers gnome-backgrounds mypaint-data-extras";

/// Where the pictures of `eval/wallpapers_card_free.jsonl` lie.
pub const WALLPAPER_ROOT: &str = "/usr/share";

/// The wallpapers and paper textures of `eval/wallpapers_card_free.jsonl`
/// found on this machine (under [`WALLPAPER_ROOT`]).
fn wallpapers() -> &'static [PathBuf] {
    static WALLPAPERS: OnceLock<Vec<PathBuf>> = OnceLock::new();
    WALLPAPERS.get_or_init(|| {
        let list = include_str!("../../../../eval/wallpapers_card_free.jsonl");
        super::eval::parse_photo_labels(list)
            .unwrap_or_default()
            .into_iter()
            .map(|label| std::path::Path::new(WALLPAPER_ROOT).join(label.image))
            .filter(|path| path.is_file())
            .collect()
    })
}

/// A window (half to all of it) of one of the [`wallpapers`], chosen by
/// `index`, at the table's size; `None` without them.
fn wallpaper(index: usize, spec: &TableSpec) -> Option<Arc<RgbImage>> {
    let papers = wallpapers();
    let path = papers.get(index.wrapping_mul(7919).checked_rem(papers.len())?)?;
    let photo = snapsolve_vision::read_image(path, Limits::default()).ok()?;
    let mut rng = StdRng::seed_from_u64(spec.seed ^ 0x3a11);
    Some(Arc::new(snapsolve_synth::photo_window(
        &photo,
        spec.width,
        spec.height,
        0.5..=1.0,
        &mut rng,
    )))
}

/// A single-card chip of `placed` cut from `image` as a video's card
/// detector might cut it: its upright bounding box grown by `margin` of its
/// size on every side (parts of its neighbours in view), within the picture.
pub fn chip(image: &RgbImage, placed: &PlacedCard, margin: f32) -> RgbImage {
    let xs = placed.corners.map(|p| p[0]);
    let ys = placed.corners.map(|p| p[1]);
    let low = |v: [f32; 4]| v.iter().copied().fold(f32::MAX, f32::min);
    let high = |v: [f32; 4]| v.iter().copied().fold(f32::MIN, f32::max);
    let (mx, my) = (margin * (high(xs) - low(xs)), margin * (high(ys) - low(ys)));
    let (left, top) = (
        (low(xs) - mx).max(0.0) as u32,
        (low(ys) - my).max(0.0) as u32,
    );
    let right = ((high(xs) + mx) as u32).min(image.width());
    let bottom = ((high(ys) + my) as u32).min(image.height());
    image::imageops::crop_imm(
        image,
        left,
        top,
        right.saturating_sub(left),
        bottom.saturating_sub(top),
    )
    .to_image()
}

/// How the photo path did on some tables.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StressScore {
    /// Tables read.
    pub tables: usize,
    /// True cards on them.
    pub cards: usize,
    /// True cards found where they lie.
    pub found: usize,
    /// Of those, named right.
    pub right: usize,
    /// True cards whose name the reading holds, wherever it outlined them:
    /// what a player sees, and what per-photo measures (card multisets) count.
    pub named: usize,
    /// Cards read on a true card but with an outline too far off to count as found.
    pub misplaced: usize,
    /// Cards read where no true card lies.
    pub false_cards: usize,
    /// Tables with every card right and no false card.
    pub tables_right: usize,
    /// Found cards' attributes, true against read: which naming mistakes a
    /// condition causes.
    pub confusion: AttributeConfusion,
}

impl StressScore {
    /// Share of true cards found and named right (1 when there are none).
    pub fn card_accuracy(&self) -> f64 {
        if self.cards == 0 {
            return 1.0;
        }
        self.right as f64 / self.cards as f64
    }

    /// Share of true cards whose name the reading holds, wherever it outlines
    /// them (1 when there are none).
    pub fn name_accuracy(&self) -> f64 {
        if self.cards == 0 {
            return 1.0;
        }
        self.named as f64 / self.cards as f64
    }

    fn add(&mut self, other: &StressScore) {
        self.tables += other.tables;
        self.cards += other.cards;
        self.found += other.found;
        self.right += other.right;
        self.named += other.named;
        self.misplaced += other.misplaced;
        self.false_cards += other.false_cards;
        self.tables_right += other.tables_right;
        self.confusion.add(&other.confusion);
    }
}

/// Renders and reads the tables numbered `tables` of `condition` with `finders`;
/// `look(index, table, reading, score)` sees each rendered table (picture
/// and truth), its reading (to draw them) and its score.
pub fn run_condition(
    condition: Condition,
    tables: std::ops::Range<usize>,
    classifier: &dyn CardClassifier,
    finders: Finders,
    look: &mut dyn FnMut(usize, &Table, &TableReading, &StressScore),
) -> StressScore {
    let mut total = StressScore::default();
    for index in tables {
        let table = render_table(&condition.spec(index));
        let photo = Photo::from_upright(table.image.clone());
        let reading = read_table_with(&photo, classifier, finders);
        let score = score_table(&reading, &table, 0.08);
        look(index, &table, &reading, &score);
        total.add(&score);
    }
    total
}

/// The card of `reading` whose middle lies on `placed`, a true card of the
/// rendered table read: how the examples that study the suite's mistakes
/// pair each true card with its reading.
pub fn read_card_on<'a>(reading: &'a TableReading, placed: &PlacedCard) -> Option<&'a TableCard> {
    let truth = Quad {
        corners: placed.corners,
    };
    reading
        .cards
        .iter()
        .find(|card| truth.contains(card.upright.centre()))
}

/// Thin outlines over the answer, to see what the finder got wrong: where
/// each card truly lies (magenta) and every card read (black).
pub fn draw_truth_and_outlines(picture: &mut RgbImage, table: &Table, reading: &TableReading) {
    let thickness = (picture.width().max(picture.height()) as f32 / 1000.0).max(1.0);
    for placed in &table.cards {
        let quad = Quad {
            corners: placed.corners,
        };
        draw_quad_outline_mut(picture, &quad, thickness, Rgb([255, 0, 255]));
    }
    for card in &reading.cards {
        draw_quad_outline_mut(picture, &card.stored, thickness, Rgb([0, 0, 0]));
    }
}

/// Scores a reading against the rendered truth: a true card is found when a
/// read card has every corner within `tolerance` card widths of its own
/// (each read card matches at most one true card); a read card left over is
/// misplaced when its centre lies on a true card, false otherwise.
pub fn score_table(reading: &TableReading, table: &Table, tolerance: f32) -> StressScore {
    let mut used = vec![false; reading.cards.len()];
    let (mut found, mut right) = (0, 0);
    let mut confusion = AttributeConfusion::default();
    for placed in &table.cards {
        let tolerance = tolerance * card_width(&placed.corners);
        let hit = reading.cards.iter().enumerate().find(|(i, c)| {
            !used[*i] && corner_error(&c.stored.corners, &placed.corners) < tolerance
        });
        if let Some((i, card)) = hit {
            used[i] = true;
            found += 1;
            right += usize::from(card.card == placed.card);
            confusion.count(placed.card, card.card);
        }
    }
    let (mut misplaced, mut false_cards) = (0, 0);
    for (card, _) in reading.cards.iter().zip(&used).filter(|(_, used)| !**used) {
        let centre = card.stored.centre();
        let on_a_card = table.cards.iter().any(|placed| {
            Quad {
                corners: placed.corners,
            }
            .contains(centre)
        });
        if on_a_card {
            misplaced += 1;
        } else {
            false_cards += 1;
        }
    }
    let named = table
        .cards
        .iter()
        .filter(|placed| reading.cards.iter().any(|c| c.card == placed.card))
        .count();
    StressScore {
        tables: 1,
        cards: table.cards.len(),
        found,
        right,
        named,
        misplaced,
        false_cards,
        tables_right: usize::from(right == table.cards.len() && misplaced + false_cards == 0),
        confusion,
    }
}

/// Largest distance between matching corners, over the four ways a found
/// quadrilateral can start (the finder orders corners from the picture's
/// view, the renderer from the card's).
pub fn corner_error(found: &[[f32; 2]; 4], truth: &[[f32; 2]; 4]) -> f32 {
    (0..4)
        .map(|shift| {
            (0..4)
                .map(|i| {
                    let (a, b) = (found[(i + shift) % 4], truth[i]);
                    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
                })
                .fold(0.0f32, f32::max)
        })
        .fold(f32::INFINITY, f32::min)
}

/// The shorter side of a card's outline.
pub fn card_width(quad: &[[f32; 2]; 4]) -> f32 {
    let d = |a: [f32; 2], b: [f32; 2]| ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
    d(quad[0], quad[1]).min(d(quad[1], quad[2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_conditions_differ() {
        for c in Condition::ALL {
            assert_eq!(Condition::by_name(c.name()), Some(c));
        }
        assert!(Condition::ClutterNoCards.spec(0).cards.is_empty());
        assert_eq!(Condition::TwentyOneTouching.spec(1).cards.len(), 21);
        assert_ne!(
            Condition::WhiteOnWhite.spec(0).seed,
            Condition::LightWood.spec(0).seed
        );
    }

    #[test]
    fn corner_error_ignores_where_the_outline_starts() {
        let truth = [[0.0, 0.0], [10.0, 0.0], [10.0, 15.0], [0.0, 15.0]];
        let turned = [truth[2], truth[3], truth[0], truth[1]];
        assert_eq!(corner_error(&turned, &truth), 0.0);
        assert_eq!(card_width(&truth), 10.0);
    }
}
