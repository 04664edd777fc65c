"""Saved games, behind one port (`ports.GamesPort`) with two adapters: a data folder
(`game_store`: one crash-safe TinyDB file per game, and a game list) or a community's
PostgreSQL (`pg_games`, `database/`), chosen at start by `scorer.backends`."""

from scorer.store.errors import (
    DamagedFile,
    GameDamaged,
    GameNotFound,
    HandNotFound,
    InvalidGame,
    NewerSchema,
    NextGameExists,
    StaleRevision,
    StoreError,
)
from scorer.store.game_store import GameStore
from scorer.store.models import GameSummary, StoredGame

__all__ = [
    "DamagedFile",
    "GameDamaged",
    "GameNotFound",
    "GameStore",
    "GameSummary",
    "HandNotFound",
    "InvalidGame",
    "NewerSchema",
    "NextGameExists",
    "StaleRevision",
    "StoreError",
    "StoredGame",
]
