"""The leaderboard on a phone: everyone's rating, the season's games and wins; a tap
on a player opens their page."""

from __future__ import annotations

from urllib.parse import quote

import flet as ft

from scorer.app.context import AppContext
from scorer.app.ratings_access import ALL_GAMES, SEASONS, rated_folder, season_start
from scorer.app.theme import RADIUS
from scorer.app.views.common import app_bar, screen
from scorer.app.widgets import big_button, small_toggle
from scorer.ratings.model import PROVISIONAL_GAMES
from scorer.ratings.timeline import BoardRow, leaderboard

MEANS = (f"Rating: a careful estimate of skill from wins and losses. Provisional until "
         f"{PROVISIONAL_GAMES} games.")


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

    return ft.Row([small_toggle(label, key == season, lambda _e, k=key: go(k))
                   for key, label in SEASONS], spacing=6)


def row_line(row: BoardRow, season: str) -> str:
    line = f"{plural(row.games, 'game')}, {plural(row.wins, 'win')}"
    if season != ALL_GAMES:
        line += f" · {change_text(row.change)}"
    return line


def board_row(ctx: AppContext, rank: int, row: BoardRow, season: str) -> ft.Control:
    muted = ft.Colors.ON_SURFACE_VARIANT
    lines: list[ft.Control] = [
        ft.Text(row.player, size=18, weight=ft.FontWeight.BOLD, max_lines=1,
                overflow=ft.TextOverflow.ELLIPSIS),
        ft.Text(row_line(row, season), size=14),
    ]
    if row.provisional:
        lines.append(ft.Text(f"provisional: {row.rated_games} of {PROVISIONAL_GAMES} games",
                             size=13, color=muted, italic=True))
    spoken = (f"{rank}. {row.player}, rating {rating_text(row.rating)}"
              + (", provisional" if row.provisional else ""))
    return ft.Container(
        content=ft.Row([
            ft.Text(str(rank), size=18, weight=ft.FontWeight.BOLD, width=30,
                    text_align=ft.TextAlign.RIGHT, color=muted),
            ft.Column(lines, spacing=0, expand=True),
            ft.Text(rating_text(row.rating), size=24, weight=ft.FontWeight.BOLD,
                    italic=row.provisional),
        ], spacing=10),
        on_click=lambda _e: ctx.go(player_route(row.player, season)), ink=True,
        tooltip=spoken, bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        border_radius=ft.BorderRadius.all(RADIUS),
        padding=ft.Padding.only(left=6, right=14, top=8, bottom=8),
    )


def leaderboard_view(ctx: AppContext, query: dict[str, str]) -> ft.View:
    season = season_of(query)
    route = "/ratings"
    bar = app_bar(ctx, "Leaderboard", back_to="/")
    timeline = rated_folder(ctx.store).timeline()
    rows = leaderboard(timeline, season_start(season))
    body: list[ft.Control] = [seasons_row(ctx, route, season)]
    if not rows:
        body.append(ft.Text("No finished games in this season yet.", size=17))
    else:
        body.append(ft.Text(MEANS, size=14, color=ft.Colors.ON_SURFACE_VARIANT))
        body.append(ft.Column([board_row(ctx, n, row, season)
                               for n, row in enumerate(rows, 1)], spacing=8))
    body.append(ft.Row([big_button("Fair teams", lambda _e: ctx.go("/group"),
                                   icon=ft.Icons.GROUPS, primary=False)]))
    return screen(route + ("" if season == ALL_GAMES else f"?season={season}"), bar, body)
