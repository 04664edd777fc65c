"""Statistics across the stored games: players, partnerships, head to head; rename a player."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import NamedTuple, TypeVar

import flet as ft

from rules.stats import (
    Matchup,
    PartnershipStats,
    PlayerStats,
    Relation,
    Stats,
    StatsFilter,
    compute_stats,
    display_names,
    player_key,
)
from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.stats_access import get_stats_service
from scorer.app.theme import RADIUS
from scorer.app.views.common import app_bar, message_view, screen
from scorer.app.widgets import big_button, section, small_toggle
from scorer.rights import NotAllowed
from scorer.stats import hands_csv, rename_player
from scorer.stats.renaming import RenameResult
from scorer.store.errors import StoreError

#: Date ranges offered as taps (no typing at the table): label -> days back (None: all).
PERIODS: tuple[tuple[str, int | None], ...] = (
    ("All", None), ("Today", 0), ("Month", 30), ("Year", 365),
)
EVERYONE = "Everyone"
RowT = TypeVar("RowT", PartnershipStats, Matchup)


def _percent(part: int, whole: int) -> str:
    return f" ({round(100 * part / whole)} %)" if whole else ""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


FORCED_MEANS = ("A forced call is one the forced rule made: the call came round to the "
                "player before the dealer while their team was over the mark.")


def games_line(games: int, finished: int, wins: int) -> str:
    """`3 games, 2 wins (67 %)`; a win rate is over finished games only:
    `3 games (2 finished), 2 wins (100 %)`."""
    played = _plural(games, "game")
    if finished != games:
        played += f" ({finished} finished)"
    return f"{played}, {_plural(wins, 'win')}{_percent(wins, finished)}"


def player_lines(p: PlayerStats) -> list[str]:
    """A player's figures as short lines a phone can show."""
    lines = [games_line(p.games, p.finished, p.wins)]
    if p.calls:
        average = p.average_call_points or 0
        lines.append(f"{_plural(p.calls, 'call')}: {p.made} made, "
                     f"{_plural(p.half_baits, 'half-bait')}, {_plural(p.baits, 'bait')} · "
                     f"{average:.0f} points a call")
    else:
        lines.append("No calls yet")
    extras = [_plural(p.bellas, "bella")]
    if p.runs_shown:
        extras.append(f"runs shown {p.runs_shown}, scored {p.runs_scored} ({p.run_points} pts)")
    if p.forced_calls:
        extras.append(f"{_plural(p.forced_calls, 'forced call')}")
    lines.append(" · ".join(extras))
    return lines


#: Rows of partnerships and of head to head shown at once: a club's many pairings
#: would make a list no phone scrolls through (`tarabish stats` lists them all).
MOST_ROWS = 12


def _most_played(rows: Sequence[RowT]) -> list[RowT]:
    """The most played rows, in their own (name) order."""
    kept = set(map(id, sorted(rows, key=lambda r: -r.games)[:MOST_ROWS]))
    return [row for row in rows if id(row) in kept]


def _more(hidden: int) -> list[ft.Control]:
    if hidden <= 0:
        return []
    return [ft.Text(f"…and {hidden} more, less played: pick a player above to see theirs.",
                    size=14, color=ft.Colors.ON_SURFACE_VARIANT)]


class StatisticsScreen:
    """The figures for the chosen period and player; redrawn in place on each tap."""

    def __init__(self, ctx: AppContext, group: GroupGames | None = None) -> None:
        self.ctx = ctx
        self.group = group
        self.service = get_stats_service(ctx.store)
        self.period: int | None = None
        self.player: str | None = None
        self.relation = Relation.PARTNERS
        self.names: list[str] = []
        self.counted: list[str] | None = None
        """The games the figures count, oldest first (None: every stored game): the
        CSV and a rename reach no other game."""
        self.body = ft.Column(spacing=16)

    def wanted(self) -> StatsFilter:
        since = None if self.period is None else date.today() - timedelta(days=self.period)
        return StatsFilter(since=since, player=self.player, relation=self.relation)

    def fill(self) -> None:
        # One pass over the stored games serves the figures and the player picker.
        games = self.service.played_games()
        spelled: dict[str, str] = {}
        if self.group is not None:
            held = set(self.group.games)
            games = [g for g in games if g.game_id in held]
            self.counted = [g.game_id for g in games]
            # A member is written as the group writes them, whatever a game typed.
            spelled = {player_key(m): m for m in self.group.members}
        else:  # on a community: this phone's games only (checked here, on the server)
            sight = self.ctx.actions.sight()
            if not sight.everything:
                games = [g for g in games if sight.sees(g.game_id)]
            self.counted = None if sight.everything else [g.game_id for g in games]
        self.names = sorted(display_names(games, spelled).values(), key=str.casefold)
        self.body.controls = self.controls(compute_stats(games, self.wanted(), spelled))

    def render(self) -> None:
        """Redraw in place after a tap (the screen is on the page by then)."""
        self.fill()
        self.body.update()

    def choose(self, **changes: object) -> None:
        for name, value in changes.items():
            setattr(self, name, value)
        self.render()

    # --- drawing ---------------------------------------------------------------------------
    def controls(self, stats: Stats) -> list[ft.Control]:
        periods = ft.Row([small_toggle(label, self.period == days,
                                       lambda _e, d=days: self.choose(period=d),
                                       tooltip=f"The last {days} days" if days else None)
                          for label, days in PERIODS], spacing=6)
        parts: list[ft.Control] = [section("When", periods), self._player_filter()]
        if self.group is not None:
            parts.insert(0, ft.Text(self.group.name, size=22, weight=ft.FontWeight.BOLD))
        if not stats.games:
            parts.append(ft.Text("No games in this period yet.", size=16))
            return parts
        parts.append(ft.Text(f"{_plural(stats.games, 'game')} counted", size=16,
                             weight=ft.FontWeight.W_600))
        note = FORCED_MEANS if any(p.forced_calls for p in stats.players) else None
        parts.append(section("Players", *(self._player_card(p) for p in stats.players),
                             note=note))
        if stats.partnerships:
            pairs = _most_played(stats.partnerships)
            parts.append(section("Partnerships", *(
                self._row(f"{q.players[0]} & {q.players[1]}",
                          games_line(q.games, q.finished, q.wins))
                for q in pairs), *_more(len(stats.partnerships) - len(pairs))))
        if stats.matchups and self.player is None:
            matches = _most_played(stats.matchups)
            parts.append(section("Head to head", *(
                self._row(f"{m.sides[0][0]} & {m.sides[0][1]} v {m.sides[1][0]} & "
                          f"{m.sides[1][1]}", f"{_plural(m.games, 'game')}: "
                          f"{m.wins[0]}–{m.wins[1]}")
                for m in matches), *_more(len(stats.matchups) - len(matches))))
        parts.append(ft.Row([big_button("Download every hand (CSV)", self._download,
                                        icon=ft.Icons.DOWNLOAD, primary=False)]))
        return parts

    def _player_filter(self) -> ft.Control:
        names = self.names
        choice = ft.Dropdown(
            label="Player", value=self.player or EVERYONE, expand=True,
            options=[ft.DropdownOption(key=n, text=n) for n in (EVERYONE, *names)],
            on_select=lambda e: self.choose(
                player=None if e.control.value in (None, EVERYONE) else e.control.value),
        )
        rows: list[ft.Control] = [ft.Row([choice])]
        if self.player is not None:
            rows.append(ft.Row([
                small_toggle(f"With {word}", self.relation is relation,
                             lambda _e, r=relation: self.choose(relation=r))
                for word, relation in (("partners", Relation.PARTNERS),
                                       ("opponents", Relation.OPPONENTS))], spacing=6))
        return ft.Column(rows, spacing=8)

    @staticmethod
    def _row(left: str, right: str) -> ft.Control:
        return ft.Row([ft.Text(left, size=15, expand=True, weight=ft.FontWeight.W_600),
                       ft.Text(right, size=15)])

    def _player_card(self, p: PlayerStats) -> ft.Control:
        head = ft.Row([ft.Text(p.name, size=17, weight=ft.FontWeight.BOLD, expand=True)])
        # In a group, renaming is its keeper's (once, for the group's games); the server
        # checks it again at the rename.
        if self.group is None or self.group.keeper:
            head.controls.append(ft.IconButton(
                ft.Icons.EDIT, tooltip=f"Rename {p.name}",
                on_click=lambda _e, name=p.name: self._rename_dialog(name)))
        return ft.Container(
            content=ft.Column([head, *(ft.Text(line, size=14) for line in player_lines(p))],
                              spacing=2),
            padding=ft.Padding.only(left=12, right=4, top=4, bottom=10),
            border_radius=ft.BorderRadius.all(RADIUS), bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
        )

    # --- actions ---------------------------------------------------------------------------
    def _download(self, _e: object) -> None:
        self.ctx.download("tarabish-hands.csv",
                          hands_csv(self.ctx.store, self.counted).encode("utf-8"))

    def _rename_dialog(self, old: str) -> None:
        ctx = self.ctx
        field = ft.TextField(label="New name", value=old, max_length=40, autofocus=True)
        others = [n for n in self.names if n.casefold() != old.casefold()]

        def pick(name: str) -> None:
            field.value = name
            field.update()

        merge = ft.Row([ft.OutlinedButton(n, on_click=lambda _e, n=n: pick(n)) for n in others],
                       wrap=True, spacing=6, run_spacing=6)
        content: list[ft.Control] = [field]
        if others:
            content += [ft.Text("Same person as another name? Tap it to merge:", size=14),
                        merge]

        def confirm(_e: object) -> None:
            ctx.page.pop_dialog()
            self.rename(old, field.value or "")

        ctx.page.show_dialog(ft.AlertDialog(
            title=ft.Text(f"Rename {old}"),
            content=ft.Column(content, tight=True, spacing=10, scroll=ft.ScrollMode.AUTO),
            actions=[ft.TextButton("Cancel", on_click=lambda _e: ctx.page.pop_dialog()),
                     ft.FilledButton("Rename", on_click=confirm)],
        ))

    def _may_change(self, game_id: str) -> bool:
        """Checked on the server, game by game, as a save is."""
        try:
            self.ctx.actions.require_edit(game_id)
        except NotAllowed:
            return False
        return True

    def rename(self, old: str, new: str) -> None:
        """Re-label every game this phone may change; say what was left and why. In a
        group: the keeper renames the member in the group's games and its list."""
        ctx = self.ctx
        try:
            if self.group is not None:
                result = self._rename_member(old, new)
            else:
                result = rename_player(ctx.store, old, new, allowed=self._may_change,
                                       by=ctx.actions.label(), among=self.counted)
                for game_id in result.renamed:
                    ctx.actions.changed(game_id)
        except (ValueError, StoreError) as exc:  # RenameError, NotKeeper, BadGroup
            ctx.toast(str(exc), error=True)
            return
        message = f"{old} is now {new.strip()} in {_plural(len(result.renamed), 'game')}."
        if result.skipped:
            message += f" {_plural(len(result.skipped), 'game')} left as they were: " + \
                "; ".join(sorted({why for _gid, why in result.skipped})) + "."
        ctx.toast(message, error=not result.renamed)
        if self.player is not None and self.player.casefold() == old.casefold():
            self.player = None
        self.render()


    def _rename_member(self, old: str, new: str) -> RenameResult:
        from scorer.app.group_actions import GroupActions  # a phone alone has no groups

        assert self.group is not None
        after, result = GroupActions(self.ctx.actions, self.ctx.address).rename_member(
            self.group.id, old, new)
        self.group = self.group._replace(members=after.members)
        return result


class GroupGames(NamedTuple):
    """What the screen needs of a group: its name, its games' ids, its members as it
    spells them, its id and whether this phone keeps it (renames are a keeper's)."""

    name: str
    games: tuple[str, ...]
    members: tuple[str, ...] = ()
    id: str = ""
    keeper: bool = False


NO_GROUP = "There is no such group. Its address may be cut short: ask its keeper for it again."


def statistics_view(ctx: AppContext, query: dict[str, str] | None = None) -> ft.View:
    group_id = (query or {}).get("group")
    route = "/stats" if group_id is None else f"/statistics?group={group_id}"
    group: GroupGames | None = None
    if group_id is not None:
        found = _group(ctx, group_id)
        if found is None:
            return message_view(ctx, "/statistics", "No such group", NO_GROUP)
        group = found
    shown = StatisticsScreen(ctx, group)
    shown.fill()
    back = "/" if group_id is None else f"/ratings?group={group_id}"
    return screen(route, app_bar(ctx, "Statistics", back_to=back), [shown.body])


def _group(ctx: AppContext, group_id: str) -> GroupGames | None:
    """The group's name and games; None for a bad or unknown id, and on a phone alone
    (it keeps no groups)."""
    if CONFIG.alone:
        return None
    # Here, not at the top: a phone alone's site leaves the groups out.
    from scorer.app.group_access import get_groups
    from scorer.app.group_actions import GroupActions
    from scorer.groups import GroupNotFound

    try:
        group = get_groups(ctx.store).get(group_id)
    except GroupNotFound:
        return None
    keeper = GroupActions(ctx.actions, ctx.address).keeps(group.id)
    return GroupGames(group.name, group.games, group.members, group.id, keeper)
