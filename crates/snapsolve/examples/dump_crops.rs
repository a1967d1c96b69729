//! Diagnostic: cuts every card from the labelled photos of one deck and saves
//! the crops on which the network and the features classifier disagree, or
//! whose network reading is not on the table's label, to look at them:
//! `cargo run --release -p snapsolve --example dump_crops -- ../shared/data OUT_DIR std`.

use std::error::Error;
use std::path::PathBuf;

use snapsolve::set_photo::eval::parse_photo_labels;
use snapsolve::set_photo::{CardClassifier, FeaturesClassifier, NetworkClassifier};
use snapsolve_vision::crop::card_crop;
use snapsolve_vision::{CardFinder, Limits, read_photo};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [root, out, deck] = args.as_slice() else {
        return Err("usage: dump_crops DATA_DIR OUT_DIR std|alt_rect_dotted".into());
    };
    let (root, out) = (PathBuf::from(root), PathBuf::from(out));
    let labels = parse_photo_labels(&std::fs::read_to_string(root.join("set/photos.jsonl"))?)?;
    let network = NetworkClassifier::embedded()?;
    let mut saved = 0;
    for label in labels.iter().filter(|l| &l.deck == deck) {
        let photo = read_photo(&root.join(&label.image), Limits::default())?;
        let crops: Vec<_> = CardFinder::default()
            .find(&photo.image)
            .iter()
            .filter_map(|q| card_crop(&photo.image, q))
            .collect();
        let by_network = network.classify(&crops);
        let by_features = FeaturesClassifier.classify(&crops);
        let stem = label.image.rsplit('/').next().unwrap_or(&label.image);
        let stem = stem.split('.').next().unwrap_or(stem);
        for (i, ((crop, net), feat)) in crops.iter().zip(&by_network).zip(&by_features).enumerate()
        {
            let (n, f) = (net.card(), feat.card());
            let on_table = label.cards.contains(&n);
            if n != f || !on_table {
                let verdict = if on_table { "netOK" } else { "netBAD" };
                let name = format!(
                    "{stem}_{i}_net-{n}_{:.2}_feat-{f}_{verdict}.png",
                    net.confidence()
                );
                crop.save(out.join(name))?;
                saved += 1;
            }
        }
    }
    eprintln!("{saved} crops saved");
    Ok(())
}
