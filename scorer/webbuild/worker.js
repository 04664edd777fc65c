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
const NATIVES = "__NATIVES__"; // [site file, module name] of each compiled module (pydantic-core's, msgpack's)
const NATIVES_PATH = "/home/pyodide/natives/"; // where they go in Python's file system
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
// The compiled modules compile now, beside the runtime (streamed: the browser keeps their
// compiled code for the next start), instead of when Python first imports them.
let natives = Promise.all(NATIVES.map(([file, name]) => compileNative(file, name)));
natives.catch(() => {}); // reported when awaited below
// The snapshot only if this phone has kept it: the service worker fetches it after the
// first start (30 MB in memory, about 5 MB to download), never before the first screen.
let snapshot = SNAPSHOT && self.caches
  ? caches.match(new URL(SNAPSHOT, BASE).href).catch(() => undefined)
  : Promise.resolve(undefined);

async function compileNative(file, name) {
  const response = await fetch(new URL(file, BASE));
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  const bytes = response.clone().arrayBuffer();
  let module;
  try {
    module = await WebAssembly.compileStreaming(response);
  } catch (error) { // a host that does not say application/wasm
    module = await WebAssembly.compile(await bytes);
  }
  return { name, module, bytes: new Uint8Array(await bytes) };
}

async function startPython() {
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", BASE).href);
  const options = {
    indexURL: new URL("pyodide/", BASE).href,
    env: { PYDANTIC_DISABLE_PLUGINS: "__all__" }, // no pydantic plug-ins on the phone
  };
  const kept = await snapshot;
  snapshot = null;
  if (kept) {
    // The interpreter as it was once started and Flet imported (snapshot.mjs). Its
    // 30 MB are read while the runtime's own files load (a promise is enough).
    try {
      const pyodide = await loadPyodide({ ...options, _loadSnapshot: kept.arrayBuffer() });
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

async function placeNatives(pyodide) {
  // Each compiled module as a file, and instantiated from the module compiled above,
  // where the dynamic loader looks first: the import finds it loaded.
  const loader = pyodide._module;
  const paths = {};
  pyodide.FS.mkdirTree(NATIVES_PATH);
  for (const { name, module, bytes } of await natives) {
    const path = NATIVES_PATH + name + ".so";
    pyodide.FS.writeFile(path, bytes);
    if (loader && loader.preloadedWasm && loader.loadWebAssemblyModule) {
      loader.preloadedWasm[path] = await loader.loadWebAssemblyModule(
        module, { loadAsync: true, nodelete: true }, path, {});
    } // else (another Pyodide): the import compiles it from the file
    paths[name] = path;
  }
  return paths;
}

async function startApp(pyodide) {
  pyodide.registerJsModule("flet_js", flet_js);
  pyodide.FS.writeFile(APP_PATH, new Uint8Array(await archive));
  const paths = await placeNatives(pyodide);
  mark("app archive and compiled modules in place");
  await pyodide.runPythonAsync(`
import importlib, importlib.abc, importlib.machinery, importlib.util, random, sys
random.seed()  # a snapshot's generator state is every phone's: fresh entropy for each start
importlib.invalidate_caches()

class CompiledModules(importlib.abc.MetaPathFinder):
    """The wheels' compiled modules, from their own files; the rest of their packages
    imports from the zip with everything else."""

    paths = ${JSON.stringify(paths)}

    def find_spec(self, name, path=None, target=None):
        where = self.paths.get(name)
        if where is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(name, where)
        return importlib.util.spec_from_file_location(name, where, loader=loader)

sys.meta_path.insert(0, CompiledModules())
sys.path.insert(0, ${JSON.stringify(APP_PATH)})
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
started.catch(() => {}).finally(() => { archive = null; natives = null; }); // errors: reported on connect

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
