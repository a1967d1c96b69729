//! A cut JPEG whose scan is split into restart intervals (as phones write
//! them: an iPhone's 12 MP photo restarts every row of MCUs), ended so that
//! a strict decoder reads it.
//!
//! `jpeg-decoder` wants the restart marker due at the end of every interval
//! and refuses the file when the data stops short of one ("found marker EOI
//! inside scan where RST was expected"), so padding a cut file with bits and
//! an end-of-image marker, which reads other cut JPEGs, cannot read these.
//! Instead the file is cut back to the end of its last whole interval and
//! every interval still due is given its marker and no data: the decoder
//! reads each as zero bits (one flat block after another). What came from
//! the file is then known to the MCU: the whole intervals, in raster order.

/// What a JPEG's headers say about its last scan's restart intervals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Restarts {
    /// MCUs per interval (the DRI segment).
    interval: u32,
    /// Where the last scan's entropy-coded data begins.
    scan_data: usize,
    /// The picture's stored size and its MCU's size in pixels, where one
    /// scan holds every component of a baseline frame (else `None`: which
    /// pixels a cut progressive file lacks is not one region).
    mcu: Option<McuGrid>,
    /// More intervals than the picture can hold (an upper bound).
    most_intervals: u32,
    /// The picture's stored size (from the frame header).
    pub size: (u32, u32),
}

/// The raster of MCUs of a baseline, single-scan picture.
#[derive(Clone, Copy, Debug, PartialEq)]
struct McuGrid {
    width: u32,
    mcu_width: u32,
    mcu_height: u32,
}

/// What walking a JPEG's markers up to its last scan's data finds.
struct Markers {
    /// MCUs per restart interval (0: none).
    interval: u32,
    frame: Option<Frame>,
    /// Where the last scan's data begins, and its component count.
    last_scan: Option<(usize, u8)>,
    /// Scans begun.
    scans: u32,
}

/// Walks `bytes`' markers (skipping each scan's data) as far as they go.
fn walk(bytes: &[u8]) -> Option<Markers> {
    let mut found = Markers {
        interval: 0,
        frame: None,
        last_scan: None,
        scans: 0,
    };
    let mut pos = 2;
    while pos + 4 <= bytes.len() {
        if bytes[pos] != 0xFF {
            return None;
        }
        let marker = bytes[pos + 1];
        match marker {
            0xFF => pos += 1,
            0x01 | 0xD0..=0xD7 => pos += 2,
            0xD9 => break,
            _ => {
                let length = usize::from(u16::from_be_bytes([bytes[pos + 2], bytes[pos + 3]]));
                let segment = bytes.get(pos + 4..pos + 2 + length)?;
                match marker {
                    0xDD => {
                        found.interval =
                            u32::from(u16::from_be_bytes([*segment.first()?, *segment.get(1)?]))
                    }
                    0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                        found.frame = Frame::parse(marker, segment)
                    }
                    0xDA => {
                        found.scans += 1;
                        found.last_scan = Some((pos + 2 + length, *segment.first()?));
                        pos = next_marker(bytes, pos + 2 + length);
                        continue;
                    }
                    _ => {}
                }
                pos += 2 + length;
            }
        }
    }
    Some(found)
}

/// Whether a cut JPEG is progressive and holds its first scan whole (a
/// second has begun): every MCU then has its coarse colour, and the cut
/// only leaves out detail.
pub(super) fn progressive_past_first_scan(bytes: &[u8]) -> bool {
    walk(bytes).is_some_and(|m| m.frame.is_some_and(|f| !f.baseline) && m.scans >= 2)
}

/// The restart intervals of `bytes`' last scan, if it has any.
pub(super) fn restarts(bytes: &[u8]) -> Option<Restarts> {
    let Markers {
        interval,
        frame,
        last_scan,
        scans,
    } = walk(bytes)?;
    let ((scan_data, components), frame) = (last_scan?, frame?);
    if interval == 0 {
        return None;
    }
    let blocks = frame.width.div_ceil(8) * frame.height.div_ceil(8);
    let whole = frame.baseline && scans == 1 && components == frame.components;
    Some(Restarts {
        interval,
        scan_data,
        mcu: whole.then(|| frame.mcu_grid()),
        most_intervals: blocks.div_ceil(interval) + 1,
        size: (frame.width, frame.height),
    })
}

/// The frame header's size, kind and sampling.
struct Frame {
    width: u32,
    height: u32,
    baseline: bool,
    components: u8,
    /// Largest horizontal and vertical sampling factors.
    sampling: (u32, u32),
}

impl Frame {
    fn parse(marker: u8, segment: &[u8]) -> Option<Frame> {
        let height = u32::from(u16::from_be_bytes([*segment.get(1)?, *segment.get(2)?]));
        let width = u32::from(u16::from_be_bytes([*segment.get(3)?, *segment.get(4)?]));
        let components = *segment.get(5)?;
        let factors = segment.get(6..6 + 3 * usize::from(components))?;
        let sampling = factors.chunks_exact(3).fold((1, 1), |(h, v), c| {
            (h.max(u32::from(c[1] >> 4)), v.max(u32::from(c[1] & 0x0F)))
        });
        Some(Frame {
            width,
            height,
            baseline: matches!(marker, 0xC0 | 0xC1),
            components,
            sampling,
        })
    }

    /// The MCUs of a scan holding every component: one 8x8 block where
    /// there is one component, else as many blocks as the largest sampling.
    fn mcu_grid(&self) -> McuGrid {
        let (h, v) = if self.components == 1 {
            (1, 1)
        } else {
            self.sampling
        };
        McuGrid {
            width: self.width,
            mcu_width: 8 * h,
            mcu_height: 8 * v,
        }
    }
}

/// The position of the first marker at or after `pos` that ends
/// entropy-coded data (an `FF` not followed by `00` or a restart marker).
fn next_marker(bytes: &[u8], mut pos: usize) -> usize {
    while pos + 1 < bytes.len() {
        if bytes[pos] == 0xFF && !matches!(bytes[pos + 1], 0x00 | 0xD0..=0xD7 | 0xFF) {
            return pos;
        }
        pos += 1;
    }
    bytes.len()
}

/// `bytes` cut back to the end of its last whole interval, each interval
/// still due ended by its restart marker with no data, then an end-of-image
/// marker; and how many whole intervals came from the file.
pub(super) fn ended_at_last_interval(bytes: &[u8], restarts: &Restarts) -> (Vec<u8>, u32) {
    let data = &bytes[restarts.scan_data.min(bytes.len())..];
    let markers: Vec<usize> = data
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] == 0xFF && (0xD0..=0xD7).contains(&w[1]))
        .map(|(i, _)| i)
        .collect();
    let whole = markers.len() as u32;
    // After the last marker read, or (none read) at the start of the data.
    let keep = restarts.scan_data + markers.last().map_or(0, |&i| i + 2);
    let mut ended = bytes[..keep.min(bytes.len())].to_vec();
    for k in whole..whole + restarts.most_intervals {
        ended.extend_from_slice(&[0xFF, 0xD0 + (k % 8) as u8]);
    }
    ended.extend_from_slice(&[0xFF, 0xD9]);
    (ended, whole)
}

/// Whether the stored pixel `(x, y)` lies in an MCU after the first `whole`
/// intervals: one the file did not hold. `None` where that is not known.
pub(super) fn missing_at(restarts: &Restarts, whole: u32) -> Option<impl Fn(u32, u32) -> bool> {
    let grid = restarts.mcu?;
    let first_missing = u64::from(whole) * u64::from(restarts.interval);
    let per_row = u64::from(grid.width.div_ceil(grid.mcu_width));
    Some(move |x: u32, y: u32| {
        let mcu = u64::from(y / grid.mcu_height) * per_row + u64::from(x / grid.mcu_width);
        mcu >= first_missing
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG header (SOI, DQT-free for brevity: only what `restarts`
    /// reads), a DRI of `interval`, a baseline frame of 32x16 in three
    /// components sampled 2x2, 1x1, 1x1, and a scan of all three.
    fn header(interval: u16) -> Vec<u8> {
        let mut b = vec![0xFF, 0xD8];
        b.extend_from_slice(&[0xFF, 0xDD, 0, 4]);
        b.extend_from_slice(&interval.to_be_bytes());
        b.extend_from_slice(&[0xFF, 0xC0, 0, 17, 8, 0, 16, 0, 32, 3]);
        b.extend_from_slice(&[1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
        b.extend_from_slice(&[0xFF, 0xDA, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0]);
        b
    }

    #[test]
    fn a_cut_scan_is_ended_after_its_last_whole_interval() {
        // Two MCUs (16x16 each) of the picture's two, one interval each:
        // the first interval, its marker, half of the second.
        let mut bytes = header(1);
        let data_at = bytes.len();
        bytes.extend_from_slice(&[0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]);
        let restarts = restarts(&bytes).expect("restart intervals");
        assert_eq!(restarts.scan_data, data_at);
        assert_eq!(restarts.interval, 1);
        let (ended, whole) = ended_at_last_interval(&bytes, &restarts);
        assert_eq!(whole, 1);
        // The half interval is dropped; RST1 onwards are due, then EOI.
        assert_eq!(ended[..data_at + 6], bytes[..data_at + 6]);
        assert_eq!(ended[data_at + 6..data_at + 8], [0xFF, 0xD1]);
        assert_eq!(ended[ended.len() - 2..], [0xFF, 0xD9]);
        // The first MCU (x < 16) came from the file, the second did not.
        let missing = missing_at(&restarts, whole).expect("a baseline scan");
        assert!(!missing(15, 15));
        assert!(missing(16, 0));
    }

    #[test]
    fn a_scan_without_restart_intervals_has_none() {
        let mut bytes = header(0);
        bytes.extend_from_slice(&[0x12, 0x34]);
        assert_eq!(restarts(&bytes), None);
        assert_eq!(restarts(&[0xFF, 0xD8, 0x00]), None);
    }

    #[test]
    fn a_progressive_file_is_past_its_first_scan_once_a_second_begins() {
        let scan = [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0, 0x12, 0xFF, 0x00, 0x34];
        // A progressive frame (SOF2), one component.
        let mut first = vec![
            0xFF, 0xD8, 0xFF, 0xC2, 0, 11, 8, 0, 16, 0, 16, 1, 1, 0x11, 0,
        ];
        first.extend_from_slice(&scan);
        assert!(!progressive_past_first_scan(&first));
        let mut second = first.clone();
        second.extend_from_slice(&scan[..12]);
        assert!(progressive_past_first_scan(&second));
        // The same scans in a baseline frame (SOF0): each holds its own part.
        let mut baseline = second.clone();
        baseline[3] = 0xC0;
        assert!(!progressive_past_first_scan(&baseline));
    }
}
