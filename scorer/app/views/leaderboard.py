"""The leaderboard on a phone: everyone's rating, the season's games and wins; a tap
on a player opens their page."""

from __future__ import annotations

from typing import cast
from urllib.parse import quote, urlencode

import flet as ft

from scorer.app.context import AppContext
from scorer.app.game_sight import visible_groups
from scorer.app.group_access import get_groups
from scorer.app.ratings_access import ALL_GAMES, SEASONS, community, rated_folder
from scorer.app.theme import RADIUS
from scorer.app.views.club import link_button
from scorer.app.views.common import app_bar, message_view, screen
from scorer.app.widgets import big_button, small_toggle, toggle_style
from scorer.groups import Group, GroupNotFound
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


NO_GROUP = "There is no such group. Its address may be cut short: ask its keeper for it again."


def group_of(ctx: AppContext, query: dict[str, str]) -> Group | None:
    """The group the address asks for (`?group=`), None for all games; GroupNotFound for
    a bad or unknown id."""
    group_id = query.get("group")
    return None if group_id is None else get_groups(ctx.store).get(group_id)


def no_group_view(ctx: AppContext, route: str) -> ft.View:
    return message_view(ctx, route, "No such group", NO_GROUP)


def with_query(path: str, season: str = ALL_GAMES, group: str | None = None,
               **more: str) -> str:
    """`path` with the season and group it shows (left out when all games)."""
    query = {**({"group": group} if group else {}),
             **({"season": season} if season != ALL_GAMES else {}), **more}
    return f"{path}?{urlencode(query)}" if query else path


def player_route(name: str, season: str = ALL_GAMES, group: str | None = None) -> str:
    return with_query(f"/player/{quote(name, safe='')}", season, group)


def seasons_row(ctx: AppContext, route: str, season: str,
                group: str | None = None) -> ft.Control:
    """All games / This year / This month, as taps."""
    def go(key: str) -> None:
        ctx.go(with_query(route, key, group))

    # Shares of the width by the words' length: "This month" fits a 360 px phone.
    return ft.Row([small_toggle(label, key == season, lambda _e, k=key: go(k),
                                expand=len(label) + 2)
                   for key, label in SEASONS], spacing=6)


def row_line(row: BoardRow, season: str) -> str:
    line = f"{plural(row.games, 'game')}, {plural(row.wins, 'win')}"
    if season != ALL_GAMES:
        line += f" · {change_text(row.change)}"
    return line


def points_line(points_for: int, points_against: int) -> str:
    """The season's points: scored by the player's teams, and against them."""
    return f"Points {points_for:,} for, {points_against:,} against"


MOST_GROUPS = 40
"""Groups offered as taps on the leaderboard's picker; past that, the list of groups."""
CHANGE = "Change group"


def group_choices(ctx: AppContext, groups: list[Group], chosen: str | None,
                  season: str) -> list[ft.Control]:
    """Which games the board counts, one full-width tap each: all games on a laptop,
    then each group (the one on show marked); a community's hundreds go to Groups."""
    shown = groups if len(groups) <= MOST_GROUPS else [g for g in groups if g.id == chosen]
    choices: list[tuple[str | None, str]] = [(g.id, g.name) for g in shown]
    if not community(ctx.store):
        choices.insert(0, (None, "All games"))
    if len(shown) < len(groups):  # a community's hundreds: its list of groups to pick from
        choices.append(("more", f"All {len(groups)} groups"))
    # No fixed height: a long name takes two lines on a small phone and the button grows.
    return [ft.Row([ft.OutlinedButton(
        content=ft.Text(label, size=17, weight=ft.FontWeight.W_600),
        icon=ft.Icons.CHECK if gid == chosen else None, style=_choice(gid == chosen),
        expand=True,
        on_click=lambda _e, g=gid: ctx.go("/groups" if g == "more"
                                           else with_query("/ratings", season, g)))])
        for gid, label in choices]


def _choice(selected: bool) -> ft.ButtonStyle:
    style = toggle_style(selected)
    # 12 px above and below a 24 px line: 48 px, the small tap target, on one line.
    style.padding = ft.Padding.symmetric(horizontal=14, vertical=12)
    return style


def board_title(ctx: AppContext, name: str, line: str, season: str, gid: str | None,
                can_change: bool) -> ft.Control:
    """The games the board counts as a title (a long name wraps, never cut), and the
    way to other games: the ranking starts on the first screen, however many groups."""
    title = ft.Column([
        ft.Text(name, size=22, weight=ft.FontWeight.BOLD),
        ft.Text(line, size=15)], spacing=0, expand=True)
    if not can_change:
        return title
    return ft.Row([title, ft.OutlinedButton(
        CHANGE, icon=ft.Icons.COMPARE_ARROWS, height=48,
        on_click=lambda _e: ctx.go(with_query("/ratings", season, gid, pick="group")))],
        spacing=8, vertical_alignment=ft.CrossAxisAlignment.START)


def board_row(ctx: AppContext, rank: int, row: BoardRow, season: str,
              group: str | None = None) -> ft.Control:
    """One tap target a player: few controls (a group's board has hundreds of rows,
    each built by the phone on every visit), its words in one text."""
    line = row_line(row, season)
    points = points_line(row.points_for, row.points_against)
    spans = [ft.TextSpan(f"\n{line}\n{points}", style=ft.TextStyle(size=14))]
    spoken = f"{rank}. {row.player}, rating {rating_text(row.rating)}, {line}"
    if row.provisional:
        mark = f"provisional: {row.rated_games} of {PROVISIONAL_GAMES} games"
        spans.append(ft.TextSpan(f"\n{mark}", style=ft.TextStyle(
            size=13, italic=True, color=ft.Colors.ON_SURFACE_VARIANT)))
        spoken += f", {mark}"
    spoken += f", {points.lower()}"
    return ft.Container(
        content=ft.Row([
            ft.Text(f"{rank}. {row.player}", size=18, weight=ft.FontWeight.BOLD, spans=spans,
                    expand=True, semantics_label=spoken),
            ft.Text(rating_text(row.rating), size=24, weight=ft.FontWeight.BOLD,
                    italic=row.provisional),
        ], spacing=10),
        on_click=lambda _e: ctx.go(player_route(row.player, season, group)), ink=True,
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW, border_radius=ft.BorderRadius.all(RADIUS),
        padding=ft.Padding.only(left=14, right=14, top=8, bottom=8),
    )


NO_GROUP_OF_THIS_PHONE = ("This phone keeps no group. A group's leaderboard opens from "
                          "the address its keeper shares; a new group is made on Groups.")
"""A community lists only the groups a phone keeps (SECURITY.md, "A server on the
internet")."""


def leaderboard_view(ctx: AppContext, query: dict[str, str]) -> ft.View:
    season = season_of(query)
    route = "/ratings"
    try:
        group = group_of(ctx, query)
    except GroupNotFound:
        return _own_kind(no_group_view(ctx, route))
    gid = None if group is None else group.id
    bar = app_bar(ctx, "Leaderboard", back_to="/")
    groups = visible_groups(ctx.store, ctx.actions.rights, ctx.actions.device)
    picking = query.get("pick") == "group"
    if picking or (group is None and community(ctx.store)):
        # Ann at one table is not Ann at another: a community's ratings are per group.
        first = ("Which games does the board count?" if picking else
                 "Pick a group to see its leaderboard." if groups else
                 NO_GROUP_OF_THIS_PHONE)
        body: list[ft.Control] = [ft.Text(first, size=17),
                                  *group_choices(ctx, groups, gid, season),
                                  groups_button(ctx)]
        shown = with_query(route, season, gid, pick="group") if picking else route
        return _own_kind(screen(shown, bar, body))
    games = plural(len(rated_folder(ctx.store).timeline(gid).steps), "finished game")
    if group is not None:
        name, line = group.name, f"{games} in this group"
    else:
        name, line = "All games", f"{games} on this server"
    body = [board_title(ctx, name, line, season, gid, bool(groups)),
            seasons_row(ctx, route, season, gid)]
    _board(ctx, body, season, gid, query.get("rows") == "all")
    return _own_kind(screen(with_query(route, season, gid), bar, body))


def _own_kind(view: ft.View) -> ft.View:
    # A kind of control at the top of its own (home has a SafeArea, New game a
    # Container, the sheet a Stack): the switch from home refills the View
    # (router.ONE_VIEW) and the phone builds this screen afresh in it.
    view.controls = [ft.Row([ft.Container(content=cast(ft.Control, view.controls[0]),
                                          expand=True)],
                            expand=True, vertical_alignment=ft.CrossAxisAlignment.STRETCH)]
    return view


def groups_button(ctx: AppContext) -> ft.Control:
    """To the groups: each one's page, a new group, the keeper code."""
    return ft.Row([big_button("Groups", lambda _e: ctx.go("/groups"), icon=ft.Icons.GROUPS,
                              primary=False)])


def _board(ctx: AppContext, body: list[ft.Control], season: str, gid: str | None,
           every_row: bool) -> None:
    """The season's rows, and the links that keep the group."""
    rows = rated_folder(ctx.store).board(season, gid)
    if not rows:
        body.append(ft.Text("No finished games in this season yet.", size=17))
    else:
        body.append(ft.Text(MEANS, size=14, color=ft.Colors.ON_SURFACE_VARIANT))
        shown = rows if every_row else rows[:FIRST_ROWS]
        body.append(ft.Column([board_row(ctx, n, row, season, gid)
                               for n, row in enumerate(shown, 1)], spacing=8))
        if len(shown) < len(rows):
            more = with_query("/ratings", season, gid, rows="all")
            body.append(ft.Row([big_button(f"Show all {len(rows)} players",
                                           lambda _e: ctx.go(more), icon=ft.Icons.EXPAND_MORE,
                                           primary=False)]))
    teams = "/group" if gid is None else f"/group/{gid}/teams"
    body.append(ft.Row([big_button("Fair teams", lambda _e: ctx.go(teams),
                                   icon=ft.Icons.GROUPS, primary=False)]))
    if gid is not None:
        figures = f"/statistics?group={gid}"
        body.append(ft.Row([big_button("Statistics", lambda _e: ctx.go(figures),
                                       icon=ft.Icons.BAR_CHART, primary=False)]))
    body.append(groups_button(ctx))
    # The hall's TV: a plain page of the server's, read across the room.
    tv = with_query("/leaderboard", season, gid)
    body.append(ft.Row([link_button("Leaderboard for the TV", tv, ft.Icons.TV)]))
