"""Caddy in front of the app, for the tests: the shipped deploy/Caddyfile with
`tls internal` (Caddy's own CA, not installed anywhere), free ports, its storage in
a temporary folder, no admin endpoint. Caddy 2.6 is Debian's `caddy` package."""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHIPPED = REPO / "deploy" / "Caddyfile"


@dataclass(frozen=True)
class Proxy:
    https_port: int
    url: str
    log: Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_config(folder: Path, http_port: int, https_port: int) -> str:
    """The shipped Caddyfile, made to run here: global options first, then `tls
    internal` in the site. Everything else is as shipped."""
    text = SHIPPED.read_text(encoding="utf-8")
    first = text.index("{\n")
    text = (text[:first] + "{\n\tadmin off\n\tskip_install_trust\n\tlocal_certs\n"
            f"\thttp_port {http_port}\n\thttps_port {https_port}\n"
            f"\tstorage file_system {folder / 'storage'}\n" + text[first + 2:])
    site = text.index("{$TARABISH_DOMAIN} {\n")
    cut = site + len("{$TARABISH_DOMAIN} {\n")
    return text[:cut] + "\ttls internal\n" + text[cut:]


def _wait_for_certificate(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    """Until a TLS handshake on `port` succeeds. Caddy listens before its `tls internal`
    certificate exists and, for the first tens of milliseconds (longer on a loaded
    machine), ends every handshake with an alert: a test that connected as soon as the
    port was open failed so in CI."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + 20
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"Caddy stopped: {log.read_text(errors='replace')}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as plain, \
                    context.wrap_socket(plain):
                return
        except OSError as failed:  # ssl.SSLError is an OSError
            if time.monotonic() > deadline:
                raise RuntimeError(f"Caddy served no certificate in 20 s ({failed!r}): "
                                   f"{log.read_text(errors='replace')}") from None
            time.sleep(0.05)


@contextmanager
def caddy_in_front(upstreams: list[str], folder: Path) -> Iterator[Proxy]:
    """Caddy serving https://127.0.0.1:PORT/ for `upstreams` ("127.0.0.1:8551"...)."""
    caddy = shutil.which("caddy")
    if caddy is None:
        raise RuntimeError("Caddy is not installed (apt-get install caddy)")
    folder.mkdir(parents=True, exist_ok=True)
    http_port, https_port = _free_port(), _free_port()
    config = folder / "Caddyfile"
    config.write_text(test_config(folder, http_port, https_port), encoding="utf-8")
    log = folder / "caddy.log"
    env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"),
           "XDG_CONFIG_HOME": str(folder / "config"),
           "TARABISH_DOMAIN": f"127.0.0.1:{https_port}",
           "TARABISH_UPSTREAMS": " ".join(upstreams)}
    with log.open("wb") as out:
        process = subprocess.Popen([caddy, "run", "--config", str(config), "--adapter",
                                    "caddyfile"], env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
    try:
        _wait_for_certificate(process, https_port, log)
        yield Proxy(https_port, f"https://127.0.0.1:{https_port}/", log)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
