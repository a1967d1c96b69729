// Photos in and pictures out: an uploaded photo turned upright by its EXIF
// orientation and shrunk for sending; the answered picture composed at the
// photo's own size for download or sharing.
import { encodeFrame } from "./frames.js";
import { apply, invert, squareToQuad } from "./geometry.js";
import { CELL, drawSet } from "./overlay.js";

// Longest side of an uploaded photo as sent (the SET reader decodes big JPEGs
// at about this size anyway; sudoku cells stay sharp).
const PHOTO_SIDE = 2048;

// An uploaded file as an upright canvas and the JPEG sent for it.
// `imageOrientation: "from-image"` applies the EXIF orientation, so a phone
// photo stored sideways is read and shown the way it was taken.
export async function loadPhoto(file) {
  const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  try {
    return await encodeFrame(bitmap, bitmap.width, bitmap.height, PHOTO_SIDE, 0.92);
  } finally {
    bitmap.close();
  }
}

// The picture with the answer drawn on it, at the frame's own pixels, as PNG.
export async function composePicture(frame, scene) {
  const out = document.createElement("canvas");
  out.width = frame.width;
  out.height = frame.height;
  const ctx = out.getContext("2d");
  ctx.drawImage(frame, 0, 0);
  if (scene.kind === "set") {
    drawSet(ctx, scene.reading, scene.shown, 1, { names: scene.names });
  } else if (scene.sheet && scene.reading.corners) {
    warpSheet(ctx, scene.sheet, scene.reading.corners);
  }
  return new Promise((resolve) => out.toBlob(resolve, "image/png"));
}

// Draws the digit sheet onto the picture through the exact homography, pixel
// by pixel (canvas 2D has only affine transforms): each picture pixel inside
// the grid's bounding box is taken back to the sheet and blended by its alpha.
function warpSheet(ctx, sheet, corners) {
  const side = CELL * 9;
  const toSheet = invert(squareToQuad(side, corners));
  const xs = corners.map((p) => p[0]), ys = corners.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs))), y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const x1 = Math.min(ctx.canvas.width, Math.ceil(Math.max(...xs))), y1 = Math.min(ctx.canvas.height, Math.ceil(Math.max(...ys)));
  if (x1 <= x0 || y1 <= y0) return;
  const src = sheet.getContext("2d").getImageData(0, 0, side, side).data;
  const image = ctx.getImageData(x0, y0, x1 - x0, y1 - y0);
  const dst = image.data;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const [u, v] = apply(toSheet, [x + 0.5, y + 0.5]);
      if (!(u >= 0 && u < side && v >= 0 && v < side)) continue;
      const s = (Math.floor(v) * side + Math.floor(u)) * 4;
      const alpha = src[s + 3] / 255;
      if (alpha === 0) continue;
      const d = ((y - y0) * (x1 - x0) + (x - x0)) * 4;
      for (let c = 0; c < 3; c++) dst[d + c] = dst[d + c] * (1 - alpha) + src[s + c] * alpha;
    }
  }
  ctx.putImageData(image, x0, y0);
}

// Offers the picture: a download link always, the share sheet where the
// browser can share files (phones).
export function offerPicture(blob, link, shareButton) {
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(blob);
  link.hidden = false;
  const file = new File([blob], "snapsolve.png", { type: "image/png" });
  const canShare = navigator.canShare && navigator.canShare({ files: [file] });
  shareButton.hidden = !canShare;
  shareButton.onclick = () => navigator.share({ files: [file], title: "snapsolve" }).catch(() => {});
}
