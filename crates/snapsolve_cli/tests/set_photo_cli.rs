//! `snapsolve set photo` run as a user would: bad files get a clear message
//! and a non-zero exit (never a panic), and no IMAGE reads the built-in table.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use image::{ImageFormat, Rgb, RgbImage};

fn snapsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_snapsolve"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A scratch folder of this test binary's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("snapsolve-set-photo-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
    dir.join(name)
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch(name);
    std::fs::write(&path, bytes).expect("the temporary folder is writable");
    path
}

fn encoded(image: &RgbImage, format: ImageFormat) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut bytes), format)
        .expect("encoding to memory cannot fail");
    bytes
}

/// Runs every command that reads a photo on PATH and checks each fails the
/// same way: exit 2 (bad input) and a message containing `says`.
fn refused(path: &Path, says: &str) {
    let path_arg = path.to_str().expect("utf-8 path");
    for command in [["set", "photo"], ["set", "card"], ["sudoku", "photo"]] {
        let output = snapsolve(&[command[0], command[1], path_arg, "--json"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{command:?} {path:?}: {stderr}"
        );
        assert!(stderr.contains(says), "{command:?} {path:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(output.stdout.is_empty(), "no answer for a bad file");
    }
}

#[test]
fn bad_files_get_a_clear_error_and_exit_2_from_every_photo_command() {
    refused(&write("empty.jpg", b""), "the image file is empty");
    refused(
        &write("text.jpg", b"a shopping list, not a photo\n"),
        "not an image snapsolve can read",
    );
    refused(&scratch("does-not-exist.jpg"), "cannot read the image");

    let jpeg = encoded(
        &RgbImage::from_pixel(64, 48, Rgb([200, 30, 30])),
        ImageFormat::Jpeg,
    );
    // Cut inside the header: nothing of the picture to read.
    refused(
        &write("cut-header.jpg", &jpeg[..100]),
        "damaged or truncated",
    );

    // A PNG whose header declares 100,000 x 100,000 pixels (30 GB of RGB),
    // with a valid header checksum and no pixel data: refused from the header.
    let mut png = encoded(&RgbImage::new(1, 1), ImageFormat::Png);
    png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let crc = crc32fast::hash(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    refused(&write("huge.png", &png), "100000x100000 pixels");

    // The same for a JPEG declaring 65,535 x 65,535 (the format's largest).
    let mut big = jpeg.clone();
    let sof = big
        .windows(2)
        .position(|w| w == [0xFF, 0xC0])
        .expect("a baseline JPEG has a start-of-frame");
    big[sof + 5..sof + 9].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF]);
    refused(&write("huge.jpg", &big), "65535x65535 pixels");
}

/// Pictures a pixel or two across (a 1x72 PNG panicked in the card finder's
/// edge pass until session 37, found by fuzzing) are read by every photo
/// command: nothing found, no panic.
#[test]
fn pictures_a_pixel_or_two_across_are_read_without_a_panic() {
    for (w, h) in [(1, 72), (2, 72), (72, 1), (1, 1)] {
        let image = RgbImage::from_fn(w, h, |x, y| Rgb([(x * 90 + y * 3) as u8, 120, 60]));
        let path = write(
            &format!("thin-{w}x{h}.png"),
            &encoded(&image, ImageFormat::Png),
        );
        let path_arg = path.to_str().expect("utf-8 path");
        for command in [["set", "photo"], ["set", "card"], ["sudoku", "photo"]] {
            let output = snapsolve(&[command[0], command[1], path_arg, "--json"]);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                !stderr.contains("panicked"),
                "{command:?} {w}x{h}: {stderr}"
            );
            assert!(
                matches!(output.status.code(), Some(0 | 1)),
                "{command:?} {w}x{h}: {stderr}"
            );
        }
    }
}

#[test]
fn a_cut_jpeg_or_png_is_read_as_far_as_it_goes_with_a_warning() {
    // A noisy picture (no flat rows), cut half way through its pixel data.
    let image = RgbImage::from_fn(320, 240, |x, y| {
        let v = ((x * 7919 + y * 104_729) % 251) as u8;
        Rgb([v, 255 - v, v / 2])
    });
    for (format, name) in [
        (ImageFormat::Jpeg, "cut.jpg"),
        (ImageFormat::Png, "cut.png"),
    ] {
        let bytes = encoded(&image, format);
        let path = write(name, &bytes[..bytes.len() / 2]);
        let output = snapsolve(&["set", "photo", path.to_str().expect("utf-8"), "--json"]);
        assert!(output.status.success(), "{name}: {output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("warning") && stderr.contains("ends early"),
            "{name}: {stderr}"
        );
        let json: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("the answer is JSON");
        let warnings = json["warnings"].as_array().expect("a list of warnings");
        assert_eq!(warnings.len(), 1, "{name}: {json}");
    }
}

#[test]
fn no_image_reads_the_built_in_table() {
    let out = scratch("answer.png");
    let output = snapsolve(&[
        "set",
        "photo",
        "--json",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("built-in"), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("the answer is JSON");
    assert_eq!(json["image"]["width"], 1280);
    assert_eq!(json["cards"].as_array().map(Vec::len), Some(12));
    let drawn = image::open(&out).expect("the answer picture is written");
    assert_eq!((drawn.width(), drawn.height()), (1280, 960));
}

/// The stress conditions laid on real photographs say what they lack where
/// it is missing, instead of rendering another surface.
#[test]
fn stress_tables_on_missing_photographs_say_what_is_missing() {
    for (condition, variable, says) in [
        ("textured-tables", "SNAPSOLVE_TEXTURES", "gimp-data"),
        ("pages-no-cards", "SNAPSOLVE_DATA", "shared data folder"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_snapsolve"))
            .args(["eval", "set-stress", "--only", condition, "--tables", "1"])
            .env(variable, "/nonexistent/snapsolve-test")
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{condition}: {stderr}");
        assert!(
            stderr.contains(&format!("cannot render {condition}")) && stderr.contains(says),
            "{condition}: {stderr}"
        );
    }
}
