"""Small valid games for the store tests (a module of its own: every test folder
has a conftest, so `from conftest import` could find another folder's)."""

from __future__ import annotations

import copy
from typing import Any

from scorer.store import GameStore
from scorer.store.pg_games import PgGameStore

#: Either store (the `store` fixture gives each in turn).
AnyStore = GameStore | PgGameStore

# Caller seat 1 (team 1) takes 92 of 162: made, 70 to team 0 and 92 to team 1.
MADE: dict[str, Any] = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
# Caller seat 0 (team 0) takes 100: made, 100 to team 0 and 62 to team 1.
MADE_0: dict[str, Any] = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}
BAD_TRUMP: dict[str, Any] = {"caller": 1, "trump": "X", "points": {"team": 0, "tricks": 70}}


def game_doc(hands: int = 1, *, target: int | None = None) -> dict[str, Any]:
    """A valid tarabish-game/1 document with `hands` made hands."""
    rules: dict[str, Any] = {} if target is None else {"target": target}
    return {
        "format": "tarabish-game/1",
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "first_dealer": 0,
        "rules": rules,
        "hands": [copy.deepcopy(MADE) for _ in range(hands)],
    }


def reopen(store: AnyStore) -> AnyStore:
    """Another store on the same games (a restart, or another process's)."""
    if isinstance(store, GameStore):
        return GameStore(store.data_dir)
    return PgGameStore(store.db, data_dir=store.data_dir)
