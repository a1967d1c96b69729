//! Running the digit network over the 81 cells of a grid.

use candle_core::{DType, Device};
use candle_nn::VarBuilder;
use snapsolve_nn::digits::{CLASSES, Config, DigitNet, FastDigitNet};
use snapsolve_vision::grid::CellInk;

/// Probabilities of empty (index 0) and of the digits 1-9 (indices 1-9) for one cell.
pub type CellProbabilities = [f32; CLASSES];

/// The digit network with its weights, in its fast reading form.
#[derive(Clone, Debug)]
pub struct DigitReader {
    net: FastDigitNet,
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
    /// The network with weights from safetensors bytes.
    pub fn from_safetensors(bytes: &[u8]) -> Result<DigitReader, ReaderError> {
        let vb = VarBuilder::from_slice_safetensors(bytes, DType::F32, &Device::Cpu)?;
        Ok(DigitReader {
            net: DigitNet::new(&Config::small(), vb)?.fast()?,
        })
    }

    /// Class probabilities for each cell.
    pub fn probabilities(&self, cells: &CellInk) -> Result<Vec<CellProbabilities>, ReaderError> {
        Ok(self
            .net
            .probabilities(&cells.values)
            .chunks_exact(CLASSES)
            .map(|r| {
                let mut p = [0.0; CLASSES];
                p.copy_from_slice(r);
                p
            })
            .collect())
    }
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
