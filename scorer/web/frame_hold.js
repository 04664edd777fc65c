// Flutter's frame requests held back, for a page with nothing of ours to draw: put
// into reconnect.js (the table server's page, while "Lost the table server." covers
// it) and boot.js (the phone-alone app, while Python starts) where they say
// __FRAME_HOLD__, inside their own function. holdFrames() makes every
// requestAnimationFrame wait; they run at releaseFrames(), and every HELD_FRAME_MS
// meanwhile, so nothing of Flutter's waits for a frame for ever.
  const HELD_FRAME_MS = 500;
  const nativeFrame = window.requestAnimationFrame.bind(window);
  const nativeCancel = window.cancelAnimationFrame.bind(window);
  let heldFrames = null;  // id -> callback, while held
  let heldId = 1 << 29;   // apart from the browser's own ids
  let heldTimer = 0;
  window.requestAnimationFrame = function (callback) {
    if (!heldFrames) return nativeFrame(callback);
    heldFrames.set(++heldId, callback);
    if (!heldTimer) {
      heldTimer = setTimeout(() => {
        heldTimer = 0;
        if (heldFrames) {
          releaseFrames();
          holdFrames();
        }
      }, HELD_FRAME_MS);
    }
    return heldId;
  };
  window.cancelAnimationFrame = function (id) {
    if (!(heldFrames && heldFrames.delete(id))) nativeCancel(id);
  };
  function holdFrames() {
    heldFrames = heldFrames || new Map();
  }
  function releaseFrames() {
    const held = heldFrames;
    heldFrames = null;
    clearTimeout(heldTimer);
    heldTimer = 0;
    if (held) for (const callback of held.values()) nativeFrame(callback);
  }
