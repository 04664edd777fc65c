// Compile the app's Python to bytecode with the phone's own CPython (Pyodide in Node),
// so the phone imports .pyc files instead of compiling every module at each start.
// Usage: node precompile.mjs PYODIDE_DIR FOLDER   (run by `tarabish build-web`)
// Unchecked-hash .pyc files: valid whatever the files' times after unpacking.
const [pyodideDir, folder] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideDir + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: pyodideDir + "/" });
py.FS.mkdirTree("/work");
py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, "/work");
const ok = py.runPython(`
import compileall, py_compile
bool(compileall.compile_dir("/work", quiet=1, workers=1,
     invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH))
`);
process.exit(ok ? 0 : 1);
