"""How much one page, and one address, may ask of a server process per second.

Flet 1.0.5 reads a page's websocket as fast as frames come
(flet_web/fastapi/flet_app.py `__receive_loop`): each control event becomes an
asyncio task at once, a page's own fields are patched in the loop itself, and
nothing bounds either. One websocket sending 244,600 `route_change` events in
15 s left hundreds of thousands of redraws queued on the one event loop: new
phones timed out, `/alive` went unanswered for a minute, memory grew and SIGTERM
was not heard. `SessionGuard` (scorer.web.sessions) now reads each page's frames
through `paced_receive`, which reads the next frame only when

- the page and its address have budget left: frames, bytes, and the time the
  event loop spent in their event handlers (`Budget`, refilled per second; a
  frame is charged once read, a handler's time as it runs, so a debt is paid by
  waiting before the next frame);
- fewer than `events_in_flight` of the page's handlers are still running, and
  fewer than `unsent_messages` frames wait for the page to read them;
- the handler of the last frame read from any page of the address has run (and
  its time is counted): the address's pages are read one after the other.

Not reading is what slows a flooder: uvicorn stops reading its socket while one
frame waits (`pause_reading`), so the flood stays in the flooder's own buffers,
not in this process. A page held back for `close_after_s` without a pause is
closed with a reason. The bounds are far above what a player does (measured:
`benchmarks/bench_flood.py`; see `FloodLimits`), so nobody at a table is ever
held back.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Generator, MutableMapping
from dataclasses import dataclass
from typing import Any, TypeVar

logger = logging.getLogger(__name__)

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Clock = Callable[[], float]
T = TypeVar("T")


@dataclass(frozen=True)
class FloodLimits:
    """What one page and one address may ask of one process.

    Measured on a real page (benchmarks/bench_flood.py `--real-use`, Chromium at
    phone size): a tap sends one or two frames, a key typed two (the text and its
    change), a rotation six. The busiest second seen was 54 frames (a name typed
    by a machine, 33 keys with no pause), 18 in a tenth of a second; a number pad
    tapped flat out sends 12 a second. The server's time for a handler: a pad tap
    6 ms, a screen switch 5-15 ms, the rules reference 100 ms, a save 70-100 ms on
    a community, a leaderboard of 200 players 0.4 s (all on a loaded machine).
    """

    messages_per_s: float = 40.0
    """Frames a page may send a second, held for as long as it likes (a thumb sends ~11)."""
    messages_burst: float = 200.0
    """Frames it may send at once beyond that: 100 keys typed with no pause."""
    address_messages_per_s: float = 300.0
    """Frames one address may send a second: a hall's twelve pages, most of them typing."""
    address_messages_burst: float = 1500.0
    bytes_per_s: float = 1024 * 1024.0
    """Bytes a page may send a second (a game file picked on the phone comes this way)."""
    bytes_burst: float = 8 * 1024 * 1024.0
    """Two game files of the largest size the app takes (2 MB), and more, at once."""
    address_bytes_per_s: float = 4 * 1024 * 1024.0
    address_bytes_burst: float = 32 * 1024 * 1024.0
    work_per_s: float = 0.25
    """Seconds of the event loop's time a page's handlers may take a second: a quarter
    of the process, held (a number pad tapped flat out takes 0.07)."""
    work_burst: float = 1.0
    """Seconds they may take at once beyond that: two leaderboards, ten saves. Kept
    small: a flood spends it first, and everyone else waits while it does."""
    address_work_per_s: float = 0.5
    """Half the process for one address, held: the other half stays for everyone else.
    A hall's twelve phones tapping at once take 0.07 each."""
    address_work_burst: float = 2.0
    """Twelve phones saving at the end of a round, and drawing their sheets."""
    events_in_flight: int = 8
    """A page's handlers still running (waiting for the phone's answer, or a file picked)
    before its next frame is read."""
    unsent_messages: int = 64
    """Frames the server has queued for a page that does not read them, before the
    page's next frame is read (the page asks for more only as it reads)."""
    close_after_s: float = 5.0
    """A page held back this long without a pause is closed (a reload starts it again)."""


LIMITS = FloodLimits()

TOO_FAST = "This page sent too much too fast. Reload it to carry on."


class Budget:
    """A token bucket: `per_s` a second up to `burst`; a charge may take it below zero,
    and then the next frame waits until it is back at zero."""

    def __init__(self, per_s: float, burst: float, clock: Clock) -> None:
        self.per_s = per_s
        self.burst = burst
        self.clock = clock
        self._level = burst
        self._at = clock()

    def _refill(self) -> float:
        now = self.clock()
        self._level = min(self.burst, self._level + (now - self._at) * self.per_s)
        self._at = now
        return self._level

    def charge(self, amount: float) -> None:
        self._level = self._refill() - amount

    def wait_s(self) -> float:
        """Seconds until the budget is back at zero (0: none owed)."""
        level = self._refill()
        return 0.0 if level >= 0 else -level / self.per_s

    def full(self) -> bool:
        return self._refill() >= self.burst


class Share:
    """One address's budgets in this process, shared by all its pages."""

    def __init__(self, limits: FloodLimits, clock: Clock) -> None:
        self.messages = Budget(limits.address_messages_per_s, limits.address_messages_burst,
                               clock)
        self.bytes = Budget(limits.address_bytes_per_s, limits.address_bytes_burst, clock)
        self.work = Budget(limits.address_work_per_s, limits.address_work_burst, clock)
        self.pages = 0
        self.unsettled = 0
        """Pages of the address whose last frame's handler has not run yet: until it
        has (and its time is counted), no other page of the address is read, so twelve
        pages cannot each spend the address's budget at once."""
        self._progress: asyncio.Event | None = None

    def progressed(self) -> None:
        if self._progress is not None:
            self._progress.set()

    async def until_progress(self, timeout_s: float) -> None:
        if self._progress is None:
            self._progress = asyncio.Event()
        self._progress.clear()
        try:
            async with asyncio.timeout(timeout_s):
                await self._progress.wait()
        except TimeoutError:
            pass

    def budgets(self) -> tuple[Budget, ...]:
        return self.messages, self.bytes, self.work

    def rested(self) -> bool:
        return self.pages == 0 and all(b.full() for b in self.budgets())


class Shares:
    """Every address's `Share` while it has a page open, and a little after (until
    its budgets are full again): a page closed and opened again starts no fresher."""

    KEEP = 1024
    """Addresses with no page left kept at most (beyond, rested ones are let go)."""

    def __init__(self, limits: FloodLimits = LIMITS, clock: Clock = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._shares: dict[str, Share] = {}
        self._lock = threading.Lock()

    def join(self, address: str) -> Pace:
        """A new page of `address`: its own budgets, and its address's."""
        with self._lock:
            share = self._shares.get(address)
            if share is None:
                if len(self._shares) >= self.KEEP:
                    for key in [k for k, s in self._shares.items() if s.rested()]:
                        del self._shares[key]
                share = self._shares[address] = Share(self.limits, self.clock)
            share.pages += 1
        return Pace(self.limits, share, self.clock)

    def leave(self, pace: Pace) -> None:
        pace.settle()
        with self._lock:
            pace.share.pages -= 1

    def __len__(self) -> int:
        return len(self._shares)


class Pace:
    """One page's budgets and what it has running; what `paced_receive` waits on."""

    def __init__(self, limits: FloodLimits, share: Share, clock: Clock) -> None:
        self.limits = limits
        self.share = share
        self.clock = clock
        self.messages = Budget(limits.messages_per_s, limits.messages_burst, clock)
        self.bytes = Budget(limits.bytes_per_s, limits.bytes_burst, clock)
        self.work = Budget(limits.work_per_s, limits.work_burst, clock)
        self.in_flight = 0
        self.unsent: Callable[[], int] = lambda: 0
        """Frames queued for the page and not yet sent (set by the guard)."""
        self.throttled_since: float | None = None
        self.closed = False
        self.held_back = 0
        """Frames that had to wait (for the benchmark and the log)."""
        self.unsettled = False
        """A frame was read and its handler may not have run yet (see Share.unsettled)."""

    def budgets(self) -> tuple[Budget, ...]:
        return (self.messages, self.bytes, self.work, *self.share.budgets())

    def charge_frame(self, size: int) -> None:
        for budget, amount in ((self.messages, 1.0), (self.bytes, float(size))):
            budget.charge(amount)
        self.share.messages.charge(1.0)
        self.share.bytes.charge(float(size))

    def charge_work(self, seconds: float) -> None:
        self.work.charge(seconds)
        self.share.work.charge(seconds)

    def wait_s(self) -> float:
        """Seconds until every budget is paid (0: the next frame may be read now)."""
        return max(b.wait_s() for b in self.budgets())

    def busy(self) -> bool:
        """Too many handlers running, too much unsent, or another page of the address
        not settled, to read another frame."""
        return (self.in_flight >= self.limits.events_in_flight
                or self.unsent() >= self.limits.unsent_messages
                or self.share.unsettled > 0)

    def read(self) -> None:
        """A frame was read: its handler is yet to run."""
        if not self.unsettled:
            self.unsettled = True
            self.share.unsettled += 1

    def settle(self) -> None:
        """The handler of the last frame read has run its first step (or the page went)."""
        if self.unsettled:
            self.unsettled = False
            self.share.unsettled -= 1
            self.share.progressed()

    def progressed(self) -> None:
        """A handler ended or a frame went out: a waiting read may look again."""
        self.share.progressed()

    async def until_progress(self, timeout_s: float) -> None:
        await self.share.until_progress(timeout_s)


PACE: contextvars.ContextVar[Pace | None] = contextvars.ContextVar(
    "tarabish_pace", default=None)
"""The pace of the page whose code runs (set by SessionGuard; Flet's handler tasks
are made inside the connection, so they inherit it)."""

#: Longest single wait before the conditions are looked at again.
_LOOK_AGAIN_S = 0.5


async def paced_receive(receive: Receive, pace: Pace, close: Callable[[str], Awaitable[None]],
                        ) -> Message:
    """The page's next frame, once its budgets allow it (see the module's opening).

    A page held back for `close_after_s` without a pause gets `close(reason)` and a
    disconnect in place of its frame.
    """
    # Let the handler made from the last frame start (and be charged) first: the
    # loop runs ready tasks in order, so it runs before this one resumes.
    await asyncio.sleep(0)
    pace.settle()
    waited = await _turn(pace, close)
    if waited is None:
        return _closed()
    event = await receive()
    if event["type"] != "websocket.receive":
        return event
    # Another page of the address may have been read while this one waited for its
    # frame: this frame is held (one a page) until that one's handler has run.
    after = await _turn(pace, close)
    if after is None:
        return _closed()
    if not (waited or after):
        pace.throttled_since = None
    data = event.get("bytes") or event.get("text") or b""
    pace.charge_frame(len(data))
    pace.read()
    return event


def _closed() -> Message:
    return {"type": "websocket.disconnect", "code": 1008, "reason": TOO_FAST}


async def _turn(pace: Pace, close: Callable[[str], Awaitable[None]]) -> bool | None:
    """Wait until the page may be read: whether it had to wait; None if it was closed."""
    waited = False
    while True:
        wait = pace.wait_s()
        if wait <= 0 and not pace.busy():
            return waited
        now = pace.clock()
        if not waited:
            pace.held_back += 1
            waited = True
        if pace.throttled_since is None:
            pace.throttled_since = now
        if now - pace.throttled_since >= pace.limits.close_after_s:
            pace.closed = True
            await close(TOO_FAST)
            return None
        left = pace.limits.close_after_s - (now - pace.throttled_since)
        if wait > 0:
            await asyncio.sleep(min(wait, left, _LOOK_AGAIN_S))
        else:
            await pace.until_progress(min(left, _LOOK_AGAIN_S))


class _Metered:
    """Awaitable that runs a coroutine and charges each of its steps' CPU time (the
    event loop's, which is what other pages wait on) to a pace."""

    def __init__(self, coro: Awaitable[T], pace: Pace) -> None:
        self.coro = coro
        self.pace = pace

    def __await__(self) -> Generator[Any, Any, Any]:
        inner = self.coro.__await__()
        value: Any = None
        error: BaseException | None = None
        while True:
            start = time.perf_counter()
            try:
                yielded = inner.send(value) if error is None else inner.throw(error)
            except StopIteration as stop:
                self.pace.charge_work(time.perf_counter() - start)
                return stop.value
            except BaseException:
                self.pace.charge_work(time.perf_counter() - start)
                raise
            self.pace.charge_work(time.perf_counter() - start)
            value, error = None, None
            try:
                value = yield yielded
            except BaseException as exc:  # cancelled, or closed: handed to the coroutine
                error = exc


def meter_event_handlers() -> None:
    """Charge every Flet event handler's time to the page that sent the event, and
    count the handlers still running (`Pace.in_flight`)."""
    from flet.messaging.session import Session

    original = Session.dispatch_event
    if getattr(original, "_metered", False):
        return

    @functools.wraps(original)
    async def dispatch(self: Session, control_id: int, event_name: str,
                       event_data: Any) -> None:
        pace = PACE.get()
        if pace is None:
            await original(self, control_id, event_name, event_data)
            return
        pace.in_flight += 1
        try:
            await _Metered(original(self, control_id, event_name, event_data), pace)
        finally:
            pace.in_flight -= 1
            pace.progressed()

    dispatch._metered = True  # type: ignore[attr-defined]
    Session.dispatch_event = dispatch  # type: ignore[method-assign]


def metered_main(main: Callable[[Any], None]) -> Callable[[Any], None]:
    """The page function, its time charged to the address of the page that opened (a
    flood of new pages spends its address's budget like a flood of taps; a page's
    first screen never holds back its own first taps)."""

    @functools.wraps(main)
    def page_main(page: Any) -> None:
        pace = PACE.get()
        start = time.perf_counter()
        try:
            main(page)
        finally:
            if pace is not None:
                pace.share.work.charge(time.perf_counter() - start)

    return page_main
