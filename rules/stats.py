"""Figures across games: per player and per partnership, derived by replaying each game.

Two steps, so the slow one can be cached per game revision by the app:
`game_facts` replays one game and keeps what each seat did in it; `compute_stats`
adds those facts up across games, by player name (trimmed, case-insensitive),
after an optional date or player filter. Nothing here is stored as a truth:
the facts are a pure function of the game and the rules engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rules.game import Game
from rules.replay import replay
from rules.ruling import Outcome
from rules.table import partner_of, right_of, team_of

CALL_OUTCOMES = frozenset({Outcome.MADE, Outcome.HALF_BAIT, Outcome.BAIT})
_OUTCOME_FIELD = {Outcome.MADE: "made", Outcome.HALF_BAIT: "half_baits", Outcome.BAIT: "baits"}


def player_key(name: str) -> str:
    """How a name is recognised across games: "ann " and "Ann" are one player."""
    return name.strip().casefold()


class SeatFacts(BaseModel):
    """What the player in one seat did in one game (valid hands only)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    calls: int = 0
    made: int = 0
    half_baits: int = 0
    baits: int = 0
    call_points: int = 0
    bellas: int = 0
    forced_calls: int = 0
    runs_shown: int = 0
    runs_scored: int = 0
    run_points: int = 0


class GameFacts(BaseModel):
    """One game reduced to what the statistics need; a pure function of the game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: tuple[str, str, str, str]
    hands: int = 0
    winner: int | None = None
    totals: tuple[int, int] = (0, 0)
    seats: tuple[SeatFacts, SeatFacts, SeatFacts, SeatFacts] = Field(
        default=(SeatFacts(), SeatFacts(), SeatFacts(), SeatFacts())
    )


def game_facts(game: Game) -> GameFacts:
    """Replay `game` and count, seat by seat, its calls, bellas and runs.

    A call counts when the hand was ruled made, half-bait or bait (misplays,
    throw-ins and passes are not calls); its points are what the caller's team
    scored on it. A *forced* call is one the forced-at house rule obliged: the
    call came round to the player before the dealer while that player's team
    was over the mark (calling first while forced is a choice, not this).
    Hands the engine refuses count for nothing.
    """
    result = replay(game)
    seats: list[dict[str, int]] = [dict.fromkeys(SeatFacts.model_fields, 0) for _ in range(4)]
    for hand in result.hands:
        ruling = hand.ruling
        if ruling is None:
            continue
        if ruling.bella_to is not None:
            seats[ruling.bella_to]["bellas"] += 1
        shown = {run.seat for run in getattr(hand.hand, "runs", ())}
        for seat in shown:
            seats[seat]["runs_shown"] += 1
        for block in ruling.scoring_runs:
            seats[block.seat]["run_points"] += block.points
        for seat in {block.seat for block in ruling.scoring_runs}:
            seats[seat]["runs_scored"] += 1
        caller = ruling.caller
        if caller is None or ruling.outcome not in CALL_OUTCOMES:
            continue
        figures = seats[caller]
        figures["calls"] += 1
        figures[_OUTCOME_FIELD[ruling.outcome]] += 1
        figures["call_points"] += ruling.scores[team_of(caller)]
        if caller == right_of(hand.dealer) and team_of(caller) in hand.forced:
            figures["forced_calls"] += 1
    return GameFacts(
        players=game.players,
        hands=len(game.hands),
        winner=result.winner,
        totals=result.totals,
        seats=(
            SeatFacts(**seats[0]), SeatFacts(**seats[1]),
            SeatFacts(**seats[2]), SeatFacts(**seats[3]),
        ),
    )


class PlayedGame(BaseModel):
    """A game's facts with when it was started (for date filters and the latest name)."""

    model_config = ConfigDict(frozen=True)

    facts: GameFacts
    started: datetime
    day: date
    game_id: str = ""


class Relation(StrEnum):
    """Whom to show beside a chosen player."""

    PARTNERS = "partners"
    OPPONENTS = "opponents"


class StatsFilter(BaseModel):
    """Which games and seats count. Dates are inclusive days; `player` any spelling."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    since: date | None = None
    until: date | None = None
    player: str | None = None
    relation: Relation = Relation.PARTNERS


class PlayerStats(SeatFacts):
    """One player's figures over the games counted: their seats' facts summed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    games: int = 0
    finished: int = 0
    """Games counted that were won by a team: a win rate is over these."""
    wins: int = 0

    @property
    def average_call_points(self) -> float | None:
        """What the team scored on average on this player's calls."""
        return self.call_points / self.calls if self.calls else None

    def contract(self) -> dict[str, Any]:
        """The public `tarabish stats --json` form: exactly these keys."""
        dumped = self.model_dump(include=set(PLAYER_KEYS))
        return {key: dumped[key] for key in PLAYER_KEYS}


class PartnershipStats(BaseModel):
    """Two players who sat opposite each other, over the games counted."""

    model_config = ConfigDict(frozen=True)

    players: tuple[str, str]
    games: int = 0
    finished: int = 0
    wins: int = 0

    def contract(self) -> dict[str, Any]:
        return {"players": list(self.players), "games": self.games, "wins": self.wins,
                "finished": self.finished}


class Matchup(BaseModel):
    """Head to head: one partnership against another (finished games decide the wins)."""

    model_config = ConfigDict(frozen=True)

    sides: tuple[tuple[str, str], tuple[str, str]]
    games: int = 0
    wins: tuple[int, int] = (0, 0)


class Stats(BaseModel):
    """Everything `tarabish stats` and the Statistics screen show."""

    model_config = ConfigDict(frozen=True)

    games: int
    players: tuple[PlayerStats, ...] = ()
    partnerships: tuple[PartnershipStats, ...] = ()
    matchups: tuple[Matchup, ...] = ()
    player: str | None = None
    """The filter's player as shown: typed as in their latest game (as given,
    trimmed, if they sat in none)."""

    def contract(self) -> dict[str, Any]:
        """`{"games": G, "players": [...], "partnerships": [...]}`, the public JSON."""
        return {
            "games": self.games,
            "players": [p.contract() for p in self.players],
            "partnerships": [q.contract() for q in self.partnerships],
        }


PLAYER_KEYS = (
    "name", "games", "wins", "calls", "made", "half_baits", "baits", "call_points", "bellas",
    "finished",
)
PARTNERSHIP_KEYS = ("players", "games", "wins", "finished")


def display_names(games: Iterable[PlayedGame],
                  spelled: Mapping[str, str] | None = None) -> dict[str, str]:
    """Each player's name as typed in the latest game they sat in; `spelled` (player key
    -> name, a group's members as it writes them) comes first."""
    names: dict[str, str] = {}
    for played in sorted(games, key=lambda g: (g.started, g.game_id)):
        for name in played.facts.players:
            names[player_key(name)] = name.strip()
    for key, name in (spelled or {}).items():
        if key in names:
            names[key] = name
    return names


def _in_range(played: PlayedGame, wanted: StatsFilter) -> bool:
    if wanted.since is not None and played.day < wanted.since:
        return False
    return wanted.until is None or played.day <= wanted.until


def _counted_seats(players: Sequence[str], wanted: StatsFilter) -> tuple[int, ...] | None:
    """The seats whose figures count in this game, or None if the game is left out."""
    if wanted.player is None:
        return (0, 1, 2, 3)
    chosen = player_key(wanted.player)
    keys = [player_key(name) for name in players]
    if chosen not in keys:
        return None
    seat = keys.index(chosen)
    if wanted.relation is Relation.PARTNERS:
        return (seat, partner_of(seat))
    return (seat, (seat + 1) % 4, (seat + 3) % 4)


def _pair(a: str, b: str) -> tuple[str, str]:
    first, second = sorted((a, b))
    return first, second


def compute_stats(games: Sequence[PlayedGame], wanted: StatsFilter | None = None,
                  spelled: Mapping[str, str] | None = None) -> Stats:
    """Add up the figures of the games that pass `wanted` (every game by default).

    With a player filter, the games are those the player sat in, and the rows
    are that player with their partner (PARTNERS) or with their opponents
    (OPPONENTS), counting only those games; the partnerships are the player's
    own, and with OPPONENTS the ones they played against too. Rows are in name order.
    `spelled`: names to show for some players (`display_names`).
    """
    wanted = wanted or StatsFilter()
    names = display_names(games, spelled)
    players: dict[str, dict[str, int]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}  # games, wins, finished
    matchups: dict[tuple[tuple[str, str], tuple[str, str]], list[int]] = {}
    counted = 0
    for played in games:
        facts = played.facts
        if not _in_range(played, wanted):
            continue
        seats = _counted_seats(facts.players, wanted)
        if seats is None:
            continue
        keys = [player_key(name) for name in facts.players]
        if len(set(keys)) < 4:
            continue  # one name twice at a table: the engine never allows it
        if facts.hands == 0:
            continue  # started, never played (Play again makes one): not a game
        counted += 1
        finished = facts.winner is not None
        for seat in seats:
            row = players.setdefault(keys[seat], dict.fromkeys(_SUMMED, 0))
            row["games"] += 1
            row["finished"] += int(finished)
            row["wins"] += int(finished and team_of(seat) == facts.winner)
            seat_facts = facts.seats[seat]
            for field in _SEAT_FIELDS:
                row[field] += getattr(seat_facts, field)
        teams = (_pair(keys[0], keys[2]), _pair(keys[1], keys[3]))
        for team, pair in enumerate(teams):
            if not _pair_counts(pair, keys, seats, wanted):
                continue
            figures = pairs.setdefault(pair, [0, 0, 0])
            figures[0] += 1
            figures[1] += int(finished and facts.winner == team)
            figures[2] += int(finished)
        order = 0 if teams[0] <= teams[1] else 1
        sides = (teams[order], teams[1 - order])
        match = matchups.setdefault(sides, [0, 0, 0])
        match[0] += 1
        if finished:
            match[1 + (0 if facts.winner == order else 1)] += 1
    chosen = None if wanted.player is None else names.get(player_key(wanted.player),
                                                          wanted.player.strip())
    return Stats(
        games=counted,
        player=chosen,
        players=tuple(
            PlayerStats(name=names[key], **row)
            for key, row in sorted(players.items(), key=lambda item: _sort_key(names[item[0]]))
        ),
        partnerships=tuple(
            PartnershipStats(players=_named(pair, names), games=g, wins=w, finished=f)
            for pair, (g, w, f) in sorted(pairs.items(),
                                          key=lambda item: _pair_sort(item[0], names))
        ),
        matchups=tuple(
            Matchup(sides=(_named(a, names), _named(b, names)), games=g, wins=(x, y))
            for (a, b), (g, x, y) in sorted(
                matchups.items(),
                key=lambda item: (_pair_sort(item[0][0], names), _pair_sort(item[0][1], names)),
            )
        ),
    )


_SEAT_FIELDS = tuple(SeatFacts.model_fields)
_SUMMED = ("games", "finished", "wins", *_SEAT_FIELDS)


def _pair_counts(
    pair: tuple[str, str], keys: Sequence[str], seats: Sequence[int], wanted: StatsFilter
) -> bool:
    """With a player filter: their own partnership, and with OPPONENTS the other one too."""
    if wanted.player is None or wanted.relation is Relation.OPPONENTS:
        return True
    return keys[seats[0]] in pair


def _named(pair: tuple[str, str], names: dict[str, str]) -> tuple[str, str]:
    first, second = sorted((names[pair[0]], names[pair[1]]), key=_sort_key)
    return first, second


def _sort_key(name: str) -> tuple[str, str]:
    return name.casefold(), name


def _pair_sort(pair: tuple[str, str], names: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((_sort_key(names[pair[0]]), _sort_key(names[pair[1]]))))
