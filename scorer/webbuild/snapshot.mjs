// A Pyodide memory snapshot for the phone: the Python heap once the interpreter has
// started and imported the app (Flet, pydantic, the rules, every screen), so a phone
// that has it starts there instead of from scratch. Run by `tarabish build-web` with
// the site's own runtime, standard library, app.zip and compiled modules (the
// snapshot is tied to them).
// Usage: node snapshot.mjs SITE_PYODIDE_DIR APP_ZIP APP_PATH IMPORTS_JSON LIBRARIES_JSON OUT
//
// A compiled module's code and function-table slots are not in the heap. So the
// compiled modules (LIBRARIES_JSON: [[name for the loader, file], ...], in worker.js's
// order) are loaded as Emscripten's "dynamic libraries", before the runtime starts:
// each then lands at the same memory and table place here and at every start on the
// phone (worker.js loads them the same way), and what the heap holds of them stays
// true. Any other compiled module loaded here would not be on the phone: refused.
import { readFileSync, writeFileSync } from "node:fs";

const [pyodideDir, appZip, appPath, importsJson, librariesJson, out] = process.argv.slice(2);
const libraries = Object.fromEntries(JSON.parse(readFileSync(librariesJson, "utf-8")));
const { loadPyodide } = await import(pyodideDir + "/pyodide.mjs");
const runtime = await import(pyodideDir + "/pyodide.asm.mjs");
const py = await loadPyodide({
  indexURL: pyodideDir + "/",
  _makeSnapshot: true,
  env: { PYDANTIC_DISABLE_PLUGINS: "__all__" }, // as worker.js: the same environment
  createPyodideModule: (settings) => {
    settings.dynamicLibraries = Object.keys(libraries);
    const locate = settings.locateFile;
    settings.locateFile = (path, dir) => libraries[path] ?? locate(path, dir);
    return runtime.default(settings);
  },
});
py.FS.writeFile(appPath, readFileSync(appZip));
py.globals.set("app_path", appPath);
py.globals.set("wanted", readFileSync(importsJson, "utf-8"));
py.globals.set("compiled", JSON.stringify(Object.keys(libraries)));
const imported = py.runPython(`
def snapshot_imports(app_path, wanted, compiled):
    import importlib, importlib.abc, importlib.machinery, importlib.util, json, sys

    paths = {p.rsplit("/", 1)[1].removesuffix(".so"): p for p in json.loads(compiled)}

    class CompiledModules(importlib.abc.MetaPathFinder):
        # As worker.js's: the libraries loaded above, by module name.
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "flet_js":
                raise ImportError(f"{name} is the page's, on the phone only")
            where = paths.get(name)
            if where is None:
                return None
            loader = importlib.machinery.ExtensionFileLoader(name, where)
            return importlib.util.spec_from_file_location(name, where, loader=loader)

    finder = CompiledModules()
    sys.meta_path.insert(0, finder)
    sys.path.insert(0, app_path)
    done = 0
    for module, name in json.loads(wanted):
        try:
            found = importlib.import_module(module)
            for attribute in name.split(".") if name else ():
                found = getattr(found, attribute)  # "Icons.ADD": flet.Icons, then ADD
            done += 1
        except Exception:  # needs the page (flet_js): left for the phone
            pass
    # Flet checks a control before sending it against rules it compiles once per class
    # (type hints and all: ~25 ms of the phone's first screen): compiled here for every
    # control class imported.
    try:
        from flet.controls.base_control import BaseControl
        from flet.utils.validation import _compile_class_spec
    except ImportError:  # another Flet: left for the phone
        BaseControl = None
    classes = [BaseControl] if BaseControl is not None else []
    while classes:
        control = classes.pop()
        classes.extend(control.__subclasses__())
        try:
            _compile_class_spec(control)
        except Exception:  # left for the phone, which meets the same error if it uses it
            pass
    sys.meta_path.remove(finder)
    sys.path.remove(app_path)
    # The zips' directories stay read (zipimport keeps them by path): the phone writes
    # the same app.zip and standard library at the same places (the snapshot's name is
    # made from them), and reading both again cost it ~60 ms at every start.
    return done

snapshot_imports(app_path, wanted, compiled)
`);
py.runPython("del snapshot_imports, app_path, wanted, compiled");
const foreign = Object.keys(py._module.LDSO.loadedLibsByName)
  .filter((name) => name !== "__main__" && !(name in libraries));
if (foreign.length) throw new Error(`a compiled module the phone does not load: ${foreign}`);
writeFileSync(out, py.makeMemorySnapshot());
console.log(`snapshot: ${imported} modules imported`);
