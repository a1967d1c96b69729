//! Card-free pictures from a source nothing here was tuned or trained on:
//! the 290 wallpapers and paper textures of five Debian packages listed in
//! `eval/wallpapers_card_free.jsonl` (leaves, sand, wood, water, stripes,
//! drawn abstracts, papers; up to 5640x3172). Every card read on them is a
//! false card, and so is every card reported cut off by the edge.
//! `snapsolve eval set-photos eval/wallpapers_card_free.jsonl --root
//! /usr/share` prints the same per package.

use std::path::Path;

use snapsolve::data::skip_unless_ci;
use snapsolve::set_photo::NetworkClassifier;
use snapsolve::set_photo::eval::{PhotoSpoil, evaluate_photos, parse_photo_labels};
use snapsolve::set_photo::stress::{WALLPAPER_PACKAGES, WALLPAPER_ROOT};

#[test]
fn no_card_is_read_on_debian_wallpapers() {
    let test = "no_card_is_read_on_debian_wallpapers";
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../eval/wallpapers_card_free.jsonl");
    let text = std::fs::read_to_string(list).expect("eval/wallpapers_card_free.jsonl is readable");
    let labels = parse_photo_labels(&text).expect("labels parse");
    let root = Path::new(WALLPAPER_ROOT);
    let missing = labels
        .iter()
        .filter(|l| !root.join(&l.image).is_file())
        .count();
    if missing > 0 {
        skip_unless_ci(
            test,
            &format!(
                "{missing} of its pictures are missing (apt-get install {WALLPAPER_PACKAGES})"
            ),
        );
        return;
    }
    let network = NetworkClassifier::embedded().expect("embedded weights load");
    let scores = evaluate_photos(&labels, root, &network, PhotoSpoil::default());
    let false_cards: usize = scores.decks.values().map(|s| s.false_cards).sum();
    let cut_off: usize = scores.decks.values().map(|s| s.partial).sum();
    eprintln!(
        "{} wallpapers: {false_cards} false cards, {cut_off} cut off by the edge",
        labels.len()
    );
    assert_eq!(false_cards, 0, "false cards");
    // A sunlit leaf's veins at the top edge of `mate/nature/Blinds.jpg` were
    // reported as a cut-off card before cut-off cards had to lie on paper.
    assert_eq!(cut_off, 0, "cards cut off by the edge");
}
