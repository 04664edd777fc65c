"""A club night for a group: only a keeper's phone starts one (checked on the server),
every game it seats or imports joins the group, on a data folder and on a community's
database, and a progressive night's partners are the fairest the ratings allow."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ratings"))

from ratings_docs import game_doc

from scorer.app.club_actions import ClubActions
from scorer.app.group_access import get_groups
from scorer.backends import backends_of
from scorer.events.model import EventSpec, Format
from scorer.events.service import EventService
from scorer.groups.model import NotKeeper
from scorer.store.game_store import GameStore
from tests.fake_phone import club_phone

PLAYERS = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
KEEPER = "keeper-token-00000000000001"
STRANGER = "stranger-token-000000000001"


def service_of(store: Any) -> EventService:
    return backends_of(store).events()


def spec(group: str | None, fmt: Format = Format.PROGRESSIVE) -> EventSpec:
    return EventSpec(name="Friday", format=fmt, rounds=3, seed=5, players=PLAYERS,
                     group=group)


def test_the_games_of_a_night_join_its_group(store: Any) -> None:
    groups = backends_of(store).groups()
    group, _code = groups.create("Friday bish", keeper=KEEPER)
    service = service_of(store)
    stored, _ = service.create(spec(group.id), device=KEEPER)
    assert stored.night.group == group.id
    stored = service.start_round(stored.id)
    seated = {t.game for t in stored.night.played[0].tables}
    assert len(seated) == 2 and None not in seated
    kept = groups.get(group.id)
    assert set(kept.games) == seated
    assert {m.casefold() for m in kept.members} == {p.casefold() for p in PLAYERS}


def test_a_paper_game_imported_for_a_table_joins_the_group(store: Any) -> None:
    groups = backends_of(store).groups()
    group, _code = groups.create("Friday bish")
    service = service_of(store)
    stored, _ = service.create(EventSpec(name="Friday", format=Format.PROGRESSIVE, rounds=2,
                                         seed=5, target=300, players=PLAYERS,
                                         group=group.id))
    table = service.start_round(stored.id).night.played[0].tables[0]
    seats = store.get_game(table.game or "").doc["players"]
    won = [{"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 162}}] * 2
    paper = service.import_game(stored.id, 1, {
        "format": "tarabish-game/1", "players": seats, "first_dealer": 3,
        "rules": {"target": 300}, "hands": won})
    assert paper in groups.get(group.id).games
    assert table.game in groups.get(group.id).games  # the game it had stays in the group


def test_a_night_for_no_group_leaves_the_groups_alone(store: Any) -> None:
    groups = backends_of(store).groups()
    group, _code = groups.create("Friday bish")
    service = service_of(store)
    stored, _ = service.create(spec(None), device=KEEPER)
    service.start_round(stored.id)
    assert groups.get(group.id).games == ()


def test_only_a_keeper_starts_a_night_for_a_group(store: Any) -> None:
    groups = backends_of(store).groups()
    group, _code = groups.create("Friday bish", keeper=KEEPER)
    service = service_of(store)
    with pytest.raises(NotKeeper):
        service.create(spec(group.id), device=STRANGER)
    with pytest.raises(ValueError, match="no group"):
        service.create(spec("0badc0de"), device=KEEPER)
    assert service.list_events() == []
    # The command line is the operator: no keeper code needed.
    assert service.create(spec(group.id))[0].night.group == group.id


def phone(store: GameStore, device: str) -> ClubActions:
    return club_phone(store, device, "192.168.1.10")


def test_the_server_refuses_a_phone_that_does_not_keep_the_group(tmp_path: Path) -> None:
    with GameStore(tmp_path / "data") as store:
        groups = get_groups(store)
        group, code = groups.create("Friday bish", keeper=KEEPER)
        stranger = phone(store, STRANGER)
        assert stranger.kept_groups() == []
        with pytest.raises(NotKeeper):
            stranger.create(spec(group.id))
        keeper = phone(store, KEEPER)
        assert [g.id for g in keeper.kept_groups()] == [group.id]
        made = keeper.create(spec(group.id))
        assert keeper.group_name(made.night.group) == "Friday bish"
        # Once the stranger enters the keeper code, it keeps the group too.
        groups.enter_code(group.id, STRANGER, "192.168.1.66", code)
        assert stranger.create(spec(group.id)).night.group == group.id
        keeper.start_round(made.id)
        assert len(groups.get(group.id).games) == 2


def test_fair_teams_for_a_team_night_of_a_group(tmp_path: Path) -> None:
    with GameStore(tmp_path / "data") as store:
        groups = get_groups(store)
        group, _ = groups.create("Friday bish", keeper=KEEPER)
        won = [store.create_game(game_doc(["Ann", "Bob", "Cid", "Dee"], 0)).id
               for _ in range(6)]
        groups.add_games(group.id, [(g, ["Ann", "Bob", "Cid", "Dee"]) for g in won])
        keeper = phone(store, KEEPER)
        proposal = keeper.fair_teams(group.id, ["Ann", "Bob", "Cid", "Dee"])
        # Ann and Cid always won: they are split up.
        teams = {frozenset(t) for c in proposal.tables for t in c.teams}
        assert frozenset(("Ann", "Cid")) not in teams
        with pytest.raises(ValueError, match="up to 8"):
            keeper.fair_teams(group.id, [f"P{n}" for n in range(9)])


def test_a_draw_made_stays_when_the_ratings_change_later(tmp_path: Path) -> None:
    with GameStore(tmp_path / "data") as store:
        groups = backends_of(store).groups()
        group, _ = groups.create("Friday bish")
        # Ann and Bob win every game beside Cid and Dee: a fair table splits them.
        won = [store.create_game(game_doc(["Ann", "Cid", "Bob", "Dee"], 0)).id
               for _ in range(6)]
        groups.add_games(group.id, [(g, ["Ann", "Cid", "Bob", "Dee"]) for g in won])
        service = EventService(store, groups=groups)
        stored, _ = service.create(EventSpec(name="Friday", format=Format.PROGRESSIVE,
                                             rounds=2, seed=1,
                                             players=("Ann", "Bob", "Cid", "Dee"),
                                             group=group.id))
        stored = service.start_round(stored.id)
        ev = stored.night
        sides = [ev.names_of(s) for s in ev.played[0].tables[0].sides]
        assert {frozenset(s) for s in sides} != {frozenset(("Ann", "Bob")),
                                                 frozenset(("Cid", "Dee"))}
        before = stored.night.played[0].tables
        more = [store.create_game(game_doc(["Cid", "Ann", "Dee", "Bob"], 0)).id
                for _ in range(10)]
        groups.add_games(group.id, [(g, ["Cid", "Ann", "Dee", "Bob"]) for g in more])
        assert service.view(stored.id).night.played[0].tables == before


def test_the_form_says_up_to_as_many_as_fair_teams_takes() -> None:
    from scorer.app.views.club_new import FAIR_MOST
    from scorer.ratings.chances import MAX_PRESENT

    assert FAIR_MOST == MAX_PRESENT
