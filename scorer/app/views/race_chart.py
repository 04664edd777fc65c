"""The race to the target on the score sheet: both running totals, hand by hand."""

from __future__ import annotations

import flet as ft
import flet_charts as fch

from rules.game_summary import RacePoint, race
from rules.ruling import Outcome
from scorer.app.context import AppContext
from scorer.app.game_view_model import GameModel
from scorer.app.theme import TEAM_LINES
from scorer.app.views.kept import Kept

CHART_HEIGHT = 230
BAIT_MARK = ft.Colors.RED_600
HALF_BAIT_MARK = ft.Colors.PURPLE_400


def team_colour(team: int) -> str:
    """One colour in light and dark (theme.TEAM_LINES): turning dark redraws nothing."""
    return TEAM_LINES[team]


def race_label(model: GameModel, points: tuple[RacePoint, ...]) -> str:
    """What the chart shows, in words (read by screen readers and by the tests)."""
    teams = model.game.team_names
    last = points[-1].totals
    baits = sum(p.outcome is Outcome.BAIT for p in points)
    halves = sum(p.outcome is Outcome.HALF_BAIT for p in points)
    return (f"Race chart: {len(points) - 1} hands, {teams[0]} {last[0]}, {teams[1]} {last[1]}, "
            f"target {model.replay.target}, {baits} bait and {halves} half-bait marked")


def _mark(point: RacePoint, team: int) -> fch.ChartPointShape | bool:
    """Baits and half-baits are marked on the line of the team that called."""
    if point.caller_team != team:
        return False
    if point.outcome is Outcome.BAIT:
        return fch.ChartCrossPoint(color=BAIT_MARK, size=14, width=3)
    if point.outcome is Outcome.HALF_BAIT:
        return fch.ChartCirclePoint(color=HALF_BAIT_MARK, radius=5, stroke_width=0)
    return False


def _level_line(value: int, last_hand: int, colour: str) -> fch.LineChartData:
    return fch.LineChartData(
        points=[fch.LineChartDataPoint(0, value, show_tooltip=False),
                fch.LineChartDataPoint(last_hand, value, show_tooltip=False)],
        color=colour, stroke_width=1.5, dash_pattern=[6, 4], point=False,
    )


def _every(count: int, most: int) -> int:
    """A label step that shows at most `most` labels."""
    return max(1, -(-count // most))


def race_chart(model: GameModel) -> ft.Control:
    """The chart itself: one line a team, the target (and forced mark) dashed."""
    points = race(model.replay)
    last_hand = max(1, points[-1].hand)
    target = model.replay.target
    forced_at = model.game.rules.forced_at
    series = [
        fch.LineChartData(
            points=[fch.LineChartDataPoint(p.hand, p.totals[team], point=_mark(p, team),
                                           tooltip=f"Hand {p.hand}: {p.totals[team]}")
                    for p in points],
            color=team_colour(team), stroke_width=3, curved=False,
        )
        for team in (0, 1)
    ]
    series.append(_level_line(target, last_hand, ft.Colors.ON_SURFACE_VARIANT))
    if forced_at is not None:
        series.append(_level_line(forced_at, last_hand, ft.Colors.ERROR))
    top = max(target, *(max(p.totals) for p in points))
    step = 100 if top <= 700 else 200
    muted = ft.Colors.ON_SURFACE_VARIANT
    left = fch.ChartAxis(label_size=36, labels=[
        fch.ChartAxisLabel(value=v, label=ft.Text(str(v), size=11, color=muted))
        for v in range(0, top + 1, step)])
    hand_step = _every(last_hand, 8)
    bottom = fch.ChartAxis(label_size=22, labels=[
        fch.ChartAxisLabel(value=h, label=ft.Text(str(h), size=11, color=muted))
        for h in range(hand_step, last_hand + 1, hand_step)])
    bottom_y = min(0, *(min(p.totals) for p in points))
    chart = fch.LineChart(
        data_series=series, min_x=0, max_x=last_hand, min_y=bottom_y,
        max_y=top + step // 4, left_axis=left, bottom_axis=bottom,
        horizontal_grid_lines=fch.ChartGridLines(
            interval=step, color=ft.Colors.with_opacity(0.15, ft.Colors.ON_SURFACE), width=1),
        interactive=False, animation=ft.Animation(0, ft.AnimationCurve.LINEAR),
        height=CHART_HEIGHT, expand=True,
    )
    # Room on the right for the last hand's label.
    framed = ft.Container(content=chart, padding=ft.Padding.only(right=12))
    return ft.Semantics(content=framed, label=race_label(model, points), container=True)


def legend(model: GameModel) -> ft.Control:
    teams = model.game.team_names

    def item(colour: str, text: str, dashed: bool = False) -> ft.Control:
        swatch = ft.Container(width=18, height=3 if dashed else 5, bgcolor=colour,
                              border_radius=ft.BorderRadius.all(2))
        return ft.Row([swatch, ft.Text(text, size=12)], spacing=4, tight=True)

    items = [item(team_colour(t), teams[t]) for t in (0, 1)]
    items.append(item(ft.Colors.ON_SURFACE_VARIANT, f"target {model.replay.target}", True))
    forced_at = model.game.rules.forced_at
    if forced_at is not None:
        items.append(item(ft.Colors.ERROR, f"forced over {forced_at}", True))
    items.append(ft.Text("✕ bait  ● half-bait", size=12, color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Row(items, wrap=True, spacing=12, run_spacing=4)


def race_panel(ctx: AppContext, model: GameModel, kept: Kept) -> ft.Control:
    """'The race' with the chart under it; closed until tapped, so the sheet still
    opens on the totals and costs nothing to draw. Open or closed is kept for the
    session, so a live update does not close it."""
    key = f"race/{model.id}"
    shown = key in ctx.open_panels

    def flip(_e: object) -> None:
        ctx.open_panels ^= {key}
        ctx.router_refresh()  # the sheet is keyed: drawn again, not changed in place

    def build() -> ft.Control:
        toggle_button = ft.TextButton("Hide the race" if shown else "Show the race",
                                      icon=ft.Icons.EXPAND_LESS if shown else ft.Icons.EXPAND_MORE,
                                      on_click=flip, height=48)
        holder = ft.Column([toggle_button], spacing=6)
        if shown:
            holder.controls += [race_chart(model), legend(model)]
        return holder

    # Closed, it is the same button after every hand.
    drawn_from = (True, model.replay, model.game.team_names, model.game.rules.forced_at) \
        if shown else (False,)
    return kept.part("race", drawn_from, build)
