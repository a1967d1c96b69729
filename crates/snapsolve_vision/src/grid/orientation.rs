//! Quarter turns of a found grid: a newspaper shot sideways or upside down has
//! its lattice found in photo order, but the puzzle's first row is then a column
//! (or the last row) of the photo. Turning the lattice re-indexes its crossings
//! so that row 0 is the puzzle's top row; turning the cut cells does the same to
//! the 81 ink squares without resampling the photo, so a reader can try all four
//! orientations for the cost of reading.

use super::{CELL_INPUT_SIDE, CellInk, Lattice};

impl Lattice {
    /// The lattice read `quarters` quarter turns clockwise from the photo's rows:
    /// after one turn, row 0 is the photo's rightmost column of crossings (a page
    /// photographed turned a quarter clockwise reads upright again).
    pub fn turned(&self, quarters: usize) -> Lattice {
        let mut points = self.points;
        for _ in 0..quarters % 4 {
            let old = points;
            for (i, row) in points.iter_mut().enumerate() {
                for (j, p) in row.iter_mut().enumerate() {
                    *p = old[j][9 - i];
                }
            }
        }
        Lattice { points }
    }
}

/// The cells as [`Lattice::turned`] by `quarters` would cut them: cells
/// re-ordered and each square turned the same way.
pub fn turn_cells(cells: &CellInk, quarters: usize) -> CellInk {
    let side = CELL_INPUT_SIDE;
    let mut values = cells.values.clone();
    for _ in 0..quarters % 4 {
        let old = values.clone();
        for r in 0..9 {
            for c in 0..9 {
                // New cell (r, c) is old cell (c, 8 - r); its pixel (y, x) is the
                // old pixel (x, side - 1 - y).
                let from = (c * 9 + 8 - r) * side * side;
                let to = (r * 9 + c) * side * side;
                for y in 0..side {
                    for x in 0..side {
                        values[to + y * side + x] = old[from + x * side + side - 1 - y];
                    }
                }
            }
        }
    }
    CellInk { values }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::sample_cells;
    use image::GrayImage;

    /// A photo with a different dark blob in every cell of an evenly divided grid.
    fn marked_photo() -> (GrayImage, Lattice) {
        let lattice = Lattice::even(&[(10.0, 20.0), (370.0, 30.0), (360.0, 380.0), (20.0, 370.0)])
            .expect("a lattice");
        let mut photo = GrayImage::from_pixel(400, 400, image::Luma([220]));
        for cell in 0..81 {
            let q = lattice.cell_quad(cell / 9, cell % 9);
            // A blob whose place inside the cell depends on the cell number.
            let (u, v) = (
                0.2 + 0.6 * (cell % 7) as f32 / 6.0,
                0.25 + 0.5 * (cell % 5) as f32 / 4.0,
            );
            let (x, y) = crate::grid::cells::bilinear_point(&q, u, v);
            for dy in -3..=3 {
                for dx in -3..=3 {
                    let (px, py) = ((x as i32 + dx) as u32, (y as i32 + dy) as u32);
                    photo.put_pixel(px, py, image::Luma([20]));
                }
            }
        }
        (photo, lattice)
    }

    #[test]
    fn turning_cut_cells_matches_cutting_the_turned_lattice() {
        let (photo, lattice) = marked_photo();
        let cells = sample_cells(&photo, &lattice);
        for quarters in 0..4 {
            let direct = sample_cells(&photo, &lattice.turned(quarters));
            let turned = turn_cells(&cells, quarters);
            let worst = direct
                .values
                .iter()
                .zip(&turned.values)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0f32, f32::max);
            assert!(worst < 0.02, "{quarters} turns: differ by {worst}");
        }
    }

    #[test]
    fn four_turns_are_no_turn() {
        let (_, lattice) = marked_photo();
        let back = lattice.turned(1).turned(3);
        assert_eq!(back.points, lattice.points);
        assert_eq!(lattice.turned(1).points[0][0], lattice.points[0][9]);
    }
}
