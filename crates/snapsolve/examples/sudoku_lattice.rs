//! Draws the grid lattice the finder fits on a photo (red lines through the
//! 10 x 10 crossings), to see where cells are cut: `sudoku_lattice IMAGE OUT.png`.

use image::Rgb;
use imageproc::drawing::draw_line_segment_mut;
use snapsolve_vision::grid::{darkest_channel, find_grid};
use snapsolve_vision::{Limits, read_image};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [image, out] = args.as_slice() else {
        return Err("usage: sudoku_lattice IMAGE OUT.png".into());
    };
    let mut rgb =
        read_image(std::path::Path::new(image), Limits::default()).map_err(|e| e.to_string())?;
    let gray = darkest_channel(&rgb);
    let found = find_grid(&gray).ok_or("no grid found")?;
    let p = &found.lattice.points;
    let red = Rgb([230, 0, 0]);
    for (i, row) in p.iter().enumerate() {
        for j in 0..9 {
            draw_line_segment_mut(&mut rgb, row[j], row[j + 1], red);
            draw_line_segment_mut(&mut rgb, p[j][i], p[j + 1][i], red);
        }
    }
    println!(
        "line score {:.2}, outer {:.2}, beside ink {:.2}",
        found.line_score, found.outer_line_score, found.beside_ink
    );
    rgb.save(out).map_err(|e| e.to_string())
}
