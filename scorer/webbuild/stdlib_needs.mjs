// List the standard library modules the app can import (stdlib_needs.py), with the
// phone's own CPython (Pyodide in Node). Usage (run by `tarabish build-web`):
//   node stdlib_needs.mjs PYODIDE_DIR FOLDER OUT_JSON
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const [pyodideDir, folder, outJson] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideDir + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, "/work");
const script = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "stdlib_needs.py"),
                            "utf-8");
py.globals.set("script", script);
const names = py.runPython(`
import json
scope = {"__name__": "stdlib_needs"}
exec(script, scope)
json.dumps(scope["needed"]("/work"))
`);
writeFileSync(outJson, names);
