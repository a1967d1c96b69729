//! The model as a CPLEX LP file, readable by HiGHS, CPLEX, Gurobi, CBC, SCIP, glpk.
//!
//! The `highs` binding cannot write models, so this writes the sections itself:
//! `Maximize`, `Subject To`, `Binary`, `End`, with `\` comments naming the
//! cards behind `x1..xN`. Long rows are wrapped (continuation lines are part
//! of the format) so no line grows past the 255 characters some readers allow.

use std::io::{self, Write};

use snapsolve_set::Layout;

use crate::model::{Sense, SetIlp};

/// Terms per line before wrapping: 8 terms of at most ~20 characters each.
const TERMS_PER_LINE: usize = 8;

/// Writes seed 001's model of the layout in CPLEX LP format.
pub fn write_lp<W: Write + ?Sized>(layout: &Layout, writer: &mut W) -> io::Result<()> {
    write_model_lp(layout, &SetIlp::build(layout), writer)
}

/// Writes a model (possibly with cuts) of the layout in CPLEX LP format.
pub fn write_model_lp<W: Write + ?Sized>(
    layout: &Layout,
    model: &SetIlp,
    writer: &mut W,
) -> io::Result<()> {
    writeln!(
        writer,
        "\\ SET as a binary integer program (seed 001), written by snapsolve"
    )?;
    writeln!(
        writer,
        "\\ layout of {} cards; xI = 1 chooses card I:",
        layout.len()
    )?;
    for (variable, card) in model.variables().iter().zip(layout.cards()) {
        writeln!(writer, "\\   {} = {card}", variable.name)?;
    }
    writeln!(
        writer,
        "\\ y_P = 1: the three differ in attribute P; z_P_V = 1: all three have value V"
    )?;
    writeln!(writer, "Maximize")?;
    write_row(model, "obj", model.objective(), writer)?;
    writeln!(writer)?;
    writeln!(writer, "Subject To")?;
    for row in model.rows() {
        write_row(model, &row.name, &row.terms, writer)?;
        let sense = match row.sense {
            Sense::Equal => "=",
            Sense::AtMost => "<=",
        };
        writeln!(writer, " {sense} {}", row.rhs)?;
    }
    writeln!(writer, "Binary")?;
    for names in model.variables().chunks(TERMS_PER_LINE) {
        let names: Vec<&str> = names.iter().map(|v| v.name.as_str()).collect();
        writeln!(writer, " {}", names.join(" "))?;
    }
    writeln!(writer, "End")?;
    writer.flush()
}

/// Writes ` name: 3 a - b + c` (without a line end), wrapping long rows.
///
/// An empty sum (no cards in the layout) is written `0 y_number`, since the
/// format has no empty expression.
fn write_row<W: Write + ?Sized>(
    model: &SetIlp,
    name: &str,
    terms: &[(usize, i32)],
    writer: &mut W,
) -> io::Result<()> {
    write!(writer, " {name}:")?;
    if terms.is_empty() {
        let placeholder = &model.variables()[model.n_cards()].name;
        return write!(writer, " 0 {placeholder}");
    }
    for (t, &(j, coefficient)) in terms.iter().enumerate() {
        if t > 0 && t % TERMS_PER_LINE == 0 {
            write!(writer, "\n  ")?;
        }
        let sign = if coefficient < 0 { '-' } else { '+' };
        let magnitude = coefficient.unsigned_abs();
        let name = &model.variables()[j].name;
        match (t, magnitude) {
            (0, 1) if coefficient > 0 => write!(writer, " {name}")?,
            (0, _) if coefficient > 0 => write!(writer, " {magnitude} {name}")?,
            (_, 1) => write!(writer, " {sign} {name}")?,
            _ => write!(writer, " {sign} {magnitude} {name}")?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lp_text(layout: &Layout) -> String {
        let mut out = Vec::new();
        write_lp(layout, &mut out).expect("writing to memory succeeds");
        String::from_utf8(out).expect("LP is ASCII")
    }

    #[test]
    fn sections_rows_and_binaries_are_all_there() {
        let layout = Layout::parse("1-red-solid-oval 2-red-striped-oval 3-red-open-oval")
            .expect("layout parses");
        let text = lp_text(&layout);
        let sections: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with([' ', '\\']))
            .collect();
        assert_eq!(sections, ["Maximize", "Subject To", "Binary", "End"]);
        assert!(text.contains(" obj: x1 + x2 + x3\n"), "{text}");
        assert!(text.contains(" pick_three: x1 + x2 + x3 = 3\n"), "{text}");
        assert!(
            text.contains(" count_color_red: x1 + x2 + x3 - y_color - 3 z_color_red = 0\n"),
            "{text}"
        );
        assert!(
            text.contains(" count_color_green: - y_color - 3 z_color_green = 0\n"),
            "{text}"
        );
        assert!(
            text.contains(
                " one_kind_shape: z_shape_diamond + z_shape_oval + z_shape_squiggle + y_shape = 1\n"
            ),
            "{text}"
        );
        let constraints = text
            .lines()
            .filter(|l| !l.starts_with('\\') && (l.contains(" = ") || l.contains(" <= ")))
            .count();
        assert_eq!(constraints, SetIlp::SEED_ROWS);
        let binaries: usize = text
            .split("Binary\n")
            .nth(1)
            .and_then(|rest| rest.split("End").next())
            .map(|block| block.split_whitespace().count())
            .unwrap_or(0);
        assert_eq!(binaries, 3 + 16);
    }

    #[test]
    fn long_rows_wrap_and_empty_layouts_stay_valid() {
        let text = lp_text(&Layout::full_deck());
        assert!(text.lines().all(|l| l.len() <= 255));
        assert!(text.contains(" pick_three: x1 + x2"));
        let empty = lp_text(&Layout::default());
        assert!(empty.contains(" obj: 0 y_number\n"), "{empty}");
        assert!(empty.contains(" pick_three: 0 y_number = 3\n"), "{empty}");
    }
}
