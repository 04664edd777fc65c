"""One websocket floods a real server process with `route_change` events (issue 38 §2).

Before: 244,600 events in 15 s from one websocket left new phones timing out,
`/alive` unanswered for a minute, memory growing and SIGTERM unheard. Now the
page's frames are read at the pace its budget allows (scorer.web.floods): the
flood is held back, then closed with a reason; a bystander's page and `/alive`
answer as usual, memory stays put, and SIGTERM stops the process at once.

Bounds on time are generous (a shared 2-core machine): they tell minutes from
seconds. The flood itself is 2,000 frames a second, fifty times a page's budget.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from scorer.web.floods import LIMITS, TOO_FAST
from tests.hostile.conftest import Server, StartServer
from tests.hostile.flet_client import EVENT, FletClient, pack

#: Frames the flooder sends a second (in batches), and for how long at most.
FLOOD_RATE = 2_000
FLOOD_S = 12.0
ROUTES = ("/rules", "/")
#: A bystander's /alive and page, during the flood (usual: a few ms, 0.2 s).
ALIVE_WITHIN_S = 5.0
PAGE_WITHIN_S = 8.0
#: Memory the server may gain during the flood (before: 45 MB in 6 s, and rising).
RSS_GROWTH_MB = 30


def rss_mb(pid: int) -> float:
    """The process's own memory in use (resident anonymous pages: its heap), not the
    library pages it maps: a server forked from the test zygote (tests/server_zygote.py)
    faults in, as it runs, code pages a fresh one had mapped at its imports."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no RssAnon")


@dataclass
class Flood:
    """A page at 127.0.0.66 sending route changes until it is closed or told to stop."""

    page: FletClient
    sent: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None
    ended_at: float | None = None
    ended_by: BaseException | None = None

    def start(self) -> Flood:
        self.thread = threading.Thread(target=self._run, name="flood", daemon=True)
        self.started_at = time.monotonic()
        self.thread.start()
        return self

    def _run(self) -> None:
        frames = [pack(EVENT, {"target": self.page.page_id, "name": "route_change",
                               "data": {"route": route}}) for route in ROUTES]
        end = time.monotonic() + FLOOD_S
        batch = FLOOD_RATE // 20
        while not self.stop.is_set() and time.monotonic() < end:
            try:
                for _ in range(batch):
                    self.page.ws.send(frames[self.sent % 2])
                    self.sent += 1
            except Exception as exc:  # closed by the server (or its socket timed out)
                self.ended_by = exc
                break
            time.sleep(0.05)
        self.ended_at = time.monotonic()

    def join(self) -> None:
        self.stop.set()
        assert self.thread is not None
        self.thread.join(FLOOD_S + 15)


def flooder(server: Server) -> FletClient:
    """A page that has drawn both screens once (their first drawing costs memory that
    is no flood's), then keeps reading whatever comes (no bound on its queue)."""
    page = FletClient(server.port, source="127.0.0.66", max_queue=None)
    for route in ROUTES:
        page.go(route)
        page.pump(1.0)
    return page


def alive_s(port: int) -> float:
    start = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/alive", timeout=30) as answer:
        answer.read()
    return time.monotonic() - start


def test_a_flood_is_held_back_then_closed_and_everyone_else_is_answered(
        start_server: StartServer, tmp_path: Path) -> None:
    server = start_server(tmp_path / "data")
    pid = server.process.pid
    page = flooder(server)
    before = rss_mb(pid)
    flood = Flood(page).start()

    alive, highest = [], before
    bystander_s = None
    while flood.thread is not None and flood.thread.is_alive():
        alive.append(alive_s(server.port))
        highest = max(highest, rss_mb(pid))
        if bystander_s is None and time.monotonic() - flood.started_at > 2:
            start = time.monotonic()
            with FletClient(server.port, source="127.0.0.77", timeout=30) as bystander:
                bystander_s = time.monotonic() - start
                bystander.pump(0.3)
        time.sleep(0.2)
    flood.join()

    assert page.ws.close_code == 1008 and page.ws.close_reason == TOO_FAST, (
        f"the flooder was not closed: {page.ws.close_code} after {flood.sent} frames")
    # Its send was blocked (the server held its frames back) when it was closed: a
    # reset then, not a FIN, would race the close frame it had not read yet (1006).
    reset = flood.ended_by and isinstance(flood.ended_by.__cause__, ConnectionResetError)
    assert not reset, f"the server reset the flooder's connection: {flood.ended_by!r}"
    assert flood.ended_at is not None
    held_for = flood.ended_at - flood.started_at
    assert held_for < LIMITS.close_after_s + 6, f"closed only after {held_for:.1f} s"
    # What the server drew for it: at most its budget of frames, far fewer than sent.
    while page.pump(0.5):  # everything it was sent (bounded: the socket is closed)
        pass
    drawn = sum(1 for action, _size in page.frames if action == 2)
    allowed = LIMITS.messages_burst + LIMITS.messages_per_s * held_for
    assert drawn <= allowed, f"{drawn} screens drawn for a flood of {flood.sent} frames"
    assert flood.sent > 4 * allowed, "the flood was too small to show anything"

    assert bystander_s is not None and bystander_s < PAGE_WITHIN_S, bystander_s
    assert alive and max(alive) < ALIVE_WITHIN_S, f"/alive took {max(alive):.2f} s"
    assert highest - before < RSS_GROWTH_MB, f"memory grew {before:.0f} -> {highest:.0f} MB"
    assert "sent too much too fast" in server.log()
    assert server.process.poll() is None


def test_sigterm_stops_the_process_during_a_flood(
        start_server: StartServer, tmp_path: Path) -> None:
    server = start_server(tmp_path / "data")
    flood = Flood(flooder(server)).start()
    try:
        deadline = time.monotonic() + 10
        while flood.sent < FLOOD_RATE and time.monotonic() < deadline:
            flood.stop.wait(0.05)  # until a second's worth is sent (bounded)
        assert flood.thread is not None and flood.thread.is_alive(), "the flood is not on"
        asked = time.monotonic()
        os.kill(server.process.pid, signal.SIGTERM)
        server.process.wait(30)
        stopped_s = time.monotonic() - asked
    finally:
        flood.join()
    assert stopped_s < 10, f"SIGTERM took {stopped_s:.1f} s"
