//! The SET photo path, whole and stage by stage, on one core.
//!
//! Inputs (JPEG bytes in memory, so the file system is not timed):
//! - `phone_12mp`: `set/stetelepta/photos/test_images/IMG_1096.JPG` from the
//!   shared data (4032x3024, 12 cards), read in place;
//! - `webcam_960x720`: the webcam frame `set/tomwhite/photos/data/webcam/20170529_184024.png`
//!   (960x720, 12 cards) encoded once as a quality-90 JPEG;
//! - `no_cards_960x720`: a frame with no card in it, as the live page sees
//!   whenever the camera looks away from the table: clutter table 800 of the
//!   stress suite (toys, paper, playing cards), rendered at 960x720;
//! - `far_away_960x720`: twelve cards about 45 pixels wide, a table seen
//!   from across the room (far-away table 400 of the stress suite), where
//!   the reader takes a closer look at the cards.
//!
//! Without the shared data, rendered tables of the same sizes stand in
//! (`snapsolve_synth::render_table`, fixed seed) and a message says so.
//!
//! `whole` reads the cards with the default classifier (the network, loaded
//! once outside the timed part; `network_load` times loading it) and
//! `whole_features` with the hand-made features.
//!
//! Run on one core: `RAYON_NUM_THREADS=1 taskset -c 0 cargo bench -p snapsolve --bench set_photo`.

use std::io::Cursor;
use std::sync::OnceLock;

use divan::{Bencher, black_box};
use image::RgbImage;
use snapsolve::images::Limits;
use snapsolve::set_photo::classify::CardClassifier;
use snapsolve::set_photo::network::{EMBEDDED_LONG_WEIGHTS, EMBEDDED_WEIGHTS};
use snapsolve::set_photo::stress::Condition;
use snapsolve::set_photo::table::{assemble_reading, card_crops, decode_table_photo, read_table};
use snapsolve::set_photo::{FeaturesClassifier, NetworkClassifier};
use snapsolve_nn::set_cards::Config;
use snapsolve_set::Card;
use snapsolve_vision::{CardFinder, decode_photo};

const INPUTS: [&str; 4] = [
    "phone_12mp",
    "webcam_960x720",
    "no_cards_960x720",
    "far_away_960x720",
];

fn main() {
    divan::main();
}

fn jpeg(image: &RgbImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut Cursor::new(&mut bytes), 90)
        .encode_image(image)
        .expect("encoding to memory cannot fail");
    bytes
}

fn rendered(width: u32, height: u32) -> Vec<u8> {
    let cards: Vec<Card> = Card::all().step_by(5).take(12).collect();
    let mut spec = snapsolve_synth::TableSpec::new(cards, snapsolve_synth::Edition::Standard, 11);
    (spec.width, spec.height) = (width, height);
    jpeg(&snapsolve_synth::render_table(&spec).image)
}

/// The JPEG bytes of an input, made once.
fn input(name: &str) -> &'static [u8] {
    static PHONE: OnceLock<Vec<u8>> = OnceLock::new();
    static WEBCAM: OnceLock<Vec<u8>> = OnceLock::new();
    static NO_CARDS: OnceLock<Vec<u8>> = OnceLock::new();
    static FAR_AWAY: OnceLock<Vec<u8>> = OnceLock::new();
    if name == "no_cards_960x720" {
        return NO_CARDS.get_or_init(|| {
            let mut spec = Condition::ClutterNoCards.spec(800);
            (spec.width, spec.height) = (960, 720);
            jpeg(&snapsolve_synth::render_table(&spec).image)
        });
    }
    if name == "far_away_960x720" {
        return FAR_AWAY.get_or_init(|| {
            jpeg(&snapsolve_synth::render_table(&Condition::FarAway.spec(400)).image)
        });
    }
    let data = snapsolve::data::shared_data_dir();
    if data.is_none() {
        eprintln!("no shared data folder: benchmarking rendered tables instead of photos");
    }
    match name {
        "phone_12mp" => PHONE.get_or_init(|| match &data {
            Some(root) => {
                std::fs::read(root.join("set/stetelepta/photos/test_images/IMG_1096.JPG"))
                    .expect("the 12 MP photo is readable")
            }
            None => rendered(4032, 3024),
        }),
        _ => WEBCAM.get_or_init(|| match &data {
            Some(root) => jpeg(
                &snapsolve_vision::read_image(
                    &root.join("set/tomwhite/photos/data/webcam/20170529_184024.png"),
                    Limits::default(),
                )
                .expect("the webcam frame is readable"),
            ),
            None => rendered(960, 720),
        }),
    }
}

/// The default classifier (the network), built once: `snapsolve set photo`
/// loads it once per run, and [`network_load`] times that separately.
fn network() -> &'static NetworkClassifier {
    static NETWORK: OnceLock<NetworkClassifier> = OnceLock::new();
    NETWORK.get_or_init(|| NetworkClassifier::embedded().expect("the embedded weights load"))
}

/// Decode → find cards → crops → classify with the network → SETs, as
/// `snapsolve set photo` does (network already loaded).
#[divan::bench(args = INPUTS)]
fn whole(bencher: Bencher, name: &str) {
    let bytes = input(name);
    let classifier = network();
    bencher.bench(|| {
        let photo = decode_table_photo(black_box(bytes), Limits::default()).expect("decodes");
        read_table(&photo, classifier)
    });
}

/// The same with the hand-made features classifier (`--classifier features`).
#[divan::bench(args = INPUTS)]
fn whole_features(bencher: Bencher, name: &str) {
    let bytes = input(name);
    bencher.bench(|| {
        let photo = decode_table_photo(black_box(bytes), Limits::default()).expect("decodes");
        read_table(&photo, &FeaturesClassifier)
    });
}

/// The same with every photo decoded at full size (the path before scaled decoding).
#[divan::bench(args = INPUTS)]
fn whole_full_decode(bencher: Bencher, name: &str) {
    let bytes = input(name);
    let classifier = network();
    bencher.bench(|| {
        let photo = decode_photo(black_box(bytes), Limits::default()).expect("decodes");
        read_table(&photo, classifier)
    });
}

/// Building the two networks from the weights embedded in the binary (once per run of the CLI).
#[divan::bench]
fn network_load() -> NetworkClassifier {
    NetworkClassifier::ensemble(
        black_box(&[EMBEDDED_WEIGHTS, EMBEDDED_LONG_WEIGHTS]),
        &Config::small(),
    )
    .expect("the embedded weights load")
}

/// Decoding as the photo path does it (reduced scale for large JPEGs).
#[divan::bench(args = INPUTS)]
fn decode(bencher: Bencher, name: &str) {
    let bytes = input(name);
    bencher.bench(|| decode_table_photo(black_box(bytes), Limits::default()));
}

/// Decoding at full size, for comparison.
#[divan::bench(args = INPUTS)]
fn decode_full(bencher: Bencher, name: &str) {
    let bytes = input(name);
    bencher.bench(|| decode_photo(black_box(bytes), Limits::default()));
}

/// Finding card quadrilaterals in the decoded photo (shrinking included).
#[divan::bench(args = INPUTS)]
fn find_cards(bencher: Bencher, name: &str) {
    let photo = decode_table_photo(input(name), Limits::default()).expect("decodes");
    bencher.bench(|| CardFinder::default().find(black_box(&photo.image)));
}

/// The learned detector on the decoded photo (shrinking to its input, the
/// network, core map to outlines, edge refinement), loaded once outside.
#[divan::bench(args = INPUTS)]
fn detect_cards(bencher: Bencher, name: &str) {
    let photo = decode_table_photo(input(name), Limits::default()).expect("decodes");
    let detector = snapsolve::set_photo::detector::shipped().expect("the embedded detector loads");
    bencher.bench(|| detector.detect(black_box(&photo.image)));
}

/// Warping every card to its 96x150 crop.
#[divan::bench(args = INPUTS)]
fn crops(bencher: Bencher, name: &str) {
    let photo = decode_table_photo(input(name), Limits::default()).expect("decodes");
    let quads = CardFinder::default().find(&photo.image);
    bencher.bench(|| card_crops(black_box(&photo.image), quads.clone()));
}

/// The card crops of an input, made once per bench.
fn crops_of(name: &str) -> Vec<RgbImage> {
    let photo = decode_table_photo(input(name), Limits::default()).expect("decodes");
    card_crops(&photo.image, CardFinder::default().find(&photo.image)).1
}

/// Naming every crop with the default classifier (the network).
#[divan::bench(args = INPUTS)]
fn classify(bencher: Bencher, name: &str) {
    let crops = crops_of(name);
    let classifier = network();
    bencher.bench(|| classifier.classify(black_box(&crops)));
}

/// Naming every crop with the hand-made features classifier.
#[divan::bench(args = INPUTS)]
fn classify_features(bencher: Bencher, name: &str) {
    let crops = crops_of(name);
    bencher.bench(|| FeaturesClassifier.classify(black_box(&crops)));
}

/// Cards, corners back to stored pixels, SETs, duplicates.
#[divan::bench(args = INPUTS)]
fn answer(bencher: Bencher, name: &str) {
    let photo = decode_table_photo(input(name), Limits::default()).expect("decodes");
    let (quads, crops) = card_crops(&photo.image, CardFinder::default().find(&photo.image));
    let readings = FeaturesClassifier.classify(&crops);
    bencher.bench(|| assemble_reading(&photo, quads.clone(), readings.clone()));
}
