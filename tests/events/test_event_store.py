"""Club nights on disk: each table's game an ordinary stored game, the link in the
event's own file; a round start cut short by a crash loses nothing; results by
hand and from paper game files; the standings follow every game."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from strategies import games, house_rules

from rules.game_file import check_game, game_to_doc
from scorer.commands.check import check_json
from scorer.events.errors import RoundError, TableError
from scorer.events.model import EventSpec, Format, parse_spec
from scorer.events.service import EventService
from scorer.events.store import EventNotFound, EventStore
from scorer.rights import get_rights
from scorer.store.errors import DamagedFile, NotSaved
from scorer.store.game_store import GameStore

TEAMS = [["Ann", "Bob"], ["Cid", "Dee"], ["Eve", "Fay"], ["Gus", "Hal"]]
# Seat 0 calls each hand and its side counts 162: 162 a hand, target 300 in two.
WIN = [{"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 162}}] * 2


@pytest.fixture
def folder_service(tmp_path: Path) -> Iterator[EventService]:
    """Club nights in the data folder, as a laptop keeps them."""
    store = GameStore(tmp_path / "data")
    yield EventService(store)
    store.close()


@pytest.fixture(params=["folder", "postgresql"])
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventService]:
    """Club nights in the data folder, or in a community's database."""
    store = GameStore(tmp_path / "data")
    if request.param == "folder":
        yield EventService(store)
    else:
        from scorer.store.database import Database

        db = Database(request.getfixturevalue("pg_url"), max_size=2)
        yield EventService.on_database(store, db)
        db.close()
    store.close()


def new(service: EventService, **changes: Any) -> str:
    spec = parse_spec({"name": "Legion", "format": "swiss", "rounds": 2, "target": 300,
                       "house_rules": {}, "teams": TEAMS, "seed": 4, **changes})
    stored, code = service.create(spec)
    assert len(code) == 8 and code.isdigit()
    return stored.id


def test_a_round_gives_every_table_an_ordinary_game(folder_service: EventService) -> None:
    service = folder_service
    event_id = new(service)
    stored = service.start_round(event_id)
    tables = stored.night.played[0].tables
    assert len(tables) == 2 and all(t.game for t in tables)
    for t in tables:
        game = service.games.get_game(t.game or "")
        assert set(game.doc) == {"format", "players", "first_dealer", "rules", "hands"}
        assert game.doc["rules"] == {"target": 300}
        assert service.event_of_game(game.id) == event_id
        assert get_rights(service.games.data_dir).code(game.id)  # a table code, held by none
    raw = json.loads((service.games.data_dir / "events" / f"{event_id}.json").read_text())
    assert raw["event"]["1"]["schema"] == 1
    assert "code" not in json.dumps(raw)  # the organiser code lives in its own file


def test_the_next_round_waits_and_follows_the_games(service: EventService) -> None:
    event_id = new(service)
    first = service.start_round(event_id).night.played[0]
    with pytest.raises(RoundError, match="tables 1 and 2"):
        service.start_round(event_id)
    for t in first.tables:
        for hand in WIN:
            service.games.add_hand(t.game or "", hand)
    view = service.view(event_id)
    assert view.open_tables == () and view.rounds_played == 1
    winners = {s.names for s in view.standings if s.wins == 1}
    seats = [service.games.get_game(t.game or "").doc["players"] for t in first.tables]
    assert winners == {(p[0], p[2]) for p in seats}
    assert all(s.points_for in (0, 324) for s in view.standings)
    second = service.start_round(event_id).night.played[1]
    met = {frozenset(t.sides[0] + t.sides[1]) for t in first.tables}
    assert not met & {frozenset(t.sides[0] + t.sides[1]) for t in second.tables}


def test_a_crash_while_tables_are_seated_loses_no_pairing(
        service: EventService, monkeypatch: pytest.MonkeyPatch) -> None:
    event_id = new(service)
    made = 0
    create = service.games.create_game

    def dies_after_one(doc: dict[str, Any], by: str | None = None) -> Any:
        nonlocal made
        if made == 1:
            raise KeyboardInterrupt  # the server is killed here
        made += 1
        return create(doc, by=by)

    monkeypatch.setattr(service.games, "create_game", dies_after_one)
    with pytest.raises(KeyboardInterrupt):
        service.start_round(event_id)
    saved = service.events.get(event_id).night
    tables = saved.played[0].tables
    assert [bool(t.game) for t in tables] == [True, False]  # the draw is saved, one game linked
    monkeypatch.undo()
    again = EventService(service.games, service.events, service.codes).view(
        event_id)  # the server started again
    after = again.night.played[0].tables
    assert [t.sides for t in after] == [t.sides for t in tables]
    assert after[0].game == tables[0].game and after[1].game
    assert len(service.games.list_games()) == 2  # no table got two games


def test_results_by_hand_and_paper_games(service: EventService, tmp_path: Path) -> None:
    event_id = new(service)
    first = service.start_round(event_id).night.played[0]
    service.enter_result(event_id, 1, 1, (320, 501), by="phone 1")
    view = service.view(event_id)
    assert view.open_tables == (2,)
    assert view.results[(1, 1)].outcome.kind == "paper"  # type: ignore[union-attr]
    table2 = first.tables[1]
    seats = service.games.get_game(table2.game or "").doc["players"]
    doc = {"format": "tarabish-game/1", "players": seats, "first_dealer": 3,
           "rules": {"target": 300}, "hands": WIN}
    with pytest.raises(TableError, match="not finished"):
        service.import_game(event_id, 2, {**doc, "hands": WIN[:1]})
    with pytest.raises(TableError, match="seats"):
        service.import_game(event_id, 2, {**doc, "players": ["W", "X", "Y", "Z"]})
    with pytest.raises(TableError, match="no table 3"):
        service.import_game(event_id, 3, doc)
    turned = {**doc, "players": [seats[1], seats[2], seats[3], seats[0]], "first_dealer": 0}
    new_id = service.import_game(event_id, 2, turned)  # seats turned: still the same sides
    view = service.view(event_id)
    assert view.open_tables == () and view.night.played[0].tables[1].earlier_games == (
        table2.game,)
    winner = view.results[(1, 2)].outcome
    assert winner is not None and winner.winner == 1 and winner.points == (0, 324)
    exported = service.export(event_id)
    assert new_id in exported["games"] and table2.game in exported["games"]
    assert exported["results"][0]["result"] == "entered by hand"


def test_a_damaged_event_file_is_set_aside(folder_service: EventService) -> None:
    service = folder_service
    event_id = new(service)
    path = service.games.data_dir / "events" / f"{event_id}.json"
    path.write_text('{"event": {"1": {"schema": 1, "id": ', encoding="utf-8")
    with pytest.raises(DamagedFile, match="could not be read"):
        service.get(event_id)
    assert not path.exists() and list((service.games.data_dir / "damaged").iterdir())
    with pytest.raises(EventNotFound):
        service.get(event_id)


def test_a_newer_event_file_is_left_alone(folder_service: EventService) -> None:
    service = folder_service
    event_id = new(service)
    path = service.games.data_dir / "events" / f"{event_id}.json"
    raw = json.loads(path.read_text())
    raw["event"]["1"]["schema"] = 99
    path.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match="newer version"):
        service.get(event_id)
    assert path.exists()


def test_a_read_only_store_writes_nothing(folder_service: EventService) -> None:
    service = folder_service
    event_id = new(service)
    reader = EventStore(service.games.data_dir, read_only=True)
    with pytest.raises(NotSaved):
        reader.update(event_id, lambda ev: ev.model_copy(update={"name": "X"}))


def test_an_organiser_edits_every_game_of_the_event_and_a_table_its_own(
        service: EventService) -> None:
    rights = get_rights(service.games.data_dir)
    rights.also_allow(service.organises_game)
    spec = EventSpec(name="Hall", format=Format.SWISS, rounds=1, seed=1,
                     teams=tuple(tuple(t) for t in TEAMS))
    stored, _code = service.create(spec, device="organiser-phone-token-0001")
    tables = service.start_round(stored.id).night.played[0].tables
    one, two = (t.game or "" for t in tables)
    rights.codes.grant(one, "table-one-phone-token-01")
    assert rights.may_edit(one, "organiser-phone-token-0001")
    assert rights.may_edit(two, "organiser-phone-token-0001")
    assert rights.may_edit(one, "table-one-phone-token-01")
    assert not rights.may_edit(two, "table-one-phone-token-01")
    assert not rights.may_edit(two, "a-stranger-token-000001")
    assert service.may_organise(stored.id, "organiser-phone-token-0001")
    assert not service.may_organise(stored.id, "table-one-phone-token-01")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(min_hands=1, max_hands=30, rules=house_rules(target=300, forced_at=False)))
def test_every_games_points_in_the_standings_are_what_check_says(game: Any) -> None:
    """Each game file of the export, checked as `tarabish check` does: its totals are
    the points for and against of the teams that played it."""
    doc = game_to_doc(game)
    judged = check_game(doc)
    if judged.winner is None:  # only finished games come back from a paper sheet
        return
    p = game.players
    with tempfile.TemporaryDirectory() as folder, GameStore(Path(folder)) as store:
        service = EventService(store)
        spec = EventSpec(name="Check", format=Format.SWISS, rounds=1, seed=1,
                         teams=((p[0], p[2]), (p[1], p[3])))
        event_id = service.create(spec)[0].id
        service.start_round(event_id)
        game_id = service.import_game(event_id, 1, doc)
        view = service.view(event_id)
        exported = service.export(event_id)["games"][game_id]
        totals = check_json(check_game(exported))["totals"]
        points = {s.names: (s.points_for, s.points_against) for s in view.standings}
        assert points[(p[0], p[2])] == (totals[0], totals[1])
        assert points[(p[1], p[3])] == (totals[1], totals[0])


def test_the_clock_calls_time_by_itself(service: EventService) -> None:
    event_id = new(service, clock_minutes=30)
    start = datetime(2026, 11, 28, 19, 0, tzinfo=UTC)
    first = service.start_round(event_id, now=start).night.played[0]
    assert first.clock_ends == start + timedelta(minutes=30)
    one = first.tables[0].game or ""
    service.games.add_hand(one, WIN[0])
    assert service.check_clocks(start + timedelta(minutes=29)) == []
    assert service.check_clocks(start + timedelta(minutes=31)) == [event_id]
    called = service.get(event_id).night.played[0]
    assert called.time_called == start + timedelta(minutes=31)
    assert dict(called.hands_at_call) == {1: 1, 2: 0}
    # Table 1 is ahead after the hand in play (its second): it has won by the clock.
    service.games.add_hand(one, {"caller": 1, "trump": "H", "points": {"team": 1, "tricks": 90}})
    found = service.view(event_id).results[(1, 1)]
    assert found.score is not None and found.score.ended_by == "clock"
    assert found.outcome is not None and found.outcome.points == (234, 90)
    assert service.check_clocks(start + timedelta(hours=2)) == []  # called once
