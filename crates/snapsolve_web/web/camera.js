// The camera: the rear one by default, any other from a picker, with ideal
// (never exact) constraints so every device gives something; a torch button
// only where the track says it has one.

let stream = null;

// Starts a camera (`deviceId`, or the rear one) into `video`; resolves when
// frames flow. Ideal constraints: a phone without 1920x1080 still starts.
export async function startCamera(video, deviceId = null) {
  stopCamera(video);
  const wanted = {
    width: { ideal: 1920 },
    height: { ideal: 1080 },
    frameRate: { ideal: 30 },
  };
  if (deviceId) wanted.deviceId = { ideal: deviceId };
  else wanted.facingMode = { ideal: "environment" };
  stream = await navigator.mediaDevices.getUserMedia({ video: wanted, audio: false });
  video.srcObject = stream;
  await video.play();
  if (!video.videoWidth) {
    await new Promise((resolve) => video.addEventListener("loadedmetadata", resolve, { once: true }));
  }
  return stream.getVideoTracks()[0];
}

export function stopCamera(video) {
  if (stream) stream.getTracks().forEach((t) => t.stop());
  stream = null;
  video.srcObject = null;
}

// Fills the picker with the cameras (names are known only after permission)
// and shows it when there is a choice.
export async function listCameras(select, track) {
  const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "videoinput");
  const current = track?.getSettings?.().deviceId;
  select.replaceChildren(
    ...devices.map((d, i) => {
      const option = new Option(d.label || `camera ${i + 1}`, d.deviceId);
      option.selected = d.deviceId === current;
      return option;
    }),
  );
  select.hidden = devices.length < 2;
}

// Whether the track can light a torch (phones' rear cameras, mostly).
export function hasTorch(track) {
  const capabilities = track?.getCapabilities?.() || {};
  return Boolean(capabilities.torch);
}

export async function setTorch(track, on) {
  await track.applyConstraints({ advanced: [{ torch: on }] });
}
