"""A player's rating over their games, drawn like the race chart."""

from __future__ import annotations

import math

import flet as ft
import flet_charts as fch

from scorer.app.views.race_chart import CHART_HEIGHT, team_colour
from scorer.ratings.timeline import Point

MOST_POINTS = 200
"""Points drawn at most: a long record is thinned (the last game always kept)."""


def chart_label(name: str, points: list[Point]) -> str:
    """What the chart shows, in words (read by screen readers and by the tests)."""
    first, last = points[0].rating, points[-1].rating
    return (f"Rating chart: {name}, {len(points)} games, from {first:.1f} "
            f"to {last:.1f}").replace("-", "−")


def _thinned(points: list[Point]) -> list[Point]:
    if len(points) <= MOST_POINTS:
        return points
    step = math.ceil(len(points) / MOST_POINTS)
    kept = points[::step]
    return kept if kept[-1] is points[-1] else [*kept, points[-1]]


def _step(span: float) -> int:
    for step in (1, 2, 5, 10, 20, 50):
        if span / step <= 6:
            return step
    return 100


def game_step(last_game: int) -> int:
    """Games between two numbers under the chart: a round step, at most 8 numbers."""
    for base in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000):
        if last_game / base <= 8:
            return base
    return 10_000


def rating_chart(name: str, points: list[Point]) -> ft.Control:
    """One line from 0 (where everyone starts): the rating after each game; 0 dashed."""
    shown = _thinned(points)
    last_game = max(1, points[-1].game)
    muted = ft.Colors.ON_SURFACE_VARIANT
    line = fch.LineChartData(
        points=[fch.LineChartDataPoint(0, 0, show_tooltip=False), *(
            fch.LineChartDataPoint(p.game, round(p.rating, 2), show_tooltip=False,
                                   point=len(shown) <= 30)
            for p in shown)],
        color=team_colour(0), stroke_width=3, curved=False,
    )
    low = min(0.0, *(p.rating for p in shown))
    high = max(1.0, *(p.rating for p in shown))
    step = _step(high - low)
    bottom_y = math.floor(low / step) * step
    top_y = math.ceil(high / step) * step
    series = [line, fch.LineChartData(
        points=[fch.LineChartDataPoint(0, 0, show_tooltip=False),
                fch.LineChartDataPoint(last_game, 0, show_tooltip=False)],
        color=muted, stroke_width=1.5, dash_pattern=[6, 4], point=False)]
    left = fch.ChartAxis(label_size=36, labels=[
        fch.ChartAxisLabel(value=v, label=ft.Text(str(v), size=11, color=muted))
        for v in range(bottom_y, top_y + 1, step)])
    every = game_step(last_game)
    # The chart draws a label only where its own spacing falls: without one given, it
    # picked its own (at 345 games, none of 44, 88... was drawn).
    bottom = fch.ChartAxis(label_size=22, label_spacing=every, labels=[
        fch.ChartAxisLabel(value=g, label=ft.Text(str(g), size=11, color=muted))
        for g in range(every, last_game + 1, every)])
    chart = fch.LineChart(
        data_series=series, min_x=0, max_x=last_game, min_y=bottom_y, max_y=top_y,
        left_axis=left, bottom_axis=bottom,
        horizontal_grid_lines=fch.ChartGridLines(
            interval=step, color=ft.Colors.with_opacity(0.15, ft.Colors.ON_SURFACE), width=1),
        interactive=False, animation=ft.Animation(0, ft.AnimationCurve.LINEAR),
        height=CHART_HEIGHT, expand=True,
    )
    framed = ft.Container(content=chart, padding=ft.Padding.only(right=12))
    return ft.Semantics(content=framed, label=chart_label(name, points), container=True)


def chart_legend() -> ft.Control:
    swatch = ft.Container(width=18, height=5, bgcolor=team_colour(0),
                          border_radius=ft.BorderRadius.all(2))
    return ft.Row([swatch, ft.Text("rating after each game (across: games)", size=12)],
                  spacing=4, wrap=True)
