//! Photographed sudoku pages: a grid with thin and thick lines, printed givens
//! from many fonts, optionally the empty cells filled in by "hand" (handwriting
//! fonts, slanted, in pen colours), laid in perspective on a background and
//! photographed by a random [`Camera`]. Each photo comes with the grid's true
//! corners and digits, so the digit network can be trained on cells cut by the
//! same code that reads real photos, and the whole photo path can be tested.

use ab_glyph::{Font, FontArc, Glyph, PxScale, point};
use image::{RgbImage, RgbaImage};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tiny_skia::{Paint, Pixmap, Rect, Transform};

use crate::camera::{Camera, draw_clutter, fill_background};
use crate::geometry::{Quad, composite_card, homography, rect_quad};

pub mod curl;
pub mod paper;
pub mod written;

pub use written::{InkBitmap, Placement, WrittenDigits, draw_written};

/// What to put in the 81 cells.
#[derive(Clone, Debug)]
pub struct SudokuSpec {
    /// Printed digits (0 = none), row by row.
    pub printed: [u8; 81],
    /// Handwritten digits (0 = none), drawn only where no digit is printed.
    pub handwritten: [u8; 81],
}

/// Fonts and written examples to draw digits with.
#[derive(Clone, Debug, Default)]
pub struct DigitFonts {
    /// Fonts for printed givens.
    pub printed: Vec<FontArc>,
    /// Handwriting-like fonts for filled-in cells (may be empty if no cell is handwritten).
    pub handwriting: Vec<FontArc>,
    /// Real handwritten digits for filled-in cells (may be empty); a page with
    /// handwriting uses them instead of a font [`WRITTEN_SHARE`] of the time
    /// (always when there is no handwriting font).
    pub written: WrittenDigits,
}

/// Share of handwritten pages written with [`DigitFonts::written`] when both
/// they and handwriting fonts are there.
pub const WRITTEN_SHARE: f64 = 0.6;
/// Share of pages whose empty cells show faint digits through the paper (the
/// other side of the sheet, the page below): real photos have them, and they
/// must read as empty.
pub const SHOW_THROUGH_SHARE: f64 = 0.25;
/// Share of pages with a textured paper.
pub const TEXTURED_SHARE: f64 = 0.7;

/// A rendered sudoku photo and its truth.
#[derive(Clone, Debug)]
pub struct SudokuPhoto {
    /// The photo.
    pub image: RgbImage,
    /// The grid's outer corners in the photo: top-left, top-right, bottom-right, bottom-left.
    pub corners: Quad,
    /// The digit seen in each cell (printed or handwritten, 0 = empty).
    pub digits: [u8; 81],
}

/// How much the photo may vary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhotoStyle {
    /// Largest tilt of the page, in degrees.
    pub max_rotation: f32,
    /// Largest per-corner perspective jitter, as a share of the grid's side.
    pub max_perspective: f32,
    /// Whether the camera may blur, add noise, uneven light and JPEG.
    pub camera: bool,
    /// Share of photos taken in dim light: exposure cut to 30-60% and more
    /// sensor noise (phone photos under a lamp at night).
    pub dim_share: f64,
    /// How far one side of the page may curl or fold away from the camera
    /// ([`curl::Curl`]; 0 = the page lies flat).
    pub max_bend: f32,
    /// When above 0, the page is folded across its middle instead
    /// ([`curl::Curl::fold`]): the largest tangent of the angle by which
    /// the lines crossing the fold turn beyond it.
    pub max_fold_turn: f32,
}

impl PhotoStyle {
    /// The variety used for training: tilts, strong perspective, any camera.
    pub fn training() -> PhotoStyle {
        PhotoStyle {
            max_rotation: 15.0,
            max_perspective: 0.08,
            camera: true,
            dim_share: 0.15,
            max_bend: 0.0,
            max_fold_turn: 0.0,
        }
    }

    /// A phone held over the page: small tilt and perspective, any camera.
    pub fn handheld() -> PhotoStyle {
        PhotoStyle {
            max_rotation: 6.0,
            max_perspective: 0.04,
            camera: true,
            dim_share: 0.0,
            max_bend: 0.0,
            max_fold_turn: 0.0,
        }
    }

    /// A phone held over a page that does not lie flat: one side curls or
    /// folds away, by up to 15% of its distance from the middle.
    pub fn curled_page() -> PhotoStyle {
        PhotoStyle {
            max_bend: 0.15,
            ..PhotoStyle::handheld()
        }
    }

    /// A phone held over a sheet folded in half and opened again: beyond the
    /// fold the page shrinks by up to 10% and its lines turn by up to 20
    /// degrees.
    pub fn folded_page() -> PhotoStyle {
        PhotoStyle {
            max_bend: 0.1,
            max_fold_turn: 0.36,
            ..PhotoStyle::handheld()
        }
    }
}

/// Renders a sudoku page with `spec`'s digits and photographs it at `width` x `height`.
pub fn render_sudoku(
    spec: &SudokuSpec,
    fonts: &DigitFonts,
    style: PhotoStyle,
    (width, height): (u32, u32),
    rng: &mut StdRng,
) -> SudokuPhoto {
    let (mut page, grid_rect) = render_page(spec, fonts, rng);
    // Drawn only for bent pages, so flat pages of a seed stay as they were.
    let curl = if style.max_fold_turn > 0.0 {
        let side = page.width();
        Some(curl::Curl::fold(
            side,
            style.max_bend,
            style.max_fold_turn,
            rng,
        ))
    } else {
        (style.max_bend > 0.0).then(|| curl::Curl::random(page.width(), style.max_bend, rng))
    };
    if let Some(curl) = &curl {
        page = curl.apply(&page);
    }
    let mut image = RgbImage::new(width, height);
    fill_background(&mut image, rng);
    draw_clutter(&mut image, rng.random_range(0..4), rng);
    let quad = page_quad(&page, grid_rect, style, (width, height), rng);
    composite_card(&mut image, &page, &quad);
    let corners = match homography(&rect_quad(page.width() as f32, page.height() as f32), &quad) {
        Some(to_photo) => {
            let [x0, y0, x1, y1] = grid_rect;
            [[x0, y0], [x1, y0], [x1, y1], [x0, y1]].map(|[x, y]| {
                let (x, y) = curl.map_or((x, y), |c| c.forward((x, y)));
                let (u, v) = to_photo * (x, y);
                [u, v]
            })
        }
        None => quad,
    };
    if style.camera {
        let scale = (quad[1][0] - quad[0][0]).hypot(quad[1][1] - quad[0][1]) / 600.0;
        let mut camera = Camera::random(rng, scale.max(0.3));
        camera.blur = camera.blur.min(1.5);
        if style.dim_share > 0.0 && rng.random_bool(style.dim_share) {
            let dim = rng.random_range(0.3..0.6f32);
            camera.gains = camera.gains.map(|g| g * dim);
            camera.noise += rng.random_range(2.0..8.0);
        }
        camera.apply(&mut image, rng);
    }
    let mut digits = spec.printed;
    for (d, &h) in digits.iter_mut().zip(&spec.handwritten) {
        if *d == 0 {
            *d = h;
        }
    }
    SudokuPhoto {
        image,
        corners,
        digits,
    }
}

/// Where the page lands in the photo: centred with a random offset, the grid
/// filling 40-75% of the shorter side, tilted, corners jittered.
fn page_quad(
    page: &RgbaImage,
    grid_rect: [f32; 4],
    style: PhotoStyle,
    (width, height): (u32, u32),
    rng: &mut StdRng,
) -> Quad {
    let (pw, ph) = (page.width() as f32, page.height() as f32);
    let grid_side = grid_rect[2] - grid_rect[0];
    let short = width.min(height) as f32;
    let scale = rng.random_range(0.4..0.75f32) * short / grid_side;
    let angle = rng
        .random_range(-style.max_rotation..=style.max_rotation)
        .to_radians();
    let (sin, cos) = angle.sin_cos();
    let slack = (1.0 - grid_side * scale / short).max(0.0) * 0.4;
    let centre = [
        width as f32 * (0.5 + rng.random_range(-slack..=slack)),
        height as f32 * (0.5 + rng.random_range(-slack..=slack)),
    ];
    // The grid's centre in page pixels goes to `centre`.
    let gc = [
        (grid_rect[0] + grid_rect[2]) / 2.0,
        (grid_rect[1] + grid_rect[3]) / 2.0,
    ];
    let jitter = style.max_perspective * grid_side * scale;
    rect_quad(pw, ph).map(|[x, y]| {
        let (dx, dy) = ((x - gc[0]) * scale, (y - gc[1]) * scale);
        [
            centre[0] + dx * cos - dy * sin + rng.random_range(-jitter..=jitter),
            centre[1] + dx * sin + dy * cos + rng.random_range(-jitter..=jitter),
        ]
    })
}

/// The flat page (opaque) and the grid's rectangle `[x0, y0, x1, y1]` in it.
fn render_page(spec: &SudokuSpec, fonts: &DigitFonts, rng: &mut StdRng) -> (RgbaImage, [f32; 4]) {
    let cell = rng.random_range(34.0..60.0f32);
    let margin = cell * rng.random_range(0.4..1.6f32);
    let side = (9.0 * cell + 2.0 * margin).ceil() as u32;
    let grid = [margin, margin, margin + 9.0 * cell, margin + 9.0 * cell];
    let Some(mut pixmap) = Pixmap::new(side, side) else {
        return (RgbaImage::new(side, side), grid); // only for an impossible size
    };
    let paper = paper_colour(rng);
    pixmap.fill(tiny_skia::Color::from_rgba8(
        paper[0], paper[1], paper[2], 255,
    ));
    let ink = print_ink(rng);
    draw_lines(&mut pixmap, margin, cell, ink, rng);
    // Digits draw from their own stream, so the same seed gives the same page
    // geometry whatever the digits.
    let rng = &mut StdRng::seed_from_u64(rng.random());
    if rng.random_bool(TEXTURED_SHARE) {
        let (mottle, grain) = (rng.random_range(0.0..0.06), rng.random_range(0.0..4.0));
        paper::texture_paper(&mut pixmap, mottle, grain, rng);
    }
    if !fonts.printed.is_empty() {
        let font = &fonts.printed[rng.random_range(0..fonts.printed.len())];
        let size = rng.random_range(0.5..0.78f32);
        for (i, &d) in spec.printed.iter().enumerate().filter(|(_, d)| **d != 0) {
            let centre = cell_centre(margin, cell, i);
            let strength = rng.random_range(0.75..1.0f32);
            let glyph = GlyphStyle {
                height: cell * size,
                shear: 0.0,
                strength,
            };
            draw_digit(&mut pixmap, font, d, centre, glyph, ink);
        }
    }
    draw_show_through(&mut pixmap, spec, fonts, margin, cell, rng);
    draw_handwriting(&mut pixmap, spec, fonts, margin, cell, rng);
    let page = RgbaImage::from_raw(side, side, pixmap.take()).unwrap_or_else(|| {
        RgbaImage::from_pixel(side, side, image::Rgba([paper[0], paper[1], paper[2], 255]))
    });
    (page, grid)
}

/// The cells to fill by hand: filled in by hand where no digit is printed.
fn handwritten_cells(spec: &SudokuSpec) -> impl Iterator<Item = (usize, u8)> + '_ {
    spec.handwritten
        .iter()
        .enumerate()
        .filter(|&(i, &d)| d != 0 && spec.printed[i] == 0)
        .map(|(i, &d)| (i, d))
}

/// Fills the handwritten cells, one writer (pen, lean) per page: with a
/// handwriting font, or with real written digits when there are some.
fn draw_handwriting(
    pixmap: &mut Pixmap,
    spec: &SudokuSpec,
    fonts: &DigitFonts,
    margin: f32,
    cell: f32,
    rng: &mut StdRng,
) {
    let use_written = !fonts.written.is_empty()
        && (fonts.handwriting.is_empty() || rng.random_bool(WRITTEN_SHARE));
    if !use_written && fonts.handwriting.is_empty() {
        return;
    }
    let pen = pen_colour(rng);
    let slant = rng.random_range(-0.35..0.35f32);
    if use_written {
        for (i, d) in handwritten_cells(spec) {
            let Some(bitmap) = fonts.written.pick(d, rng) else {
                continue;
            };
            let mut placement = Placement::random(cell_centre(margin, cell, i), cell, slant, rng);
            if pen.pencil {
                placement = placement.in_pencil(rng);
            }
            draw_written(pixmap, bitmap, &placement, pen.ink, rng);
        }
        return;
    }
    let font = &fonts.handwriting[rng.random_range(0..fonts.handwriting.len())];
    for (i, d) in handwritten_cells(spec) {
        let (cx, cy) = cell_centre(margin, cell, i);
        let wobble = 0.12 * cell;
        let centre = (
            cx + rng.random_range(-wobble..=wobble),
            cy + rng.random_range(-wobble..=wobble),
        );
        let glyph = GlyphStyle {
            height: cell * rng.random_range(0.42..0.82f32),
            shear: slant + rng.random_range(-0.12..0.12f32),
            strength: rng.random_range(0.75..1.0f32),
        };
        draw_digit(pixmap, font, d, centre, glyph, pen.ink);
    }
}

/// On [`SHOW_THROUGH_SHARE`] of the pages, faint printed digits in about half
/// of the cells left empty: what shows through thin paper. They stay empty in
/// the truth.
fn draw_show_through(
    pixmap: &mut Pixmap,
    spec: &SudokuSpec,
    fonts: &DigitFonts,
    margin: f32,
    cell: f32,
    rng: &mut StdRng,
) {
    if fonts.printed.is_empty() || !rng.random_bool(SHOW_THROUGH_SHARE) {
        return;
    }
    let font = &fonts.printed[rng.random_range(0..fonts.printed.len())];
    let size = rng.random_range(0.5..0.78f32);
    let faintness = rng.random_range(0.04..0.16f32);
    let grey = rng.random_range(60..140u8);
    for i in 0..81 {
        if spec.printed[i] != 0 || spec.handwritten[i] != 0 || rng.random_bool(0.5) {
            continue;
        }
        let glyph = GlyphStyle {
            height: cell * size,
            shear: 0.0,
            strength: faintness * rng.random_range(0.7..1.3f32),
        };
        let d = rng.random_range(1..=9u8);
        draw_digit(
            pixmap,
            font,
            d,
            cell_centre(margin, cell, i),
            glyph,
            [grey; 3],
        );
    }
}

fn cell_centre(margin: f32, cell: f32, index: usize) -> (f32, f32) {
    (
        margin + (index % 9) as f32 * cell + cell / 2.0,
        margin + (index / 9) as f32 * cell + cell / 2.0,
    )
}

/// White, cream or greyish newsprint.
fn paper_colour(rng: &mut StdRng) -> [u8; 3] {
    let base = rng.random_range(200..=255u8);
    let warm = rng.random_range(0..=12u8);
    [
        base,
        base.saturating_sub(warm / 2),
        base.saturating_sub(warm),
    ]
}

/// Black to dark grey print.
fn print_ink(rng: &mut StdRng) -> [u8; 3] {
    let v = rng.random_range(0..70u8);
    [v, v, v]
}

/// What a page is filled in with.
#[derive(Clone, Copy, Debug)]
struct Pen {
    ink: [u8; 3],
    /// A pencil: grey, and (for written digits) thin, light and grainy.
    pencil: bool,
}

/// Blue, black, dark red, green or pencil grey.
fn pen_colour(rng: &mut StdRng) -> Pen {
    let ink = match rng.random_range(0..5) {
        0 => [
            rng.random_range(10..60),
            rng.random_range(20..80),
            rng.random_range(120..200),
        ],
        1 => [rng.random_range(10..50); 3],
        2 => [rng.random_range(120..180), 20, 30],
        3 => [20, rng.random_range(80..130), 40],
        _ => {
            return Pen {
                ink: [rng.random_range(80..130); 3],
                pencil: true,
            };
        }
    };
    Pen { ink, pencil: false }
}

/// Thin lines between cells, thick ones between boxes and around the grid.
fn draw_lines(pixmap: &mut Pixmap, margin: f32, cell: f32, ink: [u8; 3], rng: &mut StdRng) {
    let thin = cell * rng.random_range(0.015..0.06f32);
    let thick = (cell * rng.random_range(0.05..0.14f32)).max(thin * 1.5);
    let border = thick * rng.random_range(1.0..1.6f32);
    let mut paint = Paint::default();
    paint.set_color_rgba8(ink[0], ink[1], ink[2], 255);
    paint.anti_alias = true;
    let length = 9.0 * cell;
    for k in 0..=9 {
        let w = match k {
            0 | 9 => border,
            3 | 6 => thick,
            _ => thin,
        }
        .max(0.8);
        let at = margin + k as f32 * cell - w / 2.0;
        let extra = if k % 9 == 0 { 0.0 } else { border / 2.0 };
        for rect in [
            Rect::from_xywh(
                at,
                margin - border / 2.0 + extra,
                w,
                length + border - 2.0 * extra,
            ),
            Rect::from_xywh(
                margin - border / 2.0 + extra,
                at,
                length + border - 2.0 * extra,
                w,
            ),
        ]
        .into_iter()
        .flatten()
        {
            pixmap.fill_rect(rect, &paint, Transform::identity(), None);
        }
    }
}

/// How a font digit is drawn.
#[derive(Clone, Copy, Debug)]
struct GlyphStyle {
    /// Height of the digit's ink, pixels.
    height: f32,
    /// Horizontal shift per pixel up (slant).
    shear: f32,
    /// Opacity of the ink, 0..1.
    strength: f32,
}

/// Draws digit `d` centred on `centre` as `style` says, in `ink`.
fn draw_digit(
    pixmap: &mut Pixmap,
    font: &FontArc,
    d: u8,
    centre: (f32, f32),
    style: GlyphStyle,
    ink: [u8; 3],
) {
    let GlyphStyle {
        height,
        shear,
        strength,
    } = style;
    let id = font.glyph_id(char::from(b'0' + d));
    let probe = id.with_scale_and_position(PxScale::from(100.0), point(0.0, 0.0));
    let Some(bounds) = font.outline_glyph(probe).map(|g| g.px_bounds()) else {
        return;
    };
    let scale = 100.0 * height / bounds.height().max(1.0);
    let glyph: Glyph = id.with_scale_and_position(PxScale::from(scale), point(0.0, 0.0));
    let Some(outline) = font.outline_glyph(glyph) else {
        return;
    };
    let b = outline.px_bounds();
    let (x0, y0) = (
        centre.0 - b.width() / 2.0 - b.min.x,
        centre.1 - b.height() / 2.0 - b.min.y,
    );
    let (w, h) = (pixmap.width() as i64, pixmap.height() as i64);
    let data = pixmap.data_mut();
    outline.draw(|gx, gy, coverage| {
        let y = b.min.y + gy as f32;
        let x = b.min.x + gx as f32 + shear * (b.max.y - y - b.height() / 2.0);
        let (px, py) = ((x0 + x).round() as i64, (y0 + y).round() as i64);
        if px < 0 || py < 0 || px >= w || py >= h {
            return;
        }
        let a = (coverage * strength).clamp(0.0, 1.0);
        let at = ((py * w + px) * 4) as usize;
        for c in 0..3 {
            let old = f32::from(data[at + c]);
            data[at + c] = (old * (1.0 - a) + f32::from(ink[c]) * a).round() as u8;
        }
    });
}

/// A uniformly random digit grid (not a sudoku): each cell printed with
/// probability `printed`, else handwritten with probability `handwritten`.
pub fn random_spec(printed: f64, handwritten: f64, rng: &mut StdRng) -> SudokuSpec {
    let mut spec = SudokuSpec {
        printed: [0; 81],
        handwritten: [0; 81],
    };
    for i in 0..81 {
        if rng.random_bool(printed) {
            spec.printed[i] = rng.random_range(1..=9);
        } else if rng.random_bool(handwritten) {
            spec.handwritten[i] = rng.random_range(1..=9);
        }
    }
    spec
}

/// One font file the training data needs, and the Debian package that ships it.
#[derive(Clone, Copy, Debug)]
pub struct SystemFont {
    /// Absolute path.
    pub path: &'static str,
    /// The apt package that installs it.
    pub package: &'static str,
    /// Whether it looks handwritten.
    pub handwriting: bool,
}

macro_rules! fonts {
    ($($dir:literal, $package:literal, $hand:literal: [$($file:literal),*];)*) => {
        &[$($(SystemFont { path: concat!($dir, "/", $file), package: $package, handwriting: $hand },)*)*]
    };
}

/// The system fonts digits are rendered from for training (see models/README.md).
pub const SYSTEM_FONTS: &[SystemFont] = fonts! {
    "/usr/share/fonts/opentype/urw-base35", "fonts-urw-base35", false: [
        "NimbusSans-Regular.otf", "NimbusSans-Bold.otf", "NimbusRoman-Regular.otf",
        "NimbusRoman-Bold.otf", "C059-Roman.otf", "C059-Bold.otf", "P052-Roman.otf", "P052-Bold.otf",
        "URWBookman-Light.otf", "URWBookman-Demi.otf", "URWGothic-Book.otf", "URWGothic-Demi.otf",
        "NimbusSansNarrow-Regular.otf", "NimbusSansNarrow-Bold.otf", "NimbusMonoPS-Regular.otf"];
    "/usr/share/fonts/truetype/liberation2", "fonts-liberation2", false: [
        "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "LiberationSerif-Regular.ttf",
        "LiberationSerif-Bold.ttf", "LiberationMono-Regular.ttf"];
    "/usr/share/fonts/truetype/freefont", "fonts-freefont-ttf", false: [
        "FreeSans.ttf", "FreeSansBold.ttf", "FreeSerif.ttf", "FreeSerifBold.ttf", "FreeMono.ttf"];
    "/usr/share/fonts/truetype/dejavu", "fonts-dejavu-core", false: [
        "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
        "DejaVuSansMono.ttf"];
    "/usr/share/fonts/truetype/lato", "fonts-lato", false: [
        "Lato-Regular.ttf", "Lato-Bold.ttf", "Lato-Black.ttf", "Lato-Light.ttf"];
    "/usr/share/fonts/truetype/crosextra", "fonts-crosextra-carlito", false: [
        "Carlito-Regular.ttf", "Carlito-Bold.ttf"];
    "/usr/share/fonts/opentype/cantarell", "fonts-cantarell", false: [
        "Cantarell-Regular.otf", "Cantarell-Bold.otf"];
    "/usr/share/fonts/truetype/fifthhorseman", "fonts-dkg-handwriting", true: ["dkg.ttf", "dkgBd.ttf"];
    "/usr/share/fonts/truetype/breip", "fonts-breip", true: ["Breip.ttf"];
    "/usr/share/fonts/opentype/bwht", "fonts-bwht", true: [
        "BecauseWeBuild-Regular.otf", "BecauseWeConnect-Regular.otf", "BecauseWeCreate-Regular.otf",
        "BecauseWeLearn-Regular.otf", "BecauseWeMentor-Regular.otf", "BecauseWeOrganize-Regular.otf"];
    "/usr/share/fonts/truetype/femkeklaver", "fonts-femkeklaver", true: ["femkeklaver.ttf"];
    "/usr/share/fonts/opentype/comic-neue", "fonts-comic-neue", true: [
        "ComicNeue-Regular.otf", "ComicNeue-Bold.otf", "ComicNeue-Light.otf"];
    "/usr/share/fonts/truetype/humor-sans", "fonts-humor-sans", true: ["Humor-Sans.ttf"];
};

/// Loads every font of [`SYSTEM_FONTS`]; a missing file is an error naming the
/// apt packages to install, a font without all nine digit glyphs is an error too.
pub fn load_system_fonts() -> Result<DigitFonts, String> {
    let mut fonts = DigitFonts::default();
    let mut missing: Vec<&str> = Vec::new();
    for f in SYSTEM_FONTS {
        let Ok(bytes) = std::fs::read(f.path) else {
            if !missing.contains(&f.package) {
                missing.push(f.package);
            }
            continue;
        };
        let font = FontArc::try_from_vec(bytes).map_err(|e| format!("{}: {e}", f.path))?;
        if (b'1'..=b'9').any(|c| font.glyph_id(char::from(c)).0 == 0) {
            return Err(format!("{} has no glyph for some digit", f.path));
        }
        if f.handwriting {
            fonts.handwriting.push(font);
        } else {
            fonts.printed.push(font);
        }
    }
    if missing.is_empty() {
        Ok(fonts)
    } else {
        Err(format!(
            "fonts for rendered digits are missing: apt-get install {}",
            missing.join(" ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// Mean of r + g + b over the photo (0..765).
    fn brightness(image: &RgbImage) -> f32 {
        let sum: u64 = image
            .pixels()
            .map(|Rgb([r, g, b])| u64::from(*r) + u64::from(*g) + u64::from(*b))
            .sum();
        sum as f32 / (image.width() * image.height()).max(1) as f32
    }

    fn embedded_fonts() -> DigitFonts {
        let font = FontArc::try_from_slice(dejavu::sans::regular()).expect("DejaVu Sans");
        let hand = FontArc::try_from_slice(dejavu::sans::oblique()).expect("DejaVu Sans Oblique");
        DigitFonts {
            printed: vec![font],
            handwriting: vec![hand],
            written: WrittenDigits::default(),
        }
    }

    #[test]
    fn corners_land_on_the_grid_and_digits_add_ink() {
        let mut rng = StdRng::seed_from_u64(3);
        let fonts = embedded_fonts();
        let empty = SudokuSpec {
            printed: [0; 81],
            handwritten: [0; 81],
        };
        let full = random_spec(0.5, 1.0, &mut rng);
        let style = PhotoStyle {
            camera: false,
            ..PhotoStyle::handheld()
        };
        let a = render_sudoku(
            &empty,
            &fonts,
            style,
            (640, 480),
            &mut StdRng::seed_from_u64(9),
        );
        let b = render_sudoku(
            &full,
            &fonts,
            style,
            (640, 480),
            &mut StdRng::seed_from_u64(9),
        );
        let (empty, full) = (brightness(&a.image), brightness(&b.image));
        assert!(full < empty - 2.0, "{full} vs {empty}");
        assert_eq!(a.corners, b.corners);
        assert!(b.digits.iter().all(|&d| d != 0));
        // The top-left corner is on the dark border.
        let [x, y] = a.corners[0];
        let px = a.image.get_pixel(x.round() as u32, y.round() as u32);
        assert!(
            px.0.iter().map(|&v| u32::from(v)).sum::<u32>() < 3 * 120,
            "{px:?}"
        );
    }
}
