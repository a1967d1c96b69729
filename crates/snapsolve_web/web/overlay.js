// Drawing answers over the picture. SET: each SET outlined in its own colour
// AND dash pattern with a numbered badge on every card of it (colour is never
// the only cue), a card in several SETs getting nested outlines, doubtful cards
// marked. Sudoku: the missing digits drawn on a 9x9 "sheet" canvas that the
// browser maps onto the grid through the full homography (CSS matrix3d).
import { centre, cssMatrix3d, grown, scaleQuad, shorterSide, size, squareToQuad } from "./geometry.js";

// Okabe–Ito colours (apart for the common colour blindnesses), as in the CLI's drawing.
export const SET_COLOURS = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#ffffff"];
// One dash pattern per SET, so SETs differ even in grey.
export const SET_DASHES = [[], [14, 7], [4, 5], [18, 5, 4, 5], [2, 8], [24, 8, 2, 8, 2, 8], [9, 4, 9, 12], [1, 5]];
const DOUBT_COLOUR = "#ff4040";

// Draws a SET reading into `ctx`; points are frame pixels times `scale`.
// `shown` is the list of SETs to draw (all, or those a hint revealed).
export function drawSet(ctx, reading, shown, scale, { names = false, selected = -1 } = {}) {
  const quads = reading.cards.map((c) => scaleQuad(c.corners, scale));
  const cardSize = quads.length ? quads.map(size).reduce((a, b) => a + b) / quads.length : 100;
  const thick = Math.max(2, cardSize / 45);
  const rings = new Array(quads.length).fill(0);
  ctx.lineJoin = "round";
  shown.forEach(({ set, number }) => {
    const colour = SET_COLOURS[number % SET_COLOURS.length];
    const dash = SET_DASHES[number % SET_DASHES.length].map((d) => d * thick / 3);
    for (const i of set) {
      const quad = grown(quads[i], thick * (1.7 * rings[i] + 0.6));
      outline(ctx, quad, colour, thick, dash);
      // Badges of one card sit side by side from the innermost outline's
      // top-left corner, so none hides another.
      badge(ctx, topLeft(grown(quads[i], thick * 0.6)), number + 1, colour, thick, rings[i]);
      rings[i] += 1;
    }
  });
  const doubtful = doubtfulCards(reading);
  quads.forEach((quad, i) => {
    if (doubtful.has(i)) {
      outline(ctx, grown(quad, -thick), DOUBT_COLOUR, thick, [thick * 2, thick * 2]);
      mark(ctx, quad, "?", DOUBT_COLOUR, cardSize);
    }
    if (i === selected) {
      outline(ctx, grown(quad, -thick * 2.5), "#ffffff", thick * 1.5, []);
    }
    // A card the player corrected always shows the name it was given.
    if (names || reading.cards[i].fixed) {
      label(ctx, quad, reading.cards[i].card, cardSize);
    }
  });
}

// The corner nearest the screen's top left (a card lying sideways has its own
// first corner elsewhere).
function topLeft(quad) {
  return quad.reduce((best, p) => (p[0] + p[1] < best[0] + best[1] ? p : best));
}

// Cards read below the confidence line or read as the same card as another.
export function doubtfulCards(reading) {
  const doubtful = new Set(reading.unsure || []);
  for (const group of reading.duplicates || []) group.forEach((i) => doubtful.add(i));
  return doubtful;
}

function outline(ctx, quad, colour, width, dash) {
  ctx.beginPath();
  quad.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.closePath();
  ctx.setLineDash(dash);
  // A dark edge under the colour keeps light outlines visible on white cards.
  ctx.strokeStyle = "rgba(0,0,0,0.55)";
  ctx.lineWidth = width + 2;
  ctx.stroke();
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.stroke();
  ctx.setLineDash([]);
}

// The SET's number in a filled circle at the outline's corner, moved along
// for each ring so the numbers of nested SETs do not cover each other.
function badge(ctx, [x, y], text, colour, thick, ring) {
  const r = Math.max(9, thick * 3.2);
  const cx = x + r * 0.4 + ring * r * 2.3, cy = y - r * 0.3;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = "#000";
  ctx.stroke();
  ctx.fillStyle = "#000";
  ctx.font = `bold ${Math.round(r * 1.3)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(String(text), cx, cy + 1);
}

function mark(ctx, quad, text, colour, cardSize) {
  const [cx, cy] = centre(quad);
  ctx.font = `bold ${Math.round(cardSize * 0.35)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 4;
  ctx.strokeStyle = "#000";
  ctx.strokeText(text, cx, cy);
  ctx.fillStyle = colour;
  ctx.fillText(text, cx, cy);
}

// A card's name on its lower half, in words: on one line ("3 purple striped
// squiggle") where it fits the card (a little wider reads as the card's),
// else on two ("3 purple" over "striped squiggle"), shrunk to fit, never
// under 9 pixels (the player asked for names, so they stay, if crowded).
function label(ctx, quad, text, cardSize) {
  const [cx, cy] = centre(quad);
  const room = 1.15 * shorterSide(quad);
  let px = Math.max(10, Math.round(cardSize * 0.085));
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  const setFont = () => (ctx.font = `600 ${px}px system-ui, sans-serif`);
  setFont();
  const words = text.split("-");
  let lines = [words.join(" ")];
  if (ctx.measureText(lines[0]).width > room) {
    lines = [words.slice(0, 2).join(" "), words.slice(2).join(" ")];
    const widest = Math.max(...lines.map((l) => ctx.measureText(l).width));
    if (widest > room) {
      px = Math.max(9, Math.floor((px * room) / widest));
      setFont();
    }
  }
  const step = px * 1.25;
  const top = cy + cardSize * 0.22 - ((lines.length - 1) * step) / 2;
  const w = Math.max(...lines.map((l) => ctx.measureText(l).width)) + px * 0.6;
  ctx.fillStyle = "rgba(0,0,0,0.72)";
  ctx.fillRect(cx - w / 2, top - px * 0.7, w, px * 1.4 + (lines.length - 1) * step);
  ctx.fillStyle = "#fff";
  lines.forEach((line, k) => ctx.fillText(line, cx, top + k * step));
}

// Pixels of one cell on the digit sheet.
export const CELL = 64;
export const ANSWER_COLOUR = "#0050c8";
const HINT_COLOUR = "#d55e00";

// Draws the sudoku sheet: `write` digits (0 = none) in answer colour, cells
// the player corrected (`fixed`: cell -> digit, 0 = empty) pasted over in
// black on white, doubtful and clashing cells framed, the hinted cell highlighted.
export function drawSheet(sheet, { write, fixed = {}, doubtful = [], clashes = [], hintCell = -1, selected = -1 }) {
  sheet.width = sheet.height = CELL * 9;
  const ctx = sheet.getContext("2d");
  ctx.clearRect(0, 0, sheet.width, sheet.height);
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.font = `600 ${Math.round(CELL * 0.72)}px system-ui, sans-serif`;
  for (const [cell, digit] of Object.entries(fixed)) {
    const [x, y] = [(cell % 9) * CELL, Math.floor(cell / 9) * CELL];
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(x + 3, y + 3, CELL - 6, CELL - 6);
    if (digit) {
      ctx.fillStyle = "#000000";
      ctx.fillText(String(digit), x + CELL / 2, y + CELL * 0.55);
    }
  }
  write.forEach((d, i) => {
    if (!d) return;
    const [x, y] = [(i % 9 + 0.5) * CELL, (Math.floor(i / 9) + 0.55) * CELL];
    ctx.fillStyle = i === hintCell ? HINT_COLOUR : ANSWER_COLOUR;
    ctx.fillText(String(d), x, y);
  });
  const frame = (cells, colour, dash) => {
    ctx.setLineDash(dash);
    ctx.strokeStyle = colour;
    ctx.lineWidth = CELL / 12;
    for (const i of cells) {
      ctx.strokeRect((i % 9) * CELL + 4, Math.floor(i / 9) * CELL + 4, CELL - 8, CELL - 8);
    }
    ctx.setLineDash([]);
  };
  frame(doubtful, "#e69f00", [8, 6]);
  frame(clashes, DOUBT_COLOUR, []);
  if (hintCell >= 0) frame([hintCell], HINT_COLOUR, []);
  if (selected >= 0) frame([selected], "#000000", [4, 4]);
}

// Places the sheet on screen over the grid: `corners` in frame pixels, times `scale`.
export function placeSheet(sheet, corners, scale) {
  const quad = scaleQuad(corners, scale);
  sheet.style.transform = cssMatrix3d(squareToQuad(CELL * 9, quad));
  sheet.hidden = false;
}
