// Tarabish's Python worker: the app's Python (Pyodide) next to Flutter's page.
// Written by `tarabish build-web`; takes the place of Flet's python-worker.js.
//
// boot.js starts it as soon as the page runs (while Flutter's own files still
// load and compile), so Python is ready or nearly so when Flutter connects.
// Messages from the page: {documentUrl} first; {connect: args} when Flutter's
// Dart side connects (jsConnect); then protocol frames (Uint8Array) for the app;
// {network: "online"|"offline"} when the page hears those events.
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
// The page's address (its first message): the app reads from it which server game it was
// opened for (scorer.browser.server_game), so it runs only once the address is known.
let pageKnown;
const pageAddress = new Promise((resolve) => { pageKnown = resolve; });
// Start-up marks, for timelines (benchmarks/timeline_phone_alone.py): ms since this worker
// started, and since the epoch (@) to line them up with the page's.
const mark = (what) => console.debug(`Tarabish worker: ${what} at ${performance.now().toFixed(0)} ms ` +
  `@${(performance.timeOrigin + performance.now()).toFixed(1)}`);
mark("worker runs");

// Pyodide's scripts are asked for first: everything below waits for them.
const scripts = Promise.all([
  import(new URL("pyodide/pyodide.mjs", BASE).href),
  import(new URL("pyodide/pyodide.asm.mjs", BASE).href),
]);
scripts.catch(() => {}); // reported by startPython

// The runtime's own module (9.6 MB) compiles from the worker's first moment, while
// Pyodide's scripts are still on their way: Pyodide would start it only once they have
// run (loadPyodide). Its fetch of the file is answered with a stand-in, and its
// WebAssembly.instantiateStreaming of that stand-in instantiates this module instead.
const RUNTIME_WASM = new URL("pyodide/pyodide.asm.wasm", BASE).href;
let runtimeModule = WebAssembly.compileStreaming(fetch(RUNTIME_WASM));
runtimeModule.catch(() => {}); // Pyodide then fetches and compiles it itself
let runtimeStandIn = null; // the promise Pyodide's fetch of RUNTIME_WASM got
// The standard library (8.5 MB, written to Python's file system before the runtime is
// created) is asked for now too, not once Pyodide's scripts have run.
const STDLIB = new URL("pyodide/python_stdlib.zip", BASE).href;
let stdlib = fetch(STDLIB);
stdlib.catch(() => {}); // Pyodide meets the error when it awaits the response
const fetchFirst = self.fetch;
self.fetch = function (resource, options) {
  if (runtimeModule && !runtimeStandIn && String(resource) === RUNTIME_WASM) {
    runtimeStandIn = Promise.resolve(new Response(new Uint8Array(0),
      { headers: { "Content-Type": "application/wasm" } }));
    return runtimeStandIn;
  }
  if (stdlib && String(resource) === STDLIB) {
    const early = stdlib;
    stdlib = null;
    return early;
  }
  return fetchFirst.apply(this, arguments);
};
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async function (source, imports) {
  if (source && source === runtimeStandIn) {
    const module = await runtimeModule.catch(() => null);
    mark(module ? "runtime module compiled (from the worker's start)" : "runtime module: compiled late");
    if (module) {
      const instance = await instantiate(module, imports);
      mark("runtime module instantiated");
      return { module, instance };
    }
    return instantiateStreaming.call(WebAssembly, fetchFirst(RUNTIME_WASM), imports);
  }
  return instantiateStreaming.apply(WebAssembly, arguments);
};

// Everything at once: the app archive downloads (or comes from the service
// worker's cache) while the runtime compiles.
let archive = fetch(new URL("__APP_ARCHIVE__", BASE)).then((response) => {
  if (!response.ok) throw new Error(`app archive: HTTP ${response.status}`);
  return response.arrayBuffer();
});
archive.catch(() => {}); // reported when awaited below
// The snapshot only if this phone has kept it: the service worker fetches it after the
// first start (about 7.5 MB to download), never before the first screen. Read from now on.
let snapshot = SNAPSHOT && self.caches
  ? caches.match(new URL(SNAPSHOT, BASE).href)
    .then((kept) => kept && readSnapshot(kept)).catch(() => undefined)
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
// The loader then fetches the bytes again: from a blob of the ones read here, not
// through the service worker (two round trips of 20-30 ms each on the way to the
// first screen). Until that blob is made, the site file.
const READ = {};
NATIVES.forEach(([_file, name], i) => precompiled[i].then((ready) => {
  READ[NATIVES_PATH + name + ".so"] = URL.createObjectURL(new Blob([ready.bytes]));
}, () => {}));
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
        const instance = await instantiate(ready.module, imports);
        mark(`library ${ready.name} instantiated`);
        return { module: ready.module, instance };
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
  // Four bytes at a time where both are aligned (a 4.7 MB library: a few ms).
  const words = a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0 ? a.length >> 2 : 0;
  if (words) {
    const a4 = new Uint32Array(a.buffer, a.byteOffset, words);
    const b4 = new Uint32Array(b.buffer, b.byteOffset, words);
    for (let i = 0; i < words; i++) if (a4[i] !== b4[i]) return false;
  }
  for (let i = words * 4; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function withLibraries(createModule, heap) {
  return async (settings) => {
    settings.dynamicLibraries = Object.keys(LIBRARIES);
    const locate = settings.locateFile;
    settings.locateFile = (path, dir) => READ[path] ?? LIBRARIES[path] ?? locate(path, dir);
    mark("runtime module: creating");
    const module = await createModule(settings);
    mark("runtime module: created");
    if (heap) await restoreHeap(module, await heap);
    return module;
  };
}

// -- the memory snapshot (site.py's snapshot_file.py: Pyodide's header, then the heap's
// nonzero runs), read as it streams from the cache: Pyodide gets the header at once and
// creates the runtime while the rest is read; the runs are written into the heap here
// once both are done, and Pyodide's own restore then finds an empty heap to copy.
function readSnapshot(response) {
  const reader = response.body.getReader();
  let pending = new Uint8Array(0); // read but not yet taken
  async function take(size) {
    const bytes = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      if (!pending.length) {
        const { done, value } = await reader.read();
        if (done) throw new Error("memory snapshot: truncated");
        pending = value;
      }
      const used = Math.min(pending.length, size - at);
      bytes.set(pending.subarray(0, used), at);
      pending = pending.subarray(used);
      at += used;
    }
    return bytes;
  }
  const opened = (async () => {
    const head = new DataView((await take(16)).buffer);
    if (head.getUint32(0, false) !== 0x54534e50) throw new Error("memory snapshot: not one"); // "TSNP"
    const [headerSize, heapSize, count] = [4, 8, 12].map((at) => head.getUint32(at, true));
    const table = new DataView((await take(count * 8 + headerSize)).buffer);
    const runs = Array.from({ length: count },
      (_, i) => [table.getUint32(i * 8, true), table.getUint32(i * 8 + 4, true)]);
    const header = new Uint8Array(table.buffer, count * 8, headerSize);
    mark("memory snapshot: header read");
    const data = take(runs.reduce((sum, [, length]) => sum + length, 0)).then(async (bytes) => {
      if (pending.length || !(await reader.read()).done) throw new Error("memory snapshot: too long");
      mark("memory snapshot: all read");
      return bytes;
    });
    data.catch(() => {}); // reported by restoreHeap
    return { header, heapSize, runs, data };
  })();
  return { header: opened.then((parts) => parts.header), heap: opened };
}

async function restoreHeap(module, { heapSize, runs, data }) {
  // The heap starts at 30 MB whatever the snapshot's (Pyodide 314 reads no INITIAL_MEMORY):
  // grow it first (malloc grows it; a block may first fill free room, hence a few, freed
  // once the heap is big enough).
  const blocks = [];
  for (let i = 0; i < 8 && module.HEAP8.length < heapSize; i++) {
    blocks.push(module._malloc(heapSize - module.HEAP8.length + (1 << 20)));
  }
  for (const block of blocks) module._free(block);
  if (module.HEAP8.length < heapSize) throw new Error("memory snapshot: the heap did not grow");
  const bytes = await data;
  const heap = module.HEAPU8; // after growing: the view of the grown memory
  let at = 0, end = 0;
  for (const [offset, length] of runs) {
    heap.fill(0, end, offset);
    heap.set(bytes.subarray(at, at + length), offset);
    at += length;
    end = offset + length;
  }
  heap.fill(0, end, heapSize);
  mark("memory snapshot in the heap");
}

async function startPython() {
  const [{ loadPyodide }, runtime] = await scripts;
  mark("pyodide's scripts imported");
  const options = {
    indexURL: new URL("pyodide/", BASE).href,
    env: { PYDANTIC_DISABLE_PLUGINS: "__all__" }, // no pydantic plug-ins on the phone
  };
  const kept = await snapshot;
  snapshot = null;
  mark(kept ? "memory snapshot opened" : "no memory snapshot");
  if (kept) {
    // The interpreter as it was once started with the app imported (snapshot.mjs).
    try {
      const { header, heap } = kept;
      heap.catch(() => {}); // reported by loadPyodide (the header's promise fails too)
      const pyodide = await loadPyodide({
        ...options, _loadSnapshot: header, createPyodideModule: withLibraries(runtime.default, heap),
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
  await pageAddress;
  pyodide.FS.writeFile(APP_PATH, new Uint8Array(await archive));
  mark("app archive in place");
  const modules = Object.fromEntries(NATIVES.map(([_file, name]) => [name, NATIVES_PATH + name + ".so"]));
  await pyodide.runPythonAsync(`
import importlib, importlib.abc, importlib.machinery, importlib.util, random, sys
random.seed()  # a snapshot's generator state is every phone's: fresh entropy for each start

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
  WebAssembly.instantiateStreaming = instantiateStreaming;
  self.fetch = fetchFirst;
  runtimeModule = null;
  runtimeStandIn = null;
  stdlib = null;
  for (const url of Object.values(READ)) URL.revokeObjectURL(url);
});

let sent = 0;
function toPage(message) {
  // A Python bytes object (JsProxy): hand its fresh copy's buffer to the page.
  const bytes = message.toJs();
  if (!sent++) mark("first message to the page");
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
  if (data && (data.network === "online" || data.network === "offline")) {
    self.dispatchEvent(new Event(data.network)); // the page's, passed on by boot.js
    return;
  }
  if (data && data.documentUrl) {
    flet_js.documentUrl = data.documentUrl;
    pageKnown();
  }
  if (data && data.tarabish === "flush") {
    // The page is about to take a new version: every change written to IndexedDB first.
    try {
      const pyodide = await started;
      await pyodide.runPythonAsync("from scorer.browser.start import flush\nawait flush()");
    } catch (error) {
      console.warn("Tarabish worker: flush before the update:", error);
    }
    self.postMessage({ tarabish: "flushed" });
  }
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
