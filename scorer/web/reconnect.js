// Lost the table server: say so at once, and reconnect as soon as it answers.
//
// Flet's web client (1.0.5) waits 500 ms after its websocket closes, then
// doubles the wait after every failed attempt with no cap (only for a page
// opened at localhost or 127.0.0.1 does it stay at 500 ms): a phone on the
// table's Wi-Fi came back 25-34 s after a restart, showing a blank boot screen
// meanwhile. Here Flet's websockets are watched (window.WebSocket is wrapped).
// When an open one closes, a message covers the page and /alive (same server,
// a tiny answer) is asked every 500 ms (every 2 s after a minute). Flet's next
// attempt is held, not failed, while the server is away, so Flet never starts
// doubling its wait: the held socket is opened the moment /alive answers, and
// Flet registers on it as on any reconnect (a new server process gives the tab
// a new session; the app redraws its screen from the saved game). The message
// goes away once the server has spoken on the new socket. If that does not
// happen within 15 s of the server answering, the page reloads.
// Only on the table server: the phone-alone site has no server to lose.
"use strict";
(() => {
  if (window.flet && window.flet.pyodide) return;
  const Native = window.WebSocket;
  if (!Native || Native.__tarabish) return;

  const PROBE_MS = 500;        // ask this often while the server is away...
  const SLOW_PROBE_MS = 2000;  // ...and this often after a minute without it
  const SLOW_AFTER_MS = 60000;
  const PROBE_TIMEOUT_MS = 1500;
  const RELOAD_AFTER_MS = 15000;  // server answers, page not live again: reload
  const SHOW_AFTER_MS = 600;      // a socket that comes straight back shows nothing

  const state = {
    down: false,      // an open socket closed and no new one has been answered yet
    since: 0,         // when it closed
    up: null,         // resolved when /alive answers
    upAt: 0,          // when /alive answered
    probing: false,
  };
  // For tests and the benchmark: what happened, and when (ms since time origin).
  const log = (what) => {
    window.tarabishLink.push({ what, at: performance.timeOrigin + performance.now() });
    if (window.tarabishLink.length > 200) window.tarabishLink.splice(0, 50);
  };
  window.tarabishLink = [];

  // -- Flutter's frames while the message covers the page --------------------------
  // Under the message Flet spins a "Working..." ring at every refresh of the display
  // for as long as the server is away (16 frames a second, a third of a core in a test
  // browser: benchmarks/bench_idle_frames.py). The card hides it, and a phone left with
  // its server gone would spend its battery on it. Frame requests wait here meanwhile:
  // they run when the message goes, and every HELD_FRAME_MS until then, so nothing
  // waits for a frame for ever (boot.js holds Flutter's frames so while Python starts).
  /* __FRAME_HOLD__: scorer/web/frame_hold.js, put in here when served or built */

  let box = null;
  let showTimer = 0;
  function show() {
    if (!box) {
      box = document.createElement("div");
      box.id = "tarabish-lost";
      box.setAttribute("role", "alert");
      box.innerHTML = "<style>"
        + "#tarabish-lost{position:fixed;inset:0;z-index:2147483647;display:flex;"
        + "align-items:center;justify-content:center;padding:16px;box-sizing:border-box;"
        + "background:rgba(0,0,0,.55);font-family:Roboto,Arial,sans-serif}"
        + "#tarabish-lost div{max-width:420px;background:#fff;color:#14201a;border-radius:14px;"
        + "padding:22px 20px;box-shadow:0 6px 24px rgba(0,0,0,.35);border-top:6px solid #8a4b00}"
        + "#tarabish-lost b{display:block;font-size:24px;line-height:1.25;margin-bottom:8px}"
        + "#tarabish-lost p{margin:0;font-size:19px;line-height:1.4;color:#2b3a33}"
        + "@media (prefers-color-scheme: dark){#tarabish-lost div{background:#1b2420;"
        + "color:#eef3ef;border-top-color:#ffb870}#tarabish-lost p{color:#d3ddd7}}"
        + "</style><div><b>Lost the table server.</b>"
        + "<p>Trying again… Your game is saved.</p></div>";
    }
    if (!box.isConnected) {
      document.body.append(box);
      holdFrames();
      log("message shown");
    }
  }
  function hide() {
    clearTimeout(showTimer);
    if (box && box.isConnected) {
      box.remove();
      releaseFrames();
      log("message hidden");
    }
  }

  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  async function answers() {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), PROBE_TIMEOUT_MS);
    try {
      const reply = await fetch("/alive", { cache: "no-store", signal: stop.signal });
      return reply.ok;
    } catch (_error) {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
  // Ask /alive until it answers; resolves state.up. One loop at a time.
  function probe() {
    if (state.probing) return state.up;
    state.probing = true;
    let resolve;
    state.up = new Promise((done) => { resolve = done; });
    (async () => {
      for (;;) {
        if (await answers()) break;
        show();  // the server is away: say so now, not after SHOW_AFTER_MS
        const away = performance.now() - state.since;
        await sleep(away > SLOW_AFTER_MS ? SLOW_PROBE_MS : PROBE_MS);
      }
      state.probing = false;
      state.upAt = performance.now();
      log("server answers");
      resolve();
      const reloadIfStuck = state.upAt;
      setTimeout(() => {
        if (state.down && state.upAt === reloadIfStuck) {
          log("reload");
          window.location.reload();
        }
      }, RELOAD_AFTER_MS);
    })();
    return state.up;
  }

  function lost() {
    if (state.down) return;
    state.down = true;
    state.since = performance.now();
    log("socket closed");
    clearTimeout(showTimer);
    showTimer = setTimeout(() => { if (state.down) show(); }, SHOW_AFTER_MS);
    probe();
  }

  // Watch a real socket: its first message after a loss means the page is live.
  function watch(socket) {
    socket.addEventListener("message", () => {
      if (state.down) {
        state.down = false;
        log("live");
        hide();
      }
    });
    socket.addEventListener("close", () => {
      if (socket.__opened) lost();
    });
    socket.addEventListener("open", () => { socket.__opened = true; });
  }

  // A websocket Flet asked for while the server was away: it stays "connecting"
  // until the server answers, then a real socket is opened and every event of
  // it is passed on, so Flet sees one ordinary (slow) connection.
  class HeldSocket extends EventTarget {
    constructor(url, protocols) {
      super();
      this.url = String(url);
      this._protocols = protocols;
      this._binaryType = "blob";
      this._real = null;
      this._closed = false;
      this.readyState = 0;
      for (const name of ["open", "message", "error", "close"]) this["on" + name] = null;
      log("attempt held");
      state.up.then(() => this._open());
    }
    _open() {
      if (this._closed) return;
      const real = this._protocols === undefined ? new Native(this.url)
        : new Native(this.url, this._protocols);
      real.binaryType = this._binaryType;
      this._real = real;
      watch(real);
      for (const name of ["open", "message", "error", "close"]) {
        real.addEventListener(name, (event) => {
          this.readyState = real.readyState;
          const copy = name === "message" ? new MessageEvent("message", { data: event.data })
            : name === "close" ? new CloseEvent("close", {
              code: event.code, reason: event.reason, wasClean: event.wasClean })
              : new Event(name);
          const handler = this["on" + name];
          if (typeof handler === "function") handler.call(this, copy);
          this.dispatchEvent(copy);
        });
      }
    }
    get binaryType() { return this._real ? this._real.binaryType : this._binaryType; }
    set binaryType(value) {
      this._binaryType = value;
      if (this._real) this._real.binaryType = value;
    }
    get bufferedAmount() { return this._real ? this._real.bufferedAmount : 0; }
    get protocol() { return this._real ? this._real.protocol : ""; }
    get extensions() { return this._real ? this._real.extensions : ""; }
    send(data) {
      if (!this._real || this._real.readyState !== 1) {
        throw new DOMException("Still connecting", "InvalidStateError");
      }
      this._real.send(data);
    }
    close(code, reason) {
      if (this._real) {
        this._real.close(code, reason);
        return;
      }
      if (this._closed) return;
      this._closed = true;
      this.readyState = 3;
      const event = new CloseEvent("close", { code: 1000, reason: "", wasClean: true });
      if (typeof this.onclose === "function") this.onclose.call(this, event);
      this.dispatchEvent(event);
    }
  }

  function TarabishWebSocket(url, protocols) {
    if (state.down && state.probing) return new HeldSocket(url, protocols);
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    watch(socket);
    return socket;
  }
  TarabishWebSocket.prototype = Native.prototype;
  for (const name of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) {
    Object.defineProperty(TarabishWebSocket, name, { value: Native[name] });
    Object.defineProperty(HeldSocket.prototype, name, { value: Native[name] });
  }
  TarabishWebSocket.__tarabish = true;
  window.WebSocket = TarabishWebSocket;
})();
