// Votes over the readings of recent frames so the overlay holds still: a
// reading is shown only once most recent frames agree on it (the same card
// names, or the same digits), and a frame that disagrees (motion blur, a hand,
// a glint) does not make the answer flicker.

export class Vote {
  // `window` recent frames are kept; `needed` of them must agree.
  constructor(window = 5, needed = 3) {
    this.window = window;
    this.needed = needed;
    this.recent = [];
  }

  clear() {
    this.recent = [];
  }

  // Adds a frame's reading under its signature; returns the reading to show
  // (the latest frame that has the agreed signature, so positions follow the
  // camera) or null while no signature has enough votes ("hold steady").
  push(signature, reading) {
    this.recent.push({ signature, reading });
    if (this.recent.length > this.window) this.recent.shift();
    const counts = new Map();
    for (const { signature: s } of this.recent) counts.set(s, (counts.get(s) || 0) + 1);
    let best = null;
    for (const [s, n] of counts) if (n >= this.needed && (!best || n > counts.get(best))) best = s;
    if (best === null) return null;
    for (let i = this.recent.length - 1; i >= 0; i--) {
      if (this.recent[i].signature === best) return this.recent[i].reading;
    }
    return null;
  }
}

// What a SET reading says, independent of card order and position.
export function setSignature(reading) {
  return reading.cards.map((c) => c.card).sort().join(" ");
}

// What a sudoku reading says: its digits (or that no grid was seen).
export function sudokuSignature(reading) {
  return reading.digits || "";
}
