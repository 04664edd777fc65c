"""Play again: the next game records the game it followed; one finished game has
one next game, even when two phones tap Play again at the same moment."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from store_docs import game_doc

from scorer.store import GameStore, NextGameExists, StaleRevision


def test_the_next_game_names_the_game_it_followed(store: GameStore) -> None:
    done = store.create_game(game_doc(2))
    assert store.next_game(done.id) is None
    after = store.create_next_game(done.id, game_doc(0), expected_revision=done.revision)
    assert store.get_game(after.id).follows == done.id
    assert store.next_game(done.id) == after.id
    assert {s.id: s.follows for s in store.list_games()} == {done.id: None, after.id: done.id}
    # The finished game itself is not changed: its phones' revision still holds.
    assert store.get_game(done.id).revision == done.revision


def test_the_link_is_read_again_from_the_files(tmp_path: Path) -> None:
    """A restart (the game list rebuilt from the files) finds the same next game."""
    with GameStore(tmp_path) as first:
        done = first.create_game(game_doc(1))
        after = first.create_next_game(done.id, game_doc(0), expected_revision=done.revision)
    (tmp_path / "index.json").unlink()
    with GameStore(tmp_path) as again:
        assert again.next_game(done.id) == after.id


def test_two_play_agains_at_once_make_one_game(store: GameStore) -> None:
    done = store.create_game(game_doc(2))
    start = threading.Barrier(4)
    made: list[str] = []
    told: list[str] = []

    def tap() -> None:
        start.wait()
        try:
            made.append(store.create_next_game(done.id, game_doc(0), done.revision).id)
        except NextGameExists as exc:
            told.append(exc.game_id)

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(made) == 1
    assert told == made * 3  # every other tap is told which game to open
    assert len(store.list_games()) == 2


def test_a_second_play_again_later_is_told_the_game_already_made(store: GameStore) -> None:
    done = store.create_game(game_doc(1))
    first = store.create_next_game(done.id, game_doc(0), expected_revision=done.revision)
    with pytest.raises(NextGameExists) as raised:
        store.create_next_game(done.id, game_doc(0), expected_revision=done.revision)
    assert raised.value.game_id == first.id
    assert "already started" in str(raised.value)


def test_a_game_changed_since_the_phone_saw_it_is_refused(store: GameStore) -> None:
    done = store.create_game(game_doc(2))
    undone = store.undo_last_hand(done.id, expected_revision=done.revision)
    with pytest.raises(StaleRevision):
        store.create_next_game(done.id, game_doc(0), expected_revision=done.revision)
    assert store.next_game(done.id) is None
    store.create_next_game(done.id, game_doc(0), expected_revision=undone.revision)


def test_old_files_have_no_link_and_a_bad_one_is_ignored(folder_store: GameStore) -> None:
    store = folder_store
    old = store.create_game(game_doc(1))
    assert store.get_game(old.id).follows is None
    path = store.games_dir / f"{old.id}.json"
    data = json.loads(path.read_text())
    data["game"]["1"]["follows"] = "../../etc"
    path.write_text(json.dumps(data))
    assert store.get_game(old.id).follows is None
    assert [s.follows for s in store.list_games()] == [None]
