//! Prints the features classifier's measurements for labelled crops, to set
//! its thresholds on the tuning split:
//! `cargo run --release -p snapsolve --example card_features -- CROPS.csv ROOT PATH_PART`
//! (only rows whose image path contains PATH_PART).

use snapsolve::set_photo::features::{measure, read};
use snapsolve_vision::crop::canonical_card;
use snapsolve_vision::{Limits, read_image};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [csv, root, part] = args.as_slice() else {
        eprintln!("usage: card_features CROPS.csv ROOT PATH_PART");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(csv).unwrap_or_default();
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let (Some(path), Some(card)) = (fields.first(), fields.get(1)) else {
            continue;
        };
        if !path.contains(part.as_str()) {
            continue;
        }
        let Ok(image) = read_image(&std::path::Path::new(root).join(path), Limits::default())
        else {
            continue;
        };
        match measure(&canonical_card(&image)) {
            Some(f) => {
                let got = read(&f).card();
                println!(
                    "{card} {got} n={} ext={:.3} sol={:.3} fill={:.3} hue={:.0} sat={:.2}",
                    f.symbols, f.extent, f.solidity, f.fill, f.hue, f.saturation
                );
            }
            None => println!("{card} none"),
        }
    }
}
