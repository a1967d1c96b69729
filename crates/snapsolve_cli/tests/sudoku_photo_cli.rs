//! `snapsolve sudoku photo` on input that is not a sudoku photo: a clear error
//! (exit 2) or `"corners": null`, never a panic.

mod support;

use std::process::{Command, Output};
use support::TempFile;

use image::{GrayImage, Luma};
use serde_json::Value;

fn snapsolve(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_snapsolve"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn encoded(image: &GrayImage, format: image::ImageFormat) -> Vec<u8> {
    let mut bytes = std::io::Cursor::new(Vec::new());
    image.write_to(&mut bytes, format).expect("encodes");
    bytes.into_inner()
}

/// A white page with a 9 x 9 grid drawn on it (thick box lines).
fn drawn_grid() -> GrayImage {
    let mut page = GrayImage::from_pixel(420, 400, Luma([230]));
    for k in 0..10u32 {
        let pos = 30 + k * 36;
        let half = if k % 3 == 0 { 2 } else { 1 };
        for t in pos - half..=pos + half {
            for s in 30..=354 {
                page.put_pixel(s, t, Luma([25]));
                page.put_pixel(t, s, Luma([25]));
            }
        }
    }
    page
}

/// Exit code 2 and a message on standard error that contains `expected`.
fn assert_refused(output: &Output, expected: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(stderr.contains(expected), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "stderr: {stderr}");
}

/// The JSON answer of a photo the command accepted.
fn answer(path: &str) -> Value {
    let output = snapsolve(&["sudoku", "photo", path, "--json"]);
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).expect("one JSON document")
}

#[test]
fn a_text_file_is_not_an_image() {
    let file = TempFile::new("notes.jpg", b"53..7....6..195....98....6.8...6...3\n");
    assert_refused(
        &snapsolve(&["sudoku", "photo", file.path()]),
        "not an image",
    );
}

#[test]
fn a_missing_file_is_named() {
    let output = snapsolve(&["sudoku", "photo", "/no/such/photo.jpg"]);
    assert_refused(&output, "/no/such/photo.jpg");
}

#[test]
fn a_cut_jpeg_is_read_as_far_as_it_goes_with_a_warning() {
    let bytes = encoded(&drawn_grid(), image::ImageFormat::Jpeg);
    let file = TempFile::new("cut.jpg", &bytes[..bytes.len() / 2]);
    let output = snapsolve(&["sudoku", "photo", file.path(), "--json"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("warning") && stderr.contains("ends early"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Read, not refused: whatever the half picture holds comes back as an answer.
    assert!(output.status.success(), "{output:?}");
    let json: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert!(json.get("status").is_some(), "{json}");
}

#[test]
fn a_jpeg_cut_inside_its_header_is_refused() {
    let bytes = encoded(&drawn_grid(), image::ImageFormat::Jpeg);
    let file = TempFile::new("cut-header.jpg", &bytes[..100]);
    assert_refused(
        &snapsolve(&["sudoku", "photo", file.path(), "--json"]),
        "damaged or truncated",
    );
}

#[test]
fn a_huge_image_is_refused_from_its_header() {
    // A small JPEG whose frame header claims 60,000 x 60,000 pixels.
    let mut bytes = encoded(&drawn_grid(), image::ImageFormat::Jpeg);
    let sof = bytes
        .windows(2)
        .position(|w| w == [0xFF, 0xC0])
        .expect("a baseline frame header");
    // Marker, length (2), precision (1), then height and width (2 each, big-endian).
    bytes[sof + 5..sof + 9].copy_from_slice(&[0xEA, 0x60, 0xEA, 0x60]);
    let file = TempFile::new("huge.jpg", &bytes);
    assert_refused(&snapsolve(&["sudoku", "photo", file.path()]), "60000x60000");
}

#[test]
fn pictures_without_a_grid_answer_null_corners() {
    let tiny = GrayImage::from_pixel(1, 1, Luma([0]));
    let strip = GrayImage::from_fn(3000, 3, |x, _| Luma([(x % 7 * 30) as u8]));
    let noise = GrayImage::from_fn(300, 200, |x, y| {
        Luma([((x * 7919 + y * 104_729) % 251) as u8])
    });
    for (name, picture) in [("tiny", tiny), ("strip", strip), ("noise", noise)] {
        let file = TempFile::new(
            &format!("{name}.png"),
            encoded(&picture, image::ImageFormat::Png),
        );
        let json = answer(file.path());
        assert!(json["corners"].is_null(), "{name}: {json}");
        assert!(
            json["digits"].is_null() && json["solution"].is_null(),
            "{name}: {json}"
        );
        let text = snapsolve(&["sudoku", "photo", file.path()]);
        assert!(text.status.success(), "{name}: {text:?}");
        assert!(String::from_utf8_lossy(&text.stdout).contains("no sudoku grid found"));
    }
}

#[test]
fn a_drawn_grid_is_found() {
    let file = TempFile::new("grid.png", encoded(&drawn_grid(), image::ImageFormat::Png));
    let json = answer(file.path());
    let corners = json["corners"].as_array().expect("corners found");
    let first = corners[0].as_array().expect("[x, y]");
    let (x, y) = (
        first[0].as_f64().unwrap_or(-1.0),
        first[1].as_f64().unwrap_or(-1.0),
    );
    assert!((x - 30.0).abs() < 3.0 && (y - 30.0).abs() < 3.0, "{json}");
    assert_eq!(json["digits"].as_str().map(str::len), Some(81), "{json}");
}

#[test]
fn a_set_table_photo_has_no_sudoku() {
    let Some(data) = snapsolve::data::shared_data_or_skip("a_set_table_photo_has_no_sudoku") else {
        return;
    };
    let labels = std::fs::read_to_string(data.join("set/photos.jsonl")).expect("SET photo labels");
    let photos: Vec<String> = labels
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v["image"].as_str().map(str::to_string))
        .take(3)
        .collect();
    assert!(!photos.is_empty(), "no SET photos listed");
    for photo in photos {
        let path = data.join(&photo);
        let json = answer(path.to_str().expect("a UTF-8 path"));
        assert!(json["corners"].is_null(), "{photo}: {json}");
    }
}
