"""Every change a phone makes to a group goes through here, after the server checks
that this phone keeps the group (`GroupsPort.must_keep`, at the moment of the change).
Looking is open to anyone with the group's address. Values and errors only; the
screens draw them.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from scorer.app.actions import NextGame, TableActions
from scorer.app.game_sight import visible_groups
from scorer.app.group_access import get_groups
from scorer.backends import backends_of
from scorer.groups.model import BadGroup, Group, Keeper, check_id, member_key
from scorer.groups.ports import GroupsPort
from scorer.rights.limiter import RateWindow
from scorer.stats.renaming import RenameResult, rename_player
from scorer.store.errors import StoreError
from scorer.store.models import GameSummary, StoredGame

if TYPE_CHECKING:  # psycopg only where a community's database is used
    from scorer.rights.pg_limiter import PgRateWindow

PICK_MAX: Final = 200
"""Games a picker lists (the newest): what one phone screen can scroll through."""
GROUPS_PER_HOUR: Final = 5
"""Groups one phone may make an hour (a table makes one, once)."""
GROUPS_PER_ADDRESS_HOUR: Final = 30
"""Groups the phones of one address may make an hour together: a club hall's phones
share its one address, and each table may make its group on the first night; a
stranger who makes up new phones is held here."""
_new_groups = RateWindow(GROUPS_PER_HOUR, 3600.0)
"""Per phone (the SHA-256 of its device token)."""
_new_groups_here = RateWindow(GROUPS_PER_ADDRESS_HOUR, 3600.0)
"""Per address."""
_making = threading.Lock()
"""One group made at a time in this process: the hourly bound is checked and counted
as one step (sessions tapping at once each saw room for one more)."""


class TooManyGroups(StoreError):
    """This address made too many groups lately."""

    def __init__(self, seconds: float, network: bool = False) -> None:
        minutes = max(1, round(seconds / 60))
        who = (f"Phones on this network have made {GROUPS_PER_ADDRESS_HOUR}" if network
               else f"This phone has made {GROUPS_PER_HOUR}")
        super().__init__(f"{who} groups in the last hour: "
                         f"wait {minutes} min before making another one.")


_of_game: tuple[tuple[int, int, int, int], dict[str, Group]] | None = None
"""Each game's group in a folder, and the groups file's change time it was read at."""


def _by_name(group: Group) -> tuple[str, str]:
    return group.name.casefold(), group.id


def newest_first(games: Sequence[GameSummary]) -> list[GameSummary]:
    return sorted(games, key=lambda s: (s.created, s.id), reverse=True)


class GroupActions:
    """Group actions of one browser session."""

    def __init__(self, actions: TableActions, address: str) -> None:
        self.actions = actions
        self.address = address

    @property
    def groups(self) -> GroupsPort:
        return get_groups(self.actions.ctx.store)

    def _known(self) -> str:
        """This phone's device token; refused while the browser has not said it yet."""
        device = self.actions.device
        if device is None:
            raise BadGroup("One moment: this phone is still being recognised. Tap again.")
        return device

    def _require(self, group_id: str) -> None:
        """NotKeeper unless this phone keeps the group (GroupNotFound for no group)."""
        self.groups.get(group_id)
        self.groups.must_keep(group_id, self.actions.device)

    # -- looking ---------------------------------------------------------------

    def list_groups(self) -> list[Group]:
        """The groups this phone is shown: every one on a laptop and to the host; on a
        community those it keeps (another is opened by its address)."""
        return visible_groups(self.actions.ctx.store, self.actions.rights, self.actions.device)

    def get(self, group_id: str) -> Group:
        return self.groups.get(check_id(group_id))

    def keeps(self, group_id: str) -> bool:
        return self.groups.holds(group_id, self.actions.device)

    def group_of_game(self, game_id: str) -> Group | None:
        """The first group (by name) holding this game; None for a game of no group.
        Every watching phone asks at each redraw of a sheet: a folder's groups are
        read once per change of their file, not once per phone."""
        path = getattr(self.groups, "path", None)
        if path is None:  # a community's database: one query (PgGroups.groups_of_game)
            holding = self.groups.groups_of_game(game_id)
            return min(holding, key=_by_name) if holding else None
        try:
            # Each save replaces the file (a new inode): with its time and size, two
            # saves within one tick of the file system's clock are still told apart.
            st = path.stat()
            mark = (id(self.groups), st.st_mtime_ns, st.st_ino, st.st_size)
        except OSError:
            mark = (id(self.groups), 0, 0, 0)
        global _of_game
        if _of_game is None or _of_game[0] != mark:
            found: dict[str, Group] = {}
            for group in sorted(self.groups.list_groups(), key=_by_name, reverse=True):
                found.update(dict.fromkeys(group.games, group))
            _of_game = (mark, found)
        return _of_game[1].get(game_id)

    def games(self, group: Group) -> list[GameSummary]:
        """The group's games in the store, newest first (a deleted game is left out)."""
        ids = set(group.games)
        return newest_first([s for s in self.actions.ctx.store.list_games() if s.id in ids])

    def candidates(self, group: Group) -> tuple[list[GameSummary], int]:
        """Games not in the group that this phone may see (on a community its own),
        newest first, at most PICK_MAX; and how many more."""
        ids = set(group.games)
        outside = newest_first([s for s in self.actions.visible_games() if s.id not in ids])
        return outside[:PICK_MAX], max(0, len(outside) - PICK_MAX)

    # -- changing --------------------------------------------------------------

    def create(self, name: str, members: Sequence[str] = ()) -> tuple[Group, str]:
        """A new group kept by this phone and its keeper code (shown this once)."""
        device = self._known()
        phone = "phone:" + hashlib.sha256(device.encode()).hexdigest()  # no token kept
        per_phone, per_address = self._new_groups()
        with _making:
            wait = per_phone.wait_left(phone)
            if wait > 0:
                raise TooManyGroups(wait)
            wait = per_address.wait_left(self.address)
            if wait > 0:
                raise TooManyGroups(wait, network=True)
            made = self.groups.create(name, members, keeper=device)
            per_phone.record(phone)
            per_address.record(self.address)
        return made

    def _new_groups(self) -> tuple[RateWindow | PgRateWindow, RateWindow | PgRateWindow]:
        """The counts of new groups per phone and per address: in the community's
        database, which its processes share (each process's own count let an address
        make five in each)."""
        db = backends_of(self.actions.ctx.store).database
        if db is None:
            return _new_groups, _new_groups_here
        from scorer.rights.pg_limiter import PgRateWindow  # psycopg: a community's only

        return (PgRateWindow(db, "new-groups-phone", GROUPS_PER_HOUR, 3600.0),
                PgRateWindow(db, "new-groups", GROUPS_PER_ADDRESS_HOUR, 3600.0))

    def enter_code(self, group_id: str, code: str) -> None:
        """Make this phone a keeper for the right code (WrongCode / TooManyTries)."""
        self.get(group_id)  # an unknown group is said as such, not as a wrong code
        self.groups.enter_code(group_id, self._known(), self.address, code)

    def new_code(self, group_id: str, end_others: bool = False) -> str:
        """A new keeper code; with `end_others`, the other phones stop keeping the group."""
        self._require(group_id)
        return self.groups.new_code(group_id, self._known(), end_others)

    def keepers(self, group_id: str) -> list[Keeper]:
        """The phones keeping the group (a keeper's to see: NotKeeper else)."""
        self.groups.get(group_id)
        return self.groups.keepers(group_id, self.actions.device)

    def remove_keeper(self, group_id: str, mark: str) -> None:
        self.groups.get(group_id)
        self.groups.remove_keeper(group_id, self.actions.device, mark)

    def remove_member(self, group_id: str, name: str) -> Group:
        """A member leaves the group's list; their past games stay."""
        self._require(group_id)
        return self.groups.remove_member(group_id, name)

    def add_member(self, group_id: str, name: str) -> Group:
        self._require(group_id)
        return self.groups.add_member(group_id, name)

    def rename_member(self, group_id: str, old: str, new: str) -> tuple[Group, RenameResult]:
        """A keeper renames a member once, for the group: in every game of the group
        (the keeper's right covers them, whoever holds their table codes) and in its
        member list, spelt as typed. A name that is another member's merges the two.
        Games outside the group are not touched."""
        self._require(group_id)
        group = self.groups.get(group_id)
        if group.member(old) is None:
            raise BadGroup(f"{old.strip()} is not a member of {group.name}.")
        key = member_key(old)
        sat = any(member_key(p) == key for s in self.games(group) for p in s.players)
        # A member who has played no game yet is renamed in the list only (the list
        # checks the new name as a game would).
        result = RenameResult()
        if sat:
            result = rename_player(self.actions.ctx.store, old, new, by=self.actions.label(),
                                   among=sorted(group.games))
            for game_id in result.renamed:
                self.actions.changed(game_id)
        return self.groups.rename_member(group_id, old, new), result

    def add_game(self, group_id: str, game_id: str) -> Group:
        """A stored game joins the group (its players become members)."""
        self._require(group_id)
        self.actions.require_sight(game_id)  # a keeper adds its own games, not a stranger's
        stored = self.actions.ctx.store.get_game(game_id)
        return self.groups.add_games(group_id, [(stored.id, _players(stored))])

    def remove_game(self, group_id: str, game_id: str) -> Group:
        self._require(group_id)
        return self.groups.remove_game(group_id, game_id)

    def create_game(self, group_id: str, doc: dict[str, Any]) -> StoredGame:
        """A new game started from the group's page, which joins it. Checked before the
        game is made: a phone that does not keep the group makes no game at all."""
        self._require(group_id)
        stored = self.actions.create_game(doc)
        try:
            self.groups.add_games(group_id, [(stored.id, _players(stored))])
        except BadGroup as exc:  # the group is full (games or members): the game stands
            raise BadGroup(f"The game is started, but it did not join the group: {exc}"
                           ) from None
        return stored

    def will_follow(self, finished: str) -> Group | None:
        """The group Play again's game will count for: the finished game's, if this phone
        makes the table's next game (it holds the finished one) or keeps the group.
        None: a game of no group, or a watcher's game of its own."""
        group = self.group_of_game(finished)
        if group is None:
            return None
        if self.actions.can_edit(finished) or self.keeps(group.id):
            return group
        return None

    def play_again(self, finished: str, seen_revision: int, doc: dict[str, Any],
                   count: bool = True) -> NextGame:
        """Play again on a group's game: the next game joins the group, checked here at
        the moment it is made (the finished game is in the group, and the new game is
        the table's next one or this phone keeps the group). Only a keeper may say it
        does not count (`count` False: NotKeeper otherwise, and no game is made)."""
        group = self.group_of_game(finished)
        if group is not None and not count:
            self._require(group.id)
        after = self.actions.play_again(finished, seen_revision, doc)
        if group is None or not count or not after.made:
            return after  # (not made: the phone that made it first decided)
        tables_next = self.actions.next_game(finished) == after.game_id
        if not (tables_next or self.keeps(group.id)):
            return after  # a watcher's game of its own: it changes no group
        stored = self.actions.ctx.store.get_game(after.game_id)
        try:
            self.groups.add_games(group.id, [(stored.id, _players(stored))])
        except BadGroup as exc:  # the group is full: the game stands
            raise BadGroup(f"The game is started, but it did not join the group: {exc}"
                           ) from None
        return after


def _players(stored: StoredGame) -> list[str]:
    return [str(p) for p in stored.doc.get("players", [])]
