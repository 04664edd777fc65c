// Start Tarabish: put the service worker in charge, then start Flutter and the
// Python worker side by side. Written by `tarabish build-web`; replaces
// flutter_bootstrap.js's own <script> and Flet's python.js (the page's bridge to
// Python: jsConnect, jsSend, jsDisconnect, called by Flutter's Dart code).
"use strict";
(function () {
  // Start-up marks, for timelines (benchmarks/timeline_phone_alone.py).
  const mark = (what) => performance.mark(`tarabish: ${what}`);
  mark("boot.js runs");
  // -- Flutter's frames while it waits for Python -----------------------------------
  // From jsConnect to Python's first message Flutter has nothing of ours to draw (the
  // page stays blank), yet it asks for a frame at every refresh of the display and its
  // render worker draws each one: CPU taken from Python's start on a phone's few cores.
  // Meanwhile its frame requests wait here; they run at the first refresh after the
  // first message (or an error) has come, and at most every HELD_FRAME_MS meanwhile (so
  // that nothing of Flutter's can wait for a frame for ever).
  const HELD_FRAME_MS = 500;
  const nativeFrame = window.requestAnimationFrame.bind(window);
  const nativeCancel = window.cancelAnimationFrame.bind(window);
  let heldFrames = null; // id -> callback, while Flutter waits for Python
  let heldId = 1 << 30;
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

  // -- the bridge to the Python worker (worker.js) ------------------------------
  let python = null; // {worker, frames: Dart's callback, status: resolves on "initialized"/error}

  function startPython() {
    if (python) return python;
    mark("Python worker started");
    const worker = new Worker("worker.js", { type: "module" });
    const started = { worker, frames: null, status: null };
    worker.onmessage = (event) => {
      if (typeof event.data === "string") {
        if (started.status) started.status(event.data);
      } else if (started.frames) {
        if (!started.framed) {
          started.framed = true;
          mark("first message from Python");
          releaseFrames();
        }
        started.frames(event.data);
      }
    };
    worker.postMessage({ documentUrl: document.URL });
    python = started;
    return started;
  }

  globalThis.jsConnect = async function (appId, args, dartOnMessage) {
    mark("Flutter connects (jsConnect)");
    holdFrames();
    const started = startPython();
    started.frames = dartOnMessage;
    const status = await new Promise((resolve) => {
      started.status = resolve;
      started.worker.postMessage({ connect: JSON.parse(JSON.stringify(args ?? {})) });
    });
    mark(`Python answers: ${status.slice(0, 40)}`);
    if (status !== "initialized") {
      releaseFrames();
      console.error("Python worker init error:", status);
      await globalThis.jsDisconnect(appId);
      throw status;
    }
    // Python is connected and draws the first screen: a little later the service
    // worker may fetch the rest of the site (the memory snapshot among it) without
    // slowing this start down.
    setTimeout(() => {
      const keeper = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (keeper) keeper.postMessage("cache-site");
    }, 2000);
  };

  globalThis.jsSend = async function (appId, data) {
    // The Dart side gives its buffer away: no copy.
    if (python) python.worker.postMessage(data, [data.buffer]);
  };

  globalThis.jsDisconnect = async function (appId) {
    if (!python) return;
    python.worker.onmessage = null;
    python.worker.terminate();
    python = null;
  };

  // -- service worker, then Flutter ----------------------------------------------
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const UPDATE_CHECK_MS = 600; // sw.js from the host: tens of ms on a working network
  const takeover = (sw) => new Promise((resolve) =>
    sw.addEventListener("controllerchange", resolve, { once: true }));

  const settled = (worker) => new Promise((resolve) => {
    const check = () => {
      if (worker.state !== "installing") resolve();
    };
    worker.addEventListener("statechange", check);
    check();
  });

  function startFlutter() {
    mark("Flutter's loader added");
    const script = document.createElement("script");
    script.src = "flutter_bootstrap.js";
    script.async = true;
    document.body.appendChild(script);
  }

  async function boot() {
    const sw = navigator.serviceWorker;
    if (!sw) return; // plain HTTP on a LAN address: works, but not offline
    // A page the service worker already serves: Python starts now, from its cache.
    if (sw.controller) startPython();
    if (navigator.storage && navigator.storage.persist) {
      navigator.storage.persist().catch(() => {}); // ask the browser never to evict the games
    }
    const registration = await sw.register("sw.js");
    if (!sw.controller) {
      // First visit: let the worker take this page, then load the page again from it, so
      // that every file is cached as it loads and the page is cross-origin isolated as
      // at every later start (the browser keeps the compiled code of Flutter's modules
      // for an isolated page apart: compiled in a plain one, the first start from the
      // home screen compiled them all again).
      if (await Promise.race([takeover(sw).then(() => true), wait(4000)]) &&
          !self.crossOriginIsolated && !sessionStorage.getItem("tarabish-isolated")) {
        sessionStorage.setItem("tarabish-isolated", "1");
        location.reload();
        await wait(60000);
      }
      return;
    }
    // A new deployment installs now (unchanged files come from the cache). Flutter
    // waits for the check, so it waits little: offline (or with the host gone) it
    // can take seconds to fail. A check that answers later goes on in the
    // background, and the version it installs starts on the next visit (below).
    if (navigator.onLine !== false) {
      await Promise.race([registration.update().catch(() => {}), wait(UPDATE_CHECK_MS)]);
    }
    if (registration.installing) {
      await Promise.race([settled(registration.installing), wait(20000)]);
    }
    const waiting = registration.waiting;
    if (waiting && !sessionStorage.getItem("tarabish-updated")) {
      const changed = takeover(sw).then(() => true);
      waiting.postMessage("skip-waiting");
      if (await Promise.race([changed, wait(10000)])) {
        sessionStorage.setItem("tarabish-updated", "1");
        location.reload(); // this page again, with the new version's files
        await wait(60000);
      }
    }
  }

  boot().catch((error) => console.warn("Tarabish: no offline copy", error)).finally(() => {
    startPython(); // first visit: now that the service worker keeps what it fetches
    startFlutter();
  });
})();
