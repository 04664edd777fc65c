"""Ratings game by game, for the pages: the leaderboard of a season, a player's rating
over time, their record with each partner and against each pair.

Pure, no I/O. The games are rated in the order given exactly as
`model.compute_ratings` rates them (the same model, the same loop), and what each
game left each of its four players is kept, so a season's leaderboard, a player's
chart and the chances before a game are read from one pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel, ConfigDict

from rules.stats import player_key
from scorer.ratings.model import PROVISIONAL_GAMES, Match


class DatedMatch(BaseModel):
    """A finished game with when it finished and its id (the pages link to it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game_id: str
    when: datetime
    match: Match
    points: tuple[int, int] = (0, 0)
    """The final scores: the winners', the losers'."""


class Skill(BaseModel):
    """One player's model numbers after a game; `rating` is mu - 3 sigma."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Step:
    """One rated game: the match and what it left each of its four players (by key)."""

    game: DatedMatch
    after: dict[str, Skill]


@dataclass(frozen=True)
class Timeline:
    """Every rated game in order, and each player's name as last typed."""

    steps: tuple[Step, ...] = ()
    names: dict[str, str] = field(default_factory=dict)

    def name(self, key: str) -> str:
        return self.names.get(key, key)

    @cached_property
    def now(self) -> dict[str, Skill]:
        """Each player's skill after the last game (worked out once: do not change it)."""
        now: dict[str, Skill] = {}
        for step in self.steps:
            now.update(step.after)
        return now

    def current(self) -> dict[str, Skill]:
        """Each player's skill after the last game, a copy."""
        return dict(self.now)


def rate_in_order(games: Iterable[DatedMatch]) -> Timeline:
    """Rate `games` one after another, in the order given (as `compute_ratings` does)."""
    model = PlackettLuce()
    current: dict[str, PlackettLuceRating] = {}
    names: dict[str, str] = {}
    steps: list[Step] = []
    for game in games:
        sides = (game.match.winners, game.match.losers)
        keys = [[player_key(name) for name in side] for side in sides]
        teams = [[current.get(key) or model.rating() for key in side] for side in keys]
        rated = model.rate(teams)  # listed order is the rank: winners first
        after: dict[str, Skill] = {}
        for side_names, side_keys, new in zip(sides, keys, rated, strict=True):
            for name, key, rating in zip(side_names, side_keys, new, strict=True):
                current[key] = rating
                names[key] = name.strip()
                after[key] = Skill(mu=rating.mu, sigma=rating.sigma)
        steps.append(Step(game=game, after=after))
    return Timeline(steps=tuple(steps), names=names)


class BoardRow(BaseModel):
    """A leaderboard line: the rating now, the season's games, wins and rating change."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    player: str
    rating: float
    change: float
    games: int
    wins: int
    rated_games: int
    """Every game rated so far (the provisional mark counts these, not the season's)."""
    points_for: int = 0
    points_against: int = 0
    """The season's points scored by the player's teams, and against them."""

    @property
    def provisional(self) -> bool:
        return self.rated_games < PROVISIONAL_GAMES


def _default_rating() -> float:
    start = PlackettLuce().rating()
    return float(start.mu - 3 * start.sigma)


def leaderboard(timeline: Timeline, since: datetime | None = None) -> list[BoardRow]:
    """Everyone who played a game finished at or after `since` (everyone: None),
    highest rating first. The rating is the one after every game; the change is over
    the season (from the rating before the player's first game in it)."""
    before: dict[str, float] = {}
    now: dict[str, Skill] = {}
    rated: dict[str, int] = {}
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    scored: dict[str, list[int]] = {}  # key -> [for, against]
    for step in timeline.steps:
        in_season = since is None or step.game.when >= since
        winners = {player_key(n) for n in step.game.match.winners}
        won_pts, lost_pts = step.game.points
        for key, skill in step.after.items():
            if in_season and key not in games:
                before[key] = now[key].rating if key in now else _default_rating()
            if in_season:
                games[key] = games.get(key, 0) + 1
                wins[key] = wins.get(key, 0) + (key in winners)
                tally = scored.setdefault(key, [0, 0])
                tally[0] += won_pts if key in winners else lost_pts
                tally[1] += lost_pts if key in winners else won_pts
            now[key] = skill
            rated[key] = rated.get(key, 0) + 1
    rows = [BoardRow(key=key, player=timeline.name(key), rating=now[key].rating,
                     change=now[key].rating - before[key], games=games[key], wins=wins[key],
                     rated_games=rated[key], points_for=scored[key][0],
                     points_against=scored[key][1])
            for key in games]
    rows.sort(key=lambda r: (-r.rating, r.key))
    return rows


class Point(BaseModel):
    """A player's rating after one of their games."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: int
    """1 for their first rated game, and so on."""
    when: datetime
    rating: float
    won: bool


def history(timeline: Timeline, key: str) -> list[Point]:
    """A player's rating after each of their games, oldest first."""
    points: list[Point] = []
    for step in timeline.steps:
        skill = step.after.get(key)
        if skill is None:
            continue
        won = key in {player_key(n) for n in step.game.match.winners}
        points.append(Point(game=len(points) + 1, when=step.game.when,
                            rating=skill.rating, won=won))
    return points


class Record(BaseModel):
    """Games and wins with a partner, or against a pair (names as last typed)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    names: tuple[str, ...]
    games: int
    wins: int


def records(timeline: Timeline, key: str, since: datetime | None = None
            ) -> tuple[list[Record], list[Record]]:
    """A player's record with each partner and against each pair of opponents, most
    played first."""
    partners: dict[str, list[int]] = {}
    opponents: dict[tuple[str, str], list[int]] = {}
    for step in timeline.steps:
        if key not in step.after or (since is not None and step.game.when < since):
            continue
        match = step.game.match
        sides = [tuple(player_key(n) for n in side) for side in (match.winners, match.losers)]
        mine = 0 if key in sides[0] else 1
        partner = next(k for k in sides[mine] if k != key)
        pair = tuple(sorted(sides[1 - mine]))
        won = int(mine == 0)
        for tally in (partners.setdefault(partner, [0, 0]),
                      opponents.setdefault((pair[0], pair[1]), [0, 0])):
            tally[0] += 1
            tally[1] += won
    with_ = [Record(names=(timeline.name(k),), games=g, wins=w)
             for k, (g, w) in partners.items()]
    against = [Record(names=tuple(timeline.name(k) for k in pair), games=g, wins=w)
               for pair, (g, w) in opponents.items()]
    for rows in (with_, against):
        rows.sort(key=lambda r: (-r.games, -r.wins, [n.casefold() for n in r.names]))
    return with_, against


def find_key(timeline: Timeline, name: str) -> str | None:
    """The key of a rated player called `name` (capitals aside), or None."""
    key = player_key(name)
    return key if key in timeline.names else None


def skills_of(timeline: Timeline, names: Sequence[str]) -> list[Skill | None]:
    """Each named player's skill now; None for a player with no rated game."""
    return [timeline.now.get(player_key(n)) for n in names]
