"""The real table server in a subprocess on 127.0.0.1 (forked from the worker's zygote:
tests/server_zygote.py), for the hostile client."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.server_zygote import ServerProcess, start_server_process

REPO_ROOT = Path(__file__).resolve().parents[2]
DOC = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
       "first_dealer": 0, "rules": {}, "hands": []}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    port: int
    data_dir: Path
    log_path: Path
    process: ServerProcess

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


StartServer = Callable[..., Server]


@pytest.fixture
def start_server(tmp_path: Path, page_file_cache: Path) -> Iterator[StartServer]:
    """start_server(data_dir=None, env=None, args=()) -> Server, stopped after the test
    (`args`: more options of `tarabish`, e.g. `--database URL`)."""
    started: list[Server] = []

    def start(data_dir: Path | None = None, env: dict[str, str] | None = None,
              args: tuple[str, ...] = ()) -> Server:
        data_dir = data_dir or tmp_path / "data"
        data_dir.mkdir(parents=True, exist_ok=True)
        port = free_port()
        log_path = tmp_path / f"server-{port}.log"
        argv = ["--no-open", "--host", "127.0.0.1", "--port", str(port), *args]
        if "--database" not in args:  # a community has no data folder (as its unit runs it)
            argv += ["--data-dir", str(data_dir)]
        process = start_server_process(
            argv, {**os.environ, "PYTHONUNBUFFERED": "1",
                   "TARABISH_CACHE": str(page_file_cache), **(env or {})},
            REPO_ROOT, log_path)
        server = Server(port, data_dir, log_path, process)
        started.append(server)
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"server exited:\n{server.log()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                    return server
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    yield start
    for server in started:
        server.stop()


def make_game(data_dir: Path, holder: str | None = "holder-token-0123456789") -> tuple[str, str]:
    """A saved game (and, with a holder, its table code): (game id, code)."""
    from scorer.rights.codes import TableCodes
    from scorer.store.game_store import GameStore

    with GameStore(data_dir) as store:
        game_id = store.create_game(dict(DOC)).id
    code = TableCodes(data_dir).start(game_id, holder) if holder else ""
    return game_id, code


def delete_from_past_games(phone: Any, game_file: Path) -> None:
    """On Past games: Delete, confirm, and wait (bounded) for the game's file to go."""
    mark = phone.mark()
    phone.click("Delete", kind="TextButton")
    phone.wait_for("Delete this game?", since=mark)
    phone.click("Delete", kind="FilledButton")
    deadline = time.monotonic() + 10
    while game_file.exists() and time.monotonic() < deadline:
        phone.pump(0.2)
