//! Photographed card faces: pictures of real cards, cut from photos, that a
//! rendered table lays instead of drawn ones. Real print, real paper and the
//! light of a real room, on surfaces the photos never showed.

use image::RgbaImage;
use image::imageops::FilterType;
use rand::Rng;
use snapsolve_set::Card;

/// Pictures of real cards, each upright and portrait (the card's short side
/// across), its rounded corners transparent.
#[derive(Clone, Debug, Default)]
pub struct CardFaces {
    faces: Vec<(Card, RgbaImage)>,
}

impl CardFaces {
    /// Faces as given; a card may have several.
    pub fn new(faces: Vec<(Card, RgbaImage)>) -> CardFaces {
        CardFaces { faces }
    }

    /// How many faces there are.
    pub fn len(&self) -> usize {
        self.faces.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// Every card with a face, each once, in the order first met.
    pub fn cards(&self) -> Vec<Card> {
        let mut cards: Vec<Card> = Vec::new();
        for (card, _) in &self.faces {
            if !cards.contains(card) {
                cards.push(*card);
            }
        }
        cards
    }

    /// One of `card`'s faces, chosen by `rng`, resized to `width` pixels
    /// across (its proportions kept); `None` when it has none.
    pub fn face_of(&self, card: Card, width: u32, rng: &mut impl Rng) -> Option<RgbaImage> {
        let faces: Vec<&RgbaImage> = self
            .faces
            .iter()
            .filter(|(c, _)| *c == card)
            .map(|(_, face)| face)
            .collect();
        let face = faces.get(rng.random_range(0..faces.len().max(1)))?;
        let height = (width as f32 * face.height() as f32 / face.width().max(1) as f32).round();
        Some(image::imageops::resize(
            *face,
            width.max(1),
            (height as u32).max(1),
            FilterType::Triangle,
        ))
    }
}

/// Makes the corners of an upright card picture transparent, rounded with
/// `radius` (a share of its width), their edge anti-aliased over a pixel.
pub fn round_corners(face: &mut RgbaImage, radius: f32) {
    let (w, h) = (face.width() as f32, face.height() as f32);
    let r = (radius * w).max(1.0);
    for (x, y, pixel) in face.enumerate_pixels_mut() {
        let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
        // The corner's centre nearest this pixel, if it lies in a corner square.
        let cx = if px < r {
            r
        } else if px > w - r {
            w - r
        } else {
            continue;
        };
        let cy = if py < r {
            r
        } else if py > h - r {
            h - r
        } else {
            continue;
        };
        let outside = (px - cx).hypot(py - cy) - r;
        let alpha = (0.5 - outside).clamp(0.0, 1.0);
        pixel.0[3] = (f32::from(pixel.0[3]) * alpha).round() as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;
    use rand::SeedableRng;

    #[test]
    fn rounded_corners_are_clear_and_the_middle_stays() {
        let mut face = RgbaImage::from_pixel(100, 155, Rgba([250, 250, 250, 255]));
        round_corners(&mut face, 0.1);
        assert_eq!(face.get_pixel(0, 0).0[3], 0);
        assert_eq!(face.get_pixel(99, 154).0[3], 0);
        assert_eq!(face.get_pixel(50, 0).0[3], 255);
        assert_eq!(face.get_pixel(0, 77).0[3], 255);
        assert_eq!(face.get_pixel(10, 10).0[3], 255);
    }

    #[test]
    fn a_face_is_found_by_its_card_and_sized_to_the_width_asked() {
        let card: Card = "2-red-solid-oval".parse().expect("card");
        let other: Card = "1-green-open-diamond".parse().expect("card");
        let faces = CardFaces::new(vec![(card, RgbaImage::new(100, 150))]);
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let face = faces.face_of(card, 50, &mut rng).expect("a face");
        assert_eq!(face.dimensions(), (50, 75));
        assert!(faces.face_of(other, 50, &mut rng).is_none());
        assert_eq!(faces.cards(), vec![card]);
    }
}
