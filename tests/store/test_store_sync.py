"""A change sent through sync (scorer.sync) is applied once: its id is kept in the game's
record, written with the change, on both stores."""

from __future__ import annotations

import copy

import pytest
from store_docs import BAD_TRUMP, MADE, MADE_0, AnyStore, game_doc, reopen

from scorer.store import changes
from scorer.store.errors import ChangeReplayed, InvalidGame, StaleRevision
from scorer.store.records import MAX_MARKS, device_mark, new_origin

PHONE = device_mark("phone-one-token-0123456789")
OTHER = device_mark("phone-two-token-0123456789")


def cid(n: int) -> str:
    return f"{n:032x}"


def test_a_synced_change_is_applied_with_its_id(store: AnyStore) -> None:
    game = store.create_game(game_doc(0))
    got = store.apply_synced(game.id, changes.add_hand(MADE), 1, cid(1), PHONE, by="phone 2")
    assert not got.already
    assert got.game.revision == 2 and got.game.doc["hands"] == [MADE]
    assert [(m.change, m.revision, m.device) for m in got.marks] == [(cid(1), 2, PHONE)]
    assert got.game.history[-1]["by"] == "phone 2"
    again = store.get_synced(game.id)
    assert again.marks == got.marks and again.game == store.get_game(game.id)


def test_the_same_change_sent_again_is_answered_not_applied(store: AnyStore) -> None:
    game = store.create_game(game_doc(0))
    store.apply_synced(game.id, changes.add_hand(MADE), 1, cid(1), PHONE)
    store.apply_synced(game.id, changes.add_hand(MADE_0), 2, cid(2), PHONE)
    # A retry after a lost answer: its base is old, it is still recognised.
    got = reopen(store).apply_synced(game.id, changes.add_hand(MADE), 1, cid(1), PHONE)
    assert got.already
    assert got.game.revision == 3 and len(got.game.doc["hands"]) == 2
    assert got.mark_of(cid(1)) is not None and got.mark_of(cid(1)).revision == 2  # type: ignore[union-attr]


def test_an_id_sent_by_another_phone_is_refused(store: AnyStore) -> None:
    game = store.create_game(game_doc(0))
    store.apply_synced(game.id, changes.add_hand(MADE), 1, cid(1), PHONE)
    with pytest.raises(ChangeReplayed, match="another phone"):
        store.apply_synced(game.id, changes.add_hand(MADE), 2, cid(1), OTHER)
    assert store.get_game(game.id).revision == 2


@pytest.mark.parametrize("bad", ["", "zz" * 16, cid(1)[:-1], "AB" * 16])
def test_an_id_no_phone_makes_is_refused(store: AnyStore, bad: str) -> None:
    game = store.create_game(game_doc(0))
    with pytest.raises(ChangeReplayed):
        store.apply_synced(game.id, changes.add_hand(MADE), 1, bad, PHONE)
    assert store.get_game(game.id).revision == 1


def test_a_stale_or_refused_change_keeps_no_id(store: AnyStore) -> None:
    game = store.create_game(game_doc(0))
    store.add_hand(game.id, MADE)
    with pytest.raises(StaleRevision) as stale:
        store.apply_synced(game.id, changes.add_hand(MADE_0), 1, cid(5), PHONE)
    assert stale.value.current.revision == 2
    with pytest.raises(InvalidGame):
        store.apply_synced(game.id, changes.add_hand(BAD_TRUMP), 2, cid(6), PHONE)
    assert store.get_synced(game.id).marks == ()
    # Refused, the id was not used: the same id on the right revision goes through.
    assert not store.apply_synced(game.id, changes.add_hand(MADE_0), 2, cid(5), PHONE).already


def test_a_change_that_changes_nothing_is_not_saved(store: AnyStore) -> None:
    game = store.create_game(game_doc(1))
    got = store.apply_synced(game.id, changes.replace_hand(0, MADE), 1, cid(1), PHONE)
    assert got.game.revision == 1 and got.marks == () and not got.already


def test_marks_are_bounded_and_keep_the_newest(store: AnyStore) -> None:
    game = store.create_game(game_doc(0, target=1_000_000))
    revision = 1
    for n in range(MAX_MARKS + 3):
        change = changes.add_hand(MADE) if n % 2 == 0 else changes.undo_last_hand()
        revision = store.apply_synced(game.id, change, revision, cid(n), PHONE).game.revision
    marks = store.get_synced(game.id).marks
    assert len(marks) == MAX_MARKS
    assert marks[0].change == cid(3) and marks[-1].change == cid(MAX_MARKS + 2)
    assert marks[-1].revision == revision


def test_an_export_carries_no_synced_ids(store: AnyStore) -> None:
    game = store.create_game(game_doc(0))
    got = store.apply_synced(game.id, changes.add_hand(MADE), 1, cid(1), PHONE)
    assert "synced" not in got.game.file_doc() and "synced" not in got.game.doc


def test_plain_saves_keep_the_synced_ids(store: AnyStore) -> None:
    game = store.create_game(game_doc(0))
    store.apply_synced(game.id, changes.add_hand(MADE), 1, cid(1), PHONE)
    store.add_hand(game.id, MADE_0, 2)
    assert [m.change for m in store.get_synced(game.id).marks] == [cid(1)]
    assert store.apply_synced(game.id, changes.add_hand(MADE), 1, cid(1), PHONE).already


def test_play_again_keeps_the_phones_key(store: AnyStore) -> None:
    done = store.create_game(game_doc(0, target=1))
    done = store.add_hand(done.id, MADE, 1)
    key = new_origin()
    doc = copy.deepcopy(game_doc(0))
    made = store.create_next_game(done.id, doc, done.revision, origin=key)
    assert made.origin == key and made.follows == done.id
    with pytest.raises(InvalidGame):
        other = store.add_hand(store.create_game(game_doc(0, target=1)).id, MADE, 1)
        store.create_next_game(other.id, doc, other.revision, origin="not-a-key")


def test_the_phones_time_goes_into_the_trail_beside_the_servers(store: AnyStore) -> None:
    """A change kept on a phone offline and sent later: the trail keeps when the phone
    made it (its clock) beside when the server saved it; the game reads back."""
    from datetime import UTC, datetime

    made = datetime(2025, 6, 1, 20, 13, tzinfo=UTC)
    game = store.create_game(game_doc(0), by="phone 1", origin=new_origin(), phone_at=made)
    got = store.apply_synced(game.id, changes.add_hand(MADE), 1, cid(1), PHONE, by="phone 1",
                             phone_at=made)
    started, added = got.game.history
    assert started["phone_at"] == added["phone_at"] == made.isoformat()
    assert added["at"] != added["phone_at"]
    plain = store.add_hand(game.id, MADE_0, 2, by="phone 2")  # a drawn page's: none
    assert "phone_at" not in plain.history[-1]
    assert reopen(store).get_game(game.id).history == plain.history
