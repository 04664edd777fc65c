"""The fork server of the test servers (tests/server_zygote.py): a forked child is what
`python -m scorer.cli` started by subprocess.Popen would be (its exit code, its
environment and folder exactly, its log written as it runs, its own session), a
handle that waits, polls and signals as Popen's does, and no zygote or child outlives
the worker that started them."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.server_zygote import (
    REPO_ROOT,
    START_TIMEOUT_S,
    ForkedServer,
    ZygoteClient,
    run_cli,
    start_server_process,
    zygote,
)

pytestmark = pytest.mark.slow  # a zygote imports what a server imports (seconds of CPU)

PROBE = "tests.zygote_probe"


def until(check: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    """Wait (bounded) until `check()` is true."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"waited {timeout} s for {what}"
        time.sleep(0.02)  # a poll of a file or /proc: no event to wait on


def gone(pid: int, timeout: float = 15.0) -> bool:
    """Whether process `pid` ends within `timeout` (waited on its pidfd: no pid reuse)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], timeout)[0])
    finally:
        os.close(fd)


def proc_state(pid: int) -> str:
    """What the kernel says of a process that does not end: its state, what it waits
    in, its signals pending, blocked, ignored and caught."""
    try:
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
        wchan = Path(f"/proc/{pid}/wchan").read_text()
    except OSError as exc:
        return f"no /proc of {pid} ({exc})"
    return ", ".join([*(line for line in status if line.startswith(("State", "Sig", "Shd"))),
                      f"wchan: {wchan}"])


def probe(argv: list[str], tmp_path: Path, env: dict[str, str] | None = None,
          client: ZygoteClient | None = None) -> tuple[ForkedServer, Path]:
    log = tmp_path / f"probe-{argv[0]}.log"
    child = (client or zygote()).spawn(argv, env or {"PYTHONUNBUFFERED": "1"}, tmp_path, log,
                                       module=PROBE)
    return child, log


def test_a_child_exits_with_its_code_and_through_the_interpreters_shutdown(
        tmp_path: Path) -> None:
    child, _log = probe(["exit", "3"], tmp_path)
    assert child.wait(30) == 3 and child.returncode == 3 and child.poll() == 3
    marker = tmp_path / "atexit"
    child, _log = probe(["atexit", str(marker), "5"], tmp_path)
    assert child.wait(30) == 5
    assert marker.read_text() == "ran at exit"


def test_the_table_servers_command_line_answers_as_a_fresh_one(tmp_path: Path) -> None:
    log = tmp_path / "cli.log"
    child = zygote().spawn(["--no-such-option"], dict(os.environ), tmp_path, log)
    assert child.wait(30) == 2
    assert "unrecognized arguments: --no-such-option" in log.read_text()
    assert log.read_text().startswith("usage: tarabish")


def test_the_environment_folder_and_arguments_are_exactly_the_ones_given(
        tmp_path: Path) -> None:
    env = {"PYTHONUNBUFFERED": "1", "ONLY_THIS": "yes", "TARABISH_CACHE": str(tmp_path)}
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    seen = []
    for n in range(2):
        report = tmp_path / f"report{n}.json"
        child = zygote().spawn(["report", str(report)], env, folder, tmp_path / "r.log",
                               module=PROBE)
        assert child.wait(30) == 0, (tmp_path / "r.log").read_text()
        seen.append(json.loads(report.read_text()))
        assert seen[-1]["env"] == env
        assert seen[-1]["cwd"] == str(folder)
        assert seen[-1]["argv"][1:] == ["report", str(report)]
        assert seen[-1]["argv"][0].endswith("zygote_probe.py")
        assert seen[-1]["stdin"] == ""  # /dev/null
        assert seen[-1]["sid"] == seen[-1]["pid"] == child.pid  # a session of its own
        assert seen[-1]["stdout_fd"] == 1
    # What a process draws at random when it imports is drawn again in each child.
    for drawn in ("random", "control_id", "ticket_secret"):
        assert seen[0][drawn] != seen[1][drawn], f"two children share their {drawn}"


def test_the_log_is_written_while_the_child_runs_and_a_signal_ends_it(
        tmp_path: Path) -> None:
    child, log = probe(["say", "hello", "table"], tmp_path)
    until(lambda: "err hello table\n" in log.read_text(), "both lines in the log")
    assert log.read_text().splitlines() == ["hello table", "err hello table"]
    assert child.poll() is None
    with pytest.raises(subprocess.TimeoutExpired):
        child.wait(0.2)
    child.terminate()
    assert child.wait(10) == -signal.SIGTERM
    child.kill()  # ended: nothing happens, as with Popen


def test_kill_and_interrupt_as_popen_reports_them(tmp_path: Path) -> None:
    child, log = probe(["say", "x"], tmp_path)
    until(lambda: "err x" in log.read_text(), "the child's line")
    child.kill()
    assert child.wait(10) == -signal.SIGKILL
    child, log = probe(["say", "y"], tmp_path)
    until(lambda: "err y" in log.read_text(), "the child's line")
    child.send_signal(signal.SIGINT)  # KeyboardInterrupt, unhandled: as a fresh python
    try:
        code = child.wait(10)
    except subprocess.TimeoutExpired:
        pytest.fail(f"SIGINT unanswered for 10 s: {proc_state(child.pid)}; its log: "
                    f"{log.read_text()!r}")
    assert code == -signal.SIGINT
    assert "KeyboardInterrupt" in log.read_text()


def test_a_child_answers_sigint_whatever_the_workers_signals_were(tmp_path: Path) -> None:
    """A zygote started while the worker's thread blocked SIGINT, and ignored it, (both
    inherited through exec) still forks children that Ctrl-C ends, as a fresh python."""
    made: list[ZygoteClient] = []

    def start_blocked() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        made.append(ZygoteClient())

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        starter = threading.Thread(target=start_blocked)
        starter.start()
        starter.join(START_TIMEOUT_S)
    finally:
        signal.signal(signal.SIGINT, before)
    client = made[0]
    try:
        status = Path(f"/proc/{client.process.pid}/status").read_text()
        assert "SigBlk:\t0000000000000002" in status  # what the test set up took hold
        child, log = probe(["say", "v"], tmp_path, client=client)
        until(lambda: "err v" in log.read_text(), "the child's line")
        child.send_signal(signal.SIGINT)
        try:
            code = child.wait(10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"SIGINT unanswered for 10 s: {proc_state(child.pid)}")
        assert code == -signal.SIGINT
    finally:
        client.close()


def test_a_child_still_running_when_the_zygotes_stdin_closes_is_killed(
        tmp_path: Path) -> None:
    client = ZygoteClient()
    child, log = probe(["say", "z"], tmp_path, client=client)
    until(lambda: "err z" in log.read_text(), "the child's line")
    zygote_pid = client.process.pid
    assert client.close() == 0
    assert gone(child.pid), "the child outlived its zygote's stdin"
    assert gone(zygote_pid)


SCRIPT = """
import os, sys, threading
sys.path.insert(0, sys.argv[1])
from tests.server_zygote import zygote
z = zygote()
child = z.spawn(["say", "w"], {"PYTHONUNBUFFERED": "1"}, sys.argv[2], sys.argv[3],
                module="tests.zygote_probe")
print(z.process.pid, child.pid, flush=True)
threading.Event().wait()
"""


def test_the_zygote_and_its_children_die_with_the_worker(tmp_path: Path) -> None:
    worker = subprocess.Popen([sys.executable, "-c", SCRIPT, str(REPO_ROOT), str(tmp_path),
                               str(tmp_path / "w.log")], stdout=subprocess.PIPE, text=True)
    try:
        assert worker.stdout is not None
        zygote_pid, child_pid = map(int, worker.stdout.readline().split())
        until(lambda: "err w" in (tmp_path / "w.log").read_text(), "the child's line")
    finally:
        worker.kill()
        worker.wait(10)
    assert gone(zygote_pid), "the zygote outlived its worker"
    assert gone(child_pid), "a child outlived the zygote"


def test_no_fork_and_a_changed_interpreter_start_a_real_subprocess(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    forked = start_server_process(["--nope"], env, REPO_ROOT, tmp_path / "a.log")
    assert isinstance(forked, ForkedServer) and forked.wait(30) == 2
    changed = start_server_process(["--nope"], {**env, "PYTHONOPTIMIZE": "1"}, REPO_ROOT,
                                   tmp_path / "b.log")
    assert isinstance(changed, subprocess.Popen) and changed.wait(60) == 2
    monkeypatch.setenv("TARABISH_TEST_NO_FORK", "1")
    fresh = start_server_process(["--nope"], env, REPO_ROOT, tmp_path / "c.log")
    assert isinstance(fresh, subprocess.Popen) and fresh.wait(60) == 2
    assert "unrecognized arguments: --nope" in (tmp_path / "c.log").read_text()


def test_run_cli_keeps_stdout_and_stderr_apart_and_gives_the_code(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"format": "tarabish-game/1", "players": ["A", "B", "C", "D"],
                                "first_dealer": 0, "rules": {}, "hands": []}))
    done = run_cli(["import", str(game), "--data-dir", str(tmp_path / "data")])
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"[0-9a-f]{8}\n", done.stdout)  # the id alone: stderr kept apart
    assert "table code" in done.stderr
    bad = run_cli(["import", str(tmp_path / "none.json"), "--data-dir", str(tmp_path)])
    assert bad.returncode == 2 and bad.stdout == "" and bad.stderr
    with pytest.raises(subprocess.CalledProcessError):
        run_cli(["import", str(tmp_path / "none.json")], check=True)


def test_run_cli_forks_with_the_env_and_folder_given(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tests.server_zygote.zygote", lambda: ZygoteWith(PROBE))
    report = tmp_path / "report.json"
    # The interpreter's own settings as the worker's (else no fork), and one more.
    env = {**{k: v for k, v in os.environ.items() if k.startswith("PYTHON")}, "ONLY": "this"}
    done = run_cli(["report", str(report)], env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    seen = json.loads(report.read_text())
    assert seen["env"] == env and seen["cwd"] == str(tmp_path)


def test_run_cli_ends_a_child_past_its_timeout(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    probe_zygote = ZygoteWith(PROBE)
    monkeypatch.setattr("tests.server_zygote.zygote", lambda: probe_zygote)
    with pytest.raises(subprocess.TimeoutExpired) as timed_out:
        run_cli(["say", "forever"], timeout=1)
    assert timed_out.value.stdout == b"forever\n"
    assert probe_zygote.last is not None and probe_zygote.last.returncode == -signal.SIGKILL


def test_run_cli_without_forks_is_a_real_subprocess(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TARABISH_TEST_NO_FORK", "1")
    monkeypatch.setattr("tests.server_zygote.zygote", lambda: pytest.fail("forked"))
    done = run_cli(["--help"], cwd=REPO_ROOT)
    assert done.returncode == 0 and "tarabish" in done.stdout


class ZygoteWith:
    """This worker's zygote, its children running `module` instead of scorer.cli."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.last: ForkedServer | None = None

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path,
              err_path: Path | None = None) -> ForkedServer:
        self.last = zygote().spawn(argv, env, cwd, log, module=self.module, err_path=err_path)
        return self.last
