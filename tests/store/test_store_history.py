"""The store keeps every game's edit trail: added, edited, undone, put back, details.

What it writes must always be a trail that `rules.history.check_trail` accepts
against the game's hands, so an exported game carries a true history."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_docs import AnyStore

from rules.game_file import parse_game_and_trail
from rules.history import Added, Edited, Redone, Started, Undone, redoable, undone_hands
from scorer.store import GameStore, StaleRevision
from scorer.store.errors import HandNotFound
from scorer.store.models import StoredGame
from scorer.store.pg_games import PgGameStore
from scorer.store.records import read_record, write_record

DOC: dict[str, Any] = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                       "first_dealer": 0, "rules": {"target": 5000}, "hands": []}


def hand(tricks: int, caller: int = 0) -> dict[str, Any]:
    return {"caller": caller, "trump": "H", "points": {"team": caller % 2, "tricks": tricks}}


def trail_of(store: AnyStore, game_id: str) -> tuple[Any, ...]:
    """The game's trail as an exported file carries it, checked against its hands."""
    return parse_game_and_trail(store.get_game(game_id).file_doc())[1]


def test_a_new_game_starts_its_trail_and_each_change_names_phone_and_hand(store: AnyStore) -> None:
    with store:
        game = store.create_game(DOC, by="phone 1")
        game = store.add_hand(game.id, hand(120), game.revision, by="phone 1")
        game = store.replace_hand(game.id, 0, hand(130), game.revision, by="Mary")
        game = store.add_hand(game.id, hand(90, 1), game.revision, by="phone 2")
        game = store.undo_last_hand(game.id, game.revision, by="phone 2")
        trail = trail_of(store, game.id)
    assert [type(e) for e in trail] == [Started, Added, Edited, Added, Undone]
    assert [e.revision for e in trail] == [1, 2, 3, 4, 5] and game.revision == 5
    assert [e.by for e in trail] == ["phone 1", "phone 1", "Mary", "phone 2", "phone 2"]
    edit = trail[2]
    assert isinstance(edit, Edited) and edit.hand == 1
    assert edit.before.points.tricks == 120 and edit.after.points.tricks == 130
    undone = trail[4]
    assert isinstance(undone, Undone) and undone.hand == 2 and undone.before.caller == 1


def test_an_undone_hand_is_put_back_only_while_no_later_hand_exists(store: AnyStore) -> None:
    with store:
        game = store.create_game(DOC)
        game = store.add_hand(game.id, hand(120), game.revision)
        game = store.add_hand(game.id, hand(100, 1), game.revision)
        game = store.undo_last_hand(game.id, game.revision)
        game = store.redo_hand(game.id, game.revision, by="phone 3")
        assert game.doc["hands"][1] == hand(100, 1)
        assert isinstance(trail_of(store, game.id)[-1], Redone)
        game = store.undo_last_hand(game.id, game.revision)
        game = store.add_hand(game.id, hand(60, 1), game.revision)  # a later hand now
        with pytest.raises(HandNotFound, match="no undone hand"):
            store.redo_hand(game.id, game.revision)
        trail = trail_of(store, game.id)
    # The hand undone for good stays on the record, struck through under the sheet.
    assert [u.before.points.tricks for u in undone_hands(trail)] == [100]
    assert redoable(trail, 2) is None


def test_two_undos_are_put_back_in_turn(store: AnyStore) -> None:
    with store:
        game = store.create_game(DOC)
        for tricks in (120, 100, 80):
            game = store.add_hand(game.id, hand(tricks), game.revision)
        game = store.undo_last_hand(game.id, game.revision)
        game = store.undo_last_hand(game.id, game.revision)
        game = store.redo_hand(game.id, game.revision)
        game = store.redo_hand(game.id, game.revision)
        assert [h["points"]["tricks"] for h in game.doc["hands"]] == [120, 100, 80]
        assert undone_hands(trail_of(store, game.id)) == ()


def test_a_stale_redo_is_refused(store: AnyStore) -> None:
    with store:
        game = store.create_game(DOC)
        game = store.add_hand(game.id, hand(120), game.revision)
        seen = store.undo_last_hand(game.id, game.revision)
        store.redo_hand(game.id, seen.revision)
        with pytest.raises(StaleRevision):
            store.redo_hand(game.id, seen.revision)


def test_details_changes_are_kept_with_old_and_new_values(store: AnyStore) -> None:
    with store:
        game = store.create_game(DOC)
        game = store.update_game(game.id, {**game.doc, "rules": {"target": 1000}},
                                 game.revision, by="phone 1")
        trail = trail_of(store, game.id)
    assert trail[-1].before == {"rules": {"target": 5000}}
    assert trail[-1].after == {"rules": {"target": 1000}}


def test_an_imported_trail_goes_on_and_comes_out_again(store: AnyStore, tmp_path: Path) -> None:
    with store:
        first = store.create_game(DOC)
        first = store.add_hand(first.id, hand(120), first.revision)
        first = store.replace_hand(first.id, 0, hand(130), first.revision)
        exported = store.get_game(first.id).file_doc()
    with GameStore(tmp_path / "other") as other:
        copy = other.create_game(exported)
        assert copy.revision == first.revision == 3
        copy = other.add_hand(copy.id, hand(60, 1), copy.revision)
        trail = trail_of(other, copy.id)
    assert [e.revision for e in trail] == [1, 2, 3, 4]


def test_a_game_imported_with_hands_and_no_trail_has_an_empty_one(store: AnyStore) -> None:
    with store:
        game = store.create_game({**DOC, "hands": [hand(120)]})
        assert game.history == []
        game = store.undo_last_hand(game.id, game.revision)
        assert [type(e) for e in trail_of(store, game.id)] == [Undone]


def test_a_schema_1_game_reads_with_an_empty_trail_and_starts_one(tmp_path: Path) -> None:
    with GameStore(tmp_path) as store:
        game = store.create_game(DOC)
        game = store.add_hand(game.id, hand(120), game.revision)
    path = tmp_path / "games" / f"{game.id}.json"
    record = read_record(path)
    old = {k: v for k, v in record.items() if k != "history"}
    old["schema"] = 1
    write_record(path, old, create=False)
    assert json.loads(path.read_text())["game"]["1"]["schema"] == 1
    with GameStore(tmp_path) as store:
        assert store.get_game(game.id).history == []
        game = store.replace_hand(game.id, 0, hand(130), game.revision)
        assert [type(e) for e in trail_of(store, game.id)] == [Edited]
    assert json.loads(path.read_text())["game"]["1"]["schema"] == 2


# A change, as a phone makes them: add a hand, edit one, undo, put back.
CHANGES = st.lists(st.tuples(st.sampled_from(["add", "edit", "undo", "redo"]),
                             st.integers(2, 80), st.integers(0, 3)), max_size=25)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(CHANGES)
def test_every_trail_the_store_writes_is_true_of_the_game(store: AnyStore,
                                                          changes: list[Any]) -> None:
    # The fixture's store serves every example: it is not closed here.
    game = store.create_game(DOC)
    for what, tricks, seat in changes:
        hands = game.doc["hands"]
        try:
            if what == "add":
                game = store.add_hand(game.id, hand(tricks, seat), game.revision)
            elif what == "edit" and hands:
                game = store.replace_hand(game.id, tricks % len(hands), hand(tricks, seat),
                                          game.revision)
            elif what == "undo" and hands:
                game = store.undo_last_hand(game.id, game.revision)
            elif what == "redo":
                game = store.redo_hand(game.id, game.revision)
        except HandNotFound:
            continue
    # The exported file reads back: its trail walks back to an empty game.
    doc = store.get_game(game.id).file_doc()
    _game, trail = parse_game_and_trail(doc)
    assert isinstance(trail[0], Started)
    assert trail[-1].revision == game.revision or game.revision == 1


def apply(store: AnyStore, game_id: str, revision: int,
          change: tuple[str, int, int]) -> StoredGame | None:
    """One phone's change, on the revision it saw; None where there is no such hand."""
    what, tricks, seat = change
    hands = store.get_game(game_id).doc["hands"]
    try:
        if what == "add":
            return store.add_hand(game_id, hand(tricks, seat), revision)
        if what == "edit" and hands:
            return store.replace_hand(game_id, tricks % len(hands), hand(tricks, seat), revision)
        if what == "undo" and hands:
            return store.undo_last_hand(game_id, revision)
        if what == "redo":
            return store.redo_hand(game_id, revision)
    except HandNotFound:
        return None
    return None


def without_times(game: StoredGame) -> tuple[Any, ...]:
    return (game.revision, game.doc,
            [{k: v for k, v in e.items() if k != "at"} for e in game.history])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(CHANGES)
def test_both_stores_keep_the_same_game_after_any_changes(
        folder_store: GameStore, pg_store: PgGameStore, changes: list[Any]) -> None:
    games = {s: s.create_game(DOC) for s in (folder_store, pg_store)}
    for change in changes:
        for s, game in games.items():
            games[s] = apply(s, game.id, game.revision, change) or s.get_game(game.id)
        folder, pg = games.values()
        assert without_times(folder) == without_times(pg)
    folder, pg = (s.get_game(g.id) for s, g in games.items())
    assert without_times(folder) == without_times(pg)
    assert folder.file_doc()["hands"] == pg.file_doc()["hands"]
