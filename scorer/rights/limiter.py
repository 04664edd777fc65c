"""Brakes on what a guest could repeat without end: a few free tries, then waits
that double (`Backoff`, for wrong table codes), and a count per time window
(`RateWindow`, for new games).

Keys are chosen by the caller (`scorer.rights.service`): the game itself, and
the game + the connection's real address (read from the socket, never from
anything the client sends). State is in memory: a server restart forgives.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from scorer.store.errors import StoreError


class WrongCode(StoreError):
    """The code typed is not the game's table code."""


class TooManyTries(WrongCode):
    """Too many wrong codes from this phone for this game: wait `seconds`."""

    def __init__(self, seconds: float, message: str | None = None) -> None:
        self.seconds = max(1, math.ceil(seconds))
        super().__init__(message or f"Too many wrong codes: try again in {self.seconds} s.")


class Busy(TooManyTries):
    """Another code for this game is being checked this very moment: try again."""

    def __init__(self) -> None:
        super().__init__(1, "Another phone is entering a code here right now: try again "
                            "in a moment.")


@dataclass
class _Record:
    failures: int = 0
    locked_until: float = 0.0
    last: float = 0.0


class Backoff:
    """Counts failures per key; after `free` of them each new one locks the key
    for `base * 2**k` seconds (k = 0, 1, 2, …), at most `cap`."""

    def __init__(
        self,
        free: int = 3,
        base: float = 30.0,
        cap: float = 15 * 60.0,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 10_000,
        forget_after: float | None = None,
    ) -> None:
        self.free = free
        self.base = base
        self.cap = cap
        self.clock = clock
        self.max_keys = max_keys
        self.forget_after = forget_after
        """Seconds without a failure after which a key starts afresh (None: never,
        until `succeeded`)."""
        self._records: dict[str, _Record] = {}
        self._busy: set[str] = set()
        """Keys whose code is being compared now (`turn`): at most one per thread."""
        self._lock = threading.Lock()

    def wait_left(self, *keys: str) -> float:
        """Seconds until any of `keys` may try again (0: now)."""
        now = self.clock()
        with self._lock:
            waits = [r.locked_until - now for k in keys if (r := self._get(k, now))]
        return max([0.0, *waits])

    def tries_left(self, *keys: str) -> int:
        """Wrong codes still allowed before the first wait."""
        now = self.clock()
        with self._lock:
            used = max([0, *(r.failures for k in keys if (r := self._get(k, now)))])
        return max(0, self.free - used)

    def failed(self, *keys: str) -> float:
        """Count a wrong code; returns the wait it brings (0: none yet)."""
        now = self.clock()
        wait = 0.0
        with self._lock:
            self._prune(now)
            for key in keys:
                rec = self._get(key, now) or self._records.setdefault(key, _Record())
                rec.failures += 1
                rec.last = now
                if rec.failures >= self.free:
                    delay = min(self.cap, self.base * 2 ** (rec.failures - self.free))
                    rec.locked_until = now + delay
                    wait = max(wait, delay)
        return wait

    @contextmanager
    def turn(self, key: str) -> Iterator[None]:
        """Hold `key` while a code is compared, or raise Busy if another thread holds it:
        guesses at one game are compared one after another, each seeing the failures
        before it, so many connections at once buy no extra tries (`PgBackoff.turn`
        does the same across processes)."""
        with self._lock:
            if key in self._busy:
                raise Busy()
            self._busy.add(key)
        try:
            yield
        finally:
            with self._lock:
                self._busy.discard(key)

    def succeeded(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._records.pop(key, None)

    def _get(self, key: str, now: float) -> _Record | None:
        """The key's record, dropped first if it has been quiet for `forget_after`."""
        rec = self._records.get(key)
        if (rec is not None and self.forget_after is not None
                and rec.locked_until <= now and now - rec.last > self.forget_after):
            del self._records[key]
            return None
        return rec

    def _prune(self, now: float) -> None:
        """Forget keys quiet for a long time once there are many (memory bound)."""
        if len(self._records) < self.max_keys:
            return
        old = [k for k, r in self._records.items()
               if r.locked_until < now and now - r.last > self.cap * 4]
        for key in old:
            del self._records[key]
        if len(self._records) >= self.max_keys:  # still full: drop the quietest
            for key, _r in sorted(self._records.items(), key=lambda kv: kv[1].last)[
                : len(self._records) // 2
            ]:
                del self._records[key]


class RateWindow:
    """At most `limit` events per key in any `window` seconds (a sliding window)."""

    def __init__(self, limit: int, window: float,
                 clock: Callable[[], float] = time.monotonic, max_keys: int = 10_000) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.max_keys = max_keys
        self._events: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    def wait_left(self, key: str) -> float:
        """Seconds until `key` may act again (0: now)."""
        now = self.clock()
        with self._lock:
            times = self._recent(key, now)
            return 0.0 if len(times) < self.limit else times[0] + self.window - now

    def record(self, key: str) -> None:
        now = self.clock()
        with self._lock:
            if key not in self._events and len(self._events) >= self.max_keys:
                for old in [k for k in self._events if not self._recent(k, now)]:
                    del self._events[old]
                if len(self._events) >= self.max_keys:  # still full: forget the oldest
                    oldest = min(self._events, key=lambda k: self._events[k][-1])
                    del self._events[oldest]
            times = self._events.setdefault(key, [])
            times.append(now)
            del times[: -self.limit]  # only the last `limit` matter

    def _recent(self, key: str, now: float) -> list[float]:
        times = [t for t in self._events.get(key, []) if now - t < self.window]
        if times:
            self._events[key] = times
        else:
            self._events.pop(key, None)
        return times
