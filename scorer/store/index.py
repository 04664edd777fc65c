"""The game list: one summary row per game, kept so listing needs no replays.

The index is a cache, never a source of truth. Each row remembers the
signature (inode, mtime, size) of the game file it was computed from; a row
whose file has a different signature (changed by another process, or since
the index was last written) is recomputed from the game file, a row whose
file is gone is dropped, and the whole index is dropped when the rules engine
changes (its fingerprint is stored with it). So it cannot drift from the game
files, and saving a hand never rewrites it: a save touches only its own game
file and updates the row in memory. The file is written at start-up and on
close, purely to make the next start-up fast.

Layout of `index.json` (a TinyDB database, written by AtomicJSONStorage):
    {"meta": {"1": {"schema": 1, "scoring": "<fingerprint>"}},
     "games": {"1": {"sig": [ino, mtime_ns, size], "summary": {...}}, ...}}
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from scorer.store.atomic_storage import AtomicJSONStorage
from scorer.store.models import GameSummary
from scorer.store.schema import INDEX_SCHEMA

Signature = tuple[int, int, int]


def file_signature(st: os.stat_result) -> Signature:
    """Changes whenever a game file is replaced (each atomic save makes a new inode)."""
    return (st.st_ino, st.st_mtime_ns, st.st_size)


@dataclass(frozen=True)
class IndexRow:
    sig: Signature
    summary: GameSummary


class GameIndex:
    """The in-memory game list, and its file. Callers hold the store lock."""

    def __init__(self, path: Path, scoring: str) -> None:
        self.path = path
        self.scoring = scoring
        self.rows: dict[str, IndexRow] = {}
        self.dirty = False

    def load(self) -> None:
        """Read the index file; raises DamagedFile (from the storage) if it does not parse.

        Rows written by another schema or rules engine are dropped (rebuilt
        from the game files); that is not a problem worth reporting.
        """
        data = AtomicJSONStorage(self.path).read()
        self.rows = {}
        if data is None:
            self.dirty = True
            return
        meta = data.get("meta", {}).get("1", {})
        if meta.get("schema") != INDEX_SCHEMA or meta.get("scoring") != self.scoring:
            self.dirty = True
            return
        for raw in data.get("games", {}).values():
            row = _parse_row(raw)
            if row is None:
                self.dirty = True
                continue
            self.rows[row.summary.id] = row

    def put(self, game_id: str, sig: Signature, summary: GameSummary) -> None:
        self.rows[game_id] = IndexRow(sig, summary)
        self.dirty = True

    def drop(self, game_id: str) -> None:
        if self.rows.pop(game_id, None) is not None:
            self.dirty = True

    def save_if_dirty(self) -> None:
        if not self.dirty:
            return
        games = {
            str(n): {"sig": list(row.sig), "summary": row.summary.model_dump(mode="json")}
            for n, row in enumerate(self.rows.values(), start=1)
        }
        data: dict[str, dict[str, Any]] = {
            "meta": {"1": {"schema": INDEX_SCHEMA, "scoring": self.scoring}},
            "games": games,
        }
        AtomicJSONStorage(self.path).write(data)
        self.dirty = False


def _parse_row(raw: Any) -> IndexRow | None:
    try:
        sig = raw["sig"]
        if not (isinstance(sig, list) and len(sig) == 3 and all(isinstance(x, int) for x in sig)):
            return None
        return IndexRow((sig[0], sig[1], sig[2]), GameSummary.model_validate(raw["summary"]))
    except (KeyError, TypeError, ValidationError):
        return None
