"""Seasons: named date ranges over a group's games, and each member's line in one.

Pure, no I/O. The default season is every game; `this_month` and `this_year` are
the quick choices. Dates are the UTC day a game finished; both ends are included.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, date, timedelta
from typing import Final

from pydantic import BaseModel, ConfigDict, model_validator

from rules.stats import player_key
from scorer.ratings.groups import GroupGame, member_names
from scorer.ratings.model import Rater


class Season(BaseModel):
    """A named range of days, `start` to `end` included; None is open on that side."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    start: date | None = None
    end: date | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Season:
        if self.start is not None and self.end is not None and self.end < self.start:
            raise ValueError("a season cannot end before it starts")
        return self

    def holds(self, game: GroupGame) -> bool:
        """Whether `game` finished inside this season (its UTC day)."""
        day = _utc_day(game)
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)


def _utc_day(game: GroupGame) -> date:
    return game.finished.astimezone(UTC).date()


ALL_GAMES: Final = Season(name="All games")


def this_month(today: date) -> Season:
    """this_month(today) -> Season: the calendar month holding `today`."""
    start = today.replace(day=1)
    following = (start + timedelta(days=32)).replace(day=1)
    return Season(name=today.strftime("%B %Y"), start=start, end=following - timedelta(days=1))


def this_year(today: date) -> Season:
    """this_year(today) -> Season: the calendar year holding `today`."""
    return Season(name=str(today.year), start=date(today.year, 1, 1), end=date(today.year, 12, 31))


class SeasonLine(BaseModel):
    """One member in one season. `rating_change` is their rating after the season's
    last game minus before its first (every earlier game counts toward both)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    player: str
    games: int
    wins: int
    points_for: int
    points_against: int
    rating_change: float

    @property
    def win_rate(self) -> float:
        """Wins over games, 0.0 with no games."""
        return self.wins / self.games if self.games else 0.0


def season_lines(games: Sequence[GroupGame], season: Season,
                 members: Iterable[str]) -> tuple[SeasonLine, ...]:
    """season_lines(games, season, members) -> tuple[SeasonLine, ...]: each member who
    played in `season`, most wins first (then win rate, then name).

    `games` are rated in the order given (the group's order), all of them, so a
    rating change counts the games before the season; one pass, no recomputation."""
    names = member_names(members)
    rater = Rater()
    before: dict[str, float] = {}
    after: dict[str, float] = {}
    tally: dict[str, list[int]] = {}  # key -> [games, wins, for, against]
    for game in games:
        if not season.holds(game):
            rater.add(game.match)
            continue
        sides = ((game.match.winners, game.points[0], game.points[1], 1),
                 (game.match.losers, game.points[1], game.points[0], 0))
        played = [name for side in sides for name in side[0] if player_key(name) in names]
        for name in played:
            before.setdefault(player_key(name), rater.rating_of(name))
        rater.add(game.match)
        for side, pts_for, pts_against, won in sides:
            for name in side:
                key = player_key(name)
                if key not in names:
                    continue
                after[key] = rater.rating_of(name)
                row = tally.setdefault(key, [0, 0, 0, 0])
                row[0] += 1
                row[1] += won
                row[2] += pts_for
                row[3] += pts_against
    lines = [
        SeasonLine(player=names[key], games=row[0], wins=row[1], points_for=row[2],
                   points_against=row[3], rating_change=after[key] - before[key])
        for key, row in tally.items()
    ]
    lines.sort(key=lambda ln: (-ln.wins, -ln.win_rate, player_key(ln.player)))
    return tuple(lines)
