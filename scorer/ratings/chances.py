"""Each team's chance to win, and fair teams: pure, from the ratings, no I/O.

The chance is openskill's own `PlackettLuce().predict_win` on the players' mu and
sigma; a player with no rating yet gets the model's starting one.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel, ConfigDict

from rules.stats import player_key
from scorer.ratings.model import PROVISIONAL_GAMES, Ratings

MIN_PRESENT: Final = 4
MAX_PRESENT: Final = 8
PROPOSALS: Final = 3
"""How many fair-team proposals are offered, closest to even first."""


class Chance(BaseModel):
    """Two teams and the chance of each to win; `first + second == 1`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    teams: tuple[tuple[str, str], tuple[str, str]]
    first: float
    provisional: bool
    """Some player has fewer than PROVISIONAL_GAMES rated games: a rough guess."""

    @property
    def second(self) -> float:
        return 1.0 - self.first

    def percents(self) -> tuple[int, int]:
        """Whole percents that always sum to 100."""
        first = round(self.first * 100)
        return first, 100 - first

    def labels(self) -> tuple[str, str]:
        """("Ann & Cid 58 %", "Bob & Dee 42 %") with no-break spaces before the sign."""
        return tuple(  # type: ignore[return-value]
            f"{a} & {b} {pct}\u00a0%" for (a, b), pct in zip(self.teams, self.percents(),
                                                             strict=True))

    @property
    def unevenness(self) -> float:
        """How far from even: 0.0 is a coin toss, 0.5 a sure thing."""
        return abs(self.first - 0.5)


def win_chance(ratings: Ratings, first: tuple[str, str], second: tuple[str, str]) -> Chance:
    """win_chance(ratings, first, second) -> Chance: each pair's chance to beat the other.

    Names match with capitals and outer spaces ignored; ValueError if a name repeats."""
    names = (*first, *second)
    if len({player_key(n) for n in names}) != 4 or any(not player_key(n) for n in names):
        raise ValueError("a table needs four players with different names")
    model = PlackettLuce()
    known = {player_key(p.player): p for p in ratings.players}

    def rating(name: str) -> PlackettLuceRating:
        p = known.get(player_key(name))
        return model.rating() if p is None else model.rating(mu=p.mu, sigma=p.sigma)

    odds = model.predict_win([[rating(n) for n in first], [rating(n) for n in second]])
    provisional = any(
        known.get(player_key(n)) is None or known[player_key(n)].games < PROVISIONAL_GAMES
        for n in names)
    return Chance(teams=(first, second),
                  first=float(odds[0]), provisional=provisional)


class Proposal(BaseModel):
    """One way to seat the players present: one or two tables, and who sits out."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tables: tuple[Chance, ...]
    sitting_out: tuple[str, ...] = ()

    @property
    def unevenness(self) -> float:
        """The least even table's unevenness (what the proposals are ranked by)."""
        return max(t.unevenness for t in self.tables)


def _pairings(four: Sequence[str]) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    a, b, c, d = four
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


def _tables(ratings: Ratings, four: Sequence[str]) -> list[Chance]:
    return [win_chance(ratings, x, y) for x, y in _pairings(four)]


def fair_teams(ratings: Ratings, present: Sequence[str],
               count: int = PROPOSALS) -> tuple[Proposal, ...]:
    """fair_teams(ratings, present, count=3) -> tuple[Proposal, ...]: the `count` seatings
    whose chances are closest to even, best first.

    4 to 7 present: one table (the rest sit out); 8: two tables, ranked by the less
    even one, then by both. ValueError for fewer than 4, more than 8, or a repeated name."""
    if not MIN_PRESENT <= len(present) <= MAX_PRESENT:
        raise ValueError("Fair teams need 4 to 8 players.")
    if len({player_key(n) for n in present}) != len(present):
        raise ValueError("Each player can be there only once.")
    names = [n.strip() for n in present]
    found: list[Proposal] = []
    if len(names) == MAX_PRESENT:
        head, rest = names[0], names[1:]
        for mates in itertools.combinations(rest, 3):
            other = [n for n in rest if n not in mates]
            for one in _tables(ratings, (head, *mates)):
                for two in _tables(ratings, other):
                    found.append(Proposal(tables=(one, two)))
    else:
        for four in itertools.combinations(names, 4):
            out = tuple(n for n in names if n not in four)
            found.extend(Proposal(tables=(t,), sitting_out=out) for t in _tables(ratings, four))
    found.sort(key=lambda p: (p.unevenness, sum(t.unevenness for t in p.tables)))
    return tuple(found[:max(1, count)])
