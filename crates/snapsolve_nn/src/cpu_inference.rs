//! Inference-only layers on plain `f32` buffers for small convolutional
//! networks that must run within a few milliseconds on one core: 3x3
//! convolutions (padding 1, stride 1) as im2col + one GEMM per layer (the
//! `gemm` crate, which candle itself uses), ReLU, 2x2 max pooling and dense
//! layers. Weights are copied from the candle tensors a network trains with;
//! each layer is tested to give candle's output.
//!
//! Why not candle's own forward pass: for the 81 cells of a sudoku its CPU
//! convolution took 7 ms (8 and 16 channels) to 33 ms (16 and 32) on one core,
//! most of it outside the multiplications (per-call layout copies, one small
//! GEMM per image); here each layer is one GEMM over the whole batch.
//!
//! Layout: activations are [`Planes`], *channel-major over the batch*,
//! `[channel][image][y][x]`:
//!
//! ```text
//!   channel 0: image 0 (H*W) | image 1 (H*W) | ... | image N-1
//!   channel 1: image 0       | ...
//! ```
//!
//! so a convolution is `out[O][N*H*W] = weights[O][C*9] x columns[C*9][N*H*W]`
//! with the columns (im2col) built row by row from contiguous planes, and its
//! output is already the next layer's input. (Image-major NCHW would need one
//! GEMM per image or a transpose after each layer.)

use candle_core::{Result, Tensor};

/// Activations of a batch, channel-major: `[channel][image][y][x]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Planes {
    /// Number of channels.
    pub channels: usize,
    /// Number of images.
    pub batch: usize,
    /// Height of each plane.
    pub height: usize,
    /// Width of each plane.
    pub width: usize,
    /// `channels * batch * height * width` values.
    pub data: Vec<f32>,
}

impl Planes {
    /// One-channel planes from `batch` images of `height` x `width` values,
    /// image after image (which is also NCHW with one channel).
    pub fn from_gray(data: Vec<f32>, batch: usize, height: usize, width: usize) -> Planes {
        assert_eq!(data.len(), batch * height * width, "gray batch size");
        Planes {
            channels: 1,
            batch,
            height,
            width,
            data,
        }
    }

    /// Planes from `batch` images of `channels` planes each, image after
    /// image (NCHW, as candle and the crops are laid out).
    pub fn from_nchw(
        data: &[f32],
        batch: usize,
        channels: usize,
        height: usize,
        width: usize,
    ) -> Planes {
        let plane = height * width;
        assert_eq!(data.len(), batch * channels * plane, "NCHW batch size");
        let mut out = Vec::with_capacity(data.len());
        for c in 0..channels {
            for n in 0..batch {
                out.extend_from_slice(&data[(n * channels + c) * plane..][..plane]);
            }
        }
        Planes {
            channels,
            batch,
            height,
            width,
            data: out,
        }
    }

    fn plane_len(&self) -> usize {
        self.height * self.width
    }

    /// The values of image `n` as candle flattens an NCHW tensor from
    /// dimension 1: channel after channel, row after row.
    pub fn image_features(&self, n: usize, out: &mut Vec<f32>) {
        let plane = self.plane_len();
        for c in 0..self.channels {
            let start = (c * self.batch + n) * plane;
            out.extend_from_slice(&self.data[start..start + plane]);
        }
    }

    /// Every image's features ([`Planes::image_features`]), image after image:
    /// a `batch x (channels * height * width)` row-major matrix.
    pub fn to_rows(&self) -> Vec<f32> {
        let mut out = Vec::with_capacity(self.data.len());
        for n in 0..self.batch {
            self.image_features(n, &mut out);
        }
        out
    }
}

/// `c += a x b`, all row-major: `a` is `m x k`, `b` is `k x n` (or its
/// transpose, `b_transposed`: stored `n x k`), `c` is `m x n`. (Accumulating
/// lets the caller start `c` at the biases instead of zeroing it and adding
/// them in a second pass.)
fn matmul_add(
    (m, n, k): (usize, usize, usize),
    a: &[f32],
    b: &[f32],
    b_transposed: bool,
    c: &mut [f32],
) {
    assert!(
        a.len() >= m * k && b.len() >= k * n && c.len() >= m * n,
        "matmul sizes"
    );
    if m == 0 || n == 0 {
        return;
    }
    let (b_rs, b_cs) = if b_transposed {
        (1, k as isize)
    } else {
        (n as isize, 1)
    };
    // SAFETY: the assert above keeps every index the strides reach,
    // (m-1)*k + (k-1) for a, (k-1)*n + (n-1) or (n-1)*k + (k-1) for b and
    // (m-1)*n + (n-1) for c, inside the slices; `c` is borrowed mutably and
    // does not alias `a` or `b`.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c.as_mut_ptr(),
            1,
            n as isize,
            true,
            a.as_ptr(),
            1,
            k as isize,
            b.as_ptr(),
            b_cs,
            b_rs,
            1.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        );
    }
}

/// A 3x3 convolution with padding 1 and stride 1 (candle's `conv2d` with
/// `padding: 1`), optionally followed by ReLU.
#[derive(Clone, Debug, PartialEq)]
pub struct Conv3x3 {
    in_channels: usize,
    out_channels: usize,
    /// `[out][in * 9]`, each row in candle's `[in][ky][kx]` order.
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Conv3x3 {
    /// The layer with candle's weight `[out, in, 3, 3]` and bias `[out]`.
    pub fn from_tensors(weight: &Tensor, bias: &Tensor) -> Result<Conv3x3> {
        let (out_channels, in_channels, kh, kw) = weight.dims4()?;
        if (kh, kw) != (3, 3) || bias.dims1()? != out_channels {
            candle_core::bail!("Conv3x3 needs a [out, in, 3, 3] weight and an [out] bias");
        }
        Ok(Conv3x3 {
            in_channels,
            out_channels,
            weights: weight.flatten_all()?.to_vec1()?,
            bias: bias.to_vec1()?,
        })
    }

    /// The convolution of `input` (which must have `in_channels` channels),
    /// with ReLU applied when `relu` (leave it to [`max_pool2`] when pooling
    /// follows: ReLU and max pooling commute, and pooling reads 4 times less).
    pub fn forward(&self, input: &Planes, relu: bool) -> Planes {
        assert_eq!(input.channels, self.in_channels, "Conv3x3 input channels");
        self.convolve(
            &im2col(input),
            input.batch,
            (input.height, input.width),
            relu,
        )
    }

    /// The same convolution with stride 2 (candle's `conv2d` with `padding:
    /// 1, stride: 2`): planes of `(height + 1) / 2` x `(width + 1) / 2`.
    pub fn forward_stride2(&self, input: &Planes, relu: bool) -> Planes {
        assert_eq!(input.channels, self.in_channels, "Conv3x3 input channels");
        let size = (input.height.div_ceil(2), input.width.div_ceil(2));
        self.convolve(&im2col_stride2(input, size), input.batch, size, relu)
    }

    /// The layer applied to its im2col `columns` of `batch` output planes of
    /// `(height, width)`.
    fn convolve(
        &self,
        columns: &[f32],
        batch: usize,
        (height, width): (usize, usize),
        relu: bool,
    ) -> Planes {
        let n = batch * height * width;
        let mut data = Vec::with_capacity(self.out_channels * n);
        for &b in &self.bias {
            data.resize(data.len() + n, b);
        }
        matmul_add(
            (self.out_channels, n, self.in_channels * 9),
            &self.weights,
            columns,
            false,
            &mut data,
        );
        if relu {
            data.iter_mut().for_each(|v| *v = larger(*v, 0.0));
        }
        Planes {
            channels: self.out_channels,
            batch,
            height,
            width,
            data,
        }
    }
}

/// The im2col matrix of a 3x3, padding-1, stride-2 convolution with output
/// planes of `(oh, ow)`: row `c*9 + ky*3 + kx` holds, for every output pixel
/// of every image, the input at `(2y+ky-1, 2x+kx-1)` of channel `c` (0
/// outside the plane).
fn im2col_stride2(input: &Planes, (oh, ow): (usize, usize)) -> Vec<f32> {
    let (h, w) = (input.height, input.width);
    let plane = h * w;
    let mut out = Vec::with_capacity(input.channels * 9 * input.batch * oh * ow);
    for c in 0..input.channels {
        for ky in 0..3 {
            for kx in 0..3 {
                for image in 0..input.batch {
                    let src = &input.data[(c * input.batch + image) * plane..][..plane];
                    for y in 0..oh {
                        match (2 * y + ky).checked_sub(1).filter(|&sy| sy < h) {
                            Some(sy) => {
                                let row = &src[sy * w..][..w];
                                out.extend((0..ow).map(|x| {
                                    (2 * x + kx)
                                        .checked_sub(1)
                                        .and_then(|sx| row.get(sx))
                                        .copied()
                                        .unwrap_or(0.0)
                                }));
                            }
                            None => out.resize(out.len() + ow, 0.0),
                        }
                    }
                }
            }
        }
    }
    out
}

/// The im2col matrix of a 3x3, padding-1 convolution: row `c*9 + ky*3 + kx`
/// holds, for every output pixel of every image, the input at `(y+ky-1,
/// x+kx-1)` of channel `c` (0 outside the plane). Written once, element by
/// element, with no zeroing pass first.
fn im2col(input: &Planes) -> Vec<f32> {
    let (h, w) = (input.height, input.width);
    let plane = h * w;
    let mut out = Vec::with_capacity(input.channels * 9 * input.batch * plane);
    for c in 0..input.channels {
        for ky in 0..3 {
            for kx in 0..3 {
                for image in 0..input.batch {
                    let src = &input.data[(c * input.batch + image) * plane..][..plane];
                    push_shifted(src, &mut out, h, w, ky as isize - 1, kx as isize - 1);
                }
            }
        }
    }
    out
}

/// Appends the plane `src` moved so that `out[y][x] = src[y + dy][x + dx]`
/// (`dx`, `dy` in -1..=1), 0 where that falls outside.
///
/// The whole plane moves as one copy by `dy * w + dx` values; a sideways move
/// wraps each row's edge value into the next row, and that one column is then
/// zeroed. (Copying row by row cost three calls per 28-value row.)
fn push_shifted(src: &[f32], out: &mut Vec<f32>, h: usize, w: usize, dy: isize, dx: isize) {
    let plane = (h * w) as isize;
    let offset = dy * w as isize + dx;
    let start = (-offset).clamp(0, plane) as usize;
    let end = (plane - offset).clamp(0, plane) as usize;
    let base = out.len();
    out.resize(base + start, 0.0);
    if start < end {
        let from = (start as isize + offset) as usize;
        out.extend_from_slice(&src[from..from + (end - start)]);
    }
    out.resize(base + plane as usize, 0.0);
    let wrapped = match dx {
        1 => Some(w - 1),
        -1 => Some(0),
        _ => None,
    };
    if let Some(column) = wrapped {
        for y in 0..h {
            out[base + y * w + column] = 0.0;
        }
    }
}

/// 2x2 max pooling with stride 2 (candle's `max_pool2d(2)`; odd edges
/// dropped), followed by ReLU when `relu`.
pub fn max_pool2(input: &Planes, relu: bool) -> Planes {
    let (h, w) = (input.height / 2, input.width / 2);
    let floor = if relu { 0.0 } else { f32::MIN };
    // Written in place, pixel by pixel, into a buffer made once: extending a
    // Vec from the pair iterators cost 1.75 times the instructions (6.5 M of
    // the digit network's 29.4 M on a sudoku frame, callgrind).
    let mut data = vec![0.0f32; input.channels * input.batch * h * w];
    let planes = input.data.chunks_exact(input.plane_len().max(1));
    for (plane, out) in planes.zip(data.chunks_exact_mut((h * w).max(1))) {
        for (y, out_row) in out.chunks_exact_mut(w.max(1)).enumerate() {
            let top = &plane[2 * y * input.width..][..2 * w];
            let bottom = &plane[(2 * y + 1) * input.width..][..2 * w];
            for ((o, t), b) in out_row
                .iter_mut()
                .zip(top.chunks_exact(2))
                .zip(bottom.chunks_exact(2))
            {
                *o = larger(larger(t[0], t[1]), larger(larger(b[0], b[1]), floor));
            }
        }
    }
    Planes {
        channels: input.channels,
        batch: input.batch,
        height: h,
        width: w,
        data,
    }
}

/// The larger of two values without `f32::max`'s NaN care (activations have no
/// NaN): a plain compare the compiler keeps branch-free.
#[inline]
fn larger(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// A dense layer `y = x W^T + b` (candle's `Linear`), optionally followed by ReLU.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    inputs: usize,
    outputs: usize,
    /// `[outputs][inputs]`, as candle stores it.
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Dense {
    /// The layer with candle's weight `[out, in]` and bias `[out]`.
    pub fn from_tensors(weight: &Tensor, bias: &Tensor) -> Result<Dense> {
        let (outputs, inputs) = weight.dims2()?;
        if bias.dims1()? != outputs {
            candle_core::bail!("Dense needs an [out, in] weight and an [out] bias");
        }
        Ok(Dense {
            inputs,
            outputs,
            weights: weight.flatten_all()?.to_vec1()?,
            bias: bias.to_vec1()?,
        })
    }

    /// Outputs for `rows` (`batch x inputs`, row-major): `batch x outputs`.
    pub fn forward(&self, rows: &[f32], relu: bool) -> Vec<f32> {
        assert_eq!(rows.len() % self.inputs.max(1), 0, "Dense input width");
        let batch = rows.len() / self.inputs.max(1);
        let mut out = Vec::with_capacity(batch * self.outputs);
        for _ in 0..batch {
            out.extend_from_slice(&self.bias);
        }
        matmul_add(
            (batch, self.outputs, self.inputs),
            rows,
            &self.weights,
            true,
            &mut out,
        );
        if relu {
            out.iter_mut().for_each(|v| *v = v.max(0.0));
        }
        out
    }
}

/// Softmax of each row of `logits` (`width` values per row), in place.
pub fn softmax_rows(logits: &mut [f32], width: usize) {
    for row in logits.chunks_exact_mut(width.max(1)) {
        let max = row.iter().copied().fold(f32::MIN, f32::max);
        let mut sum = 0.0;
        for v in row.iter_mut() {
            *v = (*v - max).exp();
            sum += *v;
        }
        row.iter_mut().for_each(|v| *v /= sum);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::{DType, Device, Module};
    use candle_nn::{Conv2dConfig, VarBuilder, VarMap};

    fn max_difference(a: &[f32], b: &[f32]) -> f32 {
        assert_eq!(a.len(), b.len());
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max)
    }

    /// A random NCHW batch as a candle tensor and as planes.
    fn batch(n: usize, c: usize, h: usize, w: usize) -> (Tensor, Planes) {
        let t = Tensor::randn(0f32, 1.0, (n, c, h, w), &Device::Cpu).expect("tensor");
        // NCHW -> CNHW.
        let data = t
            .permute((1, 0, 2, 3))
            .and_then(|p| p.flatten_all())
            .and_then(|p| p.to_vec1())
            .expect("values");
        let planes = Planes {
            channels: c,
            batch: n,
            height: h,
            width: w,
            data,
        };
        (t, planes)
    }

    fn as_rows(t: &Tensor) -> Vec<f32> {
        t.flatten_from(1)
            .and_then(|f| f.flatten_all())
            .and_then(|f| f.to_vec1())
            .expect("values")
    }

    #[test]
    fn conv_relu_pool_and_dense_match_candle() {
        let map = VarMap::new();
        let vb = VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu);
        let config = Conv2dConfig {
            padding: 1,
            ..Default::default()
        };
        let conv = candle_nn::conv2d(3, 5, 3, config, vb.pp("conv")).expect("conv");
        let dense = candle_nn::linear(5 * 3 * 4, 7, vb.pp("dense")).expect("dense");
        // Odd sizes: padding at every edge and a pooled row and column dropped.
        let (t, planes) = batch(4, 3, 7, 9);
        let want = conv
            .forward(&t)
            .and_then(|x| x.relu())
            .and_then(|x| x.max_pool2d(2))
            .expect("candle forward");
        let bias = conv.bias().expect("bias");
        let ours = Conv3x3::from_tensors(conv.weight(), bias).expect("weights");
        let pooled = max_pool2(&ours.forward(&planes, true), false);
        let pooled_relu = max_pool2(&ours.forward(&planes, false), true);
        assert_eq!(pooled, pooled_relu);
        assert_eq!((pooled.height, pooled.width), (3, 4));
        assert!(max_difference(&pooled.to_rows(), &as_rows(&want)) < 1e-4);
        let want = dense
            .forward(&want.flatten_from(1).expect("flat"))
            .expect("dense forward");
        let ours = Dense::from_tensors(dense.weight(), dense.bias().expect("bias"))
            .expect("weights")
            .forward(&pooled.to_rows(), false);
        assert!(max_difference(&ours, &as_rows(&want)) < 1e-4);
    }

    #[test]
    fn a_stride_two_convolution_matches_candle_and_planes_come_from_nchw() {
        let map = VarMap::new();
        let vb = VarBuilder::from_varmap(&map, DType::F32, &Device::Cpu);
        let config = Conv2dConfig {
            padding: 1,
            stride: 2,
            ..Default::default()
        };
        let conv = candle_nn::conv2d(3, 5, 3, config, vb.pp("conv")).expect("conv");
        let ours =
            Conv3x3::from_tensors(conv.weight(), conv.bias().expect("bias")).expect("weights");
        // Even sides (the card network's), then odd ones (a last row and
        // column read with padding beyond them).
        for (h, w) in [(8, 6), (7, 9)] {
            let (t, planes) = batch(3, 3, h, w);
            let nchw: Vec<f32> = t.flatten_all().and_then(|f| f.to_vec1()).expect("values");
            assert_eq!(Planes::from_nchw(&nchw, 3, 3, h, w), planes);
            let want = conv
                .forward(&t)
                .and_then(|x| x.relu())
                .expect("candle forward");
            let got = ours.forward_stride2(&planes, true);
            assert_eq!((got.height, got.width), (want.dims()[2], want.dims()[3]));
            assert!(max_difference(&got.to_rows(), &as_rows(&want)) < 1e-4);
        }
    }

    #[test]
    fn softmax_rows_sum_to_one_and_keep_order() {
        let mut v = vec![1.0, 2.0, 3.0, 0.0, 0.0, 0.0];
        softmax_rows(&mut v, 3);
        assert!((v[..3].iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(v[0] < v[1] && v[1] < v[2]);
        assert!((v[3] - 1.0 / 3.0).abs() < 1e-6);
    }
}
