"""The leaderboard on a phone: everyone's rating, the season's games and wins; a tap
on a player opens their page."""

from __future__ import annotations

from typing import cast
from urllib.parse import quote

import flet as ft

from scorer.app.context import AppContext
from scorer.app.ratings_access import ALL_GAMES, SEASONS, rated_folder
from scorer.app.theme import RADIUS
from scorer.app.views.club import link_button
from scorer.app.views.common import app_bar, screen
from scorer.app.widgets import big_button, small_toggle
from scorer.ratings.model import PROVISIONAL_GAMES
from scorer.ratings.timeline import BoardRow

MEANS = (f"Rating: a careful estimate of skill from wins and losses. Provisional until "
         f"{PROVISIONAL_GAMES} games.")


FIRST_ROWS = 20
"""Players shown at first: a group of 200 is a long list for a phone to build at every
visit (the rest is a tap away)."""


def rating_text(value: float) -> str:
    """One decimal, a real minus sign."""
    return f"{value:.1f}".replace("-", "−")


def change_text(value: float) -> str:
    if round(value, 1) == 0:
        return "±0.0"
    return ("+" if value > 0 else "") + rating_text(value)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def season_of(query: dict[str, str]) -> str:
    season = query.get("season", ALL_GAMES)
    return season if season in dict(SEASONS) else ALL_GAMES


def player_route(name: str, season: str = ALL_GAMES) -> str:
    route = f"/player/{quote(name, safe='')}"
    return route if season == ALL_GAMES else f"{route}?season={season}"


def seasons_row(ctx: AppContext, route: str, season: str) -> ft.Control:
    """All games / This year / This month, as taps."""
    def go(key: str) -> None:
        ctx.go(route if key == ALL_GAMES else f"{route}?season={key}")

    # Shares of the width by the words' length: "This month" fits a 360 px phone.
    return ft.Row([small_toggle(label, key == season, lambda _e, k=key: go(k),
                                expand=len(label) + 2)
                   for key, label in SEASONS], spacing=6)


def row_line(row: BoardRow, season: str) -> str:
    line = f"{plural(row.games, 'game')}, {plural(row.wins, 'win')}"
    if season != ALL_GAMES:
        line += f" · {change_text(row.change)}"
    return line


def board_row(ctx: AppContext, rank: int, row: BoardRow, season: str) -> ft.Control:
    """One tap target a player: few controls (a group's board has hundreds of rows,
    each built by the phone on every visit), its words in one text."""
    line = row_line(row, season)
    spans = [ft.TextSpan(f"\n{line}", style=ft.TextStyle(size=14))]
    spoken = f"{rank}. {row.player}, rating {rating_text(row.rating)}, {line}"
    if row.provisional:
        mark = f"provisional: {row.rated_games} of {PROVISIONAL_GAMES} games"
        spans.append(ft.TextSpan(f"\n{mark}", style=ft.TextStyle(
            size=13, italic=True, color=ft.Colors.ON_SURFACE_VARIANT)))
        spoken += f", {mark}"
    return ft.Container(
        content=ft.Row([
            ft.Text(f"{rank}. {row.player}", size=18, weight=ft.FontWeight.BOLD, spans=spans,
                    expand=True, semantics_label=spoken),
            ft.Text(rating_text(row.rating), size=24, weight=ft.FontWeight.BOLD,
                    italic=row.provisional),
        ], spacing=10),
        on_click=lambda _e: ctx.go(player_route(row.player, season)), ink=True,
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW, border_radius=ft.BorderRadius.all(RADIUS),
        padding=ft.Padding.only(left=14, right=14, top=8, bottom=8),
    )


def leaderboard_view(ctx: AppContext, query: dict[str, str]) -> ft.View:
    season = season_of(query)
    route = "/ratings"
    bar = app_bar(ctx, "Leaderboard", back_to="/")
    rows = rated_folder(ctx.store).board(season)
    body: list[ft.Control] = [seasons_row(ctx, route, season)]
    if not rows:
        body.append(ft.Text("No finished games in this season yet.", size=17))
    else:
        body.append(ft.Text(MEANS, size=14, color=ft.Colors.ON_SURFACE_VARIANT))
        shown = rows if query.get("rows") == "all" else rows[:FIRST_ROWS]
        body.append(ft.Column([board_row(ctx, n, row, season)
                               for n, row in enumerate(shown, 1)], spacing=8))
        if len(shown) < len(rows):
            more = f"{route}?rows=all" + ("" if season == ALL_GAMES else f"&season={season}")
            body.append(ft.Row([big_button(f"Show all {len(rows)} players",
                                           lambda _e: ctx.go(more), icon=ft.Icons.EXPAND_MORE,
                                           primary=False)]))
    body.append(ft.Row([big_button("Fair teams", lambda _e: ctx.go("/group"),
                                   icon=ft.Icons.GROUPS, primary=False)]))
    body.append(ft.Row([big_button("Groups", lambda _e: ctx.go("/groups"),
                                   icon=ft.Icons.GROUPS, primary=False)]))
    # The hall's TV: a plain page of the server's, read across the room.
    tv = "/leaderboard" + ("" if season == ALL_GAMES else f"?season={season}")
    body.append(ft.Row([link_button("Leaderboard for the TV", tv, ft.Icons.TV)]))
    view = screen(route + ("" if season == ALL_GAMES else f"?season={season}"), bar, body)
    # A kind of control at the top of its own (home has a SafeArea, New game a
    # Container, the sheet a Stack): the switch from home refills the View
    # (router.ONE_VIEW) and the phone builds this screen afresh in it.
    view.controls = [ft.Row([ft.Container(content=cast(ft.Control, view.controls[0]),
                                          expand=True)],
                            expand=True, vertical_alignment=ft.CrossAxisAlignment.STRETCH)]
    return view
