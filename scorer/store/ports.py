"""The games port: what the app, the server and the commands ask of a game store.

Two adapters implement it: a data folder's files (`game_store.GameStore`, and the
phone's `scorer.browser.storage.BrowserGameStore` built on it) and a community's
PostgreSQL (`pg_games.PgGameStore`). Which one a process holds is chosen once, at
start (`scorer.backends`); every caller types against `GamesPort` and never asks
which it has. The behaviour suites run on both (the `store` fixture).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from scorer.store.changes import Change
from scorer.store.models import GameSummary, StoredGame, SyncedGame


class GamesPort(Protocol):
    """Saved games: read, start, change and delete them, each change checked against the
    revision the phone saw (`StaleRevision`). Errors are `scorer.store.errors`'."""

    data_dir: Path
    """A folder of this machine for what is kept beside the games (caches, the folder's
    rights and club nights); a community keeps no game there."""
    read_only: bool
    problems: list[str]
    """What went wrong reading, naming files and places (for the terminal)."""
    notices: list[str]
    """The same in a player's words (every phone sees them)."""
    on_problem: Callable[[str], None] | None

    def get_game(self, game_id: str) -> StoredGame: ...

    def list_games(self) -> list[GameSummary]: ...

    def list_games_in(self, game_ids: Collection[str]) -> list[GameSummary]:
        """The games among `game_ids` that exist, newest activity first (one phone's sight)."""
        ...

    def next_game(self, game_id: str) -> str | None: ...

    def find_games(self, prefix: str) -> list[str]: ...

    def create_game(self, doc: dict[str, Any], by: str | None = None,
                    follows: str | None = None, origin: str | None = None,
                    phone_at: datetime | None = None) -> StoredGame: ...

    def create_next_game(self, follows: str, doc: dict[str, Any], expected_revision: int,
                         by: str | None = None, origin: str | None = None,
                         phone_at: datetime | None = None) -> StoredGame: ...

    def create_games(self, docs: list[dict[str, Any]]) -> list[StoredGame]: ...

    def add_hand(self, game_id: str, hand: dict[str, Any],
                 expected_revision: int | None = None, by: str | None = None) -> StoredGame: ...

    def replace_hand(self, game_id: str, index: int, hand: dict[str, Any],
                     expected_revision: int, by: str | None = None) -> StoredGame: ...

    def undo_last_hand(self, game_id: str, expected_revision: int,
                       by: str | None = None) -> StoredGame: ...

    def redo_hand(self, game_id: str, expected_revision: int,
                  by: str | None = None) -> StoredGame: ...

    def update_game(self, game_id: str, doc: dict[str, Any], expected_revision: int,
                    by: str | None = None) -> StoredGame: ...

    def delete_game(self, game_id: str) -> None: ...

    def get_synced(self, game_id: str) -> SyncedGame:
        """The game as saved now, with the synced changes its record keeps."""
        ...

    def apply_synced(self, game_id: str, change: Change, expected_revision: int,
                     change_id: str, device: str, by: str | None = None,
                     phone_at: datetime | None = None) -> SyncedGame:
        """A change a phone sent through sync, made on `expected_revision`, written with
        its id in the same write (sent again, it is answered, not applied twice);
        `phone_at`, when the phone made it by its clock, goes into the trail."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> GamesPort: ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...
