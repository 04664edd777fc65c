"""GameStore: saving, revisions, stale edits, damaged files, schema versions."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from store_docs import BAD_TRUMP, MADE, MADE_0, AnyStore, game_doc, reopen

from scorer.store import (
    GameDamaged,
    GameNotFound,
    GameStore,
    HandNotFound,
    InvalidGame,
    StaleRevision,
)
from scorer.store.schema import GAME_SCHEMA, INDEX_SCHEMA


def test_create_get_and_list(store: GameStore) -> None:
    doc = game_doc(1)
    game = store.create_game(doc)
    assert re.fullmatch(r"[0-9a-f]{8}", game.id)
    assert game.revision == 1 and game.doc == doc
    assert store.get_game(game.id) == game
    [summary] = store.list_games()
    assert summary.id == game.id
    assert summary.players == ("Ann", "Bob", "Cid", "Dee")
    assert summary.teams == ("Ann & Cid", "Bob & Dee")
    assert summary.hand_count == 1
    assert summary.totals == (70, 92)  # derived by the rules engine
    assert summary.winner is None and not summary.finished


def test_returned_doc_is_a_copy(store: GameStore) -> None:
    game = store.create_game(game_doc(1))
    game.doc["hands"].clear()
    assert len(store.get_game(game.id).doc["hands"]) == 1


def test_hands_add_edit_undo_bump_revision(store: GameStore) -> None:
    game = store.create_game(game_doc(0))
    g = store.add_hand(game.id, MADE)
    g = store.add_hand(g.id, MADE_0, expected_revision=g.revision)
    assert g.revision == 3 and g.doc["hands"] == [MADE, MADE_0]
    g = store.replace_hand(g.id, 0, MADE_0, expected_revision=3)
    assert g.doc["hands"] == [MADE_0, MADE_0]
    g = store.undo_last_hand(g.id, expected_revision=4)
    assert g.revision == 5 and g.doc["hands"] == [MADE_0]
    assert store.get_game(g.id) == g
    [summary] = store.list_games()
    assert summary.revision == 5 and summary.totals == (100, 62)


def test_saves_survive_reopening(store: AnyStore) -> None:
    first = store
    g = first.create_game(game_doc(1))
    g = first.add_hand(g.id, MADE)
    # no close(): a save is durable when it returns, the index is only a cache
    again = reopen(store)
    assert again.get_game(g.id) == g
    assert [s.hand_count for s in again.list_games()] == [2]
    assert again.problems == []


def test_winner_and_finished(store: GameStore) -> None:
    g = store.create_game(game_doc(6))  # team 1: 6 x 92 = 552
    [s] = store.list_games()
    assert s.winner == 1 and s.finished and s.totals == (420, 552)
    with pytest.raises(InvalidGame) as err:
        store.add_hand(g.id, MADE)
    assert err.value.hand == 6 and "Hand 7" in str(err.value)


def test_list_newest_activity_first(store: GameStore) -> None:
    a = store.create_game(game_doc(1))
    b = store.create_game(game_doc(1))
    assert [s.id for s in store.list_games()] == [b.id, a.id]
    store.add_hand(a.id, MADE)
    assert [s.id for s in store.list_games()] == [a.id, b.id]


def test_stale_edit_is_refused_with_current_sheet(store: GameStore) -> None:
    g = store.create_game(game_doc(4))
    phone_a = store.get_game(g.id)
    phone_b = store.get_game(g.id)
    store.replace_hand(g.id, 3, MADE_0, expected_revision=phone_a.revision)
    with pytest.raises(StaleRevision) as err:
        store.replace_hand(g.id, 3, MADE, expected_revision=phone_b.revision)
    assert str(err.value) == (
        "The score sheet changed on another phone: hand 4 was edited. "
        "Here is the current sheet."
    )
    assert isinstance(err.value, ValueError)
    assert err.value.current.doc["hands"][3] == MADE_0
    assert err.value.current.revision == 2
    assert store.get_game(g.id).doc["hands"][3] == MADE_0  # not overwritten


def test_stale_undo_and_stale_append_are_refused(store: GameStore) -> None:
    g = store.create_game(game_doc(2))
    store.add_hand(g.id, MADE)
    with pytest.raises(StaleRevision, match="hand 3 was added"):
        store.undo_last_hand(g.id, expected_revision=g.revision)
    with pytest.raises(StaleRevision):
        store.add_hand(g.id, MADE, expected_revision=g.revision)
    # None: "just append", both phones' hands are kept
    assert len(store.add_hand(g.id, MADE).doc["hands"]) == 4


def test_stale_message_lists_several_changes(store: GameStore) -> None:
    g = store.create_game(game_doc(2))
    store.add_hand(g.id, MADE)
    store.undo_last_hand(g.id, expected_revision=2)
    with pytest.raises(StaleRevision) as err:
        store.replace_hand(g.id, 0, MADE, expected_revision=1)
    assert err.value.changes == ["hand 3 was added", "hand 3 was undone"]


def test_invalid_hand_changes_nothing(store: GameStore) -> None:
    g = store.create_game(game_doc(1))
    with pytest.raises(InvalidGame) as err:
        store.add_hand(g.id, BAD_TRUMP)
    assert err.value.hand == 1 and "Hand 2" in str(err.value)
    assert store.get_game(g.id) == g


def test_edit_may_invalidate_later_hands_but_not_itself(store: GameStore) -> None:
    # Team 0 has 5 x 100 = 500 after hand 5: hands after it are "after the win".
    g = store.create_game({**game_doc(0), "hands": [MADE_0] * 4 + [MADE] * 2})
    with pytest.raises(InvalidGame):
        store.replace_hand(g.id, 2, BAD_TRUMP, expected_revision=1)
    g2 = store.replace_hand(g.id, 4, MADE_0, expected_revision=1)
    [s] = store.list_games()
    assert s.invalid_from == 5 and s.winner == 0  # flagged, not refused
    with pytest.raises(InvalidGame):  # an append needs the whole game valid
        store.add_hand(g.id, MADE)
    g3 = store.undo_last_hand(g.id, expected_revision=g2.revision)
    assert store.list_games()[0].invalid_from is None
    assert g3.revision == 3


def test_edit_and_undo_of_missing_hands(store: GameStore) -> None:
    g = store.create_game(game_doc(0))
    with pytest.raises(HandNotFound, match="no hand to undo"):
        store.undo_last_hand(g.id, expected_revision=1)
    with pytest.raises(HandNotFound, match="no hand 1"):
        store.replace_hand(g.id, 0, MADE, expected_revision=1)


def test_update_game_renames_teams(store: GameStore) -> None:
    g = store.create_game(game_doc(2))
    header = {k: v for k, v in g.doc.items() if k != "hands"}
    g2 = store.update_game(g.id, {**header, "teams": ["Us", "Them"]}, expected_revision=1)
    assert g2.doc["teams"] == ["Us", "Them"] and g2.doc["hands"] == g.doc["hands"]
    assert store.list_games()[0].teams == ("Us", "Them")
    with pytest.raises(StaleRevision, match="the team names were changed"):
        store.update_game(g.id, header, expected_revision=1)
    with pytest.raises(InvalidGame):
        store.update_game(g.id, {**header, "rules": {"nonsense": 1}}, expected_revision=2)
    with pytest.raises(InvalidGame, match="one at a time"):
        store.update_game(g.id, {**header, "hands": []}, expected_revision=2)


def test_delete_and_not_found(store: GameStore) -> None:
    g = store.create_game(game_doc(1))
    store.delete_game(g.id)
    assert store.list_games() == []
    for call in (lambda: store.get_game(g.id), lambda: store.delete_game(g.id),
                 lambda: store.add_hand(g.id, MADE)):
        with pytest.raises(GameNotFound):
            call()


@pytest.mark.parametrize("bad_id", ["../index", "ABCDEF12", "", "1234567", "12345678/.."])
def test_ids_cannot_name_other_files(store: GameStore, bad_id: str) -> None:
    with pytest.raises(GameNotFound):
        store.get_game(bad_id)


def test_bad_new_game_is_refused(store: GameStore) -> None:
    with pytest.raises(InvalidGame):
        store.create_game({**game_doc(0), "players": ["Ann"]})
    assert store.list_games() == []
    if isinstance(store, GameStore):
        assert list(store.games_dir.iterdir()) == []


def test_an_import_saves_every_game_or_none(store: AnyStore) -> None:
    with pytest.raises(InvalidGame):
        store.create_games([game_doc(1), {**game_doc(0), "players": ["Ann"]}])
    assert store.list_games() == []
    made = store.create_games([game_doc(1), game_doc(2)])
    assert sorted(s.hand_count for s in store.list_games()) == [1, 2]
    assert [store.get_game(g.id) for g in made] == made


def test_schema_version_in_every_file(tmp_path: Path) -> None:
    s = GameStore(tmp_path)
    g = s.create_game(game_doc(1))
    s.add_hand(g.id, MADE)
    s.close()
    game_file = json.loads((tmp_path / "games" / f"{g.id}.json").read_text())
    assert game_file["game"]["1"]["schema"] == GAME_SCHEMA
    index_file = json.loads((tmp_path / "index.json").read_text())
    assert index_file["meta"]["1"]["schema"] == INDEX_SCHEMA


def test_newer_schema_is_reported_and_left_alone(tmp_path: Path) -> None:
    s = GameStore(tmp_path)
    g = s.create_game(game_doc(1))
    keep = s.create_game(game_doc(1))
    path = tmp_path / "games" / f"{g.id}.json"
    data = json.loads(path.read_text())
    data["game"]["1"]["schema"] = GAME_SCHEMA + 1
    path.write_text(json.dumps(data))
    again = GameStore(tmp_path)
    assert [x.id for x in again.list_games()] == [keep.id]
    assert len(again.problems) == 1 and "newer version" in again.problems[0]
    assert json.loads(path.read_text()) == data  # untouched


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],  # torn write
        lambda b: b"",  # disk full
        lambda b: b"not json at all",
        lambda b: b'{"game": {"1": {"schema": 1}}}',  # parses, but no game in it
    ],
)
def test_damaged_game_moved_aside_and_reported(tmp_path: Path, damage: object) -> None:
    s = GameStore(tmp_path)
    bad = s.create_game(game_doc(1))
    good = [s.create_game(game_doc(2)) for _ in range(3)]
    s.close()
    path = tmp_path / "games" / f"{bad.id}.json"
    broken = damage(path.read_bytes())  # type: ignore[operator]
    path.write_bytes(broken)

    again = GameStore(tmp_path)
    assert sorted(x.id for x in again.list_games()) == sorted(g.id for g in good)
    for g in good:
        assert again.get_game(g.id) == g
    assert len(again.problems) == 1 and bad.id in again.problems[0]
    [moved] = (tmp_path / "damaged").iterdir()
    assert re.fullmatch(rf"{bad.id}\.\d{{8}}T\d{{6}}Z\.json", moved.name)
    assert moved.read_bytes() == broken and str(moved) in again.problems[0]
    assert not path.exists()
    with pytest.raises(GameNotFound):
        again.get_game(bad.id)


def test_game_damaged_while_running(folder_store: GameStore) -> None:
    store = folder_store
    g = store.create_game(game_doc(1))
    (store.games_dir / f"{g.id}.json").write_text("{ torn")
    with pytest.raises(GameDamaged) as err:
        store.add_hand(g.id, MADE)
    assert "could not be read" in str(err.value)
    assert store.problems and store.list_games() == []


def test_damaged_index_is_rebuilt(tmp_path: Path) -> None:
    s = GameStore(tmp_path)
    g = s.create_game(game_doc(3))
    s.close()
    (tmp_path / "index.json").write_text('{"meta": {"1": {"sch')
    again = GameStore(tmp_path)
    assert [x.id for x in again.list_games()] == [g.id]
    assert again.list_games()[0].totals == (210, 276)
    assert "rebuilt" in again.problems[0]
    assert list((tmp_path / "damaged").iterdir())


def test_index_cannot_drift_from_game_files(tmp_path: Path) -> None:
    s = GameStore(tmp_path)
    g = s.create_game(game_doc(1))
    s.close()
    # Another process (or an older index) changes the game behind our back.
    other = GameStore(tmp_path)
    other.add_hand(g.id, MADE)
    other.create_game(game_doc(1))
    assert [x.hand_count for x in s.list_games() if x.id == g.id] == [2]
    assert len(s.list_games()) == 2
    (tmp_path / "games" / f"{g.id}.json").unlink()
    assert len(s.list_games()) == 1


def test_index_rows_forged_totals_are_not_trusted_after_a_change(tmp_path: Path) -> None:
    s = GameStore(tmp_path)
    g = s.create_game(game_doc(1))
    s.close()
    path = tmp_path / "games" / f"{g.id}.json"
    data = json.loads(path.read_text())
    data["game"]["1"]["doc"]["hands"].append(copy.deepcopy(MADE_0))
    path.write_text(json.dumps(data))  # a hand-edit the index has not seen
    assert GameStore(tmp_path).list_games()[0].totals == (170, 154)
