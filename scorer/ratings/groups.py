"""Ratings within a group: its own games only, a player is one of its member names.

Pure, no I/O. A group's game is a finished match with when it finished and the
points of each side; the caller reads them from the store (`scorer.ratings.sources`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict, field_validator

from rules.stats import player_key
from scorer.ratings.model import Match, PlayerRating, Ratings, compute_ratings


class GroupGame(BaseModel):
    """One finished game of a group: `points` are (winners', losers') final scores."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    match: Match
    finished: datetime
    points: tuple[int, int] = (0, 0)

    @field_validator("finished")
    @classmethod
    def _aware(cls, when: datetime) -> datetime:
        if when.tzinfo is None:
            raise ValueError("a game's finishing time needs its time zone")
        return when


def member_names(members: Iterable[str]) -> dict[str, str]:
    """Each member's key (capitals and outer spaces ignored) to the name as the group keeps it."""
    return {player_key(name): name.strip() for name in members if player_key(name)}


def group_ratings(games: Sequence[GroupGame], members: Iterable[str]) -> Ratings:
    """group_ratings(games, members) -> Ratings: rate `games` in the order given and keep
    the members only, each shown as the group spells them (capitals do not matter).

    Non-members in a game are rated too (they move the members' ratings) but not
    listed. `Ratings.games` is the number of games rated."""
    names = member_names(members)
    rated = compute_ratings(game.match for game in games)
    kept = tuple(
        PlayerRating(**{**p.model_dump(), "player": names[player_key(p.player)]})
        for p in rated.players if player_key(p.player) in names
    )
    return Ratings(games=rated.games, players=kept)
