//! The true shape of a flat rectangle seen in perspective.
//!
//! A card lying on a table far from the camera is foreshortened: its outline
//! in the photo can be nearly square although the card is 1.56 times longer
//! than wide. Given a guess of the camera (focal length and principal point),
//! the ratio of the rectangle's two sides follows from the four corners alone
//! (Zhang and He, "Whiteboard scanning and image enhancement", 2007): the
//! corners fix the rectangle's two side directions in space up to scale, and
//! the camera matrix turns them into lengths that can be compared.

use super::{Point2, Quad};

/// A pinhole camera guessed from the picture: square pixels, principal point at
/// the picture's centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Focal length in pixels.
    pub focal: f32,
    /// Where the optical axis meets the picture.
    pub principal: Point2,
}

impl Camera {
    /// A phone's or webcam's main camera: a horizontal field of view of about
    /// 70 degrees across the longer side (26 mm equivalent), which makes the
    /// focal length about 0.75 of that side. A cropped photo has a longer
    /// effective focal length; the ratio below changes slowly with it.
    pub fn guess(width: u32, height: u32) -> Camera {
        Camera {
            focal: 0.75 * width.max(height) as f32,
            principal: [width as f32 / 2.0, height as f32 / 2.0],
        }
    }

    /// The same camera with its focal length `times` as long (another lens,
    /// or the photo cropped).
    pub fn with_focal_times(self, times: f32) -> Camera {
        Camera {
            focal: self.focal * times,
            ..self
        }
    }

    /// Pixel to direction in the camera frame (`K^-1 [x, y, 1]`, times the focal).
    fn ray(&self, p: Point2) -> [f64; 3] {
        [
            f64::from(p[0] - self.principal[0]),
            f64::from(p[1] - self.principal[1]),
            f64::from(self.focal),
        ]
    }
}

impl Quad {
    /// Length of side `0 -> 1` over side `0 -> 3` of the flat rectangle whose
    /// picture this quadrilateral is, seen by `camera`; `None` when the corners
    /// cannot be the picture of a rectangle in front of the camera.
    pub fn rectified_side_ratio(&self, camera: &Camera) -> Option<f32> {
        let [side_a, side_b] = self.sides_in_space(camera)?;
        let ratio = (norm(side_a) / norm(side_b)) as f32;
        (ratio.is_finite() && ratio > 0.0).then_some(ratio)
    }

    /// The unit normal of the flat rectangle whose picture this is, seen by
    /// `camera`, in the camera's frame (x right, y down, z forward), turned
    /// towards the camera; `None` as for [`Quad::rectified_side_ratio`].
    pub fn plane_normal(&self, camera: &Camera) -> Option<[f64; 3]> {
        let [side_a, side_b] = self.sides_in_space(camera)?;
        let n = cross(side_a, side_b);
        let length = norm(n);
        if !(length.is_finite() && length > 0.0) {
            return None;
        }
        let sign = if n[2] > 0.0 { -1.0 } else { 1.0 };
        Some(scale(n, sign / length))
    }

    /// Sides `0 -> 1` and `0 -> 3` of the rectangle in space, up to one
    /// common scale (corner 0 at depth 1).
    fn sides_in_space(&self, camera: &Camera) -> Option<[[f64; 3]; 2]> {
        if !self.is_convex() {
            return None;
        }
        // m4 is the corner opposite m1; in space m1 + m4 = m2 + m3.
        let [m1, m2, m4, m3] = self.corners.map(|p| camera.ray(p));
        // Depths of m2 and m3 relative to m1.
        let k2 = dot(cross(m1, m4), m3) / dot(cross(m2, m4), m3);
        let k3 = dot(cross(m1, m4), m2) / dot(cross(m3, m4), m2);
        if !(k2.is_finite() && k3.is_finite() && k2 > 0.0 && k3 > 0.0) {
            return None;
        }
        Some([sub(scale(m2, k2), m1), sub(scale(m3, k3), m1)])
    }

    /// Longer side over shorter side of the rectangle seen (>= 1).
    pub fn rectified_aspect(&self, camera: &Camera) -> Option<f32> {
        self.rectified_side_ratio(camera).map(|r| r.max(1.0 / r))
    }

    /// The lowest and highest [`Quad::rectified_aspect`] over the
    /// quadrilaterals whose corners are each moved by up to `wobble` pixels
    /// along either axis (one corner at a time, the worst of each).
    ///
    /// Why: the true shape comes from how far opposite sides converge, which
    /// on a small quadrilateral is a pixel or two; a square of cloth pattern 30
    /// pixels wide can measure 1.5 by the fitting noise alone. A shape that
    /// holds under a pixel's wobble is seen, not guessed.
    pub fn rectified_aspect_range(&self, camera: &Camera, wobble: f32) -> Option<(f32, f32)> {
        let aspect = self.rectified_aspect(camera)?;
        let mut range = (aspect, aspect);
        for corner in 0..4 {
            for shift in [[wobble, 0.0], [-wobble, 0.0], [0.0, wobble], [0.0, -wobble]] {
                let mut moved = *self;
                moved.corners[corner][0] += shift[0];
                moved.corners[corner][1] += shift[1];
                let aspect = moved.rectified_aspect(camera)?;
                range = (range.0.min(aspect), range.1.max(aspect));
            }
        }
        Some(range)
    }
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: [f64; 3], k: f64) -> [f64; 3] {
    [a[0] * k, a[1] * k, a[2] * k]
}

fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Projects a 1 x 1.56 card lying on a table tilted by `tilt` radians
    /// about the horizontal axis, `distance` in front of `camera`.
    fn card_on_tilted_table(camera: &Camera, tilt: f32, distance: f32, offset: [f32; 2]) -> Quad {
        let corners = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.56], [0.0, 1.56]];
        Quad {
            corners: corners.map(|[u, v]: [f32; 2]| {
                let (x, y0) = (u - 0.5 + offset[0], v - 0.78 + offset[1]);
                let (y, z) = (y0 * tilt.cos(), distance + y0 * tilt.sin());
                [
                    camera.principal[0] + camera.focal * x / z,
                    camera.principal[1] + camera.focal * y / z,
                ]
            }),
        }
    }

    #[test]
    fn a_foreshortened_card_is_measured_as_a_card() {
        let camera = Camera::guess(1000, 750);
        for tilt_degrees in [0.0f32, 30.0, 50.0, 60.0] {
            for offset in [[0.0, 0.0], [-2.0, -1.0], [1.5, 1.0]] {
                let quad = card_on_tilted_table(&camera, tilt_degrees.to_radians(), 8.0, offset);
                let ratio = quad.rectified_side_ratio(&camera).expect("a rectangle");
                assert!((ratio * 1.56 - 1.0).abs() < 1e-3, "{tilt_degrees}: {ratio}");
            }
        }
        // At 50 degrees the card's picture is about square.
        let steep = card_on_tilted_table(&camera, 50f32.to_radians(), 8.0, [0.0, 0.0]);
        assert!(steep.aspect() < 1.2, "{}", steep.aspect());
    }

    #[test]
    fn a_far_card_looking_wider_than_long_is_turned_the_way_it_lies() {
        let camera = Camera::guess(1000, 750);
        let far_card = card_on_tilted_table(&camera, 65f32.to_radians(), 8.0, [0.0, -2.0]);
        // On the picture its width (side 0 -> 1) is the longer side, by
        // more than the finder's least card aspect.
        let sides = far_card.side_lengths();
        assert!(sides[0] > 1.2 * sides[1], "{sides:?}");
        let short_first = |q: &Quad| q.rectified_side_ratio(&camera).expect("a rectangle") < 1.0;
        assert!(!short_first(&far_card.portrait()));
        assert!(short_first(&far_card.portrait_checked_by(&camera, 1.2)));
        // Seen head on, the picture decides.
        let near = card_on_tilted_table(&camera, 0.0, 8.0, [0.0, 0.0]);
        assert_eq!(near.portrait_checked_by(&camera, 1.2), near.portrait());
    }

    #[test]
    fn a_square_stays_square_and_a_bow_tie_is_no_rectangle() {
        let camera = Camera::guess(800, 600);
        let square = Quad {
            corners: [
                [300.0, 200.0],
                [500.0, 200.0],
                [500.0, 400.0],
                [300.0, 400.0],
            ],
        };
        let aspect = square.rectified_aspect(&camera).expect("a rectangle");
        assert!((aspect - 1.0).abs() < 1e-4);
        let crossed = Quad {
            corners: [
                [300.0, 200.0],
                [500.0, 400.0],
                [500.0, 200.0],
                [300.0, 400.0],
            ],
        };
        assert_eq!(crossed.rectified_aspect(&camera), None);
    }

    #[test]
    fn a_pixel_of_wobble_matters_on_a_small_square_and_not_on_a_large_card() {
        let camera = Camera::guess(1000, 750);
        let far_card = card_on_tilted_table(&camera, 50f32.to_radians(), 8.0, [0.0, -1.0]);
        let (low, high) = far_card
            .rectified_aspect_range(&camera, 1.0)
            .expect("a rectangle");
        assert!(low > 1.4 && high < 1.75, "{low} {high}");
        let small_square = Quad {
            corners: [
                [300.0, 200.0],
                [330.0, 200.0],
                [330.0, 230.0],
                [300.0, 230.0],
            ],
        };
        let (low, high) = small_square
            .rectified_aspect_range(&camera, 1.0)
            .expect("a rectangle");
        assert!(low < 1.05 && high > 1.1, "{low} {high}");
    }
}
