"""What every group store does, whatever keeps it: the `Groups` interface.

A store gives a few primitives (read, write under its own lock or transaction);
this class gives the rules: names, limits, members added with their games, and
the keeper code: kept only as a slow hash, so it is shown once, to the phone
that made the group or asked for a new one (any keeper may; the old one stops
working); a wrong code is braked per group and address and per group from
everyone (three tries, ten in all, then waits doubling to 15 min), as an
organiser code is.
"""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from scorer.groups.model import (
    MAX_GAMES,
    BadGroup,
    Group,
    GroupNotFound,
    Keeper,
    NotKeeper,
    check_id,
    clean_name,
    code_matches,
    device_key,
    hash_code,
    member_key,
    new_code,
    with_members,
)
from scorer.groups.ports import GroupsPort
from scorer.rights.limiter import Backoff, TooManyTries, WrongCode

if TYPE_CHECKING:  # psycopg only where a community's database is used
    from scorer.rights.pg_limiter import PgBackoff

KEEPER_MARK = 12
"""Hex digits of a keeper's hashed token shown to the other keepers, to name it."""


ADDRESS_FREE_TRIES = 3
GROUP_FREE_TRIES = 10
WAIT_CAP_S = 15 * 60.0


class Groups(GroupsPort, ABC):
    """Every group of one data folder or one community: the rules both adapters of the
    groups port share (`FolderGroups`, `PgGroups` give the primitives)."""

    def __init__(self, backoff: Backoff | PgBackoff | None = None,
                 group_backoff: Backoff | PgBackoff | None = None) -> None:
        self.backoff: Backoff | PgBackoff = backoff or Backoff(
            free=ADDRESS_FREE_TRIES, cap=WAIT_CAP_S, forget_after=3600.0)
        self.group_backoff: Backoff | PgBackoff = group_backoff or Backoff(
            free=GROUP_FREE_TRIES, cap=WAIT_CAP_S, forget_after=6 * 3600.0)

    # -- the store's primitives ------------------------------------------

    @abstractmethod
    def _all(self) -> list[Group]:
        """Every group."""

    @abstractmethod
    def _insert(self, group: Group, code_hash: str, keeper: str | None) -> None:
        """Save a new group (BadGroup if its name is taken or there are too many)."""

    @abstractmethod
    def _change(self, group_id: str, change: Callable[[Group], Group]) -> Group:
        """Apply `change` to the group as saved now, atomically; the new group."""

    @abstractmethod
    def _code_hash(self, group_id: str) -> str | None: ...

    @abstractmethod
    def _set_code_hash(self, group_id: str, code_hash: str) -> None: ...

    @abstractmethod
    def _is_keeper(self, group_id: str, device: str) -> bool: ...

    @abstractmethod
    def _add_keeper(self, group_id: str, device: str) -> None: ...

    @abstractmethod
    def _kept_ids(self, device: str) -> set[str]:
        """The ids of the groups `device` keeps, in one read."""

    @abstractmethod
    def _keepers(self, group_id: str) -> dict[str, datetime]:
        """The phones keeping the group (SHA-256 of their tokens) and when each began."""

    @abstractmethod
    def _drop_keepers(self, group_id: str, keep: set[str]) -> None:
        """Every keeper of the group but those in `keep` stops keeping it."""

    # -- reading -----------------------------------------------------------

    def get(self, group_id: str) -> Group:
        check_id(group_id)
        for group in self._all():
            if group.id == group_id:
                return group
        raise GroupNotFound(group_id)

    def list_groups(self) -> list[Group]:
        """Every group, by name."""
        return sorted(self._all(), key=lambda g: (member_key(g.name), g.id))

    def find(self, text: str) -> Group:
        """The group whose id is `text`, else the one named `text` (capitals ignored),
        else the one whose id starts with it."""
        wanted = member_key(text)
        groups = self._all()
        # The id first: anyone may name a group as another group's id (ids are in
        # every group's address), which must not take that group's games.
        exact = [g for g in groups if g.id == wanted]
        if exact:
            return exact[0]
        named = [g for g in groups if member_key(g.name) == wanted]
        if named:
            return named[0]
        by_id = [g for g in groups if g.id.startswith(wanted)] if wanted else []
        if len(by_id) == 1:
            return by_id[0]
        if len(by_id) > 1:
            raise BadGroup(f"{text!r} is the start of several groups' ids: give more of it.")
        raise GroupNotFound(text)

    def groups_of_game(self, game_id: str) -> list[Group]:
        return [g for g in self._all() if game_id in g.games]

    # -- changing ----------------------------------------------------------

    def create(self, name: str, members: Sequence[str] = (),
               keeper: str | None = None) -> tuple[Group, str]:
        """A new group and its keeper code, shown this once. `keeper`: the device token
        of the phone that made it (it keeps the group); None from the command line."""
        cleaned = clean_name(name)
        group = Group(id=secrets.token_hex(4), name=cleaned,
                      members=with_members((), list(members)), games=(),
                      created=datetime.now(UTC))
        code = new_code()
        self._insert(group, hash_code(code), None if keeper is None else device_key(keeper))
        return group, code

    def add_games(self, group_id: str, games: Sequence[tuple[str, Sequence[str]]]) -> Group:
        """Games join the group (each id with its four players, who become members if
        they are not yet); a game already in it is left as it is."""

        def change(group: Group) -> Group:
            ids = list(group.games)
            names: list[str] = []
            for game_id, players in games:
                if game_id not in ids:
                    ids.append(game_id)
                    names += list(players)
            if len(ids) > MAX_GAMES:
                raise BadGroup(f"A group can have at most {MAX_GAMES} games.")
            return group.model_copy(update={"games": tuple(ids),
                                            "members": with_members(group.members, names)})

        return self._change(check_id(group_id), change)

    def remove_game(self, group_id: str, game_id: str) -> Group:
        """Take a game out of the group (its members stay)."""

        def change(group: Group) -> Group:
            if game_id not in group.games:
                raise BadGroup(f"The game {game_id} is not in the group {group.name}.")
            return group.model_copy(update={"games": tuple(g for g in group.games
                                                           if g != game_id)})

        return self._change(check_id(group_id), change)

    def add_member(self, group_id: str, name: str) -> Group:
        return self._change(check_id(group_id), lambda g: g.model_copy(
            update={"members": with_members(g.members, [name])}))

    def rename_member(self, group_id: str, old: str, new: str) -> Group:
        """The member `old` is called `new`, spelt as typed; if `new` is another member
        already, the two become one (BadGroup if `old` is no member)."""
        cleaned = clean_name(new, "A member's name")

        def change(group: Group) -> Group:
            was = group.member(old)
            if was is None:
                raise BadGroup(f"{old.strip()} is not a member of {group.name}.")
            merged = group.member(cleaned)  # another member already (or `was` itself)
            members = tuple(cleaned if m == was else m for m in group.members
                            if m == was or m != merged)
            return group.model_copy(update={"members": members})

        return self._change(check_id(group_id), change)

    def remove_member(self, group_id: str, name: str) -> Group:
        """A member leaves the list (their past games stay in the group, and a game they
        play for it later makes them a member again)."""

        def change(group: Group) -> Group:
            was = group.member(name)
            if was is None:
                raise BadGroup(f"{name.strip()} is not a member of {group.name}.")
            return group.model_copy(update={
                "members": tuple(m for m in group.members if m != was)})

        return self._change(check_id(group_id), change)

    def rename(self, group_id: str, name: str) -> Group:
        cleaned = clean_name(name)
        return self._change(check_id(group_id),
                            lambda g: g.model_copy(update={"name": cleaned}))

    # -- the keeper code -----------------------------------------------------

    def holds(self, group_id: str, token: str | None) -> bool:
        """This phone keeps the group (made it, or entered its keeper code)."""
        return bool(token) and self._is_keeper(check_id(group_id), device_key(token or ""))

    def kept_by(self, token: str | None) -> list[Group]:
        """The groups this phone keeps, by name: one read, not one per group (a
        thousand groups asked one by one took seconds at every New club night)."""
        if not token:
            return []
        kept = self._kept_ids(device_key(token))
        return [g for g in self.list_groups() if g.id in kept]

    def kept_games(self, token: str | None) -> set[str]:
        """The games of every group this phone keeps (a community's sight of a phone)."""
        return {game for group in self.kept_by(token) for game in group.games}

    def enter_code(self, group_id: str, token: str, address: str, code: str) -> None:
        """The phone becomes a keeper if `code` is the group's; WrongCode (or
        TooManyTries, with the wait) if not. Braked before the code is compared."""
        group_id = check_id(group_id)
        # One guess at a group at a time, across threads and processes: each sees the
        # failures before it, so many connections at once buy no extra tries (Busy).
        with self.group_backoff.turn(group_id):
            self._enter_code(group_id, token, address, code)

    def _enter_code(self, group_id: str, token: str, address: str, code: str) -> None:
        keys = (f"{group_id}|{address}",)
        wait = max(self.backoff.wait_left(*keys), self.group_backoff.wait_left(group_id))
        if wait > 0:
            raise TooManyTries(wait)
        if code_matches(code, self._code_hash(group_id)):
            self.backoff.succeeded(*keys)
            self._add_keeper(group_id, device_key(token))
            return
        wait = max(self.backoff.failed(*keys), self.group_backoff.failed(group_id))
        if wait > 0:
            raise TooManyTries(wait)
        left = min(self.backoff.tries_left(*keys), self.group_backoff.tries_left(group_id))
        raise WrongCode(f"That is not the keeper code ({left} more "
                        f"{'try' if left == 1 else 'tries'} before a wait).")

    def new_code(self, group_id: str, token: str | None, end_others: bool = False) -> str:
        """A new keeper code, shown this once; the old one stops working. Only a keeper
        may ask (`token` None: the operator at the server's own command line). With
        `end_others`, every other phone stops keeping the group (a lost phone, a keeper
        who left): only this one, and those that enter the new code, keep it."""
        group_id = check_id(group_id)
        self.get(group_id)
        if token is not None and not self.holds(group_id, token):
            raise NotKeeper()
        code = new_code()
        self._set_code_hash(group_id, hash_code(code))
        if end_others:
            self._drop_keepers(group_id, set() if token is None else {device_key(token)})
        return code

    def keepers(self, group_id: str, token: str | None) -> list[Keeper]:
        """The phones keeping the group, oldest first, for a keeper (NotKeeper else):
        each by a short mark of its token's hash, never the token."""
        self.must_keep(group_id, token)
        mine = device_key(token or "")
        return [Keeper(mark=key[:KEEPER_MARK], since=since, this_phone=key == mine)
                for key, since in sorted(self._keepers(group_id).items(),
                                         key=lambda kv: (kv[1], kv[0]))]

    def remove_keeper(self, group_id: str, token: str | None, mark: str) -> None:
        """A keeper ends another phone's (or its own) right to change the group."""
        self.must_keep(group_id, token)
        kept = self._keepers(group_id)
        gone = [key for key in kept if isinstance(mark, str) and len(mark) == KEEPER_MARK
                and key.startswith(mark)]
        if len(gone) != 1:
            raise BadGroup("That phone does not keep the group (any more).")
        self._drop_keepers(group_id, set(kept) - set(gone))

    def must_keep(self, group_id: str, token: str | None) -> None:
        """Raise NotKeeper unless this phone keeps the group (checked on the server
        before every change a phone asks for)."""
        if not self.holds(group_id, token):
            raise NotKeeper()
