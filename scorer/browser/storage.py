"""The game store in the browser: the store's folder in IndexedDB (Emscripten's IDBFS).

The same `GameStore` as on the table server writes its files (atomic
replace and all) into a folder of the in-memory file system that is mounted
from IndexedDB. After every change `commit()` copies what changed into
IndexedDB in one transaction (made "strict": flushed to disk before it
completes), and `scorer.browser.durable` keeps the screen from saying
"saved" before that. A game file that cannot be read is moved to the
`damaged/` folder with a message on the home screen, exactly as on the
server. There is one user and one process, so no cross-process lock: the
server's data-folder lock is an edge the browser does not need.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from pathlib import Path
from typing import Any

from scorer.store.game_store import GameStore
from scorer.store.models import GameSummary, StoredGame
from scorer.store.records import new_origin

logger = logging.getLogger(__name__)

COMMIT_TRIES = 3
"""Rounds of a commit that found a file gone while it stored it."""
MOUNT = "/tarabish"
"""Mount point of the IndexedDB-backed folder; IDBFS names its database after it."""

_STRICT_JS = """
(() => {
  // IndexedDB's default durability lets the browser report a commit before it
  // reaches the disk; a game shown as saved must be on disk.
  const proto = globalThis.IDBDatabase && IDBDatabase.prototype;
  if (!proto || proto.transaction.__tarabishStrict) return;
  const original = proto.transaction;
  const strict = function (names, mode, options) {
    if (mode === "readwrite" && options === undefined) options = { durability: "strict" };
    return original.call(this, names, mode, options);
  };
  strict.__tarabishStrict = true;
  proto.transaction = strict;
})();
"""


class BrowserGameStore(GameStore):
    """A GameStore that tells `on_change` after anything that may have written a file."""

    def __init__(self, data_dir: Path, on_change: Any) -> None:
        self._on_change = on_change
        super().__init__(data_dir)
        # Start-up may have rebuilt the game list, taken the folder's lock or set a
        # file aside: committed, but the first screen need not wait (lost with the
        # tab, the next start does the same again).
        self._on_change(hold=False)

    def _create(self, doc: dict[str, Any], by: str | None, follows: str | None,
                origin: str | None, phone_at: datetime | None = None) -> StoredGame:
        """Every game kept here gets its key now: sent to a table server later, however
        often, it is one game there (`scorer.app.send_game`)."""
        return super()._create(doc, by, follows, origin or new_origin(), phone_at)

    def _wrote(self) -> None:
        """After anything that may have written a file (every change calls it)."""
        self._on_change()

    # Reading can set a damaged file aside (a write): commit that too.

    def get_game(self, game_id: str) -> StoredGame:
        before = len(self.problems)
        try:
            return super().get_game(game_id)
        finally:
            if len(self.problems) != before:
                self._wrote()

    def list_games(self) -> list[GameSummary]:
        before = len(self.problems)
        try:
            return super().list_games()
        finally:
            if len(self.problems) != before:
                self._wrote()


class IndexedDBFolder:
    """The IndexedDB-backed folder at MOUNT, and committing it."""

    def __init__(self) -> None:
        import pyodide_js

        self._fs = pyodide_js.FS
        self.problem: str | None = None
        """Why the folder could not be loaded (games then last this visit only)."""

    async def open(self) -> Path:
        """Mount the folder and load what IndexedDB holds into it."""
        from pyodide.code import run_js

        run_js(_STRICT_JS)
        self._fs.mkdirTree(MOUNT)
        self._fs.mount(self._fs.filesystems.IDBFS, _js_object({}), MOUNT)
        failure = await self._sync(populate=True)
        if failure is not None:
            self.problem = (
                "This browser would not give back the games saved on this phone "
                f"({failure}). New games work but are kept only until the page is "
                "closed. Private browsing, or a full phone, can cause this."
            )
            logger.error("loading from IndexedDB failed: %s", failure)
        return Path(MOUNT)

    async def commit(self) -> str | None:
        """Write every changed file to IndexedDB; None when done, else why not."""
        for _ in range(COMMIT_TRIES):
            failure = await self._sync(populate=False)
            # Emscripten lists the files, then stores them one by one: a file deleted or
            # renamed meanwhile (a synced game renamed to its server id) fails the round
            # with ErrnoError; the next round lists what is there now.
            if failure is None or not failure.startswith("ErrnoError"):
                break
        if failure is not None:
            logger.error("saving to IndexedDB failed: %s", failure)
        return failure

    async def _sync(self, populate: bool) -> str | None:
        from pyodide.ffi import create_once_callable

        loop = asyncio.get_running_loop()
        done: asyncio.Future[str | None] = loop.create_future()

        def finished(error: Any = None) -> None:
            if not done.done():
                # Emscripten calls back with null (Pyodide's jsnull) on success.
                ok = error is None or repr(error) == "jsnull"
                done.set_result(None if ok else _describe(error))

        try:
            self._fs.syncfs(populate, create_once_callable(finished))
        except Exception as e:  # the JS call itself refused (no IndexedDB at all)
            return _describe(e)
        return await done


def _describe(error: Any) -> str:
    name = str(getattr(error, "name", "") or "")
    message = str(getattr(error, "message", "") or error)
    if name == "QuotaExceededError":
        return "the phone's storage for this page is full"
    return f"{name}: {message}" if name else message


def _js_object(value: dict[str, Any]) -> Any:
    import js
    from pyodide.ffi import to_js

    return to_js(value, dict_converter=js.Object.fromEntries)
