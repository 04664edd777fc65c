"""The one place the store asks the rules engine whether a game is valid, and its score.

Scores are never stored as a source of truth: they are derived here by
replaying the hands.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from rules.errors import GameFileError
from rules.game_file import parse_game
from rules.replay import replay
from scorer.store.errors import InvalidGame


@dataclass(frozen=True)
class Scoring:
    """What a replay says about a game: running totals after the valid hands."""

    totals: tuple[int, int]
    winner: int | None
    # 0-based index of the first hand the engine refuses, None if all are valid.
    invalid_from: int | None
    error: str | None = None


def check_doc(doc: dict[str, Any], *, allow_invalid_after: int | None = None) -> Scoring:
    """Validate `doc` and score it; raise InvalidGame if it may not be saved.

    With `allow_invalid_after=None` every hand must be valid (creating a game,
    appending a hand). With `allow_invalid_after=k` hands 0..k must be valid and
    later ones may have become invalid (an edit of hand k re-scores the hands
    after it; the app flags those). `k = -1` checks the game's header only.
    """
    scoring = score_doc(doc)
    if scoring.error is None:
        return scoring
    bad = scoring.invalid_from
    if bad is None or allow_invalid_after is None or bad <= allow_invalid_after:
        raise InvalidGame(scoring.error, bad)
    return scoring


def validate_doc(doc: dict[str, Any], *, allow_invalid_after: int | None = None) -> None:
    """Raise InvalidGame unless `doc` may be saved (see `check_doc`)."""
    check_doc(doc, allow_invalid_after=allow_invalid_after)


def score_doc(doc: dict[str, Any]) -> Scoring:
    """Replay `doc` through the rules engine; never raises for a bad game.

    Invalid hands score nothing (the engine's rule); `invalid_from` is the
    first of them. A hand too malformed to read stops the replay there. A
    problem with the game itself (players, house rules...) gives
    `invalid_from=None` with `error` set.
    """
    try:
        # saved=True: a name saved before control characters were refused still scores.
        game = parse_game(doc, saved=True)
    except GameFileError as e:
        if e.hand is None:
            return Scoring((0, 0), None, None, _sentence(e))
        # Score what can be read: the hands before the unreadable one.
        try:
            before = replay(parse_game({**doc, "hands": doc["hands"][: e.hand]}, saved=True))
        except GameFileError:
            return Scoring((0, 0), None, e.hand, _sentence(e))
        earlier = before.first_error
        first = earlier if earlier is not None else e
        return Scoring(before.totals, before.winner, first.hand, _sentence(first))
    result = replay(game)
    error = result.first_error
    if error is None:
        return Scoring(result.totals, result.winner, None)
    return Scoring(result.totals, result.winner, error.hand, _sentence(error))


def _sentence(error: GameFileError) -> str:
    text = error.message.strip()
    if error.hand is not None:
        return f"Hand {error.hand + 1}: {text}"
    return text[:1].upper() + text[1:]


@cache
def scoring_fingerprint() -> str:
    """Changes whenever the rules engine's code changes, so cached scores are redone.
    Read through the package's resources: in a phone's browser the sources are in the
    app's zip (a folder path there reads nothing), and the phone must find the
    server's fingerprint (`scorer.sync.kinds.sync_fingerprint`)."""
    return rules_fingerprint(files("rules"))


def rules_fingerprint(folder: Traversable) -> str:
    """`scoring_fingerprint` of the rules engine's sources in `folder` (a Path too: the
    phone app's build bakes in the one it was built from: scorer.webbuild.site)."""
    h = hashlib.sha256()
    sources = [f for f in folder.iterdir() if f.name.endswith(".py") and f.is_file()]
    for src in sorted(sources, key=lambda f: f.name):
        h.update(src.name.encode())
        h.update(src.read_bytes())
    return h.hexdigest()[:16]
