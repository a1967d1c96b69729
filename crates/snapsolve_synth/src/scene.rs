//! Whole pictures: one card as a classifier sees it (a crop cut from a
//! photographed scene) and whole tables of cards with their true corners.

use std::sync::Arc;

use image::{RgbImage, RgbaImage};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use snapsolve_set::Card;

use crate::camera::{Camera, CastShadow, draw_clutter, fill_background};
use crate::deck::{CardStyle, Edition};
use crate::draw::{CARD_ASPECT, render_card};
use crate::faces::CardFaces;
use crate::geometry::{Quad, composite_card, warp_quad};
use crate::surfaces::{
    fill_carpet, fill_floral_cloth, fill_light_wood, fill_speckled_counter, fill_terrazzo,
    fill_white,
};
use imageproc::geometric_transformations::Projection;

/// Share of rendered crops with a [`CastShadow`] across the card.
pub const CROP_SHADOW_SHARE: f64 = 0.4;

/// Share of rendered crops cut 3-12% larger than the card all round.
pub const LOOSE_CROP_SHARE: f64 = 0.25;
/// How strongly a faded crop's stripes or dots are inked (see
/// [`render_crop_on`]): real cards far away, washed out or worn show their
/// stripes as a tint a tenth as deep as the outline or less, where the
/// printed pattern shrunk down gives a third.
pub const FADED_TEXTURE_STRENGTH: std::ops::Range<f32> = 0.15..0.7;

/// Renders `card` the way a detector hands it to a classifier: drawn, laid on
/// a background with a random tilt, in [`CROP_SHADOW_SHARE`] of the crops
/// partly shaded by a cast shadow, photographed by a random [`Camera`], then
/// cut back out of a slightly wrong quadrilateral into an upright
/// `width` x `height` crop, turned by 180° half of the time.
pub fn render_crop(
    card: Card,
    edition: Edition,
    width: u32,
    height: u32,
    rng: &mut StdRng,
) -> RgbImage {
    render_crop_on(card, edition, width, height, None, 0.0, rng)
}

/// [`render_crop`] with the card laid on `backdrop` (a random window of it,
/// 30-100% of its shorter side, scaled to the scene) where one is given, on
/// a random procedural surface otherwise (drawing the same random numbers as
/// [`render_crop`] then); with a chance of `faded_stripes` (0 to 1) its
/// stripes or dots are inked at only [`FADED_TEXTURE_STRENGTH`] of the
/// print. At 0 nothing is drawn for it: the crops are those rendered
/// before it existed.
pub fn render_crop_on(
    card: Card,
    edition: Edition,
    width: u32,
    height: u32,
    backdrop: Option<&RgbImage>,
    faded_stripes: f64,
    rng: &mut StdRng,
) -> RgbImage {
    let mut style = CardStyle::random(edition, rng);
    if faded_stripes > 0.0 && rng.random_bool(faded_stripes.min(1.0)) {
        style.texture_strength = rng.random_range(FADED_TEXTURE_STRENGTH);
    }
    let card_w = width as f32 * rng.random_range(0.75..1.5);
    let card_h = card_w * CARD_ASPECT;
    let drawn = render_card(card, &style, card_w.round() as u32);
    let margin = 0.25 * card_w;
    let (scene_w, scene_h) = (
        (card_w + 2.0 * margin) as u32,
        (card_h + 2.0 * margin) as u32,
    );
    let mut scene = RgbImage::new(scene_w, scene_h);
    match backdrop {
        Some(photo) => scene = photo_window(photo, scene_w, scene_h, 0.3..=1.0, rng),
        None => fill_background(&mut scene, rng),
    }
    let tilt = 0.1 * card_w;
    let angle = rng.random_range(-0.5..0.5f32);
    let quad = place(
        [scene_w as f32 / 2.0, scene_h as f32 / 2.0],
        [card_w, card_h],
        angle,
        |_| [rng.random_range(-tilt..tilt), rng.random_range(-tilt..tilt)],
    );
    composite_card(&mut scene, &drawn, &quad);
    if rng.random_bool(CROP_SHADOW_SHARE) {
        CastShadow::random(rng).apply(&mut scene);
    }
    Camera::random(rng, card_w / 96.0).apply(&mut scene, rng);
    // A detector's corners are a little off: sometimes inside the card,
    // sometimes outside; one crop in four is cut loosely, with table around
    // the card (a loose crop is still a card, and `set card` gets such pictures).
    let err = 0.04 * card_w;
    let loose = if rng.random_bool(LOOSE_CROP_SHARE) {
        rng.random_range(1.03..1.12f32)
    } else {
        1.0
    };
    let [cx, cy] = [scene_w as f32 / 2.0, scene_h as f32 / 2.0];
    let found: Quad = quad.map(|p| {
        [
            cx + (p[0] - cx) * loose + rng.random_range(-err..err),
            cy + (p[1] - cy) * loose + rng.random_range(-err..err),
        ]
    });
    let mut crop = warp_quad(&scene, &found, width, height);
    if rng.random_bool(0.5) {
        image::imageops::rotate180_in_place(&mut crop);
    }
    crop
}

/// Corners of a `size` card centred at `centre`, turned by `angle` radians,
/// each corner then moved by `wobble(i)` (perspective).
pub(crate) fn place(
    centre: [f32; 2],
    size: [f32; 2],
    angle: f32,
    mut wobble: impl FnMut(usize) -> [f32; 2],
) -> Quad {
    let (c, s) = (angle.cos(), angle.sin());
    let (hw, hh) = (size[0] / 2.0, size[1] / 2.0);
    let local = [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]];
    std::array::from_fn(|i| {
        let [x, y] = local[i];
        let d = wobble(i);
        [
            centre[0] + c * x - s * y + d[0],
            centre[1] + s * x + c * y + d[1],
        ]
    })
}

/// What to put on a table.
#[derive(Clone, Debug)]
pub struct TableSpec {
    /// The cards, laid out row by row in a grid.
    pub cards: Vec<Card>,
    /// Deck edition of every card.
    pub edition: Edition,
    /// Picture size in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
    /// Cards per row.
    pub columns: usize,
    /// Gap between neighbouring cards as a fraction of a card width (0 = touching).
    pub gap: f32,
    /// Largest random turn of each card, in radians (the whole layout also
    /// turns, by up to `max_layout_turn`).
    pub max_card_turn: f32,
    /// Largest random turn of the whole layout, in radians: 0.2 by default
    /// (a photo taken along the rows); up to a quarter turn, the rows run
    /// any way across the picture and the cards lie on their side in it.
    pub max_layout_turn: f32,
    /// Number of non-card objects drawn on the table.
    pub clutter: usize,
    /// Whether to add camera distortions (lighting, blur, noise, JPEG).
    pub camera: bool,
    /// What the cards lie on.
    pub surface: Surface,
    /// A photograph to lay the cards on instead of `surface` (a page of
    /// print, a real table): scaled to cover the picture and cut to its
    /// shape, centred. Real photos carry what no procedural surface does
    /// (their own camera's grain, blur, light and print).
    pub backdrop: Option<Arc<RgbImage>>,
    /// Photographed faces to lay instead of drawn cards, for the cards that
    /// have one (real print and paper; see [`CardFaces`]).
    pub faces: Option<Arc<CardFaces>>,
    /// The light and camera, when `camera` is on.
    pub lighting: Lighting,
    /// Whether each card throws a soft shadow on the table (on a white
    /// table, the shadow is all that marks a card's edge).
    pub card_shadows: bool,
    /// Things that look like cards laid on the table under the cards: blank
    /// paper, playing cards, printed pages, phones, notes.
    pub distractors: usize,
    /// Things set down over the cards after them (a phone, a note, a box),
    /// each over a corner of a card, hiding a fifth to a third of it.
    pub covers: usize,
    /// Share of the picture's width or height the layout fills (0.7 by
    /// default; less leaves more table around smaller cards).
    pub fill: f32,
    /// How far the camera looks away from straight down, in radians: the
    /// far side of the table comes out smaller (0 = straight down).
    pub view_tilt: f32,
    /// With a tilt, the focal length of the camera as a share of the
    /// picture's longer side (a phone's main camera about 0.75), or `None`
    /// for the trapezoid warp the committed detector was trained on (see
    /// `tilted_view`).
    pub view_focal: Option<f32>,
    /// Seed of everything random.
    pub seed: u64,
}

/// What the cards lie on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// Any of [`fill_background`]'s surfaces.
    Random,
    /// A white or off-white desk or wall.
    White,
    /// Light wood: pale yellow-brown with grain.
    LightWood,
    /// Terrazzo: cement full of stone chips from black to white.
    Terrazzo,
    /// A speckled stone counter: dense dark and light grains.
    SpeckledCounter,
    /// A floral tablecloth, some petals as white as a card.
    FloralCloth,
    /// Grey or brown carpet: coarse grain, patches of wear.
    Carpet,
}

impl Surface {
    /// The busy surfaces, which beat a finder looking for white paper on a
    /// calm background.
    pub const BUSY: [Surface; 4] = [
        Surface::Terrazzo,
        Surface::SpeckledCounter,
        Surface::FloralCloth,
        Surface::Carpet,
    ];
}

/// How the table is lit and shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lighting {
    /// Any of [`Camera::random`]'s situations.
    Random,
    /// A dim room under warm light: underexposed, orange, noisy.
    DimWarm,
    /// Any of [`Camera::random`]'s situations, with the camera moving
    /// ([`Camera::moving`]).
    Moving,
    /// Any of [`Camera::random`]'s situations, overexposed
    /// ([`Camera::overexposed`]).
    Overexposed,
    /// Any of [`Camera::random`]'s situations, with a lamp's reflection
    /// over the cards ([`Camera::glaring`]).
    Glare,
}

impl TableSpec {
    /// A typical table: the given cards, four per row in a 1280x960 picture, a small gap, camera effects.
    pub fn new(cards: Vec<Card>, edition: Edition, seed: u64) -> TableSpec {
        TableSpec {
            cards,
            edition,
            width: 1280,
            height: 960,
            columns: 4,
            gap: 0.2,
            max_card_turn: 0.15,
            max_layout_turn: 0.2,
            clutter: 2,
            camera: true,
            surface: Surface::Random,
            backdrop: None,
            faces: None,
            lighting: Lighting::Random,
            card_shadows: false,
            distractors: 0,
            covers: 0,
            fill: 0.7,
            view_tilt: 0.0,
            view_focal: None,
            seed,
        }
    }
}

/// A card placed on a rendered table.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedCard {
    /// Which card.
    pub card: Card,
    /// Its corners in picture pixels, top-left first in the card's own upright frame.
    pub corners: Quad,
}

/// A rendered table and the truth about it.
#[derive(Clone, Debug)]
pub struct Table {
    /// The picture.
    pub image: RgbImage,
    /// Every card on it, in `TableSpec::cards` order.
    pub cards: Vec<PlacedCard>,
    /// The corners of the things set down over the cards (`TableSpec::covers`).
    pub covers: Vec<Quad>,
}

/// Renders a table: surface, clutter and distractors, then the cards (with
/// their shadows) in a turned grid that fills `fill` of the picture, then
/// the view's tilt, then the camera.
pub fn render_table(spec: &TableSpec) -> Table {
    let mut rng = StdRng::seed_from_u64(spec.seed);
    let mut image = RgbImage::new(spec.width.max(16), spec.height.max(16));
    match &spec.backdrop {
        Some(photo) => cover_with(&mut image, photo),
        None => fill_surface(&mut image, spec.surface, &mut rng),
    }
    draw_clutter(&mut image, spec.clutter, &mut rng);
    let n = spec.cards.len();
    let columns = spec.columns.clamp(1, n.max(1));
    let rows = n.div_ceil(columns).max(1);
    let (w, h) = (image.width() as f32, image.height() as f32);
    // Cards lie landscape or portrait on the table, whichever fits the grid better.
    let pitch_x = 1.0 + spec.gap;
    let pitch_y = CARD_ASPECT + spec.gap;
    let fill = spec.fill.clamp(0.05, 1.0);
    let card_w = (fill * w / (columns as f32 * pitch_x)).min(fill * h / (rows as f32 * pitch_y));
    if spec.distractors > 0 {
        let size = if n == 0 { 0.12 * w.min(h) } else { card_w };
        lay_distractors(&mut image, spec.distractors, size, &mut rng);
    }
    let layout_turn = rng.random_range(-spec.max_layout_turn..spec.max_layout_turn.max(1e-6));
    let (c, s) = (layout_turn.cos(), layout_turn.sin());
    let style = CardStyle::random(spec.edition, &mut rng);
    let mut cards = Vec::with_capacity(n);
    for (i, &card) in spec.cards.iter().enumerate() {
        let (col, row) = ((i % columns) as f32, (i / columns) as f32);
        let gx = (col - (columns as f32 - 1.0) / 2.0) * pitch_x * card_w;
        let gy = (row - (rows as f32 - 1.0) / 2.0) * pitch_y * card_w;
        let centre = [w / 2.0 + c * gx - s * gy, h / 2.0 + s * gx + c * gy];
        let mut turn = layout_turn + rng.random_range(-spec.max_card_turn..=spec.max_card_turn);
        if rng.random_bool(0.5) {
            turn += std::f32::consts::PI;
        }
        let tilt = 0.03 * card_w;
        let corners = place(centre, [card_w, card_w * CARD_ASPECT], turn, |_| {
            [
                rng.random_range(-tilt..=tilt),
                rng.random_range(-tilt..=tilt),
            ]
        });
        if spec.card_shadows {
            throw_shadow(&mut image, &corners, card_w);
        }
        let width = (card_w * 1.2).round() as u32;
        let drawn = spec
            .faces
            .as_deref()
            .and_then(|faces| faces.face_of(card, width, &mut rng))
            .unwrap_or_else(|| render_card(card, &style, width));
        composite_card(&mut image, &drawn, &corners);
        cards.push(PlacedCard { card, corners });
    }
    let mut covers = if spec.covers > 0 && !cards.is_empty() {
        lay_covers(&mut image, &cards, spec.covers, card_w, &mut rng)
    } else {
        Vec::new()
    };
    if spec.view_tilt > 0.0
        && let Some(view) = tilted_view(&image, spec.view_tilt, spec.view_focal)
    {
        for placed in &mut cards {
            placed.corners = placed.corners.map(|p| view.map(p));
        }
        for cover in &mut covers {
            *cover = cover.map(|p| view.map(p));
        }
        image = view.image;
    }
    if spec.camera {
        let scale = card_w / 96.0;
        let camera = match spec.lighting {
            Lighting::Random => Camera::random(&mut rng, scale),
            Lighting::DimWarm => Camera::dim_warm(&mut rng, scale),
            Lighting::Moving => Camera::moving(&mut rng, scale),
            Lighting::Overexposed => Camera::overexposed(&mut rng, scale),
            Lighting::Glare => Camera::glaring(&mut rng, scale),
        };
        camera.apply(&mut image, &mut rng);
    }
    Table {
        image,
        cards,
        covers,
    }
}

/// Draws `surface` over the whole of `image`.
fn fill_surface(image: &mut RgbImage, surface: Surface, rng: &mut StdRng) {
    match surface {
        Surface::Random => fill_background(image, rng),
        Surface::White => fill_white(image, rng),
        Surface::LightWood => fill_light_wood(image, rng),
        Surface::Terrazzo => fill_terrazzo(image, rng),
        Surface::SpeckledCounter => fill_speckled_counter(image, rng),
        Surface::FloralCloth => fill_floral_cloth(image, rng),
        Surface::Carpet => fill_carpet(image, rng),
    }
}

/// Fills `image` with `photo` scaled to cover it (the photo's shorter
/// dimension fits, the other is cut evenly on both sides).
fn cover_with(image: &mut RgbImage, photo: &RgbImage) {
    let (pw, ph) = photo.dimensions();
    let (ww, wh) = window_size(photo, image.width(), image.height(), 1.0);
    window_onto(image, photo, [(pw - ww) / 2, (ph - wh) / 2, ww, wh]);
}

/// The size of a window of `photo` of the shape `width` x `height`, `share`
/// of the largest that fits in it.
fn window_size(photo: &RgbImage, width: u32, height: u32, share: f32) -> (u32, u32) {
    let (pw, ph) = photo.dimensions();
    let (w, h) = (width.max(1) as f32, height.max(1) as f32);
    let scale = (pw as f32 / w).min(ph as f32 / h) * share;
    ((w * scale) as u32, (h * scale) as u32)
}

/// A random window of `photo` of the shape `width` x `height`, a share of
/// the largest such window drawn from `shares`, scaled to `width` x
/// `height`: a real surface or page seen from nearer or farther.
pub fn photo_window(
    photo: &RgbImage,
    width: u32,
    height: u32,
    shares: std::ops::RangeInclusive<f32>,
    rng: &mut StdRng,
) -> RgbImage {
    let (pw, ph) = photo.dimensions();
    let (ww, wh) = window_size(photo, width, height, rng.random_range(shares));
    let left = rng.random_range(0..=pw.saturating_sub(ww));
    let top = rng.random_range(0..=ph.saturating_sub(wh));
    let mut image = RgbImage::new(width.max(1), height.max(1));
    window_onto(&mut image, photo, [left, top, ww, wh]);
    image
}

/// Fills `image` with the `[left, top, width, height]` window of `photo`,
/// scaled to it.
fn window_onto(image: &mut RgbImage, photo: &RgbImage, window: [u32; 4]) {
    let [left, top, ww, wh] = window;
    let cut = image::imageops::crop_imm(photo, left, top, ww.max(1), wh.max(1)).to_image();
    let (w, h) = image.dimensions();
    *image = image::imageops::resize(&cut, w, h, image::imageops::FilterType::Triangle);
}

/// Lays `count` lookalikes about `size` wide at random places and turns.
fn lay_distractors(img: &mut RgbImage, count: usize, size: f32, rng: &mut StdRng) {
    let (w, h) = (img.width() as f32, img.height() as f32);
    for _ in 0..count {
        let object = crate::lookalike::draw_distractor(size, rng);
        let centre = [
            rng.random_range(0.1..0.9) * w,
            rng.random_range(0.1..0.9) * h,
        ];
        lay_turned(img, &object, centre, rng);
    }
}

/// Lays `object` on `img` centred at `centre`, turned at random; where it lies.
fn lay_turned(img: &mut RgbImage, object: &RgbaImage, centre: [f32; 2], rng: &mut StdRng) -> Quad {
    let dims = [object.width() as f32, object.height() as f32];
    let quad = place(
        centre,
        dims,
        rng.random_range(0.0..std::f32::consts::TAU),
        |_| [0.0; 2],
    );
    composite_card(img, object, &quad);
    quad
}

/// Lays `count` card-sized things (see [`crate::lookalike::object`]) over
/// corners of `cards`, each centred beyond a random card's corner by up to a
/// fifth of a card's width along its diagonal and turned at random, so that
/// it hides roughly a fifth to a third of the card, as a phone or a note set
/// down on the layout does; where each lies.
fn lay_covers(
    img: &mut RgbImage,
    cards: &[PlacedCard],
    count: usize,
    card_w: f32,
    rng: &mut StdRng,
) -> Vec<Quad> {
    let mut covers = Vec::with_capacity(count);
    for _ in 0..count {
        let placed = &cards[rng.random_range(0..cards.len())];
        let corner = placed.corners[rng.random_range(0..4)];
        let centre = [0, 1].map(|k| placed.corners.iter().map(|p| p[k]).sum::<f32>() / 4.0);
        let out = [corner[0] - centre[0], corner[1] - centre[1]];
        let length = out[0].hypot(out[1]).max(f32::EPSILON);
        let beyond = rng.random_range(0.0..0.2) * card_w;
        let at = [
            corner[0] + beyond * out[0] / length,
            corner[1] + beyond * out[1] / length,
        ];
        let object = crate::lookalike::object([card_w, card_w * CARD_ASPECT], rng);
        covers.push(lay_turned(img, &object, at, rng));
    }
    covers
}

/// Darkens a soft-edged patch under the card at `corners`, offset away from
/// a light above and behind the camera.
fn throw_shadow(img: &mut RgbImage, corners: &Quad, card_w: f32) {
    let offset = [0.03 * card_w, 0.05 * card_w];
    let softness = 0.05 * card_w;
    let shadow = corners.map(|p| [p[0] + offset[0], p[1] + offset[1]]);
    let Some(projection) =
        crate::geometry::homography(&shadow, &crate::geometry::rect_quad(1.0, 1.0))
    else {
        return;
    };
    let xs = shadow.map(|p| p[0]);
    let ys = shadow.map(|p| p[1]);
    let lo =
        |v: [f32; 4]| (v.iter().copied().fold(f32::INFINITY, f32::min) - softness).max(0.0) as u32;
    let hi = |v: [f32; 4], max: u32| {
        ((v.iter().copied().fold(f32::NEG_INFINITY, f32::max) + softness) as u32).min(max)
    };
    let (x0, x1, y0, y1) = (lo(xs), hi(xs, img.width()), lo(ys), hi(ys, img.height()));
    let soft = softness / card_w;
    for y in y0..y1 {
        for x in x0..x1 {
            let (u, v) = projection * (x as f32 + 0.5, y as f32 + 0.5);
            // Distance inside the unit square, in card widths (roughly).
            let inside = u.min(1.0 - u).min((v.min(1.0 - v)) * CARD_ASPECT);
            let cover = ((inside + soft) / (2.0 * soft)).clamp(0.0, 1.0);
            if cover > 0.0 {
                let px = img.get_pixel_mut(x, y);
                for c in px.0.iter_mut() {
                    *c = (*c as f32 * (1.0 - 0.35 * cover)).round() as u8;
                }
            }
        }
    }
}

/// The table seen at an angle: the picture and the map from flat to tilted pixels.
struct TiltedView {
    image: RgbImage,
    flat_to_view: Projection,
}

impl TiltedView {
    fn map(&self, p: [f32; 2]) -> [f32; 2] {
        let (x, y) = self.flat_to_view * (p[0], p[1]);
        [x, y]
    }
}

/// The flat table as a camera tilted by `tilt` radians from straight down
/// sees it, and what the camera sees beyond the table's picture is the
/// table's mean colour. With a `focal` length (a share of the longer side),
/// a pinhole camera aimed at the table's middle ([`pinhole_view`]); without,
/// the far (top) edge shrinks to `1 - 0.5 sin(tilt)` of the near one and the
/// picture keeps its height: no camera sees that (a card near the bottom
/// comes out longer than it is), but the committed detector was trained on it.
fn tilted_view(flat: &RgbImage, tilt: f32, focal: Option<f32>) -> Option<TiltedView> {
    let (w, h) = (flat.width() as f32, flat.height() as f32);
    let view_quad = match focal {
        Some(focal) => pinhole_view(w, h, tilt, focal * w.max(h)),
        None => {
            let far = 1.0 - 0.5 * tilt.sin().clamp(0.0, 1.0);
            let inset = 0.5 * w * (1.0 - far);
            [[inset, 0.0], [w - inset, 0.0], [w, h], [0.0, h]]
        }
    };
    let flat_to_view = crate::geometry::homography(&crate::geometry::rect_quad(w, h), &view_quad)?;
    let n = (flat.width() * flat.height()).max(1) as f32;
    let mean = (0..3).map(|k| flat.pixels().map(|p| p.0[k] as f32).sum::<f32>() / n);
    let mean: Vec<u8> = mean.map(|m| m as u8).collect();
    let mut image = RgbImage::from_pixel(
        flat.width(),
        flat.height(),
        image::Rgb([mean[0], mean[1], mean[2]]),
    );
    imageproc::geometric_transformations::warp_into(
        flat,
        flat_to_view,
        imageproc::geometric_transformations::Interpolation::Bilinear,
        imageproc::geometric_transformations::Border::Constant(image::Rgb([
            mean[0], mean[1], mean[2],
        ])),
        &mut image,
    );
    Some(TiltedView {
        image,
        flat_to_view,
    })
}

/// Where the corners of a `w` x `h` flat table land in the picture of a
/// pinhole camera of focal length `focal` pixels, aimed at the table's
/// middle from `focal` away (so that the middle keeps its scale across) and
/// tilted by `tilt` from straight down towards the table's top edge. A point
/// `(dx, dy)` from the middle lies at depth `focal - dy sin(tilt)` and
/// `dy cos(tilt)` below the camera's axis: the far side shrinks, and the
/// table is foreshortened along the view.
fn pinhole_view(w: f32, h: f32, tilt: f32, focal: f32) -> Quad {
    let (sin, cos) = tilt.sin_cos();
    crate::geometry::rect_quad(w, h).map(|[x, y]| {
        let (dx, dy) = (x - w / 2.0, y - h / 2.0);
        let depth = (focal - dy * sin).max(1.0);
        [
            w / 2.0 + focal * dx / depth,
            h / 2.0 + focal * dy * cos / depth,
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_photo_window_has_the_shape_asked_for() {
        // Left half red, right half green: the whole photo shrunk keeps the
        // halves; a window half as large lies inside the photo.
        let photo = RgbImage::from_fn(100, 50, |x, _| {
            if x < 50 {
                image::Rgb([200, 0, 0])
            } else {
                image::Rgb([0, 200, 0])
            }
        });
        let mut rng = StdRng::seed_from_u64(9);
        let whole = photo_window(&photo, 20, 10, 1.0..=1.0, &mut rng);
        assert_eq!(whole.dimensions(), (20, 10));
        assert_eq!(whole.get_pixel(2, 5).0, [200, 0, 0]);
        assert_eq!(whole.get_pixel(17, 5).0, [0, 200, 0]);
        for _ in 0..20 {
            let part = photo_window(&photo, 30, 30, 0.5..=0.5, &mut rng);
            assert_eq!(part.dimensions(), (30, 30));
        }
    }

    #[test]
    fn a_backdrop_covers_the_picture_cut_evenly() {
        // A tall photo, its top and bottom quarters red, its middle green:
        // covering a wide picture keeps the middle only.
        let photo = RgbImage::from_fn(100, 200, |_, y| {
            if (50..150).contains(&y) {
                image::Rgb([0, 200, 0])
            } else {
                image::Rgb([200, 0, 0])
            }
        });
        let mut spec = TableSpec::new(Vec::new(), Edition::Standard, 3);
        (spec.width, spec.height, spec.clutter, spec.camera) = (200, 100, 0, false);
        spec.backdrop = Some(Arc::new(photo));
        let table = render_table(&spec);
        assert_eq!(table.image.dimensions(), (200, 100));
        assert!(table.image.pixels().all(|p| p.0 == [0, 200, 0]));
    }

    #[test]
    fn a_pinhole_camera_straight_down_sees_the_table_as_it_is_and_tilted_foreshortens_it() {
        let (w, h, focal) = (1280.0, 960.0, 960.0);
        let flat = pinhole_view(w, h, 0.0, focal);
        for (seen, truth) in flat.iter().zip(crate::geometry::rect_quad(w, h)) {
            assert!((seen[0] - truth[0]).abs() < 1e-3 && (seen[1] - truth[1]).abs() < 1e-3);
        }
        let [tl, tr, br, bl] = pinhole_view(w, h, 55f32.to_radians(), focal);
        // The far (top) side is shorter than the near one...
        assert!(
            tr[0] - tl[0] < 0.8 * (br[0] - bl[0]),
            "{tl:?} {tr:?} {br:?} {bl:?}"
        );
        // ...and the table comes out shorter than it is wide would allow:
        // seen from 55 degrees, it is foreshortened along the view.
        assert!(bl[1] - tl[1] < 0.75 * h, "{tl:?} {bl:?}");
    }

    #[test]
    fn crops_have_the_requested_size_and_show_paper() {
        let mut rng = StdRng::seed_from_u64(7);
        for edition in Edition::ALL {
            let crop = render_crop(
                "2-purple-striped-squiggle".parse().unwrap(),
                edition,
                96,
                150,
                &mut rng,
            );
            assert_eq!(crop.dimensions(), (96, 150));
            let mean: f32 = crop
                .pixels()
                .map(|p| p.0.iter().map(|&c| c as f32).sum::<f32>())
                .sum::<f32>()
                / (3.0 * 96.0 * 150.0);
            assert!(mean > 40.0, "a card crop is mostly paper, mean {mean}");
        }
    }

    #[test]
    fn tables_report_every_card_inside_the_picture() {
        let cards: Vec<Card> = Card::all().step_by(7).take(12).collect();
        let spec = TableSpec::new(cards.clone(), Edition::Standard, 3);
        let table = render_table(&spec);
        assert_eq!(table.cards.len(), 12);
        for (placed, card) in table.cards.iter().zip(&cards) {
            assert_eq!(placed.card, *card);
            for [x, y] in placed.corners {
                assert!(x >= 0.0 && y >= 0.0 && x < 1280.0 && y < 960.0, "{x},{y}");
            }
        }
        // Same seed, same picture.
        assert_eq!(render_table(&spec).image, table.image);
    }
}
