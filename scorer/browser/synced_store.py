"""The games port on a phone that meets a server: the server's games kept by the phone's
sync client, the phone's own games in its store as before.

The screens read and change games through `GamesPort` as ever. For a server's game
(`SyncClient` knows it) a change is applied on the phone at once, kept through the
client's `Keeper` (committed to IndexedDB before the screen says saved), and sent when
the link can (`on_change`). A game started here while a server is there is started
through the client (`create`: it works offline, and goes to the server once it can);
without one, and for every game kept before, the phone's own store does it as today.

A game started here has no server id until the server answers: its key (32 hex) is
shown by its first 8 characters (an address like any game's), which stay its address
after the server gave it its id.

Rights come from the server (`SyncedRights`): the game's state says whether this phone
holds it and its table code; entering a code needs the network.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from scorer.browser.keeper import FolderKeeper
from scorer.rights.owner import OwnerRights
from scorer.store.changes import Change as StoreChange
from scorer.store.errors import GameNotFound, StaleRevision, StoreError
from scorer.store.models import GameSummary, StoredGame, SyncedGame
from scorer.store.ports import GamesPort
from scorer.store.records import summarize
from scorer.store.validation import score_doc
from scorer.sync.client import EditKind, SyncClient
from scorer.sync.messages import AddHand, Details, NextGame, Redo, ReplaceHand, Undo
from scorer.sync.phone import CodeSent, NeedsNetwork

NOT_HERE_YET = ("This game has not reached this phone yet: it comes as soon as the phone "
                "reaches the table server.")
T = TypeVar("T")
_SERVER_ID = re.compile(r"^[0-9a-f]{8}$")


def public_id(key: str) -> str:
    """A game's address on this phone: its server id, or the first 8 of its key."""
    return key[:8]


class SyncedGames:
    """A `GamesPort`: the client's games over the phone's own store. See the module."""

    def __init__(self, local: GamesPort, client: SyncClient, keeper: FolderKeeper, *,
                 start_synced: bool = True,
                 on_change: Callable[[], None] = lambda: None) -> None:
        self.local = local
        self.client = client
        self.keeper = keeper
        self.start_synced = start_synced
        """New games are started through the client (a server is there)."""
        self.on_change = on_change
        """Told after each change made here (the link sends it)."""
        self.on_unknown: Callable[[str], None] | None = None
        """Told of a server id this phone has neither kept nor followed (the page opened
        a game's address): it follows it, and its state redraws the screen."""
        self._summaries: dict[str, tuple[tuple[Any, ...], GameSummary]] = {}
        # What the port holds besides games: the phone's own store's (the same lists).
        self.data_dir: Path = local.data_dir
        self.read_only: bool = local.read_only
        self.problems: list[str] = local.problems
        self.notices: list[str] = local.notices
        self.on_problem: Callable[[str], None] | None = local.on_problem

    # -- names --------------------------------------------------------------------------------

    def key(self, game_id: str) -> str | None:
        """The client's key of a game shown as `game_id`, or None for a game of the
        phone's own store."""
        client = self.client
        key = client.key_of(game_id)
        if key in client.games:
            return key
        for sync in client.games.values():  # a game started here, named by its key's start
            if sync.origin is not None and sync.origin.startswith(game_id) and len(game_id) == 8:
                return sync.key
        return None

    def _shown(self, key: str) -> StoredGame:
        view = self.client.view(key)
        if view is None:
            raise GameNotFound(public_id(key)) from None
        return view if len(view.id) == 8 else view.model_copy(update={"id": public_id(view.id)})

    # -- reading ------------------------------------------------------------------------------

    def get_game(self, game_id: str) -> StoredGame:
        key = self.key(game_id)
        if key is None:
            try:
                return self.local.get_game(game_id)
            except GameNotFound:
                if self.on_unknown is None or not _SERVER_ID.match(game_id):
                    raise
            self.on_unknown(game_id)  # a server's game opened by its address
            raise StoreError(NOT_HERE_YET) from None
        try:
            return self._shown(key)
        except GameNotFound:  # followed, not come yet (or the server has no such game)
            raise StoreError(self.client.games[key].gone or NOT_HERE_YET) from None

    def list_games(self) -> list[GameSummary]:
        rows = {row.id: row for row in self.local.list_games()}
        for key in list(self.client.games):
            row = self._summary(key)
            if row is not None:
                rows[row.id] = row
        return sorted(rows.values(), key=lambda s: (s.updated, s.id), reverse=True)

    def list_games_in(self, game_ids: Collection[str]) -> list[GameSummary]:
        wanted = set(game_ids)
        return [row for row in self.list_games() if row.id in wanted]

    def next_game(self, game_id: str) -> str | None:
        key = self.key(game_id)
        if key is None:
            return self.local.next_game(game_id)
        sync = self.client.games[key]
        if sync.next is not None:
            return sync.next
        for other in self.client.games.values():  # Play again here, not answered yet
            first = other.pending[0].change.kind if other.pending else None
            if isinstance(first, NextGame) and self.client.key_of(first.follows) == key:
                return public_id(other.key)
        return None

    def find_games(self, prefix: str) -> list[str]:
        prefix = prefix.strip().lower()
        mine = {public_id(k) for k in self.client.games if public_id(k).startswith(prefix)}
        return sorted(mine | set(self.local.find_games(prefix)))

    def _summary(self, key: str) -> GameSummary | None:
        try:
            game = self._shown(key)
        except GameNotFound:
            return None
        stamp = (game.id, game.revision, game.updated, len(game.doc.get("hands", [])))
        kept = self._summaries.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        record = {"id": game.id, "revision": game.revision, "created": game.created.isoformat(),
                  "updated": game.updated.isoformat(), "doc": game.doc}
        if game.follows is not None:
            record["follows"] = game.follows
        row = summarize(record, score_doc(game.doc))
        self._summaries[key] = (stamp, row)
        return row

    # -- starting -----------------------------------------------------------------------------

    def create_game(self, doc: dict[str, Any], by: str | None = None,
                    follows: str | None = None, origin: str | None = None,
                    phone_at: datetime | None = None) -> StoredGame:
        if not self.start_synced or follows is not None or origin is not None:
            return self.local.create_game(doc, by, follows, origin, phone_at)
        key = self._held(lambda: self.client.start(doc))
        return self._shown(key)

    def create_next_game(self, follows: str, doc: dict[str, Any], expected_revision: int,
                         by: str | None = None, origin: str | None = None,
                         phone_at: datetime | None = None) -> StoredGame:
        key = self.key(follows)
        if key is None:
            return self.local.create_next_game(follows, doc, expected_revision, by, origin,
                                               phone_at)
        self._fresh(key, expected_revision)
        made = self._held(lambda: self.client.play_again(key, doc))
        return self._shown(made)

    def create_games(self, docs: list[dict[str, Any]]) -> list[StoredGame]:
        return self.local.create_games(docs)

    # -- changing -----------------------------------------------------------------------------

    def add_hand(self, game_id: str, hand: dict[str, Any],
                 expected_revision: int | None = None, by: str | None = None) -> StoredGame:
        key = self.key(game_id)
        if key is None:
            return self.local.add_hand(game_id, hand, expected_revision, by)
        return self._record(key, AddHand(hand=hand), expected_revision)

    def replace_hand(self, game_id: str, index: int, hand: dict[str, Any],
                     expected_revision: int, by: str | None = None) -> StoredGame:
        key = self.key(game_id)
        if key is None:
            return self.local.replace_hand(game_id, index, hand, expected_revision, by)
        return self._record(key, ReplaceHand(index=index, hand=hand), expected_revision)

    def undo_last_hand(self, game_id: str, expected_revision: int,
                       by: str | None = None) -> StoredGame:
        key = self.key(game_id)
        if key is None:
            return self.local.undo_last_hand(game_id, expected_revision, by)
        return self._record(key, Undo(), expected_revision)

    def redo_hand(self, game_id: str, expected_revision: int,
                  by: str | None = None) -> StoredGame:
        key = self.key(game_id)
        if key is None:
            return self.local.redo_hand(game_id, expected_revision, by)
        return self._record(key, Redo(), expected_revision)

    def update_game(self, game_id: str, doc: dict[str, Any], expected_revision: int,
                    by: str | None = None) -> StoredGame:
        key = self.key(game_id)
        if key is None:
            return self.local.update_game(game_id, doc, expected_revision, by)
        details = {k: v for k, v in doc.items() if k != "hands"}
        return self._record(key, Details(doc=details), expected_revision)

    def delete_game(self, game_id: str) -> None:
        key = self.key(game_id)
        if key is None:
            self.local.delete_game(game_id)
            return
        self._held(lambda: self.client.forget(key))  # on this phone only: the server's stays

    def get_synced(self, game_id: str) -> SyncedGame:
        return self.local.get_synced(game_id)

    def apply_synced(self, game_id: str, change: StoreChange, expected_revision: int,
                     change_id: str, device: str, by: str | None = None,
                     phone_at: datetime | None = None) -> SyncedGame:
        return self.local.apply_synced(game_id, change, expected_revision, change_id, device,
                                       by, phone_at)

    def close(self) -> None:
        self.local.close()

    def __enter__(self) -> GamesPort:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- helpers ------------------------------------------------------------------------------

    def _fresh(self, key: str, expected: int | None) -> StoredGame:
        shown = self._shown(key)
        if expected is not None and shown.revision != expected:
            raise StaleRevision(shown, expected, [])
        return shown

    def _record(self, key: str, kind: EditKind, expected: int | None) -> StoredGame:
        self._fresh(key, expected)
        self._held(lambda: self.client.record(key, kind))
        return self._shown(self.client.key_of(key))

    def _held(self, change: Callable[[], T]) -> T:
        """A change of the player's: what it keeps holds the screen until committed."""
        self.keeper.hold = True
        try:
            made = change()
        finally:
            self.keeper.hold = False
        self.on_change()
        return made


class SyncedRights(OwnerRights):
    """What this phone may do: its own games, all; a server's, what the server said (the
    game's state: held or watched, and the table code to a phone that holds it)."""

    def __init__(self, games: SyncedGames, online: Callable[[], bool],
                 sent: Callable[[], None]) -> None:
        self.games = games
        self.online = online
        self.sent = sent

    def may_edit(self, game_id: str, device: str | None) -> bool:
        key = self.games.key(game_id)
        return key is None or self.games.client.games[key].holds

    def code(self, game_id: str) -> str | None:
        key = self.games.key(game_id)
        return None if key is None else self.games.client.games[key].code

    def enter_code(self, game_id: str, device: str, address: str, code: str) -> None:
        key = self.games.key(game_id)
        if key is None:
            return  # a game of this phone's own: it holds it
        if not self.online():
            raise NeedsNetwork()
        self.games.client.claim(key, code)
        self.sent()
        raise CodeSent()
