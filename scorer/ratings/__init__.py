"""Ratings that know who carries the team: openskill over finished games (issue 33).

`model` is pure (no I/O); `sources` reads the games from files or a data folder."""

from scorer.ratings.model import (
    MODEL_NAME,
    PROVISIONAL_GAMES,
    Match,
    PlayerRating,
    Ratings,
    compute_ratings,
    match_of,
)

__all__ = [
    "MODEL_NAME",
    "PROVISIONAL_GAMES",
    "Match",
    "PlayerRating",
    "Ratings",
    "compute_ratings",
    "match_of",
]
