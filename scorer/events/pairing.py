"""Who meets whom: the Swiss, round robin and progressive draws, and who sits out.

Pure functions of what has happened so far; nothing here reads a clock or a
file. The only chance is the event's *seed*: each entrant's place in the draw of
round 1 is a hash of the seed and its number (`seeded_key`), so anyone given the
seed can check the draw, and an entrant added later does not move the others.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from scorer.events.model import Draw, Seating

SEARCH_STEPS = 200_000
"""Steps a Swiss pairing may take looking for a draw with no rematch (a few ms for a
hall of sixty teams); past it, the teams left are paired in order of standing."""

Pair = tuple[int, int]
Chance = Callable[[tuple[int, ...], tuple[int, ...]], float]
"""Side 0's chance (0 to 1) to beat side 1, by player ids: from a group's ratings,
worked out by the caller (this module reads nothing)."""


def seeded_key(seed: int, entrant: int) -> str:
    """The entrant's place in the draw: the SHA-256 of "seed:number"."""
    return hashlib.sha256(f"{seed}:{entrant}".encode()).hexdigest()


def draw_order(seed: int, entrants: Iterable[int]) -> list[int]:
    """Entrants in the order of the seeded draw."""
    return sorted(entrants, key=lambda entrant: seeded_key(seed, entrant))


def pick_byes(worst_first: Sequence[int], byes_had: Mapping[int, int], count: int) -> list[int]:
    """`count` entrants to sit out, one at a time among those with the fewest byes so
    far (nobody has a second bye while another player has none), the lowest placed first."""
    chosen: list[int] = []
    for _ in range(count):
        left = [e for e in worst_first if e not in chosen]
        fewest = min(byes_had.get(e, 0) for e in left)
        chosen.append(next(e for e in left if byes_had.get(e, 0) == fewest))
    return chosen


# -- Swiss ------------------------------------------------------------------------------------


class _OutOfSteps(Exception):
    pass


class _Matcher:
    """Pairs a pool best first, each with the nearest in standing it may meet."""

    def __init__(self, met: set[frozenset[int]], budget: int) -> None:
        self.met = met
        self.budget = budget

    def match(self, pool: tuple[int, ...], rematches: int) -> list[Pair] | None:
        """A pairing of `pool` with at most `rematches` pairs that met before, or None."""
        if not pool:
            return []
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfSteps
        first, rest = pool[0], pool[1:]
        for n, other in enumerate(rest):
            cost = 1 if frozenset((first, other)) in self.met else 0
            if cost > rematches:
                continue
            found = self.match(rest[:n] + rest[n + 1:], rematches - cost)
            if found is not None:
                return [(first, other), *found]
        return None


def swiss_pairs(ranked: Sequence[int], met: set[frozenset[int]], byes_had: Mapping[int, int],
                budget: int = SEARCH_STEPS) -> tuple[list[Pair], int | None]:
    """Pair `ranked` (best first): teams of equal standing meet, no two teams meet
    again while a draw without a rematch exists, and an odd team out (the lowest
    placed of those with the fewest byes that still leaves such a draw) gets the bye.
    Returns the pairs, best first, and the team with the bye."""
    worst_first = list(reversed(ranked))
    if len(ranked) % 2:
        fewest = min(byes_had.get(e, 0) for e in ranked)
        candidates: list[int | None] = [e for e in worst_first if byes_had.get(e, 0) == fewest]
    else:
        candidates = [None]
    matcher = _Matcher(met, budget)
    try:
        for rematches in range(len(ranked) // 2 + 1):
            for bye in candidates:
                pool = tuple(e for e in ranked if e != bye)
                found = matcher.match(pool, rematches)
                if found is not None:
                    return found, bye
    except _OutOfSteps:
        pass
    bye = candidates[0]
    return _in_order([e for e in ranked if e != bye], met), bye


def _in_order(pool: list[int], met: set[frozenset[int]]) -> list[Pair]:
    """Best first, each with the next it has not met (else the next): the fallback
    when the search ran out of steps."""
    pairs: list[Pair] = []
    left = list(pool)
    while left:
        first = left.pop(0)
        other = next((e for e in left if frozenset((first, e)) not in met), left[0])
        left.remove(other)
        pairs.append((first, other))
    return pairs


def swiss_draw(round_number: int, ranked: Sequence[int], met: set[frozenset[int]],
               byes_had: Mapping[int, int]) -> Draw:
    """A Swiss round: table 1 for the leaders, and so on down."""
    pairs, bye = swiss_pairs(ranked, met, byes_had)
    return Draw(round=round_number, byes=() if bye is None else (bye,), tables=tuple(
        Seating(table=n, sides=((a,), (b,))) for n, (a, b) in enumerate(pairs, start=1)))


def met_pairs(draws: Iterable[Draw]) -> set[frozenset[int]]:
    """Every two teams that have met at a table."""
    return {frozenset((a, b)) for draw in draws for table in draw.tables
            for a in table.sides[0] for b in table.sides[1]}


def byes_so_far(draws: Iterable[Draw]) -> Counter[int]:
    return Counter(e for draw in draws for e in draw.byes)


# -- round robin ------------------------------------------------------------------------------


def round_robin_draw(round_number: int, entrants: Sequence[int], playing: set[int]) -> Draw:
    """Round `round_number` of the circle method over `entrants` (fixed at round 1, in
    order): one stays put, the others turn one place a round, so over n - 1 rounds
    (n with an odd count, one sitting out each round) every two meet once. A team
    whose opponent has withdrawn has the round off (a bye)."""
    slots: list[int | None] = [*entrants, *([None] if len(entrants) % 2 else [])]
    size = len(slots)
    turn = (round_number - 1) % (size - 1)
    others = slots[1:]
    others = others[len(others) - turn:] + others[:len(others) - turn]
    circle = [slots[0], *others]
    tables: list[Seating] = []
    byes: list[int] = []
    for n in range(size // 2):
        a, b = circle[n], circle[size - 1 - n]
        here = [e for e in (a, b) if e is not None and e in playing]
        if len(here) == 2 and a is not None and b is not None:
            tables.append(Seating(table=len(tables) + 1, sides=((a,), (b,))))
        else:
            byes.extend(here)
    return Draw(round=round_number, tables=tuple(tables), byes=tuple(byes))


# -- progressive ------------------------------------------------------------------------------


def partnerships(draws: Iterable[Draw]) -> Counter[frozenset[int]]:
    """How often each two players have partnered each other."""
    return Counter(frozenset(side) for draw in draws for table in draw.tables
                   for side in table.sides if len(side) == 2)


def split_table(four: Sequence[int], partners: Counter[frozenset[int]],
                chance: Chance | None = None) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two partnerships of a table of four: the split with the fewest pairs who
    partnered before (none when there is one), then the fewest times, then (given
    `chance`) the one whose chance is closest to even, then the first."""
    a, b, c, d = four
    splits = (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))

    def cost(split: tuple[tuple[int, int], tuple[int, int]]) -> tuple[int, int, float]:
        counts = [partners[frozenset(pair)] for pair in split]
        uneven = 0.0 if chance is None else abs(chance(*split) - 0.5)
        # Rounded: the same ratings give the same split on every machine.
        return sum(1 for c in counts if c), sum(counts), round(uneven, 9)

    return min(splits, key=cost)


def progressive_draw(round_number: int, playing: Sequence[int], seed: int,
                     last: Draw | None, winners: Mapping[int, int],
                     history: Sequence[Draw], worst_first: Sequence[int],
                     chance: Chance | None = None) -> Draw:
    """A progressive round. After each round the winning pair at a table moves up
    one table and the losing pair down (the head table's winners and the foot
    table's losers stay); a player back from a bye, or new, starts at the foot.
    Partners change: each table splits its four so that nobody partners the same
    player twice while it can be helped, and among equally good splits the one
    whose chance is closest to even (given `chance`). `winners` gives the winning side of each
    table of `last`; `worst_first` orders the players for byes (the lowest placed
    of those with the fewest byes sit out when the count is not a multiple of four)."""
    count = len(playing) - len(playing) % 4
    tables = count // 4
    byes = pick_byes([p for p in worst_first if p in set(playing)], byes_so_far(history),
                     len(playing) - count)
    seated = [p for p in playing if p not in byes]
    place: dict[int, tuple[int, int]] = {}  # player -> (table wanted, 0 won / 1 lost / 2 new)
    if last is not None:
        for table in last.tables:
            won = winners.get(table.table)
            for side, members in enumerate(table.sides):
                if won is None:
                    continue
                up = side == won
                wanted = table.table - 1 if up else table.table + 1
                for player in members:
                    place[player] = (min(max(1, wanted), tables), 0 if up else 1)
    order = sorted(seated, key=lambda p: (*place.get(p, (tables, 2)), seeded_key(seed, p)))
    partners = partnerships(history)
    seatings = []
    for n in range(tables):
        side0, side1 = split_table(order[4 * n: 4 * n + 4], partners, chance)
        seatings.append(Seating(table=n + 1, sides=(side0, side1)))
    return Draw(round=round_number, tables=tuple(seatings), byes=tuple(byes))
