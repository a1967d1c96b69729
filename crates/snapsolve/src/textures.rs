//! Photographed surfaces to lay rendered tables on: the patterns GIMP ships
//! (Debian package `gimp-data`, `/usr/share/gimp/2.0/patterns`), seamless
//! tiles cut from photos of wood, parquet, marble, stone, leather, cloth,
//! cork and paper. Real grain, knots and veins, which the procedural
//! surfaces of `snapsolve_synth::surfaces` only imitate.
//!
//! Read in place, never copied into the repository; `$SNAPSOLVE_TEXTURES`
//! points elsewhere. Tests that need them skip without them (and fail under
//! `CI=true`, where `.ci/run` installs the package).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use image::RgbImage;

use crate::sudoku_photo::labels::fnv1a;

/// Environment variable that points at a folder of GIMP patterns.
pub const TEXTURES_ENV: &str = "SNAPSOLVE_TEXTURES";

/// Where Debian's `gimp-data` puts GIMP's patterns.
const GIMP_PATTERNS: &str = "/usr/share/gimp/2.0/patterns";

/// The pattern folders that hold what a table can be made of (the others
/// hold sky, water, food, plants and drawn patterns).
const TABLE_FOLDERS: [&str; 5] = ["Wood", "Stone", "Fabric", "Animal", "Paper"];

/// Largest side of a pattern read (GIMP's are 20-160 pixels).
const MAX_SIDE: u32 = 4096;

/// A photographed surface tile, named by its file.
#[derive(Clone, Debug)]
pub struct Texture {
    /// `Wood/walnut`, say.
    pub name: String,
    /// The tile, seamless left to right and top to bottom.
    pub tile: RgbImage,
}

impl Texture {
    /// Whether the stress suite lays tables on this texture (a third of
    /// them, by the hash of the name); training renders on the others only,
    /// so that the suite measures surfaces the networks never saw.
    pub fn for_stress_suite(&self) -> bool {
        fnv1a(&self.name).is_multiple_of(3)
    }
}

/// The textures of the stress suite ([`Texture::for_stress_suite`]).
pub fn stress_textures() -> Vec<&'static Texture> {
    table_textures()
        .iter()
        .filter(|t| t.for_stress_suite())
        .collect()
}

/// The textures training may render on (the others).
pub fn training_textures() -> Vec<&'static Texture> {
    table_textures()
        .iter()
        .filter(|t| !t.for_stress_suite())
        .collect()
}

/// The patterns folder, if it exists.
pub fn patterns_dir() -> Option<PathBuf> {
    let dir =
        std::env::var_os(TEXTURES_ENV).map_or_else(|| PathBuf::from(GIMP_PATTERNS), PathBuf::from);
    dir.is_dir().then_some(dir)
}

/// Every table surface among the patterns, sorted by name (read once); empty
/// without the patterns folder.
pub fn table_textures() -> &'static [Texture] {
    static TEXTURES: OnceLock<Vec<Texture>> = OnceLock::new();
    TEXTURES.get_or_init(|| {
        patterns_dir()
            .map(|dir| read_table_textures(&dir))
            .unwrap_or_default()
    })
}

/// For tests that need the textures: whether they are there, after printing
/// why the test is skipped when not.
///
/// # Panics
/// When they are missing and the environment variable `CI` is `true`.
pub fn textures_or_skip(test: &str) -> bool {
    let found = !table_textures().is_empty();
    if !found {
        crate::data::skip_unless_ci(
            test,
            &format!(
                "no GIMP patterns (install Debian's gimp-data, or set {TEXTURES_ENV} to a folder of .pat files)"
            ),
        );
    }
    found
}

fn read_table_textures(dir: &Path) -> Vec<Texture> {
    let mut textures = Vec::new();
    for folder in TABLE_FOLDERS {
        let Ok(entries) = std::fs::read_dir(dir.join(folder)) else {
            continue;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.extension().is_none_or(|e| e != "pat") {
                continue;
            }
            let Some(stem) = path.file_stem() else {
                continue;
            };
            if let Ok(tile) = std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|b| read_gimp_pattern(&b))
            {
                let name = format!("{folder}/{}", stem.to_string_lossy());
                textures.push(Texture { name, tile });
            }
        }
    }
    textures.sort_by(|a, b| a.name.cmp(&b.name));
    textures
}

/// Decodes a GIMP pattern (`.pat`, version 1): a big-endian header (its own
/// size, version, width, height, bytes per pixel, `GPAT`, a name) and the
/// pixels row by row, grey, grey and alpha, RGB or RGBA (alpha dropped).
pub fn read_gimp_pattern(bytes: &[u8]) -> Result<RgbImage, String> {
    let word = |i: usize| -> Result<u32, String> {
        bytes
            .get(4 * i..4 * i + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| "the pattern's header is cut short".to_string())
    };
    let (header, width, height, depth) = (word(0)? as usize, word(2)?, word(3)?, word(4)? as usize);
    if bytes.get(20..24) != Some(b"GPAT") {
        return Err("not a GIMP pattern (no GPAT mark)".into());
    }
    if width == 0
        || height == 0
        || width > MAX_SIDE
        || height > MAX_SIDE
        || !(1..=4).contains(&depth)
    {
        return Err(format!(
            "a pattern of {width}x{height} at {depth} bytes a pixel is not read"
        ));
    }
    let count = width as usize * height as usize * depth;
    let pixels = bytes
        .get(header..)
        .and_then(|rest| rest.get(..count))
        .ok_or_else(|| "the pattern's pixels are cut short".to_string())?;
    let colour = depth >= 3;
    let mut rgb = Vec::with_capacity(width as usize * height as usize * 3);
    for pixel in pixels.chunks_exact(depth) {
        if colour {
            rgb.extend_from_slice(&pixel[..3]);
        } else {
            rgb.extend_from_slice(&[pixel[0]; 3]);
        }
    }
    RgbImage::from_raw(width, height, rgb)
        .ok_or_else(|| "the pattern's size does not add up".to_string())
}

/// `tile` enlarged `scale` times (bilinear) and repeated over a `width` x
/// `height` picture.
pub fn tiled(tile: &RgbImage, scale: f32, width: u32, height: u32) -> RgbImage {
    let (tw, th) = (
        ((tile.width() as f32 * scale).round() as u32).max(1),
        ((tile.height() as f32 * scale).round() as u32).max(1),
    );
    let big = image::imageops::resize(tile, tw, th, image::imageops::FilterType::Triangle);
    RgbImage::from_fn(width, height, |x, y| *big.get_pixel(x % tw, y % th))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(width: u32, height: u32, depth: u32, pixels: &[u8]) -> Vec<u8> {
        let name = b"Test\0";
        let header = 24 + name.len() as u32;
        let mut bytes = Vec::new();
        for word in [header, 1, width, height, depth] {
            bytes.extend_from_slice(&word.to_be_bytes());
        }
        bytes.extend_from_slice(b"GPAT");
        bytes.extend_from_slice(name);
        bytes.extend_from_slice(pixels);
        bytes
    }

    #[test]
    fn reads_rgb_and_grey_patterns() {
        let rgb = read_gimp_pattern(&pattern(2, 1, 3, &[1, 2, 3, 4, 5, 6])).expect("reads");
        assert_eq!(rgb.as_raw(), &vec![1, 2, 3, 4, 5, 6]);
        let grey_alpha = read_gimp_pattern(&pattern(2, 1, 2, &[9, 255, 7, 0])).expect("reads");
        assert_eq!(grey_alpha.as_raw(), &vec![9, 9, 9, 7, 7, 7]);
    }

    #[test]
    fn refuses_what_is_not_a_whole_pattern() {
        assert!(read_gimp_pattern(b"GPAT").is_err());
        let mut cut = pattern(2, 2, 3, &[0; 12]);
        cut.truncate(cut.len() - 1);
        assert!(read_gimp_pattern(&cut).is_err());
        assert!(read_gimp_pattern(&pattern(0, 2, 3, &[])).is_err());
        assert!(read_gimp_pattern(&pattern(1, 1, 5, &[0; 5])).is_err());
        let mut unmarked = pattern(1, 1, 3, &[0; 3]);
        unmarked[20] = b'X';
        assert!(read_gimp_pattern(&unmarked).is_err());
    }

    #[test]
    fn a_tile_repeats_at_its_enlarged_size() {
        let tile = RgbImage::from_fn(4, 4, |x, y| image::Rgb([(x * 60) as u8, (y * 60) as u8, 0]));
        let table = tiled(&tile, 2.0, 20, 12);
        assert_eq!(table.dimensions(), (20, 12));
        for (x, y) in [(0, 0), (3, 1), (7, 3)] {
            assert_eq!(table.get_pixel(x, y), table.get_pixel(x + 8, y));
            assert_eq!(table.get_pixel(x, y), table.get_pixel(x + 8, y + 8));
        }
        assert_ne!(table.get_pixel(0, 0), table.get_pixel(7, 7));
    }
}
