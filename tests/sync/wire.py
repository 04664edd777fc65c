"""Sync over a real socket: table servers in a subprocess, and a small phone that speaks
the protocol's JSON frames to them (the `websockets` client, as uvicorn's). Every wait
is bounded and says what it waited for."""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from scorer.sync.kinds import sync_fingerprint
from scorer.sync.messages import (
    SYNC_PATH,
    AddHand,
    Change,
    Create,
    Hello,
    Known,
    Push,
    decode_server,
    encode,
)
from tests.server_zygote import ServerProcess, start_server_process

REPO_ROOT = Path(__file__).resolve().parents[2]
M = TypeVar("M", bound=BaseModel)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    """One `tarabish` process on 127.0.0.1."""

    port: int
    data_dir: Path
    log_path: Path
    process: ServerProcess

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, sig: int = signal.SIGINT) -> None:
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def serve(data_dir: Path, cache: Path, database: str | None = None,
          args: Sequence[str] = ()) -> Served:
    """`python -m scorer.cli` on a free port (a community's process with `database`;
    `args`: more options); returns once it answers HTTP."""
    data_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log_path = data_dir.parent / f"{data_dir.name}-{port}.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TARABISH_CACHE": str(cache)}
    env.pop("TARABISH_DATABASE", None)
    if database is not None:
        env["TARABISH_DATABASE"] = database
    argv = ["--no-open", "--host", "127.0.0.1", "--port", str(port), "--data-dir",
            str(data_dir), *args]
    process = start_server_process(argv, env, REPO_ROOT, log_path)
    served = Served(port, data_dir, log_path, process)
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited:\n{served.log()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return served
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not answer in 60 s:\n{served.log()}"
                                   ) from None
            time.sleep(0.1)


def doc(hands: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    return {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
            "first_dealer": 0, "rules": {}, "hands": list(hands)}


def hand(caller: int = 1, tricks: int = 70) -> dict[str, Any]:
    """A made hand (the caller's team makes it with the other team's `tricks` < 81)."""
    team = 0 if caller % 2 else 1
    return {"caller": caller, "trump": "H", "points": {"team": team, "tricks": tricks}}


_ids = iter(range(1, 10**9))


def new_id() -> str:
    return f"{os.getpid():08x}{time.monotonic_ns() % 16**16:016x}{next(_ids):08x}"


def add(game: str, base: int, the_hand: dict[str, Any] | None = None,
        change_id: str | None = None) -> Change:
    return Change(id=change_id or new_id(), game=game, base=base, at=datetime.now(UTC),
                  kind=AddHand(hand=the_hand or hand()))


def create(the_doc: dict[str, Any] | None = None) -> Change:
    key = new_id()
    return Change(id=new_id(), game=key, base=0, at=datetime.now(UTC),
                  kind=Create(doc=the_doc or doc(), origin=key))


@dataclass
class WirePhone:
    """One phone's sync connection, from `source` (any 127.0.0.x: its own address)."""

    port: int
    device: str
    source: str = "127.0.0.1"
    receive_buffer: int | None = None
    """A small kernel receive buffer (a phone that stops reading fills it at once)."""
    compression: bool = True
    keepalive: bool = True
    """The client's own pings (a phone that does not read cannot read their answers)."""
    tls: bool = False
    """wss:// (through a proxy with a certificate of its own: not checked)."""
    ws: ClientConnection = field(init=False)
    seen: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(30)  # a busy shared machine: TLS through a proxy too
        if self.receive_buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, self.receive_buffer)
        sock.bind((self.source, 0))
        sock.connect(("127.0.0.1", self.port))
        context = None
        if self.tls:
            context = ssl.create_default_context()
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        scheme = "wss" if self.tls else "ws"
        self.ws = connect(f"{scheme}://127.0.0.1:{self.port}{SYNC_PATH}", sock=sock,
                          ssl=context,
                          open_timeout=30, max_size=4 * 1024 * 1024, max_queue=4,
                          compression="deflate" if self.compression else None,
                          ping_interval=20 if self.keepalive else None, legacy=True)

    def send(self, message: BaseModel | str | bytes) -> None:
        self.ws.send(encode(message) if isinstance(message, BaseModel) else message)

    def recv(self, timeout: float = 5.0) -> Any:
        """The server's next message (read, as a phone reads it)."""
        message = decode_server(self.ws.recv(timeout=timeout))
        self.seen.append(message)
        return message

    def expect(self, kind: type[M], timeout: float = 5.0, **fields: Any) -> M:
        """The next message of `kind` (with these field values), skipping others."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                message = self.recv(max(0.01, left))
            except TimeoutError:
                raise AssertionError(f"no {kind.__name__} {fields} came in {timeout} s; "
                                     f"came: {self.seen[-6:]}") from None
            if isinstance(message, kind) and all(getattr(message, k) == v
                                                 for k, v in fields.items()):
                return message
            if time.monotonic() > deadline:
                raise AssertionError(f"no {kind.__name__} {fields} in {timeout} s; "
                                     f"came: {self.seen[-6:]}")

    def hello(self, games: Sequence[tuple[str, int]] = ()) -> Any:
        self.send(Hello(protocol=1, rules=sync_fingerprint(), device=self.device,
                        games=tuple(Known(game=g, revision=r) for g, r in games)))
        return self.recv()

    def push(self, *changes: Change) -> list[Any]:
        """Push `changes`: their answers (Applied or Refused), in order."""
        self.send(Push(changes=changes))
        answers = []
        while len(answers) < len(changes):
            message = self.recv()
            if getattr(message, "type", "") in ("applied", "refused"):
                answers.append(message)
        return answers

    def closed(self, timeout: float = 10.0) -> tuple[int | None, str | None]:
        """Read until the server closes: its close code and reason (None, None: cut)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.ws.recv(timeout=max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            except ConnectionClosed as exc:
                frame = exc.rcvd
                return (frame.code, frame.reason) if frame is not None else (None, None)
        raise AssertionError(f"the server did not close the connection in {timeout} s")

    def close(self) -> None:
        self.ws.close()
