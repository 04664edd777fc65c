"""When a stored game finished: the time its winning hand was recorded, by its trail."""

from __future__ import annotations

from datetime import UTC, datetime

from scorer.ratings.sources import finished_at

SAVED = datetime(2026, 11, 30, 21, 0, tzinfo=UTC)


def entry(change: str, at: str, hand: int | None = None) -> dict[str, object]:
    return {"change": change, "at": at, **({} if hand is None else {"hand": hand})}


def test_the_winning_hand_added_dates_the_game_not_a_later_rename() -> None:
    trail = [entry("started", "2026-11-01T19:00:00+00:00"),
             entry("added", "2026-11-01T19:30:00+00:00", 1),
             entry("added", "2026-11-01T20:10:00+00:00", 2),
             entry("edited", "2026-11-02T09:00:00+00:00", 1),
             entry("details", "2026-11-20T09:00:00+00:00")]
    assert finished_at(trail, 2, SAVED) == datetime(2026, 11, 1, 20, 10, tzinfo=UTC)


def test_a_winning_hand_undone_and_put_back_is_dated_by_its_return() -> None:
    trail = [entry("added", "2026-11-01T20:10:00+00:00", 2),
             entry("undone", "2026-11-01T20:11:00+00:00", 2),
             entry("redone", "2026-11-01T20:12:00+00:00", 2)]
    assert finished_at(trail, 2, SAVED) == datetime(2026, 11, 1, 20, 12, tzinfo=UTC)


def test_without_a_usable_time_the_last_save_is_used() -> None:
    assert finished_at([], 6, SAVED) == SAVED
    assert finished_at([entry("added", "2026-11-01T20:10:00+00:00", 5)], 6, SAVED) == SAVED
    assert finished_at([entry("added", "yesterday", 6)], 6, SAVED) == SAVED
    assert finished_at([entry("added", "2026-11-01T20:10:00", 6)], 6, SAVED) == SAVED
