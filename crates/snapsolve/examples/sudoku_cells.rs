//! Writes the 81 cells the digit network reads from a photo as one 9x9 mosaic
//! (white = ink), to see what it sees: `sudoku_cells IMAGE OUT.png`.

use image::{GrayImage, Luma};
use snapsolve_vision::grid::{CELL_INPUT_SIDE, darkest_channel, find_grid, sample_cells};
use snapsolve_vision::{Limits, read_image};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [image, out] = args.as_slice() else {
        return Err("usage: sudoku_cells IMAGE OUT.png".into());
    };
    let rgb =
        read_image(std::path::Path::new(image), Limits::default()).map_err(|e| e.to_string())?;
    let gray = darkest_channel(&rgb);
    let found = find_grid(&gray).ok_or("no grid found")?;
    let cells = sample_cells(&gray, &found.lattice);
    let side = CELL_INPUT_SIDE as u32;
    let mut mosaic = GrayImage::new(9 * (side + 2), 9 * (side + 2));
    for i in 0..81u32 {
        let (ox, oy) = ((i % 9) * (side + 2), (i / 9) * (side + 2));
        for (k, v) in cells.cell(i as usize).iter().enumerate() {
            let (x, y) = (k as u32 % side, k as u32 / side);
            mosaic.put_pixel(ox + x, oy + y, Luma([(v * 255.0) as u8]));
        }
    }
    mosaic.save(out).map_err(|e| e.to_string())
}
