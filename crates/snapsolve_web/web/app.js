// The camera page: frames go to the server one at a time, answers are voted
// over recent frames, and the overlay is redrawn at screen rate, its outlines
// easing towards the newest positions. A frozen frame or an uploaded photo can
// be corrected by tapping a card or a cell.
import { hasTorch, listCameras, setTorch, startCamera } from "./camera.js";
import { cardAt, cellAt, askCard, askDigit } from "./fix.js";
import { Meter, encodeFrame, post, postJson } from "./frames.js";
import { centre, size } from "./geometry.js";
import { SetHints, SudokuHints, plural } from "./hints.js";
import { drawSet, drawSheet, placeSheet } from "./overlay.js";
import { composePicture, loadPhoto, offerPicture } from "./picture.js";
import { Vote, setSignature, sudokuSignature } from "./vote.js";

const $ = (id) => document.getElementById(id);
const video = $("video"), still = $("still"), overlay = $("overlay"), sheet = $("sheet");

const state = {
  mode: "auto", // what the player chose: set, sudoku or auto
  probe: "set", // in auto, which reader the next frame goes to
  frozen: false, // a still (frozen frame or photo) is shown and can be fixed
  photo: false, // the still is an uploaded photo
  scene: null, // what is shown: {kind, reading, frame}
  shown: null, // smoothed corners being drawn, per card (or the grid)
  seq: 0, // bumped to drop answers that come back after the view changed
  hinting: false,
  names: false,
  track: null,
};
const votes = { set: new Vote(), sudoku: new Vote() };
const meter = new Meter();
const setHints = new SetHints(), sudokuHints = new SudokuHints();
let drawMs = 0;

// ---- what the page says ------------------------------------------------------

function say(text) {
  if ($("answer").textContent !== text) $("answer").textContent = text;
}

function notice(text) {
  $("notice").textContent = text;
}

// What the reader warns of in a reading (a black-and-white photo), as a notice.
function warningsOf(reading) {
  return (reading.warnings || []).join(" ");
}

// The answer in words, for the #answer live region (screen readers, tests).
function answerText(scene) {
  if (scene.kind === "set") {
    const { cards, sets } = scene.reading;
    if (!cards.length) return "no cards found";
    return sets.length ? plural(sets.length, "SET") : "no SET: deal three more";
  }
  const r = scene.reading;
  if (!r.digits) return "no sudoku grid found";
  if (r.status === "unique") return "solved";
  if (r.status === "multiple") return "several solutions: a digit is missing or misread";
  const clashing = new Set((r.clashes || []).flat()).size;
  return clashing ? `no solution: ${clashing} clues clash` : "no solution";
}

// ---- showing a reading --------------------------------------------------------

function showScene(scene) {
  const before = state.scene;
  const sameTable = before && before.kind === scene.kind && signature(before) === signature(scene);
  if (!sameTable) {
    setHints.reset();
    sudokuHints.reset();
    $("hint-text").textContent = "";
  }
  state.scene = scene;
  state.shown = easeFrom(before, scene);
  say(answerText(scene));
  $("hint-text").textContent = scene.kind === "set" ? setHints.text(scene.reading.sets.length, state.hinting) : $("hint-text").textContent;
  refreshSheet();
  if (state.frozen) offerDownload();
}

function signature(scene) {
  return scene.kind === "set" ? setSignature(scene.reading) : sudokuSignature(scene.reading);
}

// The corners to start drawing from: each card's nearest card of the last
// scene (so outlines glide with the camera instead of jumping), else its own.
function easeFrom(before, scene) {
  const targets = quadsOf(scene);
  const old = before && before.kind === scene.kind && state.shown ? state.shown : [];
  return targets.map((quad) => {
    const [cx, cy] = centre(quad);
    const near = old.find((q) => {
      const [ox, oy] = centre(q);
      return Math.hypot(ox - cx, oy - cy) < size(quad) / 2;
    });
    return (near || quad).map((p) => [...p]);
  });
}

function quadsOf(scene) {
  if (scene.kind === "set") return scene.reading.cards.map((c) => c.corners);
  return scene.reading.corners ? [scene.reading.corners] : [];
}

// The sheet of digits to write on the grid: the missing digits of the
// solution, or only those hints gave.
function refreshSheet() {
  const scene = state.scene;
  if (!scene || scene.kind !== "sudoku" || !scene.reading.corners) {
    sheet.hidden = true;
    return;
  }
  const r = scene.reading;
  const write = new Array(81).fill(0);
  if (state.hinting) {
    for (const [cell, digit] of sudokuHints.placed) write[cell] = digit;
  } else if (r.solution && r.digits) {
    [...r.digits].forEach((d, i) => (write[i] = d === "." ? Number(r.solution[i]) : 0));
  }
  drawSheet(sheet, {
    write,
    fixed: r.fixed || {},
    doubtful: r.doubtful || [],
    clashes: (r.clashes || []).flat(),
    hintCell: state.hinting && sudokuHints.last ? sudokuHints.last.cell : -1,
  });
}

// ---- the stage and the overlay, every screen frame ---------------------------

function media() {
  if (state.frozen) return { width: still.width, height: still.height };
  return { width: video.videoWidth, height: video.videoHeight };
}

// Fits the stage to the picture's aspect ratio inside the free space.
function layoutStage() {
  const box = $("stage-box").getBoundingClientRect();
  const { width, height } = media();
  if (!width || !height) return null;
  const scale = Math.min(box.width / width, box.height / height);
  const w = Math.round(width * scale), h = Math.round(height * scale);
  const stage = $("stage").style;
  const left = `${Math.round((box.width - w) / 2)}px`, top = `${Math.round((box.height - h) / 2)}px`;
  if (stage.width !== `${w}px` || stage.height !== `${h}px` || stage.left !== left || stage.top !== top) {
    Object.assign(stage, { width: `${w}px`, height: `${h}px`, left, top });
  }
  return { w, h };
}

function drawFrame() {
  const started = performance.now();
  const fit = layoutStage();
  const dpr = window.devicePixelRatio || 1;
  if (fit && (overlay.width !== Math.round(fit.w * dpr) || overlay.height !== Math.round(fit.h * dpr))) {
    overlay.width = Math.round(fit.w * dpr);
    overlay.height = Math.round(fit.h * dpr);
  }
  const ctx = overlay.getContext("2d");
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, overlay.width, overlay.height);
  const scene = state.scene;
  if (fit && scene && visible(scene)) {
    ease(scene);
    const scale = fit.w / scene.frame.width;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (scene.kind === "set") {
      const reading = { ...scene.reading, cards: scene.reading.cards.map((c, i) => ({ ...c, corners: state.shown[i] })) };
      drawSet(ctx, reading, setHints.shown(scene.reading.sets, state.hinting), scale, { names: state.names, selected: scene.selected ?? -1 });
    } else if (state.shown.length) {
      placeSheet(sheet, state.shown[0], scale);
    }
  } else {
    sheet.hidden = true;
  }
  drawMs = 0.9 * drawMs + 0.1 * (performance.now() - started);
  requestAnimationFrame(drawFrame);
}

// A scene is drawn over the video only in its own mode, and over a still only
// if it belongs to that still.
function visible(scene) {
  if (!state.frozen) return state.mode === "auto" || scene.kind === state.mode;
  return scene.frame === state.stillFrame;
}

// Each drawn corner moves half way to its target every screen frame.
function ease(scene) {
  const targets = quadsOf(scene);
  if (state.frozen || state.shown.length !== targets.length) {
    state.shown = targets.map((q) => q.map((p) => [...p]));
    return;
  }
  state.shown.forEach((quad, i) =>
    quad.forEach((p, k) => {
      p[0] += (targets[i][k][0] - p[0]) * 0.5;
      p[1] += (targets[i][k][1] - p[1]) * 0.5;
    }),
  );
}

// ---- frames from the camera --------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Counts the frames the camera presents, so a frame is waited for only when
// none has come since the last one was taken.
let presented = 0, taken = -1;
function countFrames() {
  presented += 1;
  video.requestVideoFrameCallback(countFrames);
}
if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(countFrames);

async function nextVideoFrame() {
  if (!video.requestVideoFrameCallback) return new Promise((resolve) => requestAnimationFrame(resolve));
  while (presented === taken) await new Promise((resolve) => video.requestVideoFrameCallback(resolve));
  taken = presented;
}

// Which reader the next frame goes to.
function kindToAsk() {
  return state.mode === "auto" ? state.probe : state.mode;
}

// Whether a reading found what its reader looks for.
function found(kind, reading) {
  return kind === "set" ? reading.cards.length >= 3 : Boolean(reading.digits);
}

async function frameLoop() {
  for (;;) {
    if (state.frozen || !video.videoWidth || document.hidden) {
      await sleep(100);
      continue;
    }
    await nextVideoFrame();
    const seq = ++state.seq;
    const kind = kindToAsk();
    try {
      const frame = await encodeFrame(video, video.videoWidth, video.videoHeight);
      const answer = await post(`/api/${kind}/photo`, frame.blob, "image/jpeg");
      // Frozen, a photo uploaded or the mode changed meanwhile (a photo
      // chosen while the frame was on its way must not be overwritten).
      if (seq !== state.seq || state.frozen) continue;
      meter.answered({ encode: frame.encodeMs, trip: answer.roundTripMs, ...answer.server });
      liveReading(kind, answer.json, frame.canvas);
      notice(warningsOf(answer.json));
    } catch (error) {
      if (error.status === 503) {
        notice("the server is busy: waiting a moment");
        await sleep(error.retryAfter * 1000);
      } else {
        notice(`could not read the frame: ${error.message}`);
        await sleep(1000);
      }
    }
  }
}

function liveReading(kind, reading, frame) {
  if (state.mode === "auto" && !found(kind, reading)) {
    state.probe = kind === "set" ? "sudoku" : "set"; // try the other reader next
  }
  const vote = votes[kind];
  const signature = kind === "set" ? setSignature(reading) : sudokuSignature(reading);
  const agreed = vote.push(signature, { reading, frame });
  $("steady").hidden = agreed !== null;
  if (!agreed) return;
  if (state.mode === "auto" && !found(kind, agreed.reading)) {
    if (!state.scene || !found(state.scene.kind, state.scene.reading)) say("point the camera at a SET table or a sudoku");
    return;
  }
  showScene({ kind, reading: agreed.reading, frame: agreed.frame });
}

// ---- freezing, photos, fixing -------------------------------------------------

function showStill(frame) {
  still.width = frame.width;
  still.height = frame.height;
  still.getContext("2d").drawImage(frame, 0, 0);
  still.hidden = false;
  video.hidden = true;
  state.stillFrame = frame;
}

function freeze() {
  state.seq++;
  state.frozen = true;
  $("freeze").setAttribute("aria-pressed", "true");
  $("live").hidden = false;
  const scene = state.scene;
  if (scene && (state.mode === "auto" || scene.kind === state.mode)) {
    showStill(scene.frame);
  } else {
    const canvas = document.createElement("canvas");
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext("2d").drawImage(video, 0, 0);
    showStill(canvas);
  }
  $("steady").hidden = true;
  offerDownload();
}

function goLive() {
  state.seq++;
  state.frozen = false;
  state.photo = false;
  state.stillFrame = null;
  $("freeze").setAttribute("aria-pressed", "false");
  $("live").hidden = true;
  $("download").hidden = true;
  $("share").hidden = true;
  still.hidden = true;
  video.hidden = false;
  votes.set.clear();
  votes.sudoku.clear();
}

async function uploadPhoto(file) {
  state.seq++;
  state.frozen = true;
  state.photo = true;
  $("live").hidden = false;
  say("reading the photo…");
  try {
    const photo = await loadPhoto(file);
    showStill(photo.canvas);
    const kinds = state.mode === "auto" ? ["set", "sudoku"] : [state.mode];
    let scene = null;
    for (const kind of kinds) {
      const { json } = await post(`/api/${kind}/photo`, photo.blob, "image/jpeg");
      scene = scene && !found(kind, json) ? scene : { kind, reading: json, frame: photo.canvas };
      if (found(kind, json)) break;
    }
    showScene(scene);
    notice(warningsOf(scene.reading));
  } catch (error) {
    say("the photo could not be read");
    notice(error.message);
  }
}

async function offerDownload() {
  const scene = state.scene;
  if (!state.frozen || !scene || scene.frame !== state.stillFrame) return;
  const blob = await composePicture(scene.frame, {
    kind: scene.kind,
    reading: scene.reading,
    shown: setHints.shown(scene.reading.sets || [], state.hinting),
    names: state.names,
    sheet,
  });
  offerPicture(blob, $("download"), $("share"));
}

// A tap on the picture: freezes the live view; on a still, fixes what is under it.
async function tap(event) {
  if (!state.frozen) {
    freeze();
    return;
  }
  const scene = state.scene;
  if (!scene || scene.frame !== state.stillFrame) return;
  const rect = overlay.getBoundingClientRect();
  const scale = rect.width / scene.frame.width;
  const point = [(event.clientX - rect.left) / scale, (event.clientY - rect.top) / scale];
  if (scene.kind === "set") await fixCard(scene, point);
  else await fixCell(scene, point);
}

async function fixCard(scene, point) {
  const index = cardAt(scene.reading, point);
  if (index < 0) return;
  scene.selected = index;
  const name = await askCard($("fix-card"), scene.reading.cards[index].card);
  scene.selected = -1;
  if (!name) return;
  const cards = scene.reading.cards.map((c, i) => (i === index ? { ...c, card: name, confidence: 1, fixed: true } : c));
  const names = cards.map((c) => c.card);
  const reading = { ...scene.reading, cards, unsure: (scene.reading.unsure || []).filter((i) => i !== index), duplicates: sameNames(names) };
  try {
    const { json } = await postJson("/api/set/solve", { cards: names });
    reading.sets = json.sets;
    notice("");
  } catch (error) {
    reading.sets = [];
    notice(error.message);
  }
  showScene({ ...scene, reading });
}

// Groups of positions holding the same name (a deck has each card once).
function sameNames(names) {
  const groups = new Map();
  names.forEach((n, i) => groups.set(n, [...(groups.get(n) || []), i]));
  return [...groups.values()].filter((g) => g.length > 1);
}

async function fixCell(scene, point) {
  const r = scene.reading;
  if (!r.corners || !r.digits) return;
  const cell = cellAt(r.corners, point);
  if (cell < 0) return;
  const current = r.digits[cell] === "." ? 0 : Number(r.digits[cell]);
  const digit = await askDigit($("fix-cell"), cell, current);
  if (digit === null) return;
  const digits = [...r.digits];
  digits[cell] = digit ? String(digit) : ".";
  try {
    const { json } = await postJson("/api/sudoku/solve", { puzzle: digits.join("") });
    const reading = {
      ...r,
      digits: json.puzzle,
      solution: json.solution,
      status: json.status,
      clashes: json.clashes || [],
      doubtful: (r.doubtful || []).filter((i) => i !== cell),
      fixed: { ...r.fixed, [cell]: digit },
    };
    notice("");
    showScene({ ...scene, reading });
  } catch (error) {
    notice(error.message);
  }
}

// ---- buttons -----------------------------------------------------------------

function setMode(mode) {
  state.mode = mode;
  state.probe = mode === "sudoku" ? "sudoku" : "set";
  state.seq++;
  document.querySelectorAll(".mode").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === mode)));
  votes.set.clear();
  votes.sudoku.clear();
}

function toggle(button, on) {
  button.setAttribute("aria-pressed", String(on));
  return on;
}

async function nextHint() {
  const scene = state.scene;
  if (!scene) return;
  if (scene.kind === "set") {
    setHints.next();
    $("hint-text").textContent = setHints.text(scene.reading.sets.length, true);
  } else if (scene.reading.digits) {
    try {
      $("hint-text").textContent = await sudokuHints.next(scene.reading.digits);
    } catch (error) {
      $("hint-text").textContent = error.message;
    }
    refreshSheet();
  }
  offerDownload();
}

function wire() {
  document.querySelectorAll(".mode").forEach((b) => b.addEventListener("click", () => setMode(b.dataset.mode)));
  $("freeze").addEventListener("click", () => (state.frozen ? goLive() : freeze()));
  $("live").addEventListener("click", goLive);
  $("upload").addEventListener("change", (e) => {
    const file = e.target.files[0];
    if (file) uploadPhoto(file);
    e.target.value = "";
  });
  $("hints").addEventListener("click", () => {
    state.hinting = toggle($("hints"), !state.hinting);
    $("next-hint").hidden = !state.hinting;
    if (state.scene) showScene(state.scene);
  });
  $("next-hint").addEventListener("click", nextHint);
  $("names").addEventListener("click", () => {
    state.names = toggle($("names"), !state.names);
    offerDownload();
  });
  $("stats").addEventListener("click", () => ($("stages").hidden = !toggle($("stats"), $("stages").hidden)));
  overlay.addEventListener("click", tap);
  $("camera").addEventListener("change", (e) => openCamera(e.target.value));
  $("torch").addEventListener("click", async () => {
    const on = $("torch").getAttribute("aria-pressed") !== "true";
    await setTorch(state.track, on).then(() => toggle($("torch"), on)).catch((e) => notice(e.message));
  });
  setInterval(showStats, 250);
}

function showStats() {
  $("fps").textContent = `${meter.perSecond().toFixed(1)} fps`;
  const s = meter.stages;
  const ms = (v) => (v === undefined ? "–" : `${v.toFixed(1)} ms`);
  $("stages").textContent =
    `encode ${ms(s.encode)} · server decode ${ms(s.decode)} · read ${ms(s.read)} · round trip ${ms(s.trip)} · draw ${ms(drawMs)}`;
}

async function openCamera(deviceId = null) {
  try {
    state.track = await startCamera(video, deviceId);
    $("torch").hidden = !hasTorch(state.track);
    await listCameras($("camera"), state.track);
    say("point the camera at a SET table or a sudoku");
  } catch (error) {
    say("no camera: upload a photo instead");
    notice(`camera: ${error.message}`);
  }
}

wire();
setMode("auto");
requestAnimationFrame(drawFrame);
openCamera().then(frameLoop);
