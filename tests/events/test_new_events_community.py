"""A community's processes share the bound of new club nights per address (issue 38 §2:
each process counted its own, so an address made five in each)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import scorer.app.club_actions as club_actions
from scorer.app.club_actions import EVENTS_PER_HOUR
from scorer.events.model import EventSpec, Format
from scorer.rights.limiter import RateWindow
from scorer.rights.service import TooManyGames
from scorer.store.database import Database
from scorer.store.pg_games import PgGameStore
from tests.events.test_club_actions import TEAMS, phone


@pytest.fixture
def community(pg_url: str, tmp_path: Path) -> Iterator[PgGameStore]:
    db = Database(pg_url)
    try:
        yield PgGameStore(db, data_dir=tmp_path / "cache")
    finally:
        db.close()


def night(name: str) -> EventSpec:
    return EventSpec(name=name, format=Format.SWISS, rounds=2, teams=TEAMS)


def test_a_communitys_processes_share_the_bound_of_new_club_nights(
        community: PgGameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(club_actions, "_new_events", RateWindow(EVENTS_PER_HOUR, 3600.0))
    organiser: Any = phone(community, "organiser-token-000000001", "203.0.113.30")
    for n in range(EVENTS_PER_HOUR):
        organiser.create(night(f"Night {n}"))
    # Another process: its own memory, the same database.
    monkeypatch.setattr(club_actions, "_new_events", RateWindow(EVENTS_PER_HOUR, 3600.0))
    with pytest.raises(TooManyGames):
        organiser.create(night("One more"))
    other: Any = phone(community, "organiser-token-000000002", "203.0.113.31")
    other.create(night("Another hall"))
