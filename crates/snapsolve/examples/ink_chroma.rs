//! How colourful the ink of card crops is against their paper
//! (`snapsolve_vision::crop::ink_colour_spread`), lowest first:
//! `ink_chroma crops` (every crop of the shared `crops.csv`), `ink_chroma
//! photos` (every card read on the shared table photos), `ink_chroma stress
//! FIRST` (every card read on 24 stress tables of each condition from FIRST,
//! marked FALSE where no card lies), `ink_chroma free` (every card read on
//! the card-free photos of `eval/set_card_free.jsonl`, whole and cut to a
//! card's shape at full and half height: false cards all). Run from the
//! repository with `../shared/data` beside it. Session 32 set the grey-ink
//! floors of `set_photo::table` from it (docs/evaluation.md).
use image::RgbImage;
use snapsolve::set_photo::eval::{parse_crop_labels, parse_photo_labels};
use snapsolve::set_photo::stress::Condition;
use snapsolve::set_photo::table::{read_table, read_table_photo};
use snapsolve::set_photo::{DEFAULT_CLASSIFIER, classifier_by_name};
use snapsolve_vision::Photo;
use snapsolve_vision::crop::{canonical_card, card_crop, ink_colour_spread};

/// The spread of the crop's ink, -1 where it has none.
fn chroma(crop: &RgbImage) -> f32 {
    ink_colour_spread(crop).unwrap_or(-1.0)
}

fn summary(name: &str, mut v: Vec<(f32, String)>) {
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    let q = |f: f32| {
        v.get(((v.len() as f32 - 1.0) * f) as usize)
            .map(|x| x.0)
            .unwrap_or(f32::NAN)
    };
    println!(
        "{name}: n={} min {:.3} p1 {:.3} p5 {:.3} median {:.3}",
        v.len(),
        q(0.0),
        q(0.01),
        q(0.05),
        q(0.5)
    );
    for (c, what) in v.iter() {
        println!("    {c:.3} {what}");
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let what = std::env::args().nth(1).unwrap_or_default();
    let classifier = classifier_by_name(DEFAULT_CLASSIFIER).ok_or("classifier")?;
    if what == "crops" {
        let labels = parse_crop_labels(&std::fs::read_to_string("../shared/data/set/crops.csv")?)?;
        let v = labels
            .iter()
            .filter_map(|l| {
                let img = image::open(format!("../shared/data/{}", l.image))
                    .ok()?
                    .to_rgb8();
                Some((
                    chroma(&canonical_card(&img)),
                    format!("{} {}", l.image, l.card),
                ))
            })
            .collect();
        summary("crops", v);
    }
    if what == "photos" {
        let mut v = Vec::new();
        for f in ["photos.jsonl", "more_photos.jsonl"] {
            for l in
                parse_photo_labels(&std::fs::read_to_string(format!("../shared/data/set/{f}"))?)?
            {
                let photo = read_table_photo(
                    std::path::Path::new(&format!("../shared/data/{}", l.image)),
                    Default::default(),
                )?;
                for c in read_table(&photo, classifier.as_ref()).cards {
                    if let Some(crop) = card_crop(&photo.image, &c.upright) {
                        v.push((chroma(&crop), format!("{} {}", l.image, c.card)));
                    }
                }
            }
        }
        summary("photo cards", v);
    }
    if what == "stress" {
        let first: usize = std::env::args()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .unwrap_or(400);
        for cond in Condition::ALL {
            let mut v = Vec::new();
            for i in first..first + 24 {
                let table = snapsolve_synth::render_table(&cond.spec(i));
                let photo = Photo::from_upright(table.image.clone());
                for c in read_table(&photo, classifier.as_ref()).cards {
                    if let Some(crop) = card_crop(&photo.image, &c.upright) {
                        let truth = table.cards.iter().any(|p| {
                            snapsolve_vision::Quad { corners: p.corners }
                                .contains(c.upright.centre())
                        });
                        v.push((
                            chroma(&crop),
                            format!(
                                "{} {i} {} {}",
                                cond.name(),
                                c.card,
                                if truth { "card" } else { "FALSE" }
                            ),
                        ));
                    }
                }
            }
            summary(cond.name(), v);
        }
    }
    if what == "free" {
        let mut v = Vec::new();
        for line in std::fs::read_to_string("eval/set_card_free.jsonl")?.lines() {
            let path: String = serde_json::from_str::<serde_json::Value>(line)?["image"]
                .as_str()
                .ok_or("no image")?
                .into();
            let photo = image::open(format!("../shared/data/{path}"))?.to_rgb8();
            let (w, h) = photo.dimensions();
            for share in [1.0f32, 0.5, 0.0] {
                let img = if share == 0.0 {
                    photo.clone()
                } else {
                    let ch = (h as f32 * share) as u32;
                    let cw = ((ch as f32 / 1.56) as u32).min(w);
                    image::imageops::crop_imm(&photo, (w - cw) / 2, (h - ch) / 2, cw, ch).to_image()
                };
                let p = Photo::from_upright(img);
                for c in read_table(&p, classifier.as_ref()).cards {
                    if let Some(crop) = card_crop(&p.image, &c.upright) {
                        v.push((chroma(&crop), format!("{path} {share} {}", c.card)));
                    }
                }
            }
        }
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (c, w) in &v {
            println!("{c:.3} {w}");
        }
    }
    Ok(())
}
