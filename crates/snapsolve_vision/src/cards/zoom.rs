//! A closer look at the cards of a picture where they came out small in the
//! finder's working copy.
//!
//! The finder works on a copy shrunk by a whole factor to at most
//! `work_side` pixels a side: a 1280-pixel picture is halved to 640, a phone
//! photo decoded at 2016 pixels is cut to 672. A table seen from across the
//! room, or laid in the middle of a wide picture, then gives cards 30-70
//! working pixels across, where an outline a pixel off is several percent of
//! a card off and the faint edge of a white card on a white desk is lost in
//! the averaging. So the part of the picture around the cards found is cut
//! out, enlarged until its cards are about [`ZOOM_TARGET`] pixels across (at
//! most `work_side` pixels a side, so the finder reads it as it is), and read
//! again.

use image::RgbImage;

use super::{CARD_ASPECT, CardFinder};
use crate::quad::Quad;
use crate::resample::resize_triangle;
use crate::shrink::shrink_factor;

/// Cards whose median shorter side is under this many working pixels are
/// looked at again closer (the webcam frame of the benches: 12 cards of
/// about 110; cards across the room in a 960x720 frame: 33-50).
pub const ZOOM_BELOW: f32 = 70.0;
/// The shorter side, in pixels of the enlarged part, the closer look aims
/// its median card at.
const ZOOM_TARGET: f32 = 120.0;
/// Table around the cards found that is looked at too, in card lengths:
/// room for a card the first look missed at the end of a row.
const MARGIN: f32 = 1.5;
/// The closer look must see the cards at least this many times larger than
/// the working copy did to be worth a second reading. A 12 MP photo decoded
/// at 2016 pixels is worked on at 672 and can be seen at most 1.5 times
/// closer (1000 pixels a side); at 1.2 the seven shared photos so looked at
/// read exactly as before and the bench's 12 MP photo took 140 ms instead of
/// 81. Stress tables 400-447 read the same at 1.2 and at this bound.
const MIN_GAIN: f32 = 1.55;

/// Where the closer look cuts the picture and how much it enlarges the cut.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Zoom {
    left: u32,
    top: u32,
    width: u32,
    height: u32,
    /// Enlarged pixels per picture pixel.
    scale: f32,
}

impl Zoom {
    /// The closer look at `cards` (outlines in `image`'s pixels) for a
    /// finder working at `work_side`, where their median shorter side is
    /// under [`ZOOM_BELOW`] working pixels and it would show them at least
    /// [`MIN_GAIN`] times larger.
    fn around(cards: &[Quad], (width, height): (u32, u32), work_side: u32) -> Option<Zoom> {
        let mut shorter: Vec<f32> = cards.iter().map(Quad::shortest_side).collect();
        shorter.sort_by(f32::total_cmp);
        let short = *shorter.get(shorter.len() / 2)?;
        let work_scale = 1.0 / shrink_factor(width, height, work_side) as f32;
        if !(short > 0.0 && short * work_scale < ZOOM_BELOW) {
            return None;
        }
        let margin = MARGIN * CARD_ASPECT * short;
        let corners = || cards.iter().flat_map(|q| q.corners);
        let least = |axis: usize| corners().map(|c| c[axis]).fold(f32::INFINITY, f32::min);
        let most = |axis: usize| corners().map(|c| c[axis]).fold(f32::NEG_INFINITY, f32::max);
        let left = (least(0) - margin).clamp(0.0, width as f32) as u32;
        let top = (least(1) - margin).clamp(0.0, height as f32) as u32;
        let right = ((most(0) + margin).ceil().max(0.0) as u32).min(width);
        let bottom = ((most(1) + margin).ceil().max(0.0) as u32).min(height);
        let (cut_width, cut_height) = (right.saturating_sub(left), bottom.saturating_sub(top));
        let scale = (ZOOM_TARGET / short).min(work_side as f32 / cut_width.max(cut_height) as f32);
        (cut_width >= 8 && cut_height >= 8 && scale >= MIN_GAIN * work_scale).then_some(Zoom {
            left,
            top,
            width: cut_width,
            height: cut_height,
            scale,
        })
    }

    /// The cut, enlarged.
    fn enlarged(&self, image: &RgbImage) -> RgbImage {
        let cut = image::imageops::crop_imm(image, self.left, self.top, self.width, self.height)
            .to_image();
        let size = |side: u32| ((side as f32 * self.scale).round() as u32).max(1);
        resize_triangle(&cut, size(self.width), size(self.height))
    }

    /// An outline in the enlarged cut's pixels, in the picture's.
    fn back(&self, quad: &Quad) -> Quad {
        let (left, top) = (self.left as f32, self.top as f32);
        quad.map(|[x, y]| [x / self.scale + left, y / self.scale + top])
    }
}

impl CardFinder {
    /// The readings of [`CardFinder::find_each_size`] of the part of `image`
    /// around `cards` (outlines already read in it), enlarged; `None` where
    /// those cards are large enough in the working copy ([`ZOOM_BELOW`]) or
    /// the picture holds no more detail than the working copy shows.
    pub fn find_each_size_closer(
        &self,
        image: &RgbImage,
        cards: &[Quad],
        most: usize,
    ) -> Option<Vec<Vec<Quad>>> {
        let zoom = Zoom::around(cards, image.dimensions(), self.work_side)?;
        let mut readings = self.find_each_size(&zoom.enlarged(image), most);
        for quad in readings.iter_mut().flatten() {
            *quad = zoom.back(quad);
        }
        Some(readings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(x: f32, y: f32, width: f32) -> Quad {
        let length = width * CARD_ASPECT;
        Quad {
            corners: [
                [x, y],
                [x + width, y],
                [x + width, y + length],
                [x, y + length],
            ],
        }
    }

    #[test]
    fn small_cards_are_looked_at_closer_and_large_ones_not() {
        let row = |width: f32| -> Vec<Quad> {
            (0..4)
                .map(|i| card(300.0 + i as f32 * 1.2 * width, 300.0, width))
                .collect()
        };
        // A webcam's frame, read as it is: cards of 40 pixels are enlarged
        // about three times (their cut at most 1000 pixels a side), cards of
        // 110 are left alone.
        let zoom = Zoom::around(&row(40.0), (960, 720), 1000).expect("small cards");
        assert!(zoom.scale > 2.5 && zoom.scale <= 3.0, "{zoom:?}");
        assert!(zoom.width.max(zoom.height) as f32 * zoom.scale <= 1000.5);
        assert!(zoom.left < 300 && zoom.top < 300);
        assert_eq!(Zoom::around(&row(110.0), (960, 720), 1000), None);
        // A 1280-pixel picture is halved to work on: cards of 120 pixels are
        // 60 there, worth a second look at about their own size.
        let zoom = Zoom::around(&row(120.0), (1280, 960), 1000).expect("halved cards");
        assert!(zoom.scale <= 1.0 && zoom.scale >= 0.6, "{zoom:?}");
        // A phone photo decoded at 2016 pixels, worked on at 672, whose
        // cards spread over all of it: 1000 pixels would show them only 1.5
        // times closer.
        let spread: Vec<Quad> = (0..4)
            .flat_map(|i| {
                [
                    card(i as f32 * 480.0, 0.0, 200.0),
                    card(i as f32 * 480.0, 1180.0, 200.0),
                ]
            })
            .collect();
        assert_eq!(Zoom::around(&spread, (2016, 1512), 1000), None);
        assert_eq!(Zoom::around(&[], (960, 720), 1000), None);
    }

    #[test]
    fn outlines_in_the_enlarged_cut_map_back_onto_the_picture() {
        let zoom = Zoom {
            left: 100,
            top: 50,
            width: 200,
            height: 100,
            scale: 2.5,
        };
        let back = zoom.back(&card(0.0, 25.0, 50.0));
        let near = |p: [f32; 2], q: [f32; 2]| (p[0] - q[0]).hypot(p[1] - q[1]) < 1e-3;
        assert!(near(back.corners[0], [100.0, 60.0]), "{back:?}");
        assert!(
            near(back.corners[2], [120.0, 50.0 + 103.0 / 2.5]),
            "{back:?}"
        );
        let image = RgbImage::new(400, 300);
        assert_eq!(zoom.enlarged(&image).dimensions(), (500, 250));
    }
}
