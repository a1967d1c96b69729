//! Running the digit network over the 81 cells of a grid.

use candle_core::{DType, Device};
use candle_nn::VarBuilder;
use snapsolve_nn::digits::{CLASSES, Config, DigitNet, FastDigitNet};
use snapsolve_vision::grid::{CELL_INPUT_SIDE, CellInk};

/// Probabilities of empty (index 0) and of the digits 1-9 (indices 1-9) for one cell.
pub type CellProbabilities = [f32; CLASSES];

/// The digit network with its weights, in its fast reading form; or several
/// networks whose probabilities are averaged (an ensemble).
#[derive(Clone, Debug)]
pub struct DigitReader {
    nets: Vec<FastDigitNet>,
}

/// The digit network failed (bad weights or a tensor error).
#[derive(Debug)]
pub struct ReaderError(pub String);

impl std::fmt::Display for ReaderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "digit network: {}", self.0)
    }
}

impl std::error::Error for ReaderError {}

impl From<candle_core::Error> for ReaderError {
    fn from(e: candle_core::Error) -> ReaderError {
        ReaderError(e.to_string())
    }
}

impl DigitReader {
    /// The network with weights from safetensors bytes (of any size
    /// [`Config::of_weights`] recognises).
    pub fn from_safetensors(bytes: &[u8]) -> Result<DigitReader, ReaderError> {
        let weights = candle_core::safetensors::load_buffer(bytes, &Device::Cpu)?;
        let config = Config::of_weights(&weights)?;
        let vb = VarBuilder::from_tensors(weights, DType::F32, &Device::Cpu);
        Ok(DigitReader {
            nets: vec![DigitNet::new(&config, vb)?.fast()?],
        })
    }

    /// The networks of several weights read together: each cell's
    /// probabilities are the mean of theirs (at least one set of weights).
    pub fn ensemble(weights: &[&[u8]]) -> Result<DigitReader, ReaderError> {
        if weights.is_empty() {
            return Err(ReaderError("an ensemble needs at least one network".into()));
        }
        let mut nets = Vec::with_capacity(weights.len());
        for bytes in weights {
            nets.extend(DigitReader::from_safetensors(bytes)?.nets);
        }
        Ok(DigitReader { nets })
    }

    /// Class probabilities for each cell.
    pub fn probabilities(&self, cells: &CellInk) -> Result<Vec<CellProbabilities>, ReaderError> {
        let mut sum = self.nets[0].probabilities(&cells.values);
        for net in &self.nets[1..] {
            sum.iter_mut()
                .zip(net.probabilities(&cells.values))
                .for_each(|(a, b)| *a += b);
        }
        if self.nets.len() > 1 {
            let n = self.nets.len() as f32;
            sum.iter_mut().for_each(|a| *a /= n);
        }
        Ok(sum
            .chunks_exact(CLASSES)
            .map(|r| {
                let mut p = [0.0; CLASSES];
                p.copy_from_slice(r);
                p
            })
            .collect())
    }
}

/// A cell whose likeliest class has a lower probability is read again,
/// shifted (see [`DigitReader::steadied`]).
pub const STEADY_BELOW: f32 = 0.9;
/// The views of a doubtful cell read besides the cell itself, as (zoom about
/// the middle, pixels right, pixels down): shifted a pixel right, left, down
/// and up (session 12), then diagonally, then shrunk and grown a tenth
/// (session 16).
const VIEWS: [(f32, f32, f32); 10] = [
    (1.0, 1.0, 0.0),
    (1.0, -1.0, 0.0),
    (1.0, 0.0, 1.0),
    (1.0, 0.0, -1.0),
    (1.0, 1.0, 1.0),
    (1.0, -1.0, -1.0),
    (1.0, 1.0, -1.0),
    (1.0, -1.0, 1.0),
    (0.9, 0.0, 0.0),
    (1.1, 0.0, 0.0),
];

impl DigitReader {
    /// `probabilities` (of `cells`, in the same order) with each cell read
    /// with less than [`STEADY_BELOW`] confidence replaced by the mean of its
    /// reading and those of the ten [`VIEWS`]: the cell shifted one pixel
    /// each way and diagonally, shrunk and grown a tenth (paper comes in at
    /// the edge). A doubtful reading often hangs on where a stroke falls
    /// against the network's pooling grid, on a line remnant at the edge or
    /// on a digit's size; the mean of nearby views is steadier. Confident
    /// cells, nearly all, are not read again. (The plain mean: the mean of the
    /// logarithms read one handwritten training grid fewer right; reading
    /// every cell again (one in 14-21 is doubtful on the training and
    /// validation photos), one training cell more. Session 16: the diagonal
    /// and zoomed views read 23 more of 8,100 cells of the kept-back MNIST
    /// pages right than the four shifts alone.)
    pub fn steadied(
        &self,
        cells: &CellInk,
        probabilities: &mut [CellProbabilities],
    ) -> Result<(), ReaderError> {
        let doubtful: Vec<usize> = (0..probabilities.len())
            .filter(|&i| probabilities[i].iter().all(|&q| q < STEADY_BELOW))
            .collect();
        if doubtful.is_empty() {
            return Ok(());
        }
        let values = doubtful
            .iter()
            .flat_map(|&i| {
                VIEWS
                    .iter()
                    .flat_map(move |&(s, dx, dy)| transformed(cells.cell(i), s, dx, dy))
            })
            .collect();
        let views = self.probabilities(&CellInk { values })?;
        for (&i, reads) in doubtful.iter().zip(views.chunks_exact(VIEWS.len())) {
            let p = &mut probabilities[i];
            for read in reads {
                p.iter_mut().zip(read).for_each(|(a, b)| *a += b);
            }
            p.iter_mut().for_each(|a| *a /= (VIEWS.len() + 1) as f32);
        }
        Ok(())
    }
}

/// A cell's ink zoomed by `scale` about its middle, then moved `dx` pixels
/// right and `dy` down (bilinear; paper comes in at the edges). At zoom 1
/// and whole-pixel moves, each pixel is copied exactly.
pub fn transformed(cell: &[f32], scale: f32, dx: f32, dy: f32) -> Vec<f32> {
    if scale == 1.0 && dx.fract() == 0.0 && dy.fract() == 0.0 {
        return shifted(cell, dx as isize, dy as isize);
    }
    let side = CELL_INPUT_SIDE;
    let middle = (side as f32 - 1.0) / 2.0;
    let at = |x: isize, y: isize| {
        if (0..side as isize).contains(&x) && (0..side as isize).contains(&y) {
            cell[y as usize * side + x as usize]
        } else {
            0.0
        }
    };
    let mut out = vec![0.0; cell.len()];
    for y in 0..side {
        for x in 0..side {
            let from_x = (x as f32 - dx - middle) / scale + middle;
            let from_y = (y as f32 - dy - middle) / scale + middle;
            let (x0, y0) = (from_x.floor(), from_y.floor());
            let (fx, fy) = (from_x - x0, from_y - y0);
            let (x0, y0) = (x0 as isize, y0 as isize);
            out[y * side + x] = at(x0, y0) * (1.0 - fx) * (1.0 - fy)
                + at(x0 + 1, y0) * fx * (1.0 - fy)
                + at(x0, y0 + 1) * (1.0 - fx) * fy
                + at(x0 + 1, y0 + 1) * fx * fy;
        }
    }
    out
}

/// A cell's ink moved `dx` pixels right and `dy` down, paper coming in.
fn shifted(cell: &[f32], dx: isize, dy: isize) -> Vec<f32> {
    let side = CELL_INPUT_SIDE as isize;
    let mut out = vec![0.0; cell.len()];
    for y in 0..side {
        for x in 0..side {
            let (from_x, from_y) = (x - dx, y - dy);
            if (0..side).contains(&from_x) && (0..side).contains(&from_y) {
                out[(y * side + x) as usize] = cell[(from_y * side + from_x) as usize];
            }
        }
    }
    out
}

/// The committed weights (`models/sudoku_digits.safetensors`, see `models/README.md`).
static EMBEDDED_WEIGHTS: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/sudoku_digits.safetensors"
));

impl DigitReader {
    /// The network with the committed weights.
    pub fn embedded() -> Result<DigitReader, ReaderError> {
        DigitReader::from_safetensors(EMBEDDED_WEIGHTS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shift_moves_ink_and_brings_in_paper() {
        let side = CELL_INPUT_SIDE;
        let mut cell = vec![0.0; side * side];
        cell[0] = 1.0; // top left
        cell[side * side - 1] = 0.5; // bottom right
        let right = shifted(&cell, 1, 0);
        assert_eq!(right[1], 1.0);
        assert_eq!(
            right.iter().sum::<f32>(),
            1.0,
            "the bottom right pixel left the cell"
        );
        let up = shifted(&cell, 0, -1);
        assert_eq!(up[side * (side - 2) + side - 1], 0.5);
        assert_eq!(up.iter().sum::<f32>(), 0.5);
    }

    #[test]
    fn a_zoom_keeps_the_middle_and_whole_pixel_moves_are_shifts() {
        let side = CELL_INPUT_SIDE;
        let cell: Vec<f32> = (0..side * side)
            .map(|i| ((i * 7919) % 13) as f32 / 13.0)
            .collect();
        assert_eq!(transformed(&cell, 1.0, 1.0, -1.0), shifted(&cell, 1, -1));
        // A bar through the middle stays there, grown or shrunk.
        let mut bar = vec![0.0; side * side];
        (4..24).for_each(|y| bar[y * side + 13..y * side + 15].fill(1.0));
        for scale in [0.9, 1.1] {
            let zoomed = transformed(&bar, scale, 0.0, 0.0);
            assert!(zoomed[14 * side + 13] > 0.9 && zoomed[14 * side + 14] > 0.9);
            assert_eq!(zoomed[14 * side + 4], 0.0);
            let ink: f32 = zoomed.iter().sum();
            let expected = 40.0 * scale * scale;
            assert!((ink - expected).abs() < 4.0, "{scale}: {ink}");
        }
    }

    #[test]
    fn an_ensemble_of_one_network_twice_reads_as_the_network() {
        assert!(DigitReader::ensemble(&[]).is_err());
        let single = DigitReader::embedded().expect("committed weights");
        let twice = DigitReader::ensemble(&[EMBEDDED_WEIGHTS, EMBEDDED_WEIGHTS]).expect("twice");
        let side = CELL_INPUT_SIDE;
        let mut values = vec![0.0; 2 * side * side];
        for y in 6..22 {
            values[y * side + 14] = 1.0;
        }
        let cells = CellInk { values };
        let (a, b) = (
            single.probabilities(&cells).expect("read"),
            twice.probabilities(&cells).expect("read"),
        );
        for (p, q) in a.iter().zip(&b) {
            assert!(p.iter().zip(q).all(|(x, y)| (x - y).abs() < 1e-6));
        }
    }

    #[test]
    fn only_doubtful_cells_are_read_again_and_stay_probabilities() {
        let reader = DigitReader::embedded().expect("committed weights");
        let side = CELL_INPUT_SIDE;
        // Two cells: a bar (whatever the network makes of it) and paper.
        let mut values = vec![0.0; 2 * side * side];
        for y in 6..22 {
            values[y * side + 14] = 1.0;
        }
        let cells = CellInk { values };
        let read = reader.probabilities(&cells).expect("read");
        let mut sure = read.clone();
        sure[0] = [0.0, 0.95, 0.0, 0.0, 0.0, 0.0, 0.0, 0.05, 0.0, 0.0];
        let mut doubtful = sure.clone();
        doubtful[0] = [0.0, 0.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.4, 0.0, 0.0];
        let untouched = sure.clone();
        reader.steadied(&cells, &mut sure).expect("read");
        assert_eq!(sure, untouched, "no cell under the bar: none read again");
        reader.steadied(&cells, &mut doubtful).expect("read");
        assert_ne!(doubtful[0], untouched[0]);
        assert!((doubtful[0].iter().sum::<f32>() - 1.0).abs() < 1e-4);
    }
}
