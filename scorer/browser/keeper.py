"""Where the phone keeps its synced games and their outbox: one file per game in a folder
of the store's IndexedDB-backed file system (`scorer.browser.storage`), written whole
and replaced atomically, then committed to IndexedDB like a saved game
(`scorer.browser.durable`: what the screen shows after a change waits for the commit).

Pure Python over a folder: the tests run it on a temporary one.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable
from pathlib import Path

logger = logging.getLogger(__name__)

_KEY = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
SUFFIX = ".json"
MAX_FILES = 1_000
"""Files read at start (the client keeps far fewer: a phone's games and one state)."""


class FolderKeeper:
    """A `scorer.sync.client.Keeper` over a folder. `on_write(hold)` is told after each
    write: `hold` is True while the player's own change is being kept (the screen waits
    for it), False for what the server said (sent again if lost with the tab)."""

    def __init__(self, folder: Path, on_write: Callable[[bool], None] = lambda _hold: None
                 ) -> None:
        self.folder = folder
        self.on_write = on_write
        self.hold = False
        """Set by the synced store around a player's change."""
        self.problem: str | None = None
        folder.mkdir(parents=True, exist_ok=True)

    def load(self) -> dict[str, str]:
        kept: dict[str, str] = {}
        try:
            names = sorted(os.listdir(self.folder))[:MAX_FILES]
        except OSError as exc:
            self.problem = str(exc)
            return kept
        for name in names:
            key = name.removesuffix(SUFFIX)
            if not name.endswith(SUFFIX) or not _KEY.match(key):
                continue  # a temporary file left by a closed tab, or not ours
            try:
                kept[key] = (self.folder / name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                logger.warning("could not read the kept sync state %s", name, exc_info=True)
        return kept

    def keep(self, key: str, text: str) -> None:
        path = self._path(key)
        temp = path.with_name(f".{path.name}.tmp")
        temp.write_text(text, encoding="utf-8")
        os.replace(temp, path)
        self.on_write(self.hold)

    def forget(self, key: str) -> None:
        try:
            self._path(key).unlink()
        except FileNotFoundError:
            return
        self.on_write(self.hold)

    def _path(self, key: str) -> Path:
        if not _KEY.match(key):
            raise ValueError(f"not a key: {key!r}")
        return self.folder / f"{key}{SUFFIX}"
