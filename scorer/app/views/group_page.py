"""The group's page: its members and games, a game to start, and fair teams: tap the
members present, see the partnerships whose chances are closest to even."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import flet as ft

from scorer.app.context import AppContext
from scorer.app.ratings_access import community, rated_folder
from scorer.app.theme import RADIUS, SMALL_TAP
from scorer.app.views.common import app_bar, screen
from scorer.app.views.leaderboard import groups_button, plural
from scorer.app.widgets import Keep, big_button, section, toggle_style
from scorer.ratings.prematch import FAIR_MAX, FAIR_MIN, Proposal, Table, fair_teams, percent_pair
from scorer.ratings.timeline import Skill, Timeline

GROUP_NAME = "Group"
"""This folder's games as one group, until groups of their own exist."""


def seats_route(table: Table, group_id: str | None = None) -> str:
    """New game with the proposed seats: partners sit opposite (seats 1 & 3, 2 & 4);
    for a group's page, the game is for that group."""
    (a, b), (c, d) = table.teams
    return ("/new?seats=" + quote("|".join((a, c, b, d)), safe="")
            + ("" if group_id is None else f"&group={group_id}"))


def chance_lines(table: Table) -> list[str]:
    """`Ann & Dee  53 %`, one line a team."""
    return [f"{' & '.join(team)}  {pct} %"
            for team, pct in zip(table.teams, percent_pair(table.odds), strict=True)]


class GroupScreen:
    """Who is present; redrawn in place on each tap."""

    def __init__(self, ctx: AppContext, timeline: Timeline,
                 members: list[str] | None = None, group_id: str | None = None) -> None:
        self.ctx = ctx
        self.skills: dict[str, Skill] = timeline.current()
        self.group_id = group_id
        self.members = sorted(timeline.names.values() if members is None else members,
                              key=str.casefold)
        self.games = len(timeline.steps)
        self.present: list[str] = []
        self.keep = Keep()
        self.fair = ft.Column(spacing=10)
        self.picker = ft.Row(wrap=True, spacing=6, run_spacing=6)

    def controls(self) -> list[ft.Control]:
        self.fill()
        return [
            ft.Text(f"{plural(len(self.members), 'member')}, "
                    f"{plural(self.games, 'finished game')} (every game here)", size=16),
            ft.Row([big_button("Start a game", lambda _e: self.ctx.go("/new"),
                               icon=ft.Icons.ADD)]),
            self.fair_section(),
        ]

    def fair_section(self) -> ft.Control:
        self.fill()
        return section("Fair teams", self.picker, self.fair,
                       note=f"Tap the {FAIR_MIN} to {FAIR_MAX} members here tonight.")

    def fill(self) -> None:
        self.picker.controls = [self._member(name) for name in self.members]
        self.fair.controls = self.proposal_controls()

    def _member(self, name: str) -> ft.Control:
        """A member's toggle, as wide as the name (a wrapped row of them). The same
        button from one tap to the next: a quick second tap is not lost to a redraw."""
        here = name in self.present
        props: dict[str, Any] = {
            "content": ft.Text(name, size=17, weight=ft.FontWeight.W_600,
                               semantics_label=f"{name} here" if here else f"{name} not here"),
            "icon": ft.Icons.CHECK if here else None, "style": toggle_style(here)}
        return self.keep.control(f"member/{name}", lambda: ft.OutlinedButton(
            **props, height=SMALL_TAP, on_click=lambda _e: self.flip(name)), props)

    def flip(self, name: str) -> None:
        if name in self.present:
            self.present.remove(name)
        elif len(self.present) < FAIR_MAX:
            self.present.append(name)
        else:
            self.ctx.toast(f"Fair teams seat {FAIR_MAX} players at most.", error=True)
            return
        self.fill()
        self.picker.update()
        self.fair.update()

    def proposal_controls(self) -> list[ft.Control]:
        count = len(self.present)
        if count < FAIR_MIN:
            return [ft.Text(f"{count} picked: {FAIR_MIN - count} more to go.", size=16)]
        proposal: Proposal = fair_teams(self.skills, self.present)
        shown: list[ft.Control] = [self._table_card(n, t, len(proposal.tables) > 1)
                                   for n, t in enumerate(proposal.tables, 1)]
        if proposal.sitting_out:
            shown.append(ft.Text("Sitting out: " + ", ".join(proposal.sitting_out), size=16))
        return shown

    def _table_card(self, number: int, table: Table, numbered: bool) -> ft.Control:
        lines = chance_lines(table)
        title = f"Table {number}" if numbered else "Proposed teams"
        return ft.Container(
            content=ft.Column([
                ft.Text(title, size=15, weight=ft.FontWeight.BOLD),
                *(ft.Text(line, size=19, weight=ft.FontWeight.W_600) for line in lines),
                ft.Row([big_button(f"Start table {number}" if numbered else "Start this game",
                                   lambda _e: self.ctx.go(seats_route(table, self.group_id)),
                                   icon=ft.Icons.PLAY_ARROW, primary=False)]),
            ], spacing=4),
            bgcolor=ft.Colors.SURFACE_CONTAINER_LOW, border_radius=ft.BorderRadius.all(RADIUS),
            padding=ft.Padding.all(12),
        )


def group_view(ctx: AppContext) -> ft.View:
    bar = app_bar(ctx, GROUP_NAME, back_to="/ratings")
    if community(ctx.store):
        # Typed by hand: a community has no all-games ratings (Ann at one table is not
        # Ann at another), so no list of every player of every table.
        return screen("/group", bar, [ft.Text("Pick a group for its fair teams.", size=17),
                                      groups_button(ctx)])
    shown = GroupScreen(ctx, rated_folder(ctx.store).timeline())
    return screen("/group", bar, shown.controls())
