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
        self._held: list[Any] = []
        self._task: asyncio.Task[None] | None = None
        self.commits = 0
        """Commits made (the tests and the benchmark read it)."""

    def changed(self) -> None:
        """A write happened: commit it now; later messages wait until it is committed."""
        self._dirty = True
        if self._task is None:
            self._task = asyncio.ensure_future(self._flush())

    def wrap(self, send: Callable[[Any], Any]) -> Callable[[Any], None]:
        self._send = send
        return self.send

    def send(self, message: Any) -> None:
        if self._task is None and not self._dirty:
            self._deliver(message)
            return
        if len(self._held) >= MAX_HELD:  # a runaway loop must not eat the phone's memory
            logger.error("too many messages waiting for storage; dropping the oldest")
            self._held.pop(0)
        self._held.append(message)
        if self._task is None:
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
            for message in held:
                self._deliver(message)

    def _deliver(self, message: Any) -> None:
        if self._send is not None:
            self._send(message)
