"""Club nights and organiser codes in a community's database, as two processes see
them: each store here has its own `Database` pool."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from scorer.events.model import EventSpec, Format
from scorer.events.night import Event
from scorer.events.organisers import TooManyTries, WrongCode
from scorer.events.pg_organisers import PgOrganiserCodes
from scorer.events.pg_store import PgEventStore
from scorer.events.service import EventService
from scorer.events.store import EventNotFound, StaleEvent
from scorer.store.database import Database
from scorer.store.game_store import GameStore

TEAMS = (("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay"), ("Gus", "Hal"))
ORGANISER = "organiser-token-000000001"


@pytest.fixture
def two(pg_url: str, tmp_path: Path) -> Iterator[tuple[EventService, EventService]]:
    """Two processes' club nights on one community database."""
    dbs = [Database(pg_url, max_size=3), Database(pg_url, max_size=3)]
    stores = [GameStore(tmp_path / "a"), GameStore(tmp_path / "b")]
    yield (EventService.on_database(stores[0], dbs[0]),
           EventService.on_database(stores[1], dbs[1]))
    for store in stores:
        store.close()
    for db in dbs:
        db.close()


def _spec(name: str = "Hall") -> EventSpec:
    return EventSpec(name=name, format=Format.SWISS, rounds=2, seed=3, teams=TEAMS)


def _renamed(name: str):  # type: ignore[no-untyped-def]
    return lambda ev: ev.model_copy(update={"name": name})


def test_an_event_made_through_one_process_is_read_and_changed_through_the_other(
        two: tuple[EventService, EventService], pg_url: str) -> None:
    a, b = two
    stored, code = a.create(_spec(), device=ORGANISER)
    assert b.get(stored.id) == stored and [e.id for e in b.list_events()] == [stored.id]
    assert b.find(stored.id[:3]) == [stored.id] and b.find("zz%") == []
    changed = b.events.update(stored.id, _renamed("Legion"), expected_revision=1)
    assert changed.revision == 2 and a.get(stored.id).night.name == "Legion"
    with pytest.raises(StaleEvent):  # a's screen still shows revision 1
        a.events.update(stored.id, _renamed("Other"), expected_revision=1)
    with pytest.raises(EventNotFound):
        a.get("../../etc")
    with psycopg.connect(pg_url) as conn:  # the code is not in the event's record
        (record,) = conn.execute("SELECT record::text FROM events").fetchone()  # type: ignore[misc]
    assert code not in record and '"schema": 1' in record


def test_an_event_changed_through_two_processes_at_once_gives_one_stale_event(
        two: tuple[EventService, EventService], pg_url: str) -> None:
    a, b = two
    event_id = a.create(_spec())[0].id
    outcomes: list[str] = []

    def change_on_b() -> None:
        try:
            b.events.update(event_id, _renamed("From B"), expected_revision=1)
            outcomes.append("saved")
        except StaleEvent:
            outcomes.append("stale")

    other = threading.Thread(target=change_on_b)

    def change_on_a(ev: Event) -> Event:
        """While a holds the event, b tries the same change from the same screen."""
        other.start()
        with psycopg.connect(pg_url, autocommit=True) as watch:
            for _ in range(500):  # until b waits on the event's row (bounded: 5 s)
                row = watch.execute("SELECT count(*) FROM pg_stat_activity "
                                    "WHERE wait_event_type = 'Lock'").fetchone()
                if row is not None and row[0] > 0:
                    break
                time.sleep(0.01)
        return ev.model_copy(update={"name": "From A"})

    a.events.update(event_id, change_on_a, expected_revision=1)
    other.join()
    assert outcomes == ["stale"]
    saved = b.get(event_id)
    assert saved.revision == 2 and saved.night.name == "From A"


def test_an_organiser_code_entered_through_one_holds_on_the_other(
        two: tuple[EventService, EventService]) -> None:
    a, b = two
    stored, code = a.create(_spec(), device=ORGANISER)
    assert b.codes.code(stored.id) == code and b.codes.holds(stored.id, ORGANISER)
    b.codes.enter(stored.id, "helper-token-00000000001", "10.0.0.3", code[:4] + " " + code[4:])
    assert a.codes.holds(stored.id, "helper-token-00000000001")
    assert a.codes.move("helper-token-00000000001", "helper-token-00000000002") == 1
    assert b.codes.holds(stored.id, "helper-token-00000000002")
    assert not b.codes.holds(stored.id, "helper-token-00000000001")


def test_wrong_organiser_codes_through_two_processes_add_up(
        two: tuple[EventService, EventService]) -> None:
    a, b = two
    stored, code = a.create(_spec(), device=ORGANISER)
    wrong = "00000000" if code != "00000000" else "11111111"
    with pytest.raises(WrongCode, match=r"\(2 more tries"):
        a.codes.enter(stored.id, "guesser-token-0000000001", "10.0.0.7", wrong)
    with pytest.raises(WrongCode, match=r"\(1 more try"):
        b.codes.enter(stored.id, "guesser-token-0000000002", "10.0.0.7", wrong)
    with pytest.raises(TooManyTries):
        a.codes.enter(stored.id, "guesser-token-0000000003", "10.0.0.7", wrong)
    with pytest.raises(TooManyTries):  # the right code waits too, on either process
        b.codes.enter(stored.id, "guesser-token-0000000003", "10.0.0.7", code)
    assert not a.codes.holds(stored.id, "guesser-token-0000000003")


def test_organisers_per_event_stay_bounded(pg_url: str) -> None:
    db = Database(pg_url, max_size=1)
    codes = PgOrganiserCodes(db)
    for n in range(25):
        codes.start("0123abcd", f"helper-token-{n:04d}-000000")
    with db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM event_organisers").fetchone() == (20,)
    db.close()


def test_a_reading_store_writes_nothing(pg_url: str) -> None:
    db = Database(pg_url, max_size=1)
    from scorer.events import night
    from scorer.store.errors import NotSaved

    writer, reader = PgEventStore(db), PgEventStore(db, read_only=True)
    stored = writer.create(night.new_event(_spec(), 5))
    with pytest.raises(NotSaved):
        reader.update(stored.id, _renamed("X"))
    assert reader.get(stored.id) == stored
    db.close()
