//! Diagnostic: why a card was or was not taken. Prints every candidate the
//! finder proposes (each card size it tried), with the card network's card
//! probability and reading, and saves each crop as it reached the network:
//! `cargo run --release -p snapsolve --example candidates -- PHOTO OUT_DIR
//! [DISTORTION]`, the photo spoilt first as `eval set-photos --distort` would
//! when a distortion is named (and saved as `spoilt.png`).

use std::error::Error;
use std::path::PathBuf;

use snapsolve::distort::Distortion;
use snapsolve::set_photo::table::card_crops;
use snapsolve::set_photo::{CardClassifier, NetworkClassifier};
use snapsolve_vision::{CardFinder, Limits, read_photo};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (photo, out, distortion) = match args.as_slice() {
        [photo, out] => (photo, out, None),
        [photo, out, name] => (
            photo,
            out,
            Some(Distortion::by_name(name).ok_or("no such distortion")?),
        ),
        _ => return Err("usage: candidates PHOTO OUT_DIR [DISTORTION]".into()),
    };
    let out = PathBuf::from(out);
    std::fs::create_dir_all(&out)?;
    let mut photo = read_photo(std::path::Path::new(photo), Limits::default())?;
    if let Some(distortion) = distortion {
        photo = distortion.apply(photo);
        photo.image.save(out.join("spoilt.png"))?;
    }
    let network = NetworkClassifier::embedded()?;
    for (size, quads) in CardFinder::default()
        .find_each_size(&photo.image, 4)
        .into_iter()
        .enumerate()
    {
        let (quads, crops) = card_crops(&photo.image, quads);
        for (i, (reading, (quad, crop))) in network
            .classify(&crops)
            .into_iter()
            .zip(quads.iter().zip(&crops))
            .enumerate()
        {
            println!(
                "size {size} candidate {i}: card {:.3} {} ({:.2}) corners {:?}",
                reading.card_probability.unwrap_or(1.0),
                reading.card(),
                reading.confidence(),
                quad.corners.map(|[x, y]| [x.round(), y.round()])
            );
            crop.save(out.join(format!("size{size}-{i}.png")))?;
        }
    }
    Ok(())
}
