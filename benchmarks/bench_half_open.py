"""Half-open connections against the real table server: N connections from rotating
loopback addresses each send half a request and hang.

    uv run python benchmarks/bench_half_open.py            # 12,000 connections
    uv run python benchmarks/bench_half_open.py -n 3000

Prints how many the server still holds 1 s after they opened, and again after its
header timeout (10 s), how long a phone's page request took meanwhile, and the
server's memory. Before scorer/web/connections.py, every one of the 12,000 was held
for as long as the client kept it. Only loopback is ever contacted."""

from __future__ import annotations

import argparse
import os
import select
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_server_load import rss_mb  # noqa: E402

from tests.hostile.conftest import free_port  # noqa: E402


def held(socks: list[socket.socket]) -> int:
    """How many the server has not closed (a closed one reads as ready: EOF or reset)."""
    still = 0
    for start in range(0, len(socks), 500):
        chunk = socks[start:start + 500]
        poller = select.poll()
        for s in chunk:
            poller.register(s, select.POLLIN | select.POLLHUP | select.POLLERR)
        ready = {fd for fd, _ in poller.poll(0)}
        still += sum(1 for s in chunk if s.fileno() not in ready)
    return still


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=12_000, help="connections to open")
    args = parser.parse_args(argv)
    port = free_port()
    data = Path(tempfile.mkdtemp(prefix="tarabish-half-open-"))
    server = subprocess.Popen(
        [sys.executable, "-m", "scorer.cli", "--no-open", "--host", "0.0.0.0", "--port",
         str(port), "--data-dir", str(data)], cwd=REPO, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    socks: list[socket.socket] = []
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/alive", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        base = rss_mb(server.pid)
        t0 = time.monotonic()
        for n in range(args.n):
            s = socket.socket()
            s.setblocking(True)
            s.bind((f"127.2.{n // 2 // 250}.{n // 2 % 250 + 2}", 0))
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(b"GET / HTTP/1.1\r\nHost: t\r\nX-Slow: ")
            except OSError:
                s.close()
                continue
            socks.append(s)
        opened = time.monotonic() - t0
        time.sleep(1)
        first = held(socks)
        tic = time.monotonic()
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30).read()
        page = time.monotonic() - tic
        peak = rss_mb(server.pid)
        time.sleep(11)
        later = held(socks)
        print(f"{len(socks)} half-open connections from {len(socks) // 2} addresses, opened "
              f"in {opened:.1f} s; load average {os.getloadavg()[0]:.1f}", flush=True)
        print(f"  held 1 s later: {first} (any rest refused at once: 64 an address, "
              "and the process's open-file limit less 512 in all)", flush=True)
        print(f"  held 12 s later (header timeout 10 s): {later}", flush=True)
        print(f"  a phone's page request meanwhile: {page * 1000:.0f} ms", flush=True)
        print(f"  server memory: {base:.0f} MB idle, {peak:.0f} MB in the flood", flush=True)
    finally:
        for s in socks:
            s.close()
        server.terminate()
        server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
