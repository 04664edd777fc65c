"""The statistics cache: each game's facts, kept per game revision.

Replaying every hand of every game on each request would grow with the
history, so each game's facts are kept with the revision (and save time) they
were computed from, and recomputed only when the game has changed. The cache
is never a source of truth: an entry whose game has another revision, or that
was made by another rules engine, is recomputed; the file is dropped if it
cannot be read. It holds at most one entry per stored game.

Layout of `DATA/stats-cache.json` (AtomicJSONStorage, like the game list):
    {"meta": {"1": {"schema": 1, "scoring": "<fingerprint>"}},
     "games": {"<id>": {"revision": 7, "updated": "<ISO>", "facts": {...}}}}
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rules.stats import GameFacts
from scorer.store.atomic_storage import AtomicJSONStorage
from scorer.store.errors import StoreError

CACHE_FILE = "stats-cache.json"
CACHE_SCHEMA = 1


@dataclass(frozen=True)
class CachedFacts:
    revision: int
    updated: str
    facts: GameFacts


class FactsCache:
    """In memory, plus its file in the data folder. Callers serialize access."""

    def __init__(self, data_dir: Path, scoring: str) -> None:
        self.path = Path(data_dir) / CACHE_FILE
        self.scoring = scoring
        self.entries: dict[str, CachedFacts] = {}
        self.dirty = False

    def get(self, game_id: str, revision: int, updated: str) -> GameFacts | None:
        entry = self.entries.get(game_id)
        if entry is None or entry.revision != revision or entry.updated != updated:
            return None
        return entry.facts

    def put(self, game_id: str, revision: int, updated: str, facts: GameFacts) -> None:
        self.entries[game_id] = CachedFacts(revision, updated, facts)
        self.dirty = True

    def keep_only(self, game_ids: set[str]) -> None:
        """Forget deleted games, so the cache never outgrows the store."""
        gone = [game_id for game_id in self.entries if game_id not in game_ids]
        for game_id in gone:
            del self.entries[game_id]
        self.dirty = self.dirty or bool(gone)

    def load(self) -> None:
        """Read the file; a missing, damaged or outdated file just means an empty cache."""
        self.entries = {}
        try:
            data = AtomicJSONStorage(self.path).read()
        except (OSError, StoreError):
            return
        if data is None:
            return
        meta = data.get("meta", {}).get("1", {})
        if meta.get("schema") != CACHE_SCHEMA or meta.get("scoring") != self.scoring:
            return
        for game_id, raw in data.get("games", {}).items():
            entry = _parse(raw)
            if entry is not None:
                self.entries[game_id] = entry

    def save_if_dirty(self) -> None:
        """Write the file; a read-only or full disk only costs the next run some time."""
        if not self.dirty:
            return
        games = {
            game_id: {
                "revision": entry.revision,
                "updated": entry.updated,
                "facts": entry.facts.model_dump(mode="json"),
            }
            for game_id, entry in self.entries.items()
        }
        data: dict[str, dict[str, Any]] = {
            "meta": {"1": {"schema": CACHE_SCHEMA, "scoring": self.scoring}},
            "games": games,
        }
        try:
            AtomicJSONStorage(self.path).write(data)
        except OSError:
            return
        self.dirty = False


def _parse(raw: Any) -> CachedFacts | None:
    try:
        revision, updated = raw["revision"], raw["updated"]
        if not isinstance(revision, int) or not isinstance(updated, str):
            return None
        return CachedFacts(revision, updated, GameFacts.model_validate(raw["facts"]))
    except (KeyError, TypeError, ValidationError):
        return None
