"""The end-of-game card: winner, margin, and how each team played."""

from __future__ import annotations

import flet as ft

from rules.game_summary import TeamRecord, summarise
from scorer.app.game_view_model import GameModel
from scorer.app.theme import RADIUS


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def team_line(record: TeamRecord) -> str:
    """`5 calls: 3 made, 1 half-bait, 1 bait · 70 in runs · 2 bellas`"""
    parts = [f"{_plural(record.calls, 'call')}: {record.made} made, "
             f"{_plural(record.half_baits, 'half-bait')}, {_plural(record.baits, 'bait')}"]
    parts.append(f"{record.run_points} in runs")
    parts.append(_plural(record.bellas, "bella"))
    return " · ".join(parts)


def summary_card(model: GameModel) -> ft.Control:
    """Shown once the game is won, in place of the next-hand line: who won and by how
    much (the rest is in `summary_details`, under the hands)."""
    summary = summarise(model.replay)
    if summary.winner is None:
        raise ValueError("the game is not won yet")
    by = f"By {summary.margin} points" if summary.margin else "Level on points"
    rows: list[ft.Control] = [
        ft.Row([ft.Icon(ft.Icons.EMOJI_EVENTS, size=28),
                ft.Text(model.winner_line() or "", size=18, weight=ft.FontWeight.BOLD,
                        expand=True)]),
        ft.Text(f"{by}, in {_plural(summary.hands, 'hand')}.", size=15),
    ]
    return _card(rows, ft.Colors.SECONDARY_CONTAINER)


def summary_details(model: GameModel) -> ft.Control:
    """What each team did and the best hand, under the hands: over them, the winning
    hand was out of sight on a 360x640 phone."""
    summary = summarise(model.replay)
    teams = model.game.team_names
    if summary.winner is None:
        raise ValueError("the game is not won yet")
    rows: list[ft.Control] = []
    for team in (summary.winner, 1 - summary.winner):
        rows.append(ft.Text(teams[team], size=15, weight=ft.FontWeight.W_600))
        rows.append(ft.Text(team_line(summary.teams[team]), size=14))
    best = summary.best
    if best is not None:
        rows.append(ft.Text(f"Best hand: hand {best.hand}, {teams[best.team]} scored {best.score}",
                            size=14, color=ft.Colors.ON_SURFACE_VARIANT))
    return _card(rows, ft.Colors.SURFACE_CONTAINER_HIGH)


def _card(rows: list[ft.Control], colour: str) -> ft.Control:
    return ft.Container(content=ft.Column(rows, spacing=4), padding=14,
                        border_radius=ft.BorderRadius.all(RADIUS), bgcolor=colour)
