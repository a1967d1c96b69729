// Hints, not spoilers. SET: the count first, then one more SET per tap, then
// all. Sudoku: the next logical step with its technique named (the server's
// `sudoku hint`), step after step; turning hints off shows the full solution.
import { postJson } from "./frames.js";

export class SetHints {
  constructor() {
    this.revealed = 0;
  }

  reset() {
    this.revealed = 0;
  }

  next() {
    this.revealed += 1;
  }

  // The SETs to draw, numbered as in the full answer.
  shown(sets, hinting) {
    const numbered = sets.map((set, number) => ({ set, number }));
    return hinting ? numbered.slice(0, this.revealed) : numbered;
  }

  text(count, hinting) {
    if (!hinting) return "";
    if (count === 0) return "no SET: deal three more";
    if (this.revealed === 0) return `${plural(count, "SET")} on the table: tap Next hint to see one`;
    if (this.revealed < count) return `showing ${this.revealed} of ${plural(count, "SET")}`;
    return `all ${plural(count, "SET")} shown`;
  }
}

export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export class SudokuHints {
  constructor() {
    this.reset();
  }

  reset() {
    this.placed = new Map(); // cell -> digit, from steps already given
    this.last = null;
  }

  // Asks for the step after those already given; returns it in words.
  async next(digits) {
    const grid = [...digits].map((d, i) => (this.placed.has(i) ? String(this.placed.get(i)) : d));
    const { json } = await postJson("/api/sudoku/hint", { puzzle: grid.join("") });
    const step = json.steps[json.steps.length - 1];
    if (!step) {
      this.last = null;
      return "the grid is full";
    }
    this.last = step.place;
    if (step.place) this.placed.set(step.place.cell, step.place.digit);
    return `${step.technique}: ${step.reason}`;
  }
}
