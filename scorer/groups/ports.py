"""The groups port: what the app, the server, the club nights and the commands ask of
the groups.

Its adapters: `folder.FolderGroups` (a data folder's `groups.json`) and `pg.PgGroups`
(a community's database), both built on `service.Groups`, which holds the rules.
Which one a process holds is chosen once, at start (`scorer.backends`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from scorer.groups.model import Group


class GroupsPort(Protocol):
    """Every group of one data folder or one community. Refusals raise `BadGroup`,
    `GroupNotFound`, `NotKeeper`, `WrongCode`, `TooManyTries`."""

    def get(self, group_id: str) -> Group: ...

    def list_groups(self) -> list[Group]: ...

    def find(self, text: str) -> Group: ...

    def groups_of_game(self, game_id: str) -> list[Group]: ...

    def create(self, name: str, members: Sequence[str] = (),
               keeper: str | None = None) -> tuple[Group, str]: ...

    def add_games(self, group_id: str, games: Sequence[tuple[str, Sequence[str]]]) -> Group: ...

    def remove_game(self, group_id: str, game_id: str) -> Group: ...

    def add_member(self, group_id: str, name: str) -> Group: ...

    def holds(self, group_id: str, token: str | None) -> bool: ...

    def kept_by(self, token: str | None) -> list[Group]: ...

    def kept_games(self, token: str | None) -> set[str]:
        """The games of every group this phone keeps."""
        ...

    def enter_code(self, group_id: str, token: str, address: str, code: str) -> None: ...

    def new_code(self, group_id: str, token: str | None) -> str: ...

    def must_keep(self, group_id: str, token: str | None) -> None: ...
