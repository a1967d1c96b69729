// Fixing a misread on a frozen picture: which card or cell a tap lands on,
// and the small dialogs that ask what it really is. The answer is then
// recomputed by the server from the corrected reading (/api/set/solve,
// /api/sudoku/solve), so one misread never spoils the whole answer.
import { apply, inside, invert, squareToQuad } from "./geometry.js";

// The card under a point (frame pixels), or -1.
export function cardAt(reading, point) {
  return reading.cards.findIndex((c) => inside(c.corners, point));
}

// The sudoku cell under a point (frame pixels), or -1: the point is taken
// back through the grid's homography to the 9x9 square.
export function cellAt(corners, point) {
  const [u, v] = apply(invert(squareToQuad(9, corners)), point);
  if (!(u >= 0 && u < 9 && v >= 0 && v < 9)) return -1;
  return Math.floor(v) * 9 + Math.floor(u);
}

// "r1c1".."r9c9", as the CLI and the hints name cells.
export function cellName(cell) {
  return `r${Math.floor(cell / 9) + 1}c${(cell % 9) + 1}`;
}

// Opens the card dialog set to `name`; resolves with the chosen name, or null.
export function askCard(dialog, name) {
  const [number, colour, shading, shape] = name.split("-");
  const form = dialog.querySelector("form");
  form.number.value = number;
  form.colour.value = colour;
  form.shading.value = shading;
  form.shape.value = shape;
  return open(dialog, (value) =>
    value === "apply" ? [form.number.value, form.colour.value, form.shading.value, form.shape.value].join("-") : null,
  );
}

// Opens the digit dialog for a cell; resolves with 0-9 (0 = empty), or null.
export function askDigit(dialog, cell, current) {
  dialog.querySelector("#fix-cell-title").textContent =
    `Digit in ${cellName(cell)}` + (current ? ` (read as ${current})` : " (read as empty)");
  return open(dialog, (value) => (/^[0-9]$/.test(value) ? Number(value) : null));
}

function open(dialog, result) {
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(result(dialog.returnValue)), { once: true });
    dialog.showModal();
  });
}
