"""The standings: wins, then point difference, then points for; a bye is a win
with no points either way; entrants equal on all three share a rank.

A pure sum over the results counted so far, so the order in which games are
given, or which side of a table an entrant sat on, cannot change it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from scorer.events.model import Entrant, Outcome


class Standing(BaseModel):
    """One line of the standings."""

    model_config = ConfigDict(frozen=True)

    rank: int
    entrant: int
    names: tuple[str, ...]
    played: int
    """Games played plus byes (a bye counts as a round won)."""
    wins: int
    losses: int
    byes: int
    points_for: int
    points_against: int
    withdrawn: bool = False

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def order(self) -> tuple[int, int, int]:
        """What ranks an entrant (smaller is better)."""
        return (-self.wins, -self.difference, -self.points_for)


def standings(entrants: Sequence[Entrant], outcomes: Iterable[Outcome],
              byes: Iterable[int], withdrawn: Iterable[int] = ()) -> tuple[Standing, ...]:
    """Every entrant's line, best first; equal lines share a rank (1, 2, 2, 4) and are
    listed by name."""
    tally = {e.id: [0, 0, 0, 0, 0, 0] for e in entrants}  # played, won, lost, byes, for, against
    for outcome in outcomes:
        for side in (0, 1):
            for entrant in outcome.sides[side]:
                row = tally.setdefault(entrant, [0, 0, 0, 0, 0, 0])
                row[0] += 1
                row[1 if outcome.winner == side else 2] += 1
                row[4] += outcome.points[side]
                row[5] += outcome.points[1 - side]
    for entrant in byes:
        row = tally.setdefault(entrant, [0, 0, 0, 0, 0, 0])
        row[0] += 1
        row[1] += 1
        row[3] += 1
    gone = set(withdrawn)
    names = {e.id: e.names for e in entrants}
    lines = [Standing(rank=0, entrant=e, names=names.get(e, (f"#{e}",)), played=t[0],
                      wins=t[1], losses=t[2], byes=t[3], points_for=t[4],
                      points_against=t[5], withdrawn=e in gone)
             for e, t in tally.items()]
    lines.sort(key=lambda s: (s.order, [n.casefold() for n in s.names], s.entrant))
    ranked: list[Standing] = []
    for n, line in enumerate(lines):
        rank = ranked[-1].rank if ranked and ranked[-1].order == line.order else n + 1
        ranked.append(line.model_copy(update={"rank": rank}))
    return tuple(ranked)
