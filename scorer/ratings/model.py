"""Ratings over finished games: openskill's Plackett-Luce model, recomputed from scratch.

Pure, no I/O. Each finished game is a match of two pairs, the winners ranked
first; the matches are rated one after another in the order given. Nothing
here is stored: the ratings are a function of the ordered games, so an edit,
an undo or a deleted game changes them by recomputing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel, ConfigDict, model_validator

from rules.stats import player_key

MODEL_NAME: Final = "plackett-luce"
PROVISIONAL_GAMES: Final = 10
"""Under this many rated games a player's rating is shown as provisional."""
PLAYER_KEYS: Final = ("player", "mu", "sigma", "rating", "games", "wins")


class Match(BaseModel):
    """One finished game: the winning pair and the losing pair, names as typed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    winners: tuple[str, str]
    losers: tuple[str, str]

    @model_validator(mode="after")
    def _four_players(self) -> Match:
        keys = {player_key(name) for name in (*self.winners, *self.losers)}
        if len(keys) != 4 or "" in keys:
            raise ValueError("a match needs four players with different names")
        return self


def match_of(players: tuple[str, str, str, str], winner: int | None) -> Match | None:
    """The match of a game with these seats, won by team `winner`; None if unfinished.

    Partners sit opposite (seats 0 and 2 are team 0), as `rules.table` says."""
    if winner is None:
        return None
    loser = 1 - winner
    return Match(winners=(players[winner], players[winner + 2]),
                 losers=(players[loser], players[loser + 2]))


class PlayerRating(BaseModel):
    """One player's rating after the games given: `rating` is mu - 3 sigma."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    player: str
    mu: float
    sigma: float
    rating: float
    games: int
    wins: int

    @property
    def provisional(self) -> bool:
        """Too few games for the app to know the player yet."""
        return self.games < PROVISIONAL_GAMES

    def contract(self) -> dict[str, Any]:
        """One entry of `tarabish ratings --json`: exactly these keys."""
        dumped = self.model_dump()
        return {key: dumped[key] for key in PLAYER_KEYS}


class Ratings(BaseModel):
    """Every rated player, highest rating first."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    games: int = 0
    players: tuple[PlayerRating, ...] = ()

    def contract(self) -> dict[str, Any]:
        """`{"model": "plackett-luce", "players": [...]}`, the public JSON."""
        return {"model": MODEL_NAME, "players": [p.contract() for p in self.players]}


class Rater:
    """Ratings built one match at a time: `add` each match in order, read `ratings()`.

    `compute_ratings(matches)` is exactly a fresh Rater given every match in turn,
    so an incremental update and a recomputation from scratch agree."""

    def __init__(self) -> None:
        self.model = PlackettLuce()
        self.current: dict[str, PlackettLuceRating] = {}
        self.names: dict[str, str] = {}
        self.games: dict[str, int] = {}
        self.wins: dict[str, int] = {}
        self.count = 0

    def add(self, match: Match) -> None:
        """Rate one more match after the ones already added."""
        self.count += 1
        sides = (match.winners, match.losers)
        keys = [[player_key(name) for name in side] for side in sides]
        teams = [[self.current.get(key) or self.model.rating() for key in side]
                 for side in keys]
        rated = self.model.rate(teams)  # listed order is the rank: winners first
        for side, (side_names, side_keys, new) in enumerate(zip(sides, keys, rated, strict=True)):
            for name, key, rating in zip(side_names, side_keys, new, strict=True):
                self.current[key] = rating
                self.names[key] = name.strip()
                self.games[key] = self.games.get(key, 0) + 1
                self.wins[key] = self.wins.get(key, 0) + (side == 0)

    def rating_of(self, name: str) -> float:
        """`name`'s rating now (mu - 3 sigma); the model's starting one if unrated."""
        r = self.current.get(player_key(name)) or self.model.rating()
        return float(r.mu - 3 * r.sigma)

    def ratings(self) -> Ratings:
        """Every player rated so far, highest rating first."""
        players = [
            PlayerRating(player=self.names[key], mu=r.mu, sigma=r.sigma,
                         rating=r.mu - 3 * r.sigma, games=self.games[key], wins=self.wins[key])
            for key, r in self.current.items()
        ]
        players.sort(key=lambda p: (-p.rating, player_key(p.player)))
        return Ratings(games=self.count, players=tuple(players))


def compute_ratings(matches: Iterable[Match]) -> Ratings:
    """Rate `matches` one after another, in the order given, from the model's defaults.

    A player is a name with capitals and outer spaces ignored (as the
    statistics count them) and is shown as typed in their latest match."""
    rater = Rater()
    for match in matches:
        rater.add(match)
    return rater.ratings()
