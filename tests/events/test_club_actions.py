"""ClubActions checks the organiser's rights on the server for every change, not
only by hiding buttons; the organiser code is braked like a table code."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.app.club_actions import ClubActions
from scorer.app.event_access import get_events
from scorer.events.model import EventSpec, Format
from scorer.events.organisers import NotOrganiser, TooManyTries, WrongCode
from scorer.rights import get_rights
from scorer.store.game_store import GameStore
from tests.fake_phone import club_phone

TEAMS = (("Ann", "Bob"), ("Cid", "Dee"), ("Eve", "Fay"), ("Gus", "Hal"))


def phone(store: GameStore, device: str, address: str) -> ClubActions:
    return club_phone(store, device, address)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    with GameStore(tmp_path / "data") as opened:
        yield opened


def test_only_the_organiser_changes_the_event(store: GameStore) -> None:
    organiser = phone(store, "organiser-token-000000001", "192.168.1.10")
    guest = phone(store, "guest-token-0000000000001", "192.168.1.66")
    event_id = organiser.create(EventSpec(name="Hall", format=Format.SWISS, rounds=2,
                                          teams=TEAMS)).id
    assert organiser.organises(event_id) and not guest.organises(event_id)
    assert guest.code(event_id) is None and organiser.code(event_id)
    for change in (lambda: guest.start_round(event_id),
                   lambda: guest.add_entrant(event_id, ["Ida", "Jo"]),
                   lambda: guest.withdraw(event_id, 1),
                   lambda: guest.call_time(event_id),
                   lambda: guest.enter_result(event_id, 1, 1, (500, 0)),
                   lambda: guest.cards_url(event_id)):
        with pytest.raises(NotOrganiser):
            change()
    assert get_events(store).get(event_id).revision == 1  # nothing changed
    organiser.start_round(event_id)
    games = [t.game or "" for t in get_events(store).get(event_id).night.played[0].tables]
    rights = get_rights(store.data_dir)
    assert all(rights.may_edit(g, organiser.device) for g in games)
    assert not any(rights.may_edit(g, guest.device) for g in games)
    with pytest.raises(NotOrganiser):
        guest.enter_result(event_id, 1, 1, (500, 0))


def test_the_organiser_code_is_braked_per_address(store: GameStore) -> None:
    organiser = phone(store, "organiser-token-000000002", "192.168.1.10")
    event_id = organiser.create(EventSpec(name="Hall", format=Format.SWISS, rounds=2,
                                          teams=TEAMS)).id
    code = organiser.code(event_id) or ""
    wrong = "00000000" if code != "00000000" else "11111111"
    guesser = phone(store, "guesser-token-00000000001", "192.168.1.77")
    for _ in range(2):
        with pytest.raises(WrongCode, match="not this club night's organiser code"):
            guesser.enter_code(event_id, wrong)
    with pytest.raises(TooManyTries):
        guesser.enter_code(event_id, wrong)
    with pytest.raises(TooManyTries):  # even the right code waits now, from that address
        guesser.enter_code(event_id, code)
    # A new token from the same address buys nothing.
    again = phone(store, "guesser-token-00000000002", "192.168.1.77")
    with pytest.raises(TooManyTries):
        again.enter_code(event_id, code)
    helper = phone(store, "helper-token-000000000001", "192.168.1.11")
    helper.enter_code(event_id, code[:4] + " " + code[4:])
    assert helper.organises(event_id)


def test_the_host_organises_every_event(store: GameStore) -> None:
    organiser = phone(store, "organiser-token-000000003", "192.168.1.10")
    event_id = organiser.create(EventSpec(name="Hall", format=Format.PROGRESSIVE, rounds=2,
                                          players=tuple("ABCDEFGH"))).id
    host = phone(store, "host-token-00000000000001", "127.0.0.1")
    rights = get_rights(store.data_dir)
    rights.codes.add_host(host.device or "")
    assert host.organises(event_id)
    host.start_round(event_id)
