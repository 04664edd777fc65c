"""Before a game: each team's chance to win, and fair teams for the members present.

Pure, no I/O. The chance is openskill's own prediction (`predict_win`) from the
players' ratings; a player with no rated game starts from the model's default.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel, ConfigDict

from rules.stats import player_key
from scorer.ratings.timeline import Skill

FAIR_MIN, FAIR_MAX = 4, 8
"""Members present for fair teams: one table of four to two tables."""


def chances(skills: Mapping[str, Skill], team_a: Sequence[str], team_b: Sequence[str]
            ) -> tuple[float, float]:
    """The chance of each team (names) to win, from 0 to 1; they add up to 1."""
    model = PlackettLuce()

    def rating(name: str) -> PlackettLuceRating:
        skill = skills.get(player_key(name))
        return model.rating() if skill is None else model.rating(mu=skill.mu,
                                                                 sigma=skill.sigma)

    odds = model.predict_win([[rating(n) for n in team_a], [rating(n) for n in team_b]])
    return float(odds[0]), float(odds[1])


def percent_pair(odds: tuple[float, float]) -> tuple[int, int]:
    """Whole percents that add up to 100."""
    first = round(100 * odds[0])
    return first, 100 - first


class Table(BaseModel):
    """Two proposed partnerships and each one's chance to win."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    teams: tuple[tuple[str, str], tuple[str, str]]
    odds: tuple[float, float]

    @property
    def unevenness(self) -> float:
        return abs(self.odds[0] - 0.5)


class Proposal(BaseModel):
    """Fair teams: one table (4 to 7 present) or two (8), and who sits out."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...] = ()


def _pairings(four: Sequence[str]) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    a, b, c, d = four
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


def _best_table(skills: Mapping[str, Skill], four: Sequence[str]) -> Table:
    tables = [Table(teams=teams, odds=chances(skills, *teams)) for teams in _pairings(four)]
    return min(tables, key=lambda t: t.unevenness)


def fair_teams(skills: Mapping[str, Skill], present: Sequence[str]) -> Proposal:
    """The partnerships whose chances are closest to even.

    Eight present: two tables, the split whose less even table is the most even.
    Five to seven: the fairest table of four among them; the others sit out."""
    names = list(dict.fromkeys(present))
    if not FAIR_MIN <= len(names) <= FAIR_MAX:
        raise ValueError(f"pick {FAIR_MIN} to {FAIR_MAX} players")
    if len(names) == 2 * FAIR_MIN:
        first, rest = names[0], names[1:]
        best: tuple[Table, Table] | None = None
        for others in itertools.combinations(rest, 3):
            one = [first, *others]
            two = [n for n in rest if n not in others]
            pair = (_best_table(skills, one), _best_table(skills, two))
            score = (max(t.unevenness for t in pair), sum(t.unevenness for t in pair))
            if best is None or score < (max(t.unevenness for t in best),
                                        sum(t.unevenness for t in best)):
                best = pair
        assert best is not None
        return Proposal(tables=best)
    choices = [_best_table(skills, four) for four in itertools.combinations(names, 4)]
    table = min(choices, key=lambda t: t.unevenness)
    seated = {n for team in table.teams for n in team}
    return Proposal(tables=(table,), sitting_out=tuple(n for n in names if n not in seated))
