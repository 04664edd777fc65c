"""A stored game in a few words: who, when and the score, for the cards that list games
(home's Continue, Past games), so that two games of the same four players differ."""

from __future__ import annotations

from datetime import datetime

from rules.names import default_team_names
from scorer.store.models import GameSummary

NO_BREAK = "\u00a0"


def unbroken(words: str) -> str:
    """`words` kept on one line: a narrow card wraps between the parts of a score, never
    inside a team's name ("Bob &" above "Dee")."""
    return words.replace(" ", NO_BREAK)


def score_line(game: GameSummary) -> str:
    """`Ann & Cid  412 – 380  Bob & Dee`, wrapping only between its three parts."""
    score = unbroken(f"{game.totals[0]} – {game.totals[1]}")
    return f"{unbroken(game.teams[0])}  {score}  {unbroken(game.teams[1])}"


def players_line(game: GameSummary) -> str | None:
    """The players, when the teams go by names of their own (`Reds` says nobody's)."""
    players = game.players
    if game.teams == default_team_names(players):
        return None
    return f"{players[0]} & {players[2]} vs {players[1]} & {players[3]}"


def _day(moment: datetime) -> str:
    return f"{moment:%a} {moment.day} {moment:%b %Y}"


def when_line(game: GameSummary) -> str:
    """`Tue 24 Nov 2026, 19:05 · last played 21:40` (local time; the day too if the game
    went on past midnight)."""
    started, last = game.created.astimezone(), game.updated.astimezone()
    line = f"{_day(started)}, {started:%H:%M}"
    if not game.hand_count:
        return line
    if last.date() != started.date():
        return f"{line} · last played {last:%a} {last.day} {last:%b}, {last:%H:%M}"
    return f"{line} · last played {last:%H:%M}"


def status_line(game: GameSummary) -> str:
    """`Won by Ann & Cid · 9 hands`, `In progress · 4 hands`, `No hands yet`."""
    hands = f"{game.hand_count} hand{'' if game.hand_count == 1 else 's'}"
    if game.winner is not None:
        return f"Won by {game.teams[game.winner]} · {hands}"
    return f"In progress · {hands}" if game.hand_count else "No hands yet"
