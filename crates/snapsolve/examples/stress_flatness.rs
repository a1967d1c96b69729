//! Prints how flat the symbols of rendered stress tables lie, as the card
//! finder measures it before stretching a steep view upright
//! (`CardFinder::symbol_flatness`), to set the bar between upright and
//! steep tables: `stress_flatness FIRST COUNT CONDITION...` prints one line
//! per table and each condition's spread.

use snapsolve::set_photo::stress::Condition;
use snapsolve_synth::render_table;
use snapsolve_vision::CardFinder;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [first, count, names @ ..] = args.as_slice() else {
        return Err("usage: stress_flatness FIRST COUNT CONDITION...".into());
    };
    let number = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let (first, count) = (number(first)?, number(count)?);
    let finder = CardFinder::default();
    for name in names {
        let condition = Condition::by_name(name).ok_or(format!("no condition {name}"))?;
        let mut measured: Vec<f32> = Vec::new();
        for index in first..first + count {
            let table = render_table(&condition.spec(index));
            let flatness = finder.symbol_flatness(&table.image);
            println!(
                "{name} {index} {}",
                flatness.map_or("-".into(), |f| format!("{f:.2}"))
            );
            measured.extend(flatness);
        }
        measured.sort_by(f32::total_cmp);
        if let (Some(low), Some(high)) = (measured.first(), measured.last()) {
            let median = measured[measured.len() / 2];
            println!(
                "{name}: {} tables measured, {low:.2} .. {high:.2}, median {median:.2}",
                measured.len()
            );
        }
    }
    Ok(())
}
