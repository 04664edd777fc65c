"""New game started from a group's page (`/new?group=<id>`): the line saying the game
will count for the group, and the Start that makes it join, checked on the server.

Groups live on a server: the phone-alone site leaves `scorer/groups/` out, so it is
imported here only when a group is asked for, never on a phone alone."""

from __future__ import annotations

from typing import Any

import flet as ft

from scorer.app import CONFIG
from scorer.app.actions import NextGame
from scorer.app.context import AppContext
from scorer.app.widgets import notice
from scorer.store.errors import StoreError


class ForGroup:
    """The group a new game is for, as this phone may or may not keep it."""

    def __init__(self, ctx: AppContext, group_id: str, name: str, keeper: bool) -> None:
        self.ctx = ctx
        self.group_id = group_id
        self.name = name
        self.keeper = keeper

    def line(self) -> ft.Control:
        if self.keeper:
            return notice(f"This game will count for {self.name}.", icon=ft.Icons.GROUPS)
        return notice(f"Only the group's keeper can start a game for {self.name}: enter the "
                      "keeper code on the group's page first.", error=True)

    def start(self, doc: dict[str, Any]) -> str:
        """Make the game and let it join the group; NotKeeper (a ValueError's kin, a
        StoreError) and nothing made for a phone that does not keep the group."""
        from scorer.app.group_actions import GroupActions

        return GroupActions(self.ctx.actions, self.ctx.address).create_game(
            self.group_id, doc).id


class AgainForGroup:
    """Play again on a group's game: the next game counts for the group too; its keeper
    may untick that (checked again on the server, `GroupActions.play_again`)."""

    def __init__(self, ctx: AppContext, group_id: str, name: str, keeper: bool) -> None:
        self.ctx = ctx
        self.group_id = group_id
        self.name = name
        self.keeper = keeper
        self.counts = True

    def line(self) -> ft.Control:
        if not self.keeper:
            return notice(f"This game will count for {self.name}, as the last one did.",
                          icon=ft.Icons.GROUPS)

        def flip(e: ft.Event[ft.Checkbox]) -> None:
            self.counts = bool(e.control.value)

        return ft.Checkbox(label=f"Counts for {self.name}", value=self.counts,
                           on_change=flip, label_style=ft.TextStyle(size=16),
                           tooltip="Untick for a game that does not count for the group")

    def start(self, again: tuple[str, int], doc: dict[str, Any]) -> NextGame:
        """The table's next game, joined to the group unless unticked."""
        from scorer.app.group_actions import GroupActions

        return GroupActions(self.ctx.actions, self.ctx.address).play_again(
            again[0], again[1], doc, count=self.counts)


def again_for_group(ctx: AppContext, finished: str) -> AgainForGroup | None:
    """The group Play again's game will count for (None: none, a phone alone, or a
    watcher's game of its own)."""
    if CONFIG.alone:
        return None
    from scorer.app.group_actions import GroupActions

    actions = GroupActions(ctx.actions, ctx.address)
    try:
        group = actions.will_follow(finished)
    except StoreError:  # the groups cannot be read: a game of no group, as before
        return None
    if group is None:
        return None
    return AgainForGroup(ctx, group.id, group.name, actions.keeps(group.id))


def for_group(ctx: AppContext, group_id: str | None) -> ForGroup | None:
    """The group of `?group=`; None for none, on a phone alone, or for no such group
    (the game is then one of its own, as from home)."""
    if not group_id or CONFIG.alone:
        return None
    from scorer.app.group_actions import GroupActions
    from scorer.groups.model import GroupNotFound

    actions = GroupActions(ctx.actions, ctx.address)
    try:
        group = actions.get(group_id)
    except (GroupNotFound, StoreError):
        return None
    return ForGroup(ctx, group.id, group.name, actions.keeps(group.id))


def group_of_game(ctx: AppContext, game_id: str) -> tuple[str, str] | None:
    """(id, name) of the group a game counts for, for the sheet's small line; None on
    a phone alone or for a game of no group."""
    if CONFIG.alone:
        return None
    from scorer.app.group_actions import GroupActions

    try:
        group = GroupActions(ctx.actions, ctx.address).group_of_game(game_id)
    except StoreError:  # the groups cannot be read: the sheet is shown without the line
        return None
    return None if group is None else (group.id, group.name)


def group_link(ctx: AppContext, group_id: str, name: str) -> ft.Control:
    """`Counts for Friday bish`, a tap to the group's page."""
    # Two lines at most, then "…": a long name is never cut off without a sign.
    return ft.TextButton(
        content=ft.Text(f"Counts for {name}", size=15, weight=ft.FontWeight.W_600,
                        max_lines=2, overflow=ft.TextOverflow.ELLIPSIS),
        icon=ft.Icons.GROUPS,
        on_click=lambda _e: ctx.go(f"/group/{group_id}"))
