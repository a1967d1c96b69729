//! Writes a contact sheet of rendered crops (both editions), one of crops
//! that are not a card (one row per lookalike kind) and one rendered table,
//! to look at what the renderer makes:
//! `cargo run --release -p snapsolve_synth --example contact_sheet -- OUT_DIR`.

use image::RgbImage;
use rand::SeedableRng;
use snapsolve_set::Card;
use snapsolve_synth::{Edition, Lookalike, TableSpec, render_crop, render_lookalike, render_table};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let (cols, rows) = (12u32, 6u32);
    let mut sheet = RgbImage::new(96 * cols, 150 * rows);
    for i in 0..cols * rows {
        let card = Card::all().nth((i as usize * 7) % 81).ok_or("card")?;
        let edition = Edition::ALL[(i / cols % 2) as usize];
        let crop = render_crop(card, edition, 96, 150, &mut rng);
        image::imageops::replace(
            &mut sheet,
            &crop,
            (96 * (i % cols)) as i64,
            (150 * (i / cols)) as i64,
        );
    }
    sheet.save(out.join("crops.png"))?;
    let kinds = Lookalike::ALL.len() as u32;
    let mut lookalikes = RgbImage::new(96 * cols, 150 * kinds);
    for (row, kind) in Lookalike::ALL.into_iter().enumerate() {
        for col in 0..cols {
            let crop = render_lookalike(kind, 96, 150, &mut rng);
            image::imageops::replace(&mut lookalikes, &crop, (96 * col) as i64, 150 * row as i64);
        }
    }
    lookalikes.save(out.join("lookalikes.png"))?;
    for edition in Edition::ALL {
        let cards: Vec<Card> = Card::all().step_by(5).take(12).collect();
        let table = render_table(&TableSpec::new(cards, edition, 5));
        table
            .image
            .save(out.join(format!("table-{}.jpg", edition.label())))?;
    }
    Ok(())
}
