"""A hand's story on the sheet (`history_lines`): which phone made each change and when,
and for a change a phone kept offline and sent later, when the phone made it too."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from rules.history import Added, Redone
from scorer.app.views.sheet_trail import history_lines
from scorer.text.trail import local_time

SAVED = datetime(2025, 6, 1, 20, 31, tzinfo=UTC)
MODEL: Any = SimpleNamespace(game=SimpleNamespace(names=None))
"""Only an edit's lines read the game (its names)."""


def test_a_hand_kept_offline_says_when_the_phone_made_it() -> None:
    made = SAVED - timedelta(minutes=18)
    lines = history_lines(MODEL, (
        Added(revision=2, at=SAVED, by="phone 2", hand=1, phone_at=made),
        Redone(revision=3, at=SAVED + timedelta(minutes=1), by="phone 1", hand=1),
    ))
    saved_at, made_at = local_time(SAVED)[-5:], local_time(made)[-5:]
    assert lines[0] == f"Recorded on phone 2 at {saved_at} (made on the phone at {made_at})."
    assert lines[1] == f"Put back on phone 1 at {local_time(SAVED + timedelta(minutes=1))[-5:]}."


def test_a_change_sent_at_once_says_one_time() -> None:
    [line] = history_lines(MODEL, (
        Added(revision=2, at=SAVED, by="phone 2", hand=1, phone_at=SAVED),))
    assert line == f"Recorded on phone 2 at {local_time(SAVED)[-5:]}."
