"""A brake on guessing table codes: a few free tries, then waits that double.

Keys are chosen by the caller (here: game + device token, and game + client
IP address, so neither a new browser profile nor a new Wi-Fi address resets
the count on its own). State is in memory: a server restart forgives, which is
fine for a 4-digit code at a card table (10,000 codes at 30 s, 60 s, 120 s…
per wrong guess is not worth trying).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from scorer.store.errors import StoreError


class WrongCode(StoreError):
    """The code typed is not the game's table code."""


class TooManyTries(WrongCode):
    """Too many wrong codes from this phone for this game: wait `seconds`."""

    def __init__(self, seconds: float) -> None:
        self.seconds = max(1, math.ceil(seconds))
        super().__init__(f"Too many wrong codes: try again in {self.seconds} s.")


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
    ) -> None:
        self.free = free
        self.base = base
        self.cap = cap
        self.clock = clock
        self.max_keys = max_keys
        self._records: dict[str, _Record] = {}
        self._lock = threading.Lock()

    def wait_left(self, *keys: str) -> float:
        """Seconds until any of `keys` may try again (0: now)."""
        now = self.clock()
        with self._lock:
            waits = [r.locked_until - now for k in keys if (r := self._records.get(k))]
        return max([0.0, *waits])

    def tries_left(self, *keys: str) -> int:
        """Wrong codes still allowed before the first wait."""
        with self._lock:
            used = max([0, *(r.failures for k in keys if (r := self._records.get(k)))])
        return max(0, self.free - used)

    def failed(self, *keys: str) -> float:
        """Count a wrong code; returns the wait it brings (0: none yet)."""
        now = self.clock()
        wait = 0.0
        with self._lock:
            self._prune(now)
            for key in keys:
                rec = self._records.setdefault(key, _Record())
                rec.failures += 1
                rec.last = now
                if rec.failures >= self.free:
                    delay = min(self.cap, self.base * 2 ** (rec.failures - self.free))
                    rec.locked_until = now + delay
                    wait = max(wait, delay)
        return wait

    def succeeded(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._records.pop(key, None)

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
