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
const NATIVES_PATH = "__NATIVES_PATH__"; // their names for Python's dynamic loader
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
// first start (about 7.5 MB to download), never before the first screen.
let snapshot = SNAPSHOT && self.caches
  ? caches.match(new URL(SNAPSHOT, BASE).href).catch(() => undefined)
  : Promise.resolve(undefined);

// The compiled modules, as Emscripten's "dynamic libraries": loaded with the runtime,
// before it starts, so each lands at the same place in memory and in the function
// table at every start, the place it had when the memory snapshot was made (which
// therefore holds them imported, with pydantic and the whole app).
const LIBRARIES = Object.fromEntries(
  NATIVES.map(([file, name]) => [NATIVES_PATH + name + ".so", new URL(file, BASE).href]));

// Each library compiles from the start, beside the runtime's own module (streamed, so
// the browser may keep its compiled code), not after it: Emscripten's loader fetches a
// library's bytes and gives them to WebAssembly.instantiate, which for a library
// compiled here instantiates that compiled module instead (until Python has started).
let precompiled = NATIVES.map(([file]) => precompile(new URL(file, BASE).href));
for (const library of precompiled) library.catch(() => {}); // the loader compiles it then
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (source, imports) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const bytes = ArrayBuffer.isView(source)
      ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
      : new Uint8Array(source);
    for (const library of precompiled) {
      const ready = await library.catch(() => null);
      if (ready && sameBytes(ready.bytes, bytes)) {
        mark(`library ${ready.name} from its module compiled beside the runtime`);
        return { module: ready.module, instance: await instantiate(ready.module, imports) };
      }
    }
  }
  return instantiate.apply(WebAssembly, arguments);
};

async function precompile(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const bytes = response.clone().arrayBuffer();
  const module = await WebAssembly.compileStreaming(response);
  return { name: url.split("/").pop(), bytes: new Uint8Array(await bytes), module };
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function withLibraries(createModule, heap) {
  return async (settings) => {
    settings.dynamicLibraries = Object.keys(LIBRARIES);
    const locate = settings.locateFile;
    settings.locateFile = (path, dir) => LIBRARIES[path] ?? locate(path, dir);
    const module = await createModule(settings);
    // Pyodide 314 copies a snapshot into the heap as it is, and the heap starts at
    // 30 MB whatever the snapshot's size: grow it first (malloc grows it; a block
    // may first fill free room, hence a few, freed once the heap is big enough).
    const size = heap ? (await heap).byteLength : 0;
    const blocks = [];
    for (let i = 0; i < 8 && module.HEAP8.length < size; i++) {
      blocks.push(module._malloc(size - module.HEAP8.length + (1 << 20)));
    }
    for (const block of blocks) module._free(block);
    return module;
  };
}

async function startPython() {
  const [{ loadPyodide }, runtime] = await Promise.all([
    import(new URL("pyodide/pyodide.mjs", BASE).href),
    import(new URL("pyodide/pyodide.asm.mjs", BASE).href),
  ]);
  const options = {
    indexURL: new URL("pyodide/", BASE).href,
    env: { PYDANTIC_DISABLE_PLUGINS: "__all__" }, // no pydantic plug-ins on the phone
  };
  const kept = await snapshot;
  snapshot = null;
  if (kept) {
    // The interpreter as it was once started with the app imported (snapshot.mjs).
    // Its bytes are read while the runtime's own files load (a promise is enough).
    try {
      const heap = kept.arrayBuffer();
      const pyodide = await loadPyodide({
        ...options, _loadSnapshot: heap, createPyodideModule: withLibraries(runtime.default, heap),
      });
      mark("Python runtime ready (memory snapshot)");
      return await startApp(pyodide);
    } catch (error) {
      console.warn("Tarabish worker: starting without the memory snapshot:", error);
    }
  }
  const pyodide = await loadPyodide({
    ...options, createPyodideModule: withLibraries(runtime.default, null),
  });
  mark("Python runtime ready");
  return await startApp(pyodide);
}

async function startApp(pyodide) {
  pyodide.registerJsModule("flet_js", flet_js);
  pyodide.FS.writeFile(APP_PATH, new Uint8Array(await archive));
  mark("app archive in place");
  const modules = Object.fromEntries(NATIVES.map(([_file, name]) => [name, NATIVES_PATH + name + ".so"]));
  await pyodide.runPythonAsync(`
import importlib, importlib.abc, importlib.machinery, importlib.util, random, sys
random.seed()  # a snapshot's generator state is every phone's: fresh entropy for each start
importlib.invalidate_caches()

class CompiledModules(importlib.abc.MetaPathFinder):
    """The wheels' compiled modules: loaded already (the dynamic libraries above), under
    these names; the rest of their packages imports from the zip."""

    paths = ${JSON.stringify(modules)}

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
started.catch(() => {}).finally(() => { // errors: reported on connect
  archive = null;
  precompiled = [];
  WebAssembly.instantiate = instantiate;
});

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
