// Frames to the server: the picture shrunk to about 960 pixels on its long
// side (all the card and grid finders use), sent as a JPEG, one at a time:
// the next frame is taken only when the answer to the last one is back, so
// frames the camera makes meanwhile are simply never sent (no queue grows).

export const FRAME_SIDE = 960;

// Draws `source` (video, image bitmap, canvas) into a new canvas with its long
// side at most `maxSide`, and encodes it as JPEG.
export async function encodeFrame(source, width, height, maxSide = FRAME_SIDE, quality = 0.85) {
  const started = performance.now();
  const scale = Math.min(1, maxSide / Math.max(width, height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  canvas.getContext("2d").drawImage(source, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
  return { canvas, blob, encodeMs: performance.now() - started };
}

// An error answer of the API, with its status and (for 503) the wait asked for.
export class ApiError extends Error {
  constructor(status, message, retryAfter) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

// POSTs a body to an API route; resolves with the JSON answer, the round trip
// and the server's own stage times (Server-Timing).
export async function post(route, body, type) {
  const started = performance.now();
  const response = await fetch(route, { method: "POST", body, headers: { "Content-Type": type } });
  const json = await response.json().catch(() => ({ error: `answer ${response.status} is not JSON` }));
  const roundTripMs = performance.now() - started;
  if (!response.ok) {
    const retry = Number(response.headers.get("Retry-After")) || 1;
    throw new ApiError(response.status, json.error || `error ${response.status}`, retry);
  }
  return { json, roundTripMs, server: serverTiming(response.headers.get("Server-Timing")) };
}

export const postJson = (route, value) => post(route, JSON.stringify(value), "application/json");

// "decode;dur=1.2, read;dur=18.0" -> {decode: 1.2, read: 18}
function serverTiming(header) {
  const stages = {};
  for (const part of (header || "").split(",")) {
    const [name, ...params] = part.trim().split(";");
    const dur = params.find((p) => p.trim().startsWith("dur="));
    if (name && dur) stages[name] = Number(dur.split("=")[1]);
  }
  return stages;
}

// Frames answered per second over the last two seconds, and each stage's
// time averaged over recent frames (an exponential average, about the last ten).
export class Meter {
  constructor() {
    this.times = [];
    this.stages = {};
  }

  answered(stages) {
    const now = performance.now();
    this.times.push(now);
    while (this.times.length && now - this.times[0] > 2000) this.times.shift();
    for (const [name, ms] of Object.entries(stages)) {
      const before = this.stages[name];
      this.stages[name] = before === undefined ? ms : before + 0.1 * (ms - before);
    }
  }

  perSecond() {
    const now = performance.now();
    while (this.times.length && now - this.times[0] > 2000) this.times.shift();
    if (this.times.length < 2) return 0;
    return (this.times.length - 1) / Math.max(0.5, (now - this.times[0]) / 1000);
  }
}
