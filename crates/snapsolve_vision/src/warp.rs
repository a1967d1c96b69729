//! Perspective warps: cutting a quadrilateral out of a photo as an upright rectangle.

use image::RgbImage;
use imageproc::geometric_transformations::{Border, Interpolation, Projection, warp_into};

use crate::quad::Quad;
use crate::shrink::shrink_by;

/// Warps the inside of `quad` (corners in portrait order: top-left, top-right,
/// bottom-right, bottom-left) to a `width x height` image.
///
/// The warp samples at twice the output size and averages 2x2 blocks, so a
/// card that covers many more pixels in the photo than in the crop does not
/// alias (stripes and stipples would otherwise turn into moiré).
/// `None` when the corners are degenerate (three in a line).
pub fn warp_quad(image: &RgbImage, quad: &Quad, width: u32, height: u32) -> Option<RgbImage> {
    let (w2, h2) = ((2 * width) as f32, (2 * height) as f32);
    let to = [(0.0, 0.0), (w2, 0.0), (w2, h2), (0.0, h2)];
    let from = quad.corners.map(|p| (p[0], p[1]));
    let projection = Projection::from_control_points(from, to)?;
    let mut big = RgbImage::new(2 * width, 2 * height);
    warp_into(
        image,
        projection,
        Interpolation::Bilinear,
        Border::Replicate,
        &mut big,
    );
    Some(shrink_by(&big, 2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    #[test]
    fn warps_a_rotated_square_back_upright() {
        // Left half red, right half blue, then look at it through a quad that
        // starts at the top-right corner: the crop is the image turned a quarter.
        let mut image = RgbImage::from_pixel(40, 40, Rgb([0, 0, 255]));
        for y in 0..40 {
            for x in 0..20 {
                image.put_pixel(x, y, Rgb([255, 0, 0]));
            }
        }
        let quad = Quad {
            corners: [[40.0, 0.0], [40.0, 40.0], [0.0, 40.0], [0.0, 0.0]],
        };
        let crop = warp_quad(&image, &quad, 10, 10).unwrap();
        assert_eq!(crop.get_pixel(5, 1).0, [0, 0, 255]);
        assert_eq!(crop.get_pixel(5, 8).0, [255, 0, 0]);
    }
}
