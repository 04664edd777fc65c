"""A fork server for the table servers tests start: one per test worker, forking a
ready interpreter instead of starting `python -m scorer.cli` afresh.

A fresh server spends about 1.5 s of CPU before it answers, 0.9 s of it importing
(FastAPI, pydantic's models, Flet); the e2e tests start one per test, and on a 2-core
CI machine those starts were a fifth of the suite's CPU (issue 39;
`benchmarks/bench_test_server_start.py` measures both ways). The zygote
(`python -m tests.server_zygote`) imports everything a server imports, once, then for
each request forks a child that runs `scorer.cli.main(argv)` as `python -m
scorer.cli ARGV` would: its own session, stdin from /dev/null, stdout and stderr
appended to a log file (unbuffered with PYTHONUNBUFFERED, as the tests set it), the
environment and working folder given, exactly; it exits through the interpreter's
normal shutdown with main's code.

`start_server_process(argv, env, cwd, log_path)` is what the fixtures call: a
`ForkedServer` (what the tests use of `subprocess.Popen`), or a real `Popen` when
TARABISH_TEST_NO_FORK=1, off Linux, or when `env` changes how an interpreter starts
(a PYTHON* variable other than PYTHONUNBUFFERED that the zygote did not start with).
A test that proves something of a fresh interpreter (its start's CPU, its first
cache) starts its own subprocess.

What a module draws at random when imported is the zygote's in every child unless it
draws again after a fork (`os.register_at_fork`, as `random` does): Flet's control-id
start (scorer/app/flet_tuning.py) and the table cards' ticket secret do; the hash
seed of str is the same in every child. A child's signals are a fresh python's
(nothing blocked, SIGINT raising KeyboardInterrupt) whatever the thread that started the
zygote had blocked or ignored. `test_server_zygote.py` checks both draws.

Protocol: one JSON object a line on the zygote's stdin, one answer a line on its
stdout. `{"op": "spawn", "argv", "env", "cwd", "log", "module"}` (and "err": stderr to a file
of its own) -> `{"id", "pid"}` or `{"error"}`; `{"op": "wait", "id"}` (asked once the child has ended: its pidfd is
readable) -> `{"returncode"}`. The zygote reaps ended children at every request
and keeps their codes. On EOF of its stdin (its worker ended or died) it kills the
children still running and exits; it dies with its worker (PR_SET_PDEATHSIG), and
each child dies with the zygote.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import io
import json
import os
import pkgutil
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

REPO_ROOT = Path(__file__).resolve().parents[1]
NO_FORK_ENV = "TARABISH_TEST_NO_FORK"
READY = "zygote ready"
START_TIMEOUT_S = 120.0
"""How long the zygote may take to import everything (2 s on an idle machine)."""
PR_SET_PDEATHSIG = 1

PRELOAD = (
    "scorer.cli",
    "scorer.server",
    "scorer.app.main",
    "scorer.app.router",
    "flet_web.fastapi",
    "uvicorn.loops.auto",
    "uvicorn.loops.asyncio",
    "uvicorn.lifespan.on",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.http.h11_impl",
    "uvicorn.protocols.websockets.auto",
    "uvicorn.protocols.websockets.websockets_sansio_impl",
    "concurrent.futures.thread",
    "xml.etree.ElementTree",
    # Imported at the first request or page (anyio's loop, FastAPI's telemetry, ...).
    "anyio._backends._asyncio",
    "anyio.streams.memory",
    "anyio.streams.stapled",
    "anyio.streams.tls",
    "encodings.idna",
    "fastapi.telemetry._runtime",
    "importlib.readers",
    "importlib.resources.readers",
    "pydantic.v1",
    "resource",
    "scorer.groups.folder",
    "scorer.groups.service",
    # A community's process (`--database`): psycopg and its pool.
    "scorer.store.database",
    "scorer.store.database.feed",
    "scorer.web.open_pages",
)
"""What a started table server has imported (`python -X importtime`, and sys.modules
of a server that has drawn its screens), none of which starts a thread, opens a file
or a socket, or makes an event loop at import: `check_quiet` proves it at start."""


# --------------------------------------------------------------------------
# The zygote's side
# --------------------------------------------------------------------------


def _pdeathsig(sig: int) -> None:
    """Have the kernel send `sig` to this process when its parent (thread) ends."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")


def preload() -> None:
    """Import what a server imports, and what its first start makes lazily."""
    for name in PRELOAD:
        importlib.import_module(name)
    import flet.controls

    for found in pkgutil.walk_packages(flet.controls.__path__, "flet.controls."):
        importlib.import_module(found.name)  # `ft.X` imports its control on first use
    from scorer.app.router import import_views
    from scorer.cli import build_parser

    build_parser()  # imports every command's module
    import_views()


def check_quiet(protocol_fds: Sequence[int]) -> None:
    """Forking is only as good as a quiet parent: one thread, no open file but the
    standard ones and the protocol's. Raises if importing started or opened anything."""
    threads = os.listdir("/proc/self/task")
    if len(threads) != 1 or threading.active_count() != 1:
        raise RuntimeError(f"the zygote has threads after its imports: {threading.enumerate()}"
                           f" ({len(threads)} native)")
    allowed = {0, 1, 2, *protocol_fds}
    listing = os.scandir("/proc/self/fd")
    extra = {int(e.name): os.readlink(e.path) for e in listing
             if int(e.name) not in allowed}
    listing.close()
    extra = {fd: target for fd, target in extra.items() if target != "/proc/self/fd"
             and not target.startswith(f"/proc/{os.getpid()}/fd")}
    if extra:
        raise RuntimeError(f"the zygote's imports left files open: {extra}")


class Child:
    """The request a forked child is to run, once out of the zygote's loop."""

    def __init__(self, module: str, argv: list[str], env: dict[str, str], cwd: str,
                 log: str, err: str | None = None) -> None:
        self.module, self.argv, self.env, self.cwd, self.log = module, argv, env, cwd, log
        self.err = err
        self.log_fd = self.err_fd = -1

    def close_logs(self) -> None:
        for fd in {self.log_fd, self.err_fd} - {-1}:
            os.close(fd)


class Zygote:
    def __init__(self, requests: BinaryIO, answers: BinaryIO) -> None:
        self.requests, self.answers = requests, answers
        self.children: dict[int, int] = {}  # id -> pid, running or not reaped yet
        self.codes: dict[int, int] = {}  # id -> exit code (negative: the signal)
        self.next_id = 1

    def answer(self, message: dict[str, Any]) -> None:
        self.answers.write(json.dumps(message).encode() + b"\n")
        self.answers.flush()

    def reap(self) -> None:
        for child_id, pid in list(self.children.items()):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                self.codes[child_id] = os.waitstatus_to_exitcode(status)
                del self.children[child_id]

    def serve(self) -> Child | None:
        """Answer requests until EOF (None: the zygote exits) or until this process is a
        forked child (its order, run after the loop is left)."""
        while line := self.requests.readline():
            request = json.loads(line)
            self.reap()
            if request["op"] == "spawn":
                child = self.spawn(request)
                if child is not None:
                    return child
            elif request["op"] == "wait":
                self.answer({"returncode": self.wait(int(request["id"]))})
            else:
                self.answer({"error": f"unknown op {request['op']!r}"})
        self.kill_all()
        return None

    def spawn(self, request: dict[str, Any]) -> Child | None:
        order = Child(request.get("module", "scorer.cli"), list(request["argv"]),
                      dict(request["env"]), request["cwd"], request["log"], request.get("err"))
        if not os.path.isdir(order.cwd):
            self.answer({"error": f"no such folder: {order.cwd}"})
            return None
        try:  # made here, as the fixtures made it before Popen: it is there on return
            order.log_fd = os.open(order.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            order.err_fd = order.log_fd if order.err is None else os.open(
                order.err, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            order.close_logs()
            self.answer({"error": f"the log: {exc}"})
            return None
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        try:
            pid = os.fork()
        except OSError as exc:
            order.close_logs()
            self.answer({"error": f"fork: {exc}"})
            return None
        if pid == 0:
            return order
        order.close_logs()
        child_id, self.next_id = self.next_id, self.next_id + 1
        self.children[child_id] = pid
        self.answer({"id": child_id, "pid": pid})
        return None

    def wait(self, child_id: int) -> int | None:
        """The child's exit code: it has ended (the client saw its pidfd readable), so
        waiting is short; None for an id never spawned."""
        if child_id in self.children:
            _pid, status = os.waitpid(self.children.pop(child_id), 0)
            self.codes[child_id] = os.waitstatus_to_exitcode(status)
        return self.codes.get(child_id)

    def kill_all(self) -> None:
        for pid in self.children.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in self.children.values():
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        self.children.clear()


def become(order: Child, zygote_pid: int, zygote: Zygote) -> None:
    """In the forked child: make this process what `python -m MODULE ARGV` would be,
    started as the test fixtures start servers (subprocess.Popen, start_new_session,
    stdin /dev/null, stdout and stderr appended to the log)."""
    zygote.requests.close()
    zygote.answers.close()
    os.setsid()
    _pdeathsig(signal.SIGKILL)  # no server outlives its zygote (nor so its worker)
    if os.getppid() != zygote_pid:  # the zygote died before prctl took hold
        os._exit(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(order.log_fd, 1)
    os.dup2(order.err_fd, 2)
    os.close(devnull)
    order.close_logs()
    # A signal state as a fresh `python` has, whatever the worker's thread that started
    # the zygote had: nothing blocked, and Ctrl-C (SIGINT, which the fixtures' stop
    # sends) raising KeyboardInterrupt.
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL, None):
        signal.signal(signal.SIGINT, signal.default_int_handler)
    os.environ.clear()
    os.environ.update(order.env)
    os.chdir(order.cwd)
    unbuffered = bool(order.env.get("PYTHONUNBUFFERED"))
    like = sys.__stdin__, sys.__stdout__, sys.__stderr__  # as the interpreter made them
    sys.stdin = sys.__stdin__ = _stream(0, "r", like[0], unbuffered)
    sys.stdout = sys.__stdout__ = _stream(1, "w", like[1], unbuffered)
    sys.stderr = sys.__stderr__ = _stream(2, "w", like[2], unbuffered)
    module = importlib.import_module(order.module)
    sys.argv = [str(module.__file__), *order.argv]


def _stream(fd: int, mode: str, like: Any, unbuffered: bool) -> io.TextIOWrapper:
    """A standard stream on `fd` as the interpreter makes one at start (-u or not; a
    file is not a terminal, so not line-buffered, but stderr always is), with the
    encoding and errors of `like`, the zygote's."""
    raw = io.FileIO(fd, mode, closefd=False)
    buffer: Any = raw if unbuffered and mode == "w" else (
        io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw))
    return io.TextIOWrapper(buffer, encoding=like.encoding, errors=like.errors,
                            line_buffering=fd == 2 and not unbuffered,
                            write_through=unbuffered)


def main() -> int:
    """The zygote: argv[1] is its worker's pid (the zygote dies with it)."""
    worker = int(sys.argv[1])
    _pdeathsig(signal.SIGKILL)
    if os.getppid() != worker:
        return 1
    # The protocol on fds of its own; stdin from /dev/null, stray prints to stderr.
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    preload()
    import gc

    gc.collect()
    gc.freeze()  # the children share the imports' pages: no collector pass touches them
    check_quiet((requests.fileno(), answers.fileno()))
    zygote = Zygote(requests, answers)  # type: ignore[arg-type]
    zygote.answer({"ready": READY, "pid": os.getpid()})
    order = zygote.serve()
    if order is None:
        return 0
    become(order, os.getppid(), zygote)
    module = importlib.import_module(order.module)
    del zygote, order
    return int(module.main(sys.argv[1:]))


# --------------------------------------------------------------------------
# The test worker's side
# --------------------------------------------------------------------------


_START_ENV = dict(os.environ)
"""The worker's environment as it started (before any test's monkeypatch): the
zygote's, so what a module reads at import is what a fresh server would read."""


class ZygoteGone(RuntimeError):
    """The zygote did not answer (it died, or never started)."""


class ForkedServer:
    """What the tests use of `subprocess.Popen`, for a child of the zygote. Waits are on
    the child's pidfd (readable once it has ended), signals go straight to it through
    the pidfd (never to a pid reused after it was reaped)."""

    stdin = stdout = stderr = None

    def __init__(self, zygote: ZygoteClient, child_id: int, pid: int, args: list[str]) -> None:
        self._zygote, self._id = zygote, child_id
        self.pid, self.args = pid, args
        self.returncode: int | None = None
        self._lock = threading.Lock()
        self._pidfd = os.pidfd_open(pid)  # open for this object's life: no reuse of it

    def __repr__(self) -> str:
        return f"<ForkedServer pid={self.pid} returncode={self.returncode}>"

    def poll(self) -> int | None:
        return self._ended(0)

    def wait(self, timeout: float | None = None) -> int:
        code = self._ended(timeout)
        if code is None:
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        return code

    def _ended(self, timeout: float | None) -> int | None:
        if self.returncode is not None:
            return self.returncode
        waiting = select.poll()
        waiting.register(self._pidfd, select.POLLIN)
        if not waiting.poll(None if timeout is None else max(0, round(timeout * 1000))):
            return None
        with self._lock:
            if self.returncode is None:
                with self._zygote.lock:
                    code = self._zygote.ask_locked({"op": "wait", "id": self._id})
                if code.get("returncode") is None:
                    raise ZygoteGone(f"the zygote has no exit code for {self!r}: {code}")
                self.returncode = int(code["returncode"])
        return self.returncode

    def send_signal(self, sig: int) -> None:
        """As Popen's: nothing once it has ended and been waited for."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def __del__(self) -> None:
        with contextlib.suppress(AttributeError, OSError):
            os.close(self._pidfd)


class ZygoteClient:
    """A worker's zygote: started on first use, from a thread that lives as long as the
    worker (PR_SET_PDEATHSIG follows the thread that forked, not the process)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.owner = os.getpid()
        self.env = {**_START_ENV, "PYTHONUNBUFFERED": "1"}
        started: list[subprocess.Popen[bytes] | BaseException] = []
        ready = threading.Event()

        def start_and_stay() -> None:
            try:
                started.append(subprocess.Popen(
                    [sys.executable, "-m", "tests.server_zygote", str(os.getpid())],
                    cwd=REPO_ROOT, env=self.env, stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, start_new_session=True))
            except BaseException as exc:
                started.append(exc)
            ready.set()
            threading.Event().wait()  # this thread must outlive the zygote

        threading.Thread(target=start_and_stay, name="server-zygote", daemon=True).start()
        ready.wait()
        if isinstance(started[0], BaseException):
            raise started[0]
        self.process = started[0]
        hello = self._read(START_TIMEOUT_S)
        if hello.get("ready") != READY:
            raise ZygoteGone(f"the zygote did not start: {hello}")

    def _read(self, timeout: float | None) -> dict[str, Any]:
        out = self.process.stdout
        assert out is not None
        waiting = select.poll()
        waiting.register(out.fileno(), select.POLLIN)
        if not waiting.poll(None if timeout is None else int(timeout * 1000)):
            raise ZygoteGone(f"the zygote did not answer in {timeout} s")
        line = out.readline()
        if not line:
            raise ZygoteGone(f"the zygote ended (exit code {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask_locked(self, request: dict[str, Any], timeout: float = 60.0) -> dict[str, Any]:
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(request).encode() + b"\n")
            stdin.flush()
        except BrokenPipeError:
            raise ZygoteGone("the zygote ended") from None
        return self._read(timeout)

    def spawn(self, argv: Sequence[str], env: Mapping[str, str], cwd: str | os.PathLike[str],
              log_path: str | os.PathLike[str], module: str = "scorer.cli",
              err_path: str | os.PathLike[str] | None = None) -> ForkedServer:
        """A child running `module.main(argv)`; its stdout appended to `log_path`, its
        stderr too unless `err_path` names another file."""
        request = {"op": "spawn", "module": module, "argv": list(argv), "env": dict(env),
                   "cwd": os.fspath(cwd), "log": os.fspath(log_path)}
        if err_path is not None:
            request["err"] = os.fspath(err_path)
        with self.lock:
            answer = self.ask_locked(request)
            if "error" in answer:
                raise OSError(answer["error"])
            # Under the lock: no other request (the zygote reaps only then) until the
            # pidfd holds the child, so it is this child even if it ended already.
            return ForkedServer(self, int(answer["id"]), int(answer["pid"]),
                                [sys.executable, "-m", module, *argv])

    def close(self) -> int:
        """Close the zygote's stdin: it kills its children still running and exits."""
        with self.lock:
            if self.process.stdin is not None:
                self.process.stdin.close()
            return self.process.wait(30)


_client: ZygoteClient | None = None
_client_lock = threading.Lock()


def zygote() -> ZygoteClient:
    """This worker's zygote (started on first use)."""
    global _client
    with _client_lock:
        if (_client is None or _client.owner != os.getpid()
                or _client.process.poll() is not None):  # none yet, a parent's, or it died
            _client = ZygoteClient()
        return _client


def forks(env: Mapping[str, str]) -> bool:
    """Whether a server with `env` can come from the zygote (see the module's doc)."""
    if os.environ.get(NO_FORK_ENV) == "1" or sys.platform != "linux":
        return False
    if not hasattr(os, "pidfd_open"):
        return False
    started = {**_START_ENV, "PYTHONUNBUFFERED": "1"}
    names = {n for n in (*env, *started) if n.startswith("PYTHON") and n != "PYTHONUNBUFFERED"}
    return all(env.get(n) == started.get(n) for n in names)


ServerProcess = ForkedServer | subprocess.Popen  # what a fixture's `process` holds


def run_cli(argv: Sequence[str], *, env: Mapping[str, str] | None = None,
            cwd: str | os.PathLike[str] | None = None, timeout: float = 120.0,
            check: bool = False) -> subprocess.CompletedProcess[str]:
    """`subprocess.run([python, "-m", "scorer.cli", *argv], capture_output=True,
    text=True, ...)` for a test that only prepares its data with the command line (seeds a
    game, makes a club night): forked from this worker's zygote when `forks(env)`, so it
    costs no interpreter start. `env` defaults to this process's environment and `cwd`
    to its folder, as for subprocess.run. A test whose subject is the command line as a
    process (its start, its pipes, its signals) runs it with subprocess itself."""
    env = dict(os.environ if env is None else env)
    cwd = os.getcwd() if cwd is None else cwd
    args = [sys.executable, "-m", "scorer.cli", *argv]
    if not forks(env):
        return subprocess.run(args, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=timeout, check=check)
    import locale
    import tempfile

    encoding = locale.getpreferredencoding(False)  # what text=True decodes with
    with tempfile.TemporaryDirectory(prefix="tarabish-cli-") as folder:
        out, err = Path(folder) / "out", Path(folder) / "err"
        child = zygote().spawn(argv, env, cwd, out, err_path=err)
        try:
            code = child.wait(timeout)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            raise subprocess.TimeoutExpired(args, timeout, out.read_bytes(),
                                            err.read_bytes()) from None
        done = subprocess.CompletedProcess(args, code, out.read_text(encoding),
                                           err.read_text(encoding))
    if check:
        done.check_returncode()
    return done


def start_server_process(argv: Sequence[str], env: Mapping[str, str],
                         cwd: str | os.PathLike[str], log_path: str | os.PathLike[str],
                         ) -> ServerProcess:
    """`python -m scorer.cli ARGV` with exactly `env`, in `cwd`, stdout and stderr
    appended to `log_path`, in a session of its own: forked from this worker's zygote,
    or a real subprocess (TARABISH_TEST_NO_FORK=1 and the other cases above)."""
    if forks(env):
        return zygote().spawn(argv, env, cwd, log_path)
    with open(log_path, "ab") as log:
        return subprocess.Popen([sys.executable, "-m", "scorer.cli", *argv], cwd=cwd,
                                env=dict(env), stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)


if __name__ == "__main__":
    sys.exit(main())
