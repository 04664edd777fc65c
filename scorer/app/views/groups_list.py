"""Groups: every group of this server (a big tap to its page), a new group, and on a
laptop "All games" (the folder as one group). A new group's keeper code is shown
here once, big, right after it is made."""

from __future__ import annotations

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.group_actions import GroupActions
from scorer.app.views.common import app_bar, screen
from scorer.app.views.leaderboard import plural
from scorer.app.widgets import big_button, notice, section, update_shown
from scorer.backends import backends_of
from scorer.groups.model import NAME_MAX, Group
from scorer.store.errors import StoreError

ROUTE = "/groups"
INTRO = ("A group keeps one table's games together: its own leaderboard, "
         "player pages and fair teams.")

NONE_KEPT = ("This phone keeps no group yet. Another group opens from the address its "
             "keeper shares.")
"""A community lists a phone's own groups only (SECURITY.md, "A server on the internet")."""


def group_actions(ctx: AppContext) -> GroupActions:
    return GroupActions(ctx.actions, ctx.address)


def on_community(ctx: AppContext) -> bool:
    """A community's server: no board of all games (Ann at one table is not Ann at
    another)."""
    return CONFIG.database is not None or backends_of(ctx.store).community


def code_digits(code: str) -> str:
    """`1234 5678`: two halves, easier to copy onto paper."""
    half = len(code) // 2
    return f"{code[:half]} {code[half:]}"


def code_panel(ctx: AppContext, group: Group, code: str, made: bool) -> list[ft.Control]:
    """The keeper code, this once, with what to do with it."""
    what = f"{group.name} is made." if made else f"A new keeper code for {group.name}."
    return [
        ft.Text(what, size=20, weight=ft.FontWeight.BOLD),
        ft.Text("Keeper code", size=15, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
        ft.Container(
            content=ft.Text(code_digits(code), size=44, weight=ft.FontWeight.BOLD,
                            semantics_label=f"Keeper code {code}", selectable=True),
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
            padding=ft.Padding.symmetric(horizontal=16, vertical=12),
            border_radius=ft.BorderRadius.all(12),
        ),
        ft.Text("Write it down now: it is shown only this once. Another phone that "
                "enters it can change the group too.", size=17),
    ]


class NewGroupForm:
    """Name and members; once made, the form gives way to the keeper code."""

    def __init__(self, ctx: AppContext, listed: ft.Column) -> None:
        self.ctx = ctx
        self.listed = listed
        """The list of groups above the form: put away once the code is shown, which
        then stands alone on the screen (the list would be out of date)."""
        self.name = ft.TextField(label="Group name", max_length=NAME_MAX, text_size=18,
                                 expand=True)
        self.members = ft.TextField(label="Members (optional)", text_size=18, expand=True,
                                    hint_text="Ann, Bob, Cid, Dee")
        self.error = ft.Column()
        self.body = ft.Column(self.form(), spacing=12)

    def form(self) -> list[ft.Control]:
        return [section(
            "New group", ft.Row([self.name]), ft.Row([self.members]), self.error,
            ft.Row([big_button("Make the group", lambda _e: self.make(), icon=ft.Icons.ADD)]),
            note="Members: names with commas between them. Players of its games join too.")]

    def make(self) -> None:
        names = [n for n in (self.members.value or "").split(",") if n.strip()]
        try:
            group, code = group_actions(self.ctx).create(self.name.value or "", names)
        except (ValueError, StoreError) as exc:
            self.error.controls = [notice(str(exc), error=True)]
            update_shown(self.error)
            return
        self.listed.visible = False
        update_shown(self.listed)
        self.body.controls = [*code_panel(self.ctx, group, code, made=True), ft.Row([big_button(
            "Open the group", lambda _e: self.ctx.go(f"/group/{group.id}"),
            icon=ft.Icons.ARROW_FORWARD)])]
        update_shown(self.body)


def group_button(ctx: AppContext, group: Group) -> ft.Control:
    label = (f"{group.name}\n{plural(len(group.members), 'member')}, "
             f"{plural(len(group.games), 'game')}")
    return ft.Row([ft.OutlinedButton(
        content=ft.Text(label, size=17, weight=ft.FontWeight.W_600),
        icon=ft.Icons.GROUPS, height=72, expand=True,
        on_click=lambda _e: ctx.go(f"/group/{group.id}"))])


def groups_view(ctx: AppContext) -> ft.View:
    groups = group_actions(ctx).list_groups()
    listed: list[ft.Control] = [ft.Text(INTRO, size=15)]
    if not on_community(ctx):
        listed.append(ft.Row([big_button("All games", lambda _e: ctx.go("/group"),
                                         icon=ft.Icons.HISTORY, primary=False)]))
    if groups:
        listed.append(ft.Text("Groups", size=15, weight=ft.FontWeight.BOLD,
                              color=ft.Colors.PRIMARY))
        listed.extend(group_button(ctx, g) for g in groups)
    elif on_community(ctx):  # only the phone's own are listed there (issue 38)
        listed.append(ft.Text(NONE_KEPT, size=17))
    else:
        listed.append(ft.Text("No groups yet.", size=17))
    listed_part = ft.Column(listed, spacing=16)
    form = NewGroupForm(ctx, listed_part)
    return screen(ROUTE, app_bar(ctx, "Groups", back_to="/"), [listed_part, form.body])
