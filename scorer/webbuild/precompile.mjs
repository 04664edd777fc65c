// Compile the app's Python to bytecode with the phone's own CPython (Pyodide in Node),
// so the phone imports .pyc files instead of compiling every module at each start.
// Usage: node precompile.mjs PYODIDE_DIR FOLDER DDIR   (run by `tarabish build-web`)
// DDIR: the folder the phone sees the files in (their names in tracebacks).
// Unchecked-hash .pyc files: valid whatever the files' times after unpacking.
const [pyodideDir, folder, ddir] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideDir + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, "/work");
py.globals.set("ddir", ddir);
const ok = py.runPython(`
import compileall, py_compile
bool(compileall.compile_dir("/work", quiet=1, workers=1, ddir=ddir,
     invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH))
`);
process.exit(ok ? 0 : 1);
