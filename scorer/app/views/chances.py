"""Each team's chance to win, on the score sheet before the first hand."""

from __future__ import annotations

import flet as ft

from scorer.app import CONFIG
from scorer.app.context import AppContext
from scorer.app.game_lines import NO_BREAK
from scorer.app.game_view_model import GameModel


def chance_line(ctx: AppContext, model: GameModel) -> str | None:
    """`Chance to win: Ann & Cid 58 %, Bob & Dee 42 %`; None on a phone alone (no
    ratings there) or when none of the four has a finished game to go by. The ratings
    are those of the game's group (`ratings_access.game_timeline`)."""
    if CONFIG.alone:
        return None
    # Here, not at the top: a phone alone has neither the ratings nor openskill.
    from scorer.app.ratings_access import game_timeline
    from scorer.ratings.prematch import chances, percent_pair
    from scorer.ratings.timeline import skills_of

    players = model.game.players
    timeline = game_timeline(ctx.store, model.id)
    if timeline is None or not any(skills_of(timeline, players)):
        return None
    teams = ((players[0], players[2]), (players[1], players[3]))
    odds = percent_pair(chances(timeline.now, *teams))
    # A line breaks only between the two teams: never inside a team ("Bob &" above
    # "Dee 1 %"), nor before a % sign.
    a, b = (f"{name} {pct} %".replace(" ", NO_BREAK)
            for name, pct in zip(model.game.team_names, odds, strict=True))
    return f"Chance to win: {a}, {b}"


def chance_text(line: str) -> ft.Control:
    return ft.Text(line, size=16, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY)
