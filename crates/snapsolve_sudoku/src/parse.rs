//! Reading puzzles from text.
//!
//! Two layouts are understood, and may be mixed in one file:
//! - **line format**: one puzzle per line, the first 81 characters are the cells row by
//!   row (`1`-`9` a given, `.` or `0` an empty cell); anything after a space or tab
//!   following the 81 cells is a remark (the invalid-puzzle files say why there).
//! - **block format**: nine lines of nine cells, optionally after a header line such as
//!   `Grid 07` (Project Euler 96); spaces, `|` and rule lines made of `-+=` are allowed
//!   for people who draw boxes.
//!
//! Blank lines and lines starting with `#` are skipped. Errors give the line and the
//! character (both counted from 1) that is wrong.

use std::fmt;
use std::str::FromStr;

use crate::grid::{CELLS, Grid};

/// One puzzle read from a text, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// The givens.
    pub grid: Grid,
    /// Line (from 1) where the puzzle starts.
    pub line: usize,
    /// The `Grid NN` header of a block, if any.
    pub name: Option<String>,
    /// Text after the 81 cells of a line, if any.
    pub remark: Option<String>,
}

/// A text that is not a list of puzzles, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Line (from 1).
    pub line: usize,
    /// Character in the line (from 1), when one character is to blame.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(
                f,
                "line {}, character {}: {}",
                self.line, column, self.message
            ),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// Value of a cell character: `Some(0)` for empty, `Some(1..=9)` for a given.
fn cell_value(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

fn describe_char(c: char) -> String {
    format!("{c:?} is not a digit 1-9 or an empty cell ('.' or '0')")
}

/// A block (nine rows of nine cells) being read.
struct Block {
    start: usize,
    name: Option<String>,
    cells: Vec<u8>,
}

/// Reads every puzzle in `text`; see the module documentation for the formats.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, ParseError> {
    let mut puzzles = Vec::new();
    let mut block: Option<Block> = None;
    let mut lines = 0;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        lines = number;
        let line = raw.trim_end();
        // The common case first: a line of exactly 81 cells (files hold tens of
        // thousands; the general path below reads them a character at a time).
        if let Some(grid) = whole_line_grid(line.as_bytes()) {
            finish_block(&mut block, number, &mut puzzles)?;
            puzzles.push(Puzzle {
                grid,
                line: number,
                name: None,
                remark: None,
            });
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if is_header(trimmed) {
            finish_block(&mut block, number, &mut puzzles)?;
            block = Some(Block {
                start: number,
                name: Some(trimmed.to_string()),
                cells: Vec::with_capacity(CELLS),
            });
            continue;
        }
        if let Some(open) = block.as_mut()
            && is_rule(trimmed)
        {
            if open.cells.is_empty() {
                open.start = number;
            }
            continue;
        }
        if let Some(row) = block_row(line) {
            let open = block.get_or_insert_with(|| Block {
                start: number,
                name: None,
                cells: Vec::with_capacity(CELLS),
            });
            if open.cells.is_empty() && open.name.is_none() {
                open.start = number;
            }
            open.cells.extend_from_slice(&row);
            if open.cells.len() == CELLS {
                finish_block(&mut block, number, &mut puzzles)?;
            }
            continue;
        }
        finish_block(&mut block, number, &mut puzzles)?;
        puzzles.push(parse_line(line, number)?);
    }
    finish_block(&mut block, lines + 1, &mut puzzles)?;
    Ok(puzzles)
}

/// The grid of a line that is exactly 81 cell characters (`1`-`9`, `.`, `0`), else
/// `None` (the general path then reads it, or says what is wrong). Branch-free over
/// the bytes, so that it compiles to vector code.
fn whole_line_grid(line: &[u8]) -> Option<Grid> {
    let line: &[u8; CELLS] = line.try_into().ok()?;
    let mut cells = [0u8; CELLS];
    let mut bad = false;
    for (cell, &byte) in cells.iter_mut().zip(line) {
        let digit = byte.wrapping_sub(b'0');
        bad |= digit > 9 && byte != b'.';
        *cell = if digit <= 9 { digit } else { 0 };
    }
    if bad { None } else { Grid::from_cells(cells) }
}

fn is_header(line: &str) -> bool {
    let lower = line.get(..4).map(str::to_ascii_lowercase);
    lower.as_deref() == Some("grid")
}

fn is_rule(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '-' | '+' | '=' | '|' | ' '))
}

/// The nine cells of a block row, if `line` is one (spaces and `|` ignored).
fn block_row(line: &str) -> Option<[u8; 9]> {
    let mut row = [0u8; 9];
    let mut n = 0;
    for c in line.chars().filter(|&c| c != ' ' && c != '|' && c != '\t') {
        if n == 9 {
            return None;
        }
        row[n] = cell_value(c)?;
        n += 1;
    }
    (n == 9).then_some(row)
}

/// Emits a completed block, or fails if one is open but unfinished at `line`.
fn finish_block(
    block: &mut Option<Block>,
    line: usize,
    puzzles: &mut Vec<Puzzle>,
) -> Result<(), ParseError> {
    let Some(open) = block.take() else {
        return Ok(());
    };
    if open.cells.len() == CELLS {
        let cells: [u8; CELLS] = open.cells.try_into().map_err(|_| ParseError {
            line,
            column: None,
            message: "internal: block size".into(),
        })?;
        puzzles.push(Puzzle {
            grid: Grid::from_cells(cells).ok_or_else(|| ParseError {
                line,
                column: None,
                message: "cell value above 9".into(),
            })?,
            line: open.start,
            name: open.name,
            remark: None,
        });
        return Ok(());
    }
    let what = open.name.as_deref().unwrap_or("the grid");
    Err(ParseError {
        line,
        column: None,
        message: format!(
            "{what} started at line {} has {} rows of nine cells; a block needs 9",
            open.start,
            open.cells.len() / 9
        ),
    })
}

/// One puzzle in line format: 81 cells, then nothing or whitespace and a remark.
fn parse_line(line: &str, number: usize) -> Result<Puzzle, ParseError> {
    let mut cells = [0u8; CELLS];
    let mut chars = line.char_indices();
    for (i, cell) in cells.iter_mut().enumerate() {
        match chars.next() {
            Some((_, c)) => {
                *cell = cell_value(c).ok_or_else(|| ParseError {
                    line: number,
                    column: Some(i + 1),
                    message: describe_char(c),
                })?
            }
            None => {
                return Err(ParseError {
                    line: number,
                    column: None,
                    message: format!(
                        "only {i} cells; a puzzle line needs 81 (or use the block format: 9 lines of 9)"
                    ),
                });
            }
        }
    }
    let rest = chars.as_str();
    let remark = match rest.chars().next() {
        None => None,
        Some(c) if c.is_whitespace() => Some(rest.trim().to_string()),
        Some(c) => {
            return Err(ParseError {
                line: number,
                column: Some(82),
                message: format!(
                    "{c:?} right after the 81 cells; a remark must be separated by a space"
                ),
            });
        }
    };
    Ok(Puzzle {
        grid: Grid::from_cells(cells).ok_or_else(|| ParseError {
            line: number,
            column: None,
            message: "cell value above 9".into(),
        })?,
        line: number,
        name: None,
        remark,
    })
}

impl FromStr for Grid {
    type Err = ParseError;

    /// Exactly one puzzle, in line or block format.
    fn from_str(text: &str) -> Result<Grid, ParseError> {
        let mut puzzles = parse_puzzles(text)?;
        match puzzles.len() {
            1 => Ok(puzzles.remove(0).grid),
            0 => Err(ParseError {
                line: 1,
                column: None,
                message: "no puzzle found".into(),
            }),
            n => Err(ParseError {
                line: puzzles[1].line,
                column: None,
                message: format!("expected one puzzle, found {n}"),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str =
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

    #[test]
    fn line_with_comment_and_remark() {
        let text = format!(
            "# a comment\n\n{LINE}   box duplicate\n{}\n",
            LINE.replace('.', "0")
        );
        let puzzles = parse_puzzles(&text).unwrap();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(puzzles[0].line, 3);
        assert_eq!(puzzles[0].remark.as_deref(), Some("box duplicate"));
        assert_eq!(puzzles[0].grid, puzzles[1].grid);
        assert_eq!(puzzles[0].grid.to_line(), LINE);
        assert_eq!(puzzles[0].grid.givens(), 32);
    }

    #[test]
    fn block_format_with_headers_and_rules() {
        let rows: Vec<&str> = (0..9).map(|r| &LINE[r * 9..r * 9 + 9]).collect();
        let mut text = String::from("Grid 01\n");
        for row in &rows {
            text.push_str(&row.replace('.', "0"));
            text.push('\n');
        }
        text.push_str("Grid 02\n");
        for (r, row) in rows.iter().enumerate() {
            if r == 3 || r == 6 {
                text.push_str("------+-------+------\n");
            }
            text.push_str(&format!("{} | {} | {}\n", &row[..3], &row[3..6], &row[6..]));
        }
        let puzzles = parse_puzzles(&text).unwrap();
        assert_eq!(puzzles.len(), 2);
        assert_eq!(puzzles[1].name.as_deref(), Some("Grid 02"));
        assert_eq!(puzzles[1].line, 11);
        assert_eq!(puzzles[0].grid.to_line(), LINE);
        assert_eq!(puzzles[1].grid, puzzles[0].grid);
    }

    #[test]
    fn errors_name_line_and_character() {
        let bad = format!("{LINE}\n{}x{}\n", &LINE[..40], &LINE[41..]);
        let err = parse_puzzles(&bad).unwrap_err();
        assert_eq!((err.line, err.column), (2, Some(41)));
        assert!(
            err.to_string().starts_with("line 2, character 41: 'x'"),
            "{err}"
        );

        let short = parse_puzzles(&LINE[..70]).unwrap_err();
        assert_eq!(short.line, 1);
        assert!(short.message.contains("only 70 cells"), "{short}");

        let glued = parse_puzzles(&format!("{LINE}5")).unwrap_err();
        assert_eq!(glued.column, Some(82));

        let unfinished = parse_puzzles("Grid 01\n123456789\n").unwrap_err();
        assert!(unfinished.message.contains("has 1 rows"), "{unfinished}");
    }

    #[test]
    fn single_puzzle_from_str() {
        assert_eq!(LINE.parse::<Grid>().unwrap().to_line(), LINE);
        assert!("".parse::<Grid>().is_err());
        assert!(format!("{LINE}\n{LINE}").parse::<Grid>().is_err());
    }
}
