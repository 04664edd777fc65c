"""The words of the club night screens that are worked out, not drawn: entrants typed
one a line, how a table stands, the clock."""

from __future__ import annotations

import re
from datetime import datetime

from rules.plain_text import without_unsafe
from scorer.events.model import MAX_PLAYERS, MAX_TEAMS, plural

NO_BREAK = "\u00a0"
_SPLIT = re.compile(r"\s*(?:&|\+|,|/|\band\b)\s*", re.IGNORECASE)


def parse_entrants(text: str, teams: bool) -> list[list[str]]:
    """One entrant a line: a team as "Ann & Bob" (or "Ann, Bob", "Ann and Bob"), a single
    player as a name. Blank lines are skipped; at most one more than an event takes (the
    engine then says it is too many). Invisible characters pasted from a chat go."""
    most = (MAX_TEAMS if teams else MAX_PLAYERS) + 1
    lines = [without_unsafe(line).strip() for line in text.splitlines()]
    lines = [line for line in lines if line][:most]
    if not teams:
        return [[line] for line in lines]
    return [[name for name in _SPLIT.split(line) if name] for line in lines]


def counted_entrants(entrants: list[list[str]], teams: bool) -> str:
    if not entrants:
        return "No entrants yet: type them one a line."
    return plural(len(entrants), "team" if teams else "player")


def waiting_line(round_number: int, tables: tuple[int, ...]) -> str:
    """Why the next round cannot start yet: `Round 3 has 2 tables still playing (2, 5).`"""
    which = ", ".join(map(str, tables))
    return (f"Round {round_number} has {plural(len(tables), 'table')} still playing ({which}). "
            f"Round {round_number + 1} starts once each has ended or has a result.")


def clock_line(ends: datetime | None, called: datetime | None, now: datetime) -> str | None:
    """"12 min left", or that time is called; None without a clock."""
    if ends is None:
        return None
    if called is not None or ends <= now:
        return "Time is called: each table finishes the hand in play."
    minutes = int((ends - now).total_seconds() // 60) + 1
    return f"{minutes} min left on the clock"


def team(names: tuple[str, ...] | list[str]) -> str:
    """`Ann & Bob` as a narrow screen may wrap it: only after the "&", never inside a
    name ("Roderick" / "M.")."""
    return f"{NO_BREAK}& ".join(name.replace(" ", NO_BREAK) for name in names)
