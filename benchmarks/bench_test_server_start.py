"""The CPU one test server start costs: a fresh `python -m scorer.cli` beside a child
forked from the tests' zygote (tests/server_zygote.py, issue 39).

    uv run python benchmarks/bench_test_server_start.py [--starts 5]

Starts the table server as the test fixtures do (loopback, its own empty data folder,
PYTHONUNBUFFERED, TARABISH_PHONE_APP=off, one page-file cache warmed by a first start
that is not counted) `--starts` times each way, one at a time, and reads from /proc
the server's CPU seconds (user + system, every thread) at the moment it first answers
HTTP 200 on its page: for a forked child that is from the fork on. Prints the
median and range of each way, their wall time to answering, and the zygote's own
start (once per test worker). Linux only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.server_zygote import ServerProcess, ZygoteClient  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of the process (every thread), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answered(process: ServerProcess, port: int, log: Path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not answer in {timeout} s:\n{log.read_text()}")
        time.sleep(0.02)


def one_start(way: str, zygote: ZygoteClient | None, work: Path, n: int,
              env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) from start to the first answer."""
    port = free_port()
    data, log = work / f"{way}-{n}", work / f"{way}-{n}.log"
    argv = ["--no-open", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data)]
    started = time.monotonic()
    process: ServerProcess
    if zygote is not None:
        process = zygote.spawn(argv, env, REPO, log)
    else:
        with log.open("ab") as out:
            process = subprocess.Popen([sys.executable, "-m", "scorer.cli", *argv], cwd=REPO,
                                       env=env, stdin=subprocess.DEVNULL, stdout=out,
                                       stderr=subprocess.STDOUT, start_new_session=True)
    try:
        answered(process, port, log)
        wall = time.monotonic() - started
        cpu = cpu_s(process.pid)
    finally:
        process.kill()
        process.wait(30)
    return cpu, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=5)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-test-start-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "TARABISH_PHONE_APP": "off",
               "TARABISH_CACHE": str(work / "cache")}
        one_start("warm-up", None, work, 0, env)  # compresses the page files once
        t0 = time.monotonic()
        zygote = ZygoteClient()
        zygote_wall = time.monotonic() - t0
        zygote_cpu = cpu_s(zygote.process.pid)
        results = {}
        for way, z in (("fresh python -m scorer.cli", None), ("forked from the zygote", zygote)):
            results[way] = [one_start(way.split()[0], z, work, n, env)
                            for n in range(opts.starts)]
        zygote.close()
    print(f"CPU of one test server start, from start to answering HTTP ({opts.starts} each):")
    for way, figures in results.items():
        cpus, walls = [c for c, _ in figures], [w for _, w in figures]
        print(f"  {way:28} CPU median {statistics.median(cpus):.2f} s "
              f"({min(cpus):.2f}-{max(cpus):.2f}), wall median {statistics.median(walls):.2f} s")
    print(f"  the zygote's own start (once per test worker): CPU {zygote_cpu:.2f} s, "
          f"wall {zygote_wall:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
