"""One writer per data folder: a second server is refused and told who holds the
folder, `import` hands its games to the running server, readers need no lock,
and a lock left by a killed process blocks nobody."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from faults import failing_writes
from store_docs import game_doc

from scorer.cli import main
from scorer.commands import common as commands_common
from scorer.handoff.local_import import IMPORT_PATH, KEY_HEADER
from scorer.rights import TableCodes
from scorer.store import GameStore
from scorer.store.folder_lock import LOCK_FILE, FolderBusy
from tests.import_server import server_taking_imports

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0


class Server:
    """`tarabish` (the table server) in a subprocess, on 127.0.0.1 and a free port."""

    def __init__(self, data: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scorer.cli", "--host", "127.0.0.1", "--port", "0",
             "--no-open", "--data-dir", str(data)],
            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.out = ""
        deadline = time.monotonic() + START_TIMEOUT_S
        assert self.process.stdout is not None
        while "Press Ctrl-C" not in self.out:
            line = self.process.stdout.readline()
            if not line or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"the server did not start:\n{self.out}")
            self.out += line
        found = re.search(r"http://localhost:(\d+)/", self.out)
        assert found, self.out
        self.port = int(found.group(1))

    def answers(self) -> bool:
        """Whether the page is served (polls for a while: bounded)."""
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                with opener.open(f"http://127.0.0.1:{self.port}/", timeout=10) as r:
                    return r.status == 200
            except OSError:
                time.sleep(0.2)
        return False

    def stop(self, sig: int = signal.SIGINT) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(20)


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        server.stop(signal.SIGKILL)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorer.cli", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_a_second_server_on_the_same_folder_is_refused_and_named(
    tmp_path: Path, servers: list[Server]
) -> None:
    data = tmp_path / "data"
    servers.append(first := Server(data))

    second = run_cli("--host", "127.0.0.1", "--port", "0", "--no-open", "--data-dir", str(data))
    assert second.returncode == 1, second.stdout
    assert "Press Ctrl-C" not in second.stdout  # it never started serving
    said = second.stderr
    assert f"in use by the table server at http://127.0.0.1:{first.port}/" in said
    assert f"process {first.process.pid}, since " in said
    assert re.search(r"since \d{4}-\d\d-\d\d \d\d:\d\d\)", said), said
    assert "Traceback" not in said

    # While it runs: `import` hands the games to it; `games` and `export` just read.
    game_file = tmp_path / "g.json"
    game_file.write_text(json.dumps(game_doc(2)), encoding="utf-8")
    imported = run_cli("import", str(game_file), "--data-dir", str(data))
    assert imported.returncode == 0, imported.stderr
    [game_id] = imported.stdout.split()
    listed = run_cli("games", "--data-dir", str(data))
    assert listed.returncode == 0 and game_id in listed.stdout, listed.stderr
    exported = run_cli("export", game_id, "--data-dir", str(data))
    assert json.loads(exported.stdout) == game_doc(2)

    # Killed without a chance to tidy up: its lock file stays, and blocks nobody.
    first.stop(signal.SIGKILL)
    assert (data / LOCK_FILE).exists()
    servers.append(again := Server(data))
    assert "Games are stored in" in again.out
    assert again.answers()
    assert again.stop() == 0


HOLDER = """
import sys
from pathlib import Path
from scorer.store import folder_lock
lease = folder_lock.acquire(Path(sys.argv[1]), "a test holder")
print("held", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding tmp_path/data's lock (not a server: no key to hand to)."""
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / "data")],
                               cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None and process.stdout.readline() == "held\n"
    yield process
    process.kill()
    process.wait(20)


def test_writers_are_refused_while_another_process_writes_readers_are_not(
    tmp_path: Path, holder: subprocess.Popen[str], monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tmp_path / "data"
    with pytest.raises(FolderBusy) as busy:
        GameStore(data)
    assert f"in use by a test holder (process {holder.pid}, since " in str(busy.value)
    assert GameStore(data, read_only=True).list_games() == []

    monkeypatch.setattr(commands_common, "BUSY_WAIT_S", 0.3)
    game_file = tmp_path / "g.json"
    game_file.write_text(json.dumps(game_doc(1)), encoding="utf-8")
    assert main(["import", str(game_file), "--data-dir", str(data)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"a test holder (process {holder.pid}" in err and "Nothing was imported" in err
    assert not (data / "games").exists() or list((data / "games").iterdir()) == []
    assert main(["games", "--data-dir", str(data)]) == 0

    holder.kill()  # SIGKILL: the OS drops the lock, the file stays
    holder.wait(20)
    assert main(["import", str(game_file), "--data-dir", str(data)]) == 0
    assert len(GameStore(data).list_games()) == 1


def test_an_import_waits_for_another_import_to_finish(
    tmp_path: Path, holder: subprocess.Popen[str], capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    game_file = tmp_path / "g.json"
    game_file.write_text(json.dumps(game_doc(1)), encoding="utf-8")
    threading.Timer(0.5, holder.kill).start()
    assert main(["import", str(game_file), "--data-dir", str(data)]) == 0
    assert re.fullmatch(r"[0-9a-f]{8}\n", capsys.readouterr().out)


def test_one_process_shares_the_lock_and_lets_go_with_the_last_store(tmp_path: Path) -> None:
    data = tmp_path / "data"
    a, b = GameStore(data), GameStore(data)
    a.create_game(game_doc(0))
    b.create_game(game_doc(0))
    a.close()
    check = [sys.executable, "-c",
             "import sys; from pathlib import Path; from scorer.store import GameStore; "
             "GameStore(Path(sys.argv[1]))", str(data)]
    assert subprocess.run(check, cwd=REPO, capture_output=True, timeout=60).returncode != 0
    b.close()
    done = subprocess.run(check, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_server_takes_imports_only_with_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    client = server_taking_imports(data, monkeypatch)
    body = {"games": [game_doc(1), game_doc(2)]}
    for headers in ({}, {KEY_HEADER: "k" * 42}, {KEY_HEADER: "x" * 43}):
        refused = client.post(IMPORT_PATH, json=body, headers=headers)
        assert refused.status_code == 403
    assert GameStore(data, read_only=True).list_games() == []

    bad = client.post(IMPORT_PATH, json={"games": [game_doc(1), {"players": []}]},
                      headers={KEY_HEADER: "k" * 43})
    assert bad.status_code == 400 and "Nothing was imported" in bad.json()["error"]
    deep = client.post(IMPORT_PATH, content=b"[" * 100_000, headers={KEY_HEADER: "k" * 43})
    assert deep.status_code == 400
    assert GameStore(data, read_only=True).list_games() == []

    with failing_writes(monkeypatch, data):
        full = client.post(IMPORT_PATH, json=body, headers={KEY_HEADER: "k" * 43})
    assert full.status_code == 507
    assert full.json() == {"error": "The disk is full: nothing was saved."}
    assert GameStore(data, read_only=True).list_games() == []

    ok = client.post(IMPORT_PATH, json=body, headers={KEY_HEADER: "k" * 43})
    assert ok.status_code == 200
    assert len(ok.json()["ids"]) == 2
    assert len(GameStore(data, read_only=True).list_games()) == 2


def test_table_codes_from_two_objects_in_one_process_are_all_kept(tmp_path: Path) -> None:
    """Two TableCodes on one folder (say, two parts of one server) must not undo
    each other's changes: the file is not last-writer-wins."""
    first, second = TableCodes(tmp_path), TableCodes(tmp_path)
    games = [f"{n:08x}" for n in range(40)]

    def start(codes: TableCodes, mine: list[str]) -> None:
        for game in mine:
            codes.start(game, f"device-token-for-{game}")

    threads = [threading.Thread(target=start, args=(codes, games[n::2]))
               for n, codes in enumerate((first, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    saved = json.loads((tmp_path / "table_codes.json").read_text())["games"]
    assert sorted(saved) == games
    for game in games:
        assert first.code(game) == second.code(game) == saved[game]["code"]


def test_lock_file_is_private(tmp_path: Path) -> None:
    """It carries the key that lets `import` hand games to the server."""
    GameStore(tmp_path).close()
    assert (tmp_path / LOCK_FILE).stat().st_mode & 0o077 == 0


def test_a_running_import_names_itself_to_other_writers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    game_file = tmp_path / "g.json"
    game_file.write_text(json.dumps(game_doc(1)), encoding="utf-8")
    real = GameStore.create_games
    seen: list[str] = []

    def create_games(store: GameStore, docs: list[dict[str, object]]) -> object:
        other = subprocess.run(
            [sys.executable, "-c", "import sys; from pathlib import Path; "
             "from scorer.store import GameStore; GameStore(Path(sys.argv[1]))", str(data)],
            cwd=REPO, capture_output=True, text=True, timeout=60)
        seen.append(other.stderr)
        return real(store, docs)  # type: ignore[arg-type]

    monkeypatch.setattr(GameStore, "create_games", create_games)
    assert main(["import", str(game_file), "--data-dir", str(data)]) == 0
    assert f"in use by tarabish import (process {os.getpid()}, since " in seen[0]
    assert len(capsys.readouterr().out.split()) == 1


def test_a_lease_the_collector_drops_inside_acquire_is_released_without_a_hang(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The collector may finalize a lease on the very thread that holds the registry
    (here: while acquire writes its note); the release waits for the registry's end."""
    from scorer.store import folder_lock

    old = folder_lock.acquire(tmp_path / "old")
    doomed: list[object] = [old]
    del old
    real_write_all = folder_lock.write_all

    def write_and_collect(fd: int, data: bytes) -> None:
        doomed.clear()  # the last reference goes: the finalizer runs here, registry held
        real_write_all(fd, data)

    monkeypatch.setattr(folder_lock, "write_all", write_and_collect)
    done = threading.Event()
    leases: list[object] = []
    worker = threading.Thread(
        target=lambda: (leases.append(folder_lock.acquire(tmp_path / "new")), done.set()),
        daemon=True)
    worker.start()
    assert done.wait(10), "acquire hung on a lease dropped inside it"
    monkeypatch.undo()
    # The dropped lease was the old folder's last: this process let go of its lock.
    assert (tmp_path / "old").resolve() not in folder_lock._held
    assert (tmp_path / "new").resolve() in folder_lock._held
