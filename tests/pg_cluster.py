"""A throwaway PostgreSQL cluster for the tests: started once per run, removed after.

Uses the server's own binaries (Debian's `postgresql` package, or whatever
`pg_config --bindir` names; `TARABISH_PG_BIN` points elsewhere). PostgreSQL
refuses to run as root, so as root the cluster runs as the `postgres` user.
Without PostgreSQL the tests that need it are skipped, except in CI
(CI=true), where they fail: CI installs it (.ci/run).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg


def pg_bin() -> Path | None:
    """The folder of PostgreSQL's server binaries (initdb, postgres, pg_ctl), or None."""
    given = os.environ.get("TARABISH_PG_BIN")
    if given:
        return Path(given)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name)
                   if Path(p).parent.parent.name.isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True,
                             check=True).stdout.strip()
        if out and (Path(out) / "initdb").exists():
            return Path(out)
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A running cluster on 127.0.0.1; `new_database()` gives a fresh database's URL."""

    #: Server settings: a throwaway cluster need not survive a power cut (a
    #: benchmark turns durability back on: `durable=True`).
    settings = ("fsync=off", "synchronous_commit=off", "full_page_writes=off",
                "max_connections=300")

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        """`durable`: fsync and synchronous commit on, as a real server has them."""
        if durable:
            self.settings = ("max_connections=300",)
        self.bindir = bindir
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="tarabish-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        self.proc: subprocess.Popen[bytes] | None = None

    def _run_as(self) -> list[str]:
        return ["runuser", "-u", "postgres", "--"] if self.as_root else []

    def start(self) -> None:
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        subprocess.run([*self._run_as(), str(self.bindir / "initdb"), "-A", "trust", "-U",
                        "postgres", "-E", "UTF8", "--no-instructions", "-D", str(self.data)],
                       check=True, capture_output=True)
        self.proc = subprocess.Popen(
            [*self._run_as(), str(self.bindir / "postgres"), "-D", str(self.data),
             "-p", str(self.port), "-k", str(self.root), "-h", "127.0.0.1",
             *(arg for setting in self.settings for arg in ("-c", setting))],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(self.url("postgres"), connect_timeout=2):
                    return
            except psycopg.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the test PostgreSQL did not start") from None
                time.sleep(0.1)

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self, template: str | None = None) -> str:
        """A new empty database (or a copy of `template`); returns its URL."""
        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            if template:
                conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            else:
                conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            subprocess.run([*self._run_as(), str(self.bindir / "pg_ctl"), "-D", str(self.data),
                            "stop", "-m", "immediate"], capture_output=True)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)
            if self.proc.poll() is None:
                self.proc.kill()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running_cluster() -> Iterator[Cluster | None]:
    """A cluster for the run, or None when this machine has no PostgreSQL."""
    bindir = pg_bin()
    if bindir is None:
        yield None
        return
    cluster = Cluster(bindir)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
