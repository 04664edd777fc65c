// Start Tarabish: put the service worker in charge, then start Flutter and the
// Python worker side by side. Written by `tarabish build-web`; replaces
// flutter_bootstrap.js's own <script> and Flet's python.js (the page's bridge to
// Python: jsConnect, jsSend, jsDisconnect, called by Flutter's Dart code).
"use strict";
(function () {
  // Start-up marks, for timelines (benchmarks/timeline_phone_alone.py).
  const mark = (what) => performance.mark(`tarabish: ${what}`);
  mark("boot.js runs");
  // -- a server's game: /alone/game/<id> (the launcher at /game/<id> sends capable phones
  // here). A phone that cannot run the app, or whose start failed, gets the server's own
  // page of the game instead, with no tap (and the server remembers it for a while: the
  // cookie below, which an app that started clears).
  const DRAWN_COOKIE = "tarabish-drawn";
  const serverGame = (() => {
    const base = new URL(document.baseURI).pathname;
    if (!location.pathname.startsWith(base)) return null;
    const found = location.pathname.slice(base.length).match(/^game\/([0-9a-f]{8})\/?$/);
    return found ? found[1] : null;
  })();
  function toServerPage(why) {
    if (!serverGame) return false;
    console.warn(`Tarabish: the app cannot run here (${why}): the server's page of the game`);
    location.replace(new URL(`../game/${serverGame}?drawn=1`, document.baseURI).href);
    return true;
  }
  if (serverGame && (typeof WebAssembly !== "object" || !navigator.serviceWorker)) {
    toServerPage(typeof WebAssembly !== "object" ? "no WebAssembly" : "no service worker");
    return;
  }
  // -- Flutter's frames while it waits for Python -----------------------------------
  // From jsConnect to Python's first message Flutter has nothing of ours to draw (the
  // page stays blank), yet it asks for a frame at every refresh of the display and its
  // render worker draws each one: CPU taken from Python's start on a phone's few cores.
  // Meanwhile its frame requests wait here; they run at the first refresh after the
  // first message (or an error) has come, and at most every HELD_FRAME_MS meanwhile (so
  // that nothing of Flutter's can wait for a frame for ever).
  /* __FRAME_HOLD__: scorer/web/frame_hold.js, put in here when served or built */

  // -- the bridge to the Python worker (worker.js) ------------------------------
  let python = null; // {worker, frames: Dart's callback, status: resolves on "initialized"/error}

  function startPython() {
    if (python) return python;
    mark("Python worker started");
    const worker = new Worker("worker.js", { type: "module" });
    const started = { worker, frames: null, status: null };
    worker.onerror = () => toServerPage("the Python worker did not load");
    worker.onmessage = (event) => {
      if (typeof event.data === "string") {
        if (started.status) started.status(event.data);
      } else if (event.data && event.data.tarabish) {
        fromPython(event.data);
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
      if (toServerPage("Python did not start")) return;
      await globalThis.jsDisconnect(appId);
      throw status;
    }
    if (serverGame && document.cookie.includes(DRAWN_COOKIE)) {
      document.cookie = `${DRAWN_COOKIE}=; Max-Age=0; Path=/`; // the app runs here
    }
    // Python is connected and draws the first screen: a little later the service
    // worker may fetch the rest of the site (the memory snapshot among it) without
    // slowing this start down.
    setTimeout(() => {
      const keeper = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (keeper) keeper.postMessage("cache-site");
      checkVersion(true); // and is this app still the host's?
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

  // -- the host's version: an app older than the host's updates --------------------
  // version.json is the host's (a table server answers its own rules and site; a static
  // host, the file of its build); this app's rules are baked in here at build time and
  // its site's version is the service worker's. Checked once the app has started, when
  // the phone comes back online or to this page, and when Python asks (the sync's
  // `Update`, scorer.browser.app_update). An app that differs takes the host's version
  // at a calm moment (no screen half filled in, no tap for a while), after Python has
  // written every change to IndexedDB; the player reads one line meanwhile.
  const APP_RULES = "__RULES__";
  const CHECK_EVERY_MS = 60000; // at most this often, unless asked
  const CALM_AFTER_TAP_MS = 3000;
  const BUSY_ROUTE = /^#?\/(new|game\/[0-9a-f]{8}\/hand)/; // screens being filled in
  const UPDATING = "A newer Tarabish is on the server: it opens in a moment. Games are kept.";
  let lastCheck = 0;
  let updating = false;
  let lastTap = 0;
  let flushed = null; // resolves when Python answers {tarabish: "flushed"}
  addEventListener("pointerdown", () => { lastTap = Date.now(); }, true);

  function fromPython(message) {
    if (message.tarabish === "check-update") checkVersion(true);
    if (message.tarabish === "flushed" && flushed) flushed();
  }

  function ownSite() {
    // The version of the site the service worker in charge serves.
    const keeper = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!keeper) return Promise.resolve(null);
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      keeper.postMessage("version", [channel.port2]);
      setTimeout(() => resolve(null), 2000);
    });
  }

  async function checkVersion(asked) {
    const sw = navigator.serviceWorker;
    if (updating || !sw || !sw.controller) return;
    if (!asked && Date.now() - lastCheck < CHECK_EVERY_MS) return;
    lastCheck = Date.now();
    let host;
    try {
      const response = await fetch("version.json", { cache: "no-store" });
      if (!response.ok) return;
      host = await response.json();
    } catch (error) {
      return; // offline: next time
    }
    const site = await ownSite();
    // Nothing to take yet (a server still building its app): the next check.
    if (!host || !host.site || !site) return;
    if (host.site !== site || (host.rules && host.rules !== APP_RULES)) await update();
  }

  async function update() {
    const sw = navigator.serviceWorker;
    const registration = await sw.getRegistration();
    if (!registration) return;
    updating = true;
    try {
      await registration.update().catch(() => {});
      if (registration.installing) {
        await Promise.race([settled(registration.installing), wait(120000)]);
      }
      const waiting = registration.waiting;
      if (!waiting) return; // the host's sw.js is this one: nothing newer to take
      say(UPDATING);
      await calm();
      await Promise.race([new Promise((resolve) => {
        flushed = resolve;
        if (python) python.worker.postMessage({ tarabish: "flush" });
        else resolve();
      }), wait(10000)]);
      const changed = takeover(sw).then(() => true);
      waiting.postMessage("skip-waiting");
      if (await Promise.race([changed, wait(10000)])) {
        sessionStorage.setItem("tarabish-updated", "1");
        location.reload();
        await wait(60000);
      }
    } finally {
      updating = false;
    }
  }

  async function calm() {
    // No screen being filled in and no tap for a moment, or the page out of sight.
    while (document.visibilityState === "visible" &&
           (BUSY_ROUTE.test(location.hash) || Date.now() - lastTap < CALM_AFTER_TAP_MS)) {
      await wait(500);
    }
  }

  function say(text) {
    // One line over the bottom of the screen, above Flutter's canvas.
    let line = document.getElementById("tarabish-line");
    if (!line) {
      line = document.createElement("div");
      line.id = "tarabish-line";
      line.setAttribute("role", "status");
      line.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;" +
        "padding:14px 16px calc(14px + env(safe-area-inset-bottom));background:#1B5E20;" +
        "color:#FFFFFF;font:16px/1.35 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;" +
        "box-shadow:0 -2px 6px rgba(0,0,0,.3);pointer-events:none"; // taps go to the app
      document.body.appendChild(line);
    }
    line.textContent = text;
  }

  addEventListener("online", () => checkVersion(true));
  // Chromium fires online and offline at the page only, not in its workers: passed on
  // to Python's worker, whose sync link takes them as hints (scorer.browser.link).
  for (const kind of ["online", "offline"]) {
    addEventListener(kind, () => { if (python) python.worker.postMessage({ network: kind }); });
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") checkVersion(false);
  });

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
