// Tarabish's Python worker: the app's Python (Pyodide) next to Flutter's page.
// Written by `tarabish build-web`; takes the place of Flet's python-worker.js.
//
// boot.js starts it as soon as the page runs (while Flutter's own files still
// load and compile), so Python is ready or nearly so when Flutter connects.
// Messages from the page: {documentUrl} first; {connect: args} when Flutter's
// Dart side connects (jsConnect); then protocol frames (Uint8Array) for the app.
// To the page: "initialized" once connected, an error text if Python failed,
// then protocol frames.
"use strict";

const BASE = new URL("./", self.location.href);
const APP_PATH = "__APP_PATH__"; // where app.zip goes in Python's file system
const SNAPSHOT = "__SNAPSHOT__"; // the memory snapshot's file (or null), made at build time
const flet_js = { documentUrl: BASE.href, args: {} };
self.flet_js = flet_js;
const mark = (what) => console.debug(`Tarabish worker: ${what} at ${performance.now().toFixed(0)} ms`);

// Everything at once: the app archive downloads (or comes from the service
// worker's cache) while the runtime compiles.
let archive = fetch(new URL("__APP_ARCHIVE__", BASE)).then((response) => {
  if (!response.ok) throw new Error(`app archive: HTTP ${response.status}`);
  return response.arrayBuffer();
});
archive.catch(() => {}); // reported when awaited below
// The snapshot only if this phone has kept it: the service worker fetches it after the
// first start (30 MB in memory, about 5 MB to download), never before the first screen.
let snapshot = SNAPSHOT && self.caches
  ? caches.match(new URL(SNAPSHOT, BASE).href)
    .then((hit) => (hit ? hit.arrayBuffer() : null)).catch(() => null)
  : Promise.resolve(null);

async function startPython() {
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", BASE).href);
  const options = {
    indexURL: new URL("pyodide/", BASE).href,
    env: { PYDANTIC_DISABLE_PLUGINS: "__all__" }, // no pydantic plug-ins on the phone
  };
  const heap = await snapshot;
  snapshot = null; // let go of the 30 MB once used
  if (heap) {
    // The interpreter as it was once started and Flet imported (snapshot.mjs).
    try {
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: heap });
      mark("Python runtime ready (memory snapshot)");
      return await startApp(pyodide);
    } catch (error) {
      console.warn("Tarabish worker: starting without the memory snapshot:", error);
    }
  }
  const pyodide = await loadPyodide(options);
  mark("Python runtime ready");
  return await startApp(pyodide);
}

async function startApp(pyodide) {
  pyodide.registerJsModule("flet_js", flet_js);
  pyodide.FS.writeFile(APP_PATH, new Uint8Array(await archive));
  mark("app archive in place");
  await pyodide.runPythonAsync(`
import importlib, random, sys, zipfile
random.seed()  # a snapshot's generator state is every phone's: fresh entropy for each start
importlib.invalidate_caches()
APP = ${JSON.stringify(APP_PATH)}
NATIVE = "/home/pyodide/__pypackages__"
# Packages with compiled modules must be real files; everything else imports from the zip.
with zipfile.ZipFile(APP) as zf:
    zf.extractall("/home/pyodide", [n for n in zf.namelist() if n.startswith("__pypackages__/")])
sys.path[0:0] = [APP, NATIVE]
import runpy
runpy.run_module("main", run_name="__main__")
`);
  mark("app started");
  if (typeof flet_js.start_connection !== "function") {
    throw new Error("the app did not start Flet (ft.run)");
  }
  return pyodide;
}

const started = startPython();
started.catch(() => {}).finally(() => { archive = null; }); // errors: reported on connect

function toPage(message) {
  // A Python bytes object (JsProxy): hand its fresh copy's buffer to the page.
  const bytes = message.toJs();
  self.postMessage(bytes, [bytes.buffer]);
}

let connected = false;
self.onmessage = async (event) => {
  const data = event.data;
  if (data instanceof Uint8Array) {
    if (connected) flet_js.send(data);
    else console.error("Tarabish worker: a message before the app connected");
    return;
  }
  if (data && data.documentUrl) flet_js.documentUrl = data.documentUrl;
  if (data && "connect" in data) {
    flet_js.args = data.connect;
    mark("Flutter asks to connect");
    try {
      await started;
      await flet_js.start_connection(toPage);
      mark("connected");
      connected = true;
      self.postMessage("initialized");
    } catch (error) {
      self.postMessage(String(error && error.stack || error));
    }
  }
};
