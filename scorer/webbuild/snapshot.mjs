// A Pyodide memory snapshot for the phone: the Python heap once the interpreter has
// started and imported Flet and the Flet controls the app names, so a phone that has
// it starts there instead of from scratch. Run by `tarabish build-web` with the
// site's own runtime, standard library and app.zip (the snapshot is tied to them).
// Usage: node snapshot.mjs SITE_PYODIDE_DIR APP_ZIP APP_PATH IMPORTS_JSON OUT
//
// Compiled modules (pydantic-core, msgpack) cannot be in a snapshot (their code
// lives outside the heap): importing them is refused here, and whatever needs them
// is imported on the phone after the snapshot is restored.
import { readFileSync, writeFileSync } from "node:fs";

const [pyodideDir, appZip, appPath, importsJson, out] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideDir + "/pyodide.mjs");
const py = await loadPyodide({
  indexURL: pyodideDir + "/",
  _makeSnapshot: true,
  env: { PYDANTIC_DISABLE_PLUGINS: "__all__" }, // as worker.js: the same environment
});
py.FS.writeFile(appPath, readFileSync(appZip));
py.globals.set("app_path", appPath);
py.globals.set("wanted", readFileSync(importsJson, "utf-8"));
const imported = py.runPython(`
def snapshot_imports(app_path, wanted):
    import importlib, importlib.abc, json, sys

    class NoCompiledModules(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] in ("pydantic_core", "msgpack", "flet_js"):
                raise ImportError(f"{name} is imported on the phone, after the snapshot")
            return None

    blocker = NoCompiledModules()
    sys.meta_path.insert(0, blocker)
    sys.path.insert(0, app_path)
    done = 0
    for module, name in json.loads(wanted):
        try:
            found = importlib.import_module(module)
            if name:
                getattr(found, name)
            done += 1
        except Exception:  # needs a compiled module: left for the phone
            pass
    sys.meta_path.remove(blocker)
    sys.path.remove(app_path)
    importlib.invalidate_caches()
    return done

snapshot_imports(app_path, wanted)
`);
py.runPython("del snapshot_imports, app_path, wanted");
const libs = Object.keys(py._module.LDSO.loadedLibsByName).filter((name) => name !== "__main__");
if (libs.length) throw new Error(`a compiled module was loaded: ${libs}`);
writeFileSync(out, py.makeMemorySnapshot());
console.log(`snapshot: ${imported} modules imported`);
