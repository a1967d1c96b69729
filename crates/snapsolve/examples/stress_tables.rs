//! Writes tables of the rendered stress suite as they are rendered, before
//! any reading (`eval set-stress --pictures` draws the answers on them), to
//! feed the card finder's debugging tools:
//! `stress_tables CONDITION FIRST COUNT OUT_DIR` writes `CONDITION-INDEX.png`.

use snapsolve::set_photo::stress::Condition;
use snapsolve_synth::render_table;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, first, count, out] = args.as_slice() else {
        return Err("usage: stress_tables CONDITION FIRST COUNT OUT_DIR".into());
    };
    let condition = Condition::by_name(name).ok_or(format!("no condition {name}"))?;
    let number = |s: &str| s.parse::<usize>().map_err(|e| format!("{s}: {e}"));
    let first = number(first)?;
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    for index in first..first + number(count)? {
        let table = render_table(&condition.spec(index));
        let path = std::path::Path::new(out).join(format!("{name}-{index}.png"));
        table.image.save(&path).map_err(|e| e.to_string())?;
    }
    Ok(())
}
