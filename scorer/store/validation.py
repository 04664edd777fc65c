"""The one place the store asks the rules engine whether a game is valid, and its score.

Scores are never stored as a source of truth: they are derived here by
replaying the hands.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from scorer.store.errors import InvalidGame

FORMAT = "tarabish-game/1"


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
    """Replay `doc`; never raises for a bad hand, it reports where the trouble starts.

    A file-level problem (no valid header) is reported as `invalid_from=None`
    with `error` set.
    """
    problem = _structure_problem(doc)
    if problem is not None:
        message, hand = problem
        return Scoring((0, 0), None, hand, message)
    return Scoring((0, 0), None, None)


@cache
def scoring_fingerprint() -> str:
    """Changes whenever the rules engine's code changes, so cached scores are redone."""
    import rules

    h = hashlib.sha256()
    for src in sorted(Path(rules.__file__).parent.glob("*.py")):
        h.update(src.name.encode())
        h.update(src.read_bytes())
    return h.hexdigest()[:16]


# Stand-in until the rules engine's game_file/replay modules land: shape only.
_HAND_KEYS = {"caller", "trump", "points", "runs", "bella", "misplay", "thrown_by", "passed"}


def _structure_problem(doc: Any) -> tuple[str, int | None] | None:
    if not isinstance(doc, dict):
        return "A game file must be a JSON object.", None
    if doc.get("format") != FORMAT:
        return f"This is not a {FORMAT} game file.", None
    players = doc.get("players")
    if not (isinstance(players, list) and len(players) == 4
            and all(isinstance(p, str) and p.strip() for p in players)):
        return "A game needs four player names.", None
    hands = doc.get("hands", [])
    if not isinstance(hands, list):
        return "The hands must be a list.", None
    for i, hand in enumerate(hands):
        if not isinstance(hand, dict) or not hand:
            return f"Hand {i + 1} is empty.", i
        unknown = set(hand) - _HAND_KEYS
        if unknown:
            return f"Hand {i + 1} has unknown entries: {', '.join(sorted(unknown))}.", i
    return None
