"""Hold the screen's updates until the change they show is committed.

A save in the browser writes the game to the in-memory file system at once
and to IndexedDB asynchronously. So that a hand shown as saved is never lost
(a tab killed right after "Saved"), every message to the screen that follows
a write waits, in order, until the write is committed. Messages with no write
before them go straight through (number-pad taps are not slowed down).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

logger = logging.getLogger(__name__)

MAX_HELD = 10_000
"""Messages kept while a commit is pending; far above one screen's worth."""


class DurableSender:
    """Wraps the page's send function; `changed()` marks a write to commit first."""

    def __init__(self, commit: Callable[[], Awaitable[str | None]],
                 on_failure: Callable[[str], None] = lambda _why: None) -> None:
        self._commit = commit
        self._on_failure = on_failure
        self._send: Callable[[Any], Any] | None = None
        self._dirty = False
        self._holding = False
        """A write that must be committed before the screen says more is pending."""
        self._held: list[Any] = []
        self._task: asyncio.Task[None] | None = None
        self.commits = 0
        """Commits made (the tests and the benchmark read it)."""

    def changed(self, hold: bool = True) -> None:
        """A write happened: commit it now; later messages wait until it is committed.
        `hold=False`: a write nothing on the screen depends on (start-up's own: a
        rebuilt game list, the folder's lock; lost with the tab, the next start makes
        it again) is committed without holding the screen back."""
        self._dirty = True
        if hold:
            self._holding = True
        if self._task is None:
            self._task = asyncio.ensure_future(self._flush())

    def wrap(self, send: Callable[[Any], Any]) -> Callable[[Any], None]:
        self._send = send
        return self.send

    def send(self, message: Any) -> None:
        if not self._holding:
            self._deliver(message)
            return
        if len(self._held) >= MAX_HELD:  # a runaway loop must not eat the phone's memory
            logger.error("too many messages waiting for storage; dropping the oldest")
            self._held.pop(0)
        self._held.append(message)
        if self._task is None:  # writes left after the last commit's rounds
            self._task = asyncio.ensure_future(self._flush())

    async def flush(self) -> None:
        """Commit any pending write now (also sends what was held)."""
        if self._task is None and self._dirty:
            self._task = asyncio.ensure_future(self._flush())
        if self._task is not None:
            await self._task

    async def _flush(self) -> None:
        try:
            for _ in range(100):  # writes made while committing are committed too
                if not self._dirty:
                    break
                self._dirty = False
                failure = await self._commit()
                self.commits += 1
                if failure is not None:
                    self._on_failure(failure)
        finally:
            held, self._held = self._held, []
            self._task = None
            self._holding = self._dirty  # still dirty only when the rounds ran out
            for message in held:
                self._deliver(message)

    def _deliver(self, message: Any) -> None:
        if self._send is not None:
            self._send(message)
