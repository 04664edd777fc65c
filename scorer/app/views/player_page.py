"""A player's page: their rating now and over time, their record with each partner
and against each pair of opponents."""

from __future__ import annotations

from urllib.parse import unquote

import flet as ft

from scorer.app.context import AppContext
from scorer.app.ratings_access import (
    ALL_GAMES,
    SEASONS,
    community,
    rated_folder,
    season_start,
)
from scorer.app.views.common import app_bar, screen
from scorer.app.views.leaderboard import (
    group_of,
    no_group_view,
    player_route,
    plural,
    points_line,
    rating_text,
    season_of,
    seasons_row,
    with_query,
)
from scorer.app.views.rating_chart import chart_legend, rating_chart
from scorer.app.widgets import section
from scorer.groups import GroupNotFound
from scorer.ratings.model import PROVISIONAL_GAMES
from scorer.ratings.timeline import Record, find_key, history, records

MOST_ROWS = 12
"""Partners and pairs shown at most (the most played)."""


def record_line(record: Record) -> str:
    losses = record.games - record.wins
    return f"{plural(record.games, 'game')}: {record.wins} won, {losses} lost"


def _rows(rows: list[Record], joiner: str) -> list[ft.Control]:
    shown: list[ft.Control] = [
        ft.Row([ft.Text(joiner.join(r.names), size=16, weight=ft.FontWeight.W_600,
                        expand=True),
                ft.Text(record_line(r), size=15)])
        for r in rows[:MOST_ROWS]]
    if len(rows) > MOST_ROWS:
        shown.append(ft.Text(f"…and {len(rows) - MOST_ROWS} more, less played.", size=14,
                             color=ft.Colors.ON_SURFACE_VARIANT))
    return shown


def player_view(ctx: AppContext, name: str, query: dict[str, str]) -> ft.View:
    name = unquote(name)
    season = season_of(query)
    route = player_route(name)
    try:
        group = group_of(ctx, query)
    except GroupNotFound:
        return no_group_view(ctx, route)
    gid = None if group is None else group.id
    folder = rated_folder(ctx.store)
    bar = app_bar(ctx, name, back_to=with_query("/ratings", season, gid))
    if gid is None and community(ctx.store):
        return screen(route, bar, [ft.Text("Pick a group on the leaderboard to see "
                                           f"{name}'s ratings in it.", size=17)])
    timeline = folder.timeline(gid)
    key = find_key(timeline, name)
    heading = [] if group is None else [ft.Text(group.name, size=18,
                                                weight=ft.FontWeight.BOLD)]
    if key is None:
        within = "" if group is None else " in this group"
        return screen(with_query(route, season, gid), bar, [
            *heading, ft.Text(f"{name} has no finished game{within} yet.", size=17)])
    points = history(timeline, key)
    now = points[-1]
    shown = timeline.name(key)
    # Titled as the board writes the player ("ann" typed in the address is Ann).
    bar = app_bar(ctx, shown, back_to=with_query("/ratings", season, gid))
    head = f"Rating {rating_text(now.rating)}"
    if len(points) < PROVISIONAL_GAMES:
        head += f" · provisional ({len(points)} of {PROVISIONAL_GAMES} games)"
    wins = sum(p.won for p in points)
    body: list[ft.Control] = [
        *heading,
        ft.Text(head, size=20, weight=ft.FontWeight.BOLD),
        ft.Text(f"{plural(len(points), 'game')}, {plural(wins, 'win')} in all", size=15),
        rating_chart(shown, points),
        chart_legend(),
        seasons_row(ctx, route, season, gid),
    ]
    row = next((r for r in folder.board(season, gid) if r.key == key), None)
    partners, opponents = records(timeline, key, season_start(season))
    if row is None or not partners:
        body.append(ft.Text("No finished games in this season.", size=16))
    else:
        # Not "All games", the name of a button elsewhere: the season, as its tap says.
        label = "Over all seasons" if season == ALL_GAMES else dict(SEASONS)[season]
        body.append(ft.Text(f"{label}: {plural(row.games, 'game')}, "
                            f"{plural(row.wins, 'win')}\n"
                            f"{points_line(row.points_for, row.points_against)}", size=16))
        body.append(section("With each partner", *_rows(partners, "")))
        body.append(section("Against each pair", *_rows(opponents, " & ")))
    return screen(with_query(route, season, gid), bar, body)
