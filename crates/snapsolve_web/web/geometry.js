// Plane geometry for the overlay: homographies (square to quadrilateral, their
// inverses, as CSS matrix3d), points in quadrilaterals, outlines grown outwards.
// Points are [x, y]; a quadrilateral is four points, top-left first, clockwise.

// The homography taking the square [0, side]² to the quadrilateral `quad`
// (corner i of the square, counted clockwise from (0, 0), to quad[i]), as a
// row-major 3x3 [a, b, c, d, e, f, g, h, 1]: x' = (a u + b v + c) / (g u + h v + 1).
// Heckbert's closed form ("Fundamentals of Texture Mapping", 1989).
export function squareToQuad(side, quad) {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = quad;
  const dx1 = x1 - x2, dx2 = x3 - x2, dx3 = x0 - x1 + x2 - x3;
  const dy1 = y1 - y2, dy2 = y3 - y2, dy3 = y0 - y1 + y2 - y3;
  let g = 0, h = 0;
  const det = dx1 * dy2 - dx2 * dy1;
  if ((dx3 !== 0 || dy3 !== 0) && det !== 0) {
    g = (dx3 * dy2 - dx2 * dy3) / det;
    h = (dx1 * dy3 - dx3 * dy1) / det;
  }
  const a = x1 - x0 + g * x1, b = x3 - x0 + h * x3;
  const d = y1 - y0 + g * y1, e = y3 - y0 + h * y3;
  return [a / side, b / side, x0, d / side, e / side, y0, g / side, h / side, 1];
}

// The inverse of a 3x3 matrix (row-major), scaled so its last entry is 1.
export function invert(m) {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const inv = [A, -(b * i - c * h), b * f - c * e,
               B, a * i - c * g, -(a * f - c * d),
               C, -(a * h - b * g), a * e - b * d];
  const last = inv[8] !== 0 ? inv[8] : 1;
  return inv.map((v) => v / last);
}

// Where a homography sends a point.
export function apply(m, [x, y]) {
  const w = m[6] * x + m[7] * y + m[8];
  return [(m[0] * x + m[1] * y + m[2]) / w, (m[3] * x + m[4] * y + m[5]) / w];
}

// The same homography as a CSS matrix3d() (column-major 4x4, z untouched), so
// the browser draws an element through the full projective map, not an
// affine approximation of it.
export function cssMatrix3d(m) {
  const [a, b, c, d, e, f, g, h, i] = m;
  const cols = [a, d, 0, g, b, e, 0, h, 0, 0, 1, 0, c, f, 0, i];
  return `matrix3d(${cols.map((v) => +v.toFixed(9)).join(",")})`;
}

// A quadrilateral with every point scaled (frame pixels to screen pixels).
export function scaleQuad(quad, scale) {
  return quad.map(([x, y]) => [x * scale, y * scale]);
}

export function centre(quad) {
  const sum = quad.reduce(([sx, sy], [x, y]) => [sx + x, sy + y], [0, 0]);
  return [sum[0] / quad.length, sum[1] / quad.length];
}

// The outline pushed out by about `grow` pixels on every side: each corner
// moves away from the centre along its diagonal (√2 grow keeps the sides
// `grow` apart for a rectangle).
export function grown(quad, grow) {
  const [cx, cy] = centre(quad);
  return quad.map(([x, y]) => {
    const dx = x - cx, dy = y - cy;
    const length = Math.hypot(dx, dy) || 1;
    return [x + (dx / length) * grow * Math.SQRT2, y + (dy / length) * grow * Math.SQRT2];
  });
}

// Whether a point lies inside a convex or simple quadrilateral (even-odd rule).
export function inside(quad, [px, py]) {
  let within = false;
  for (let i = 0, j = quad.length - 1; i < quad.length; j = i++) {
    const [xi, yi] = quad[i], [xj, yj] = quad[j];
    if ((yi > py) !== (yj > py) && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) {
      within = !within;
    }
  }
  return within;
}

// The mean side length of a quadrilateral (a card's size on screen).
export function size(quad) {
  let total = 0;
  for (let i = 0; i < 4; i++) {
    const [x0, y0] = quad[i], [x1, y1] = quad[(i + 1) % 4];
    total += Math.hypot(x1 - x0, y1 - y0);
  }
  return total / 4;
}

// The shorter of a quadrilateral's two pairs of opposite sides, on average.
export function shorterSide(quad) {
  const side = (i) => {
    const [x0, y0] = quad[i], [x1, y1] = quad[(i + 1) % 4];
    return Math.hypot(x1 - x0, y1 - y0);
  };
  return Math.min((side(0) + side(2)) / 2, (side(1) + side(3)) / 2);
}
