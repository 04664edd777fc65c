"""Schema versions of the store's files, and migration of old files.

Every file the store writes carries `"schema": N`. A file with an older N is
migrated in memory when read (and written back in the new form at its next
save); a file with a newer N is left untouched and reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorer.store.errors import DamagedFile, NewerSchema

GAME_SCHEMA = 2  # a game file: {"game": {"1": GameRecord}}; 2 added the edit trail
INDEX_SCHEMA = 2  # 2: rows carry `origin`; index.json: {"meta": {"1": {...}}, "games": {...}}



def _trail_from_now(record: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 kept short notes only: the game's edit trail starts at its next change.
    (Schema 1 apps refuse schema 2 files, so none of them can write past the trail.)"""
    return {**record, "history": []}


# GAME_MIGRATIONS[n] turns a schema-n record into a schema-(n + 1) record.
GAME_MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _trail_from_now}


def upgrade_game_record(record: dict[str, Any], path: str) -> dict[str, Any]:
    """Return `record` in the current schema, or raise NewerSchema / DamagedFile."""
    version = record.get("schema")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise DamagedFile(path, "it has no schema version")
    if version > GAME_SCHEMA:
        raise NewerSchema(path, version, GAME_SCHEMA)
    while version < GAME_SCHEMA:
        record = GAME_MIGRATIONS[version](record)
        version += 1
        record["schema"] = version
    return record
