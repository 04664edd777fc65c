"""GameStore.create_game(origin=KEY): a game sent from a phone alone is stored once."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from store_docs import game_doc

from scorer.store import GameStore, InvalidGame
from scorer.store.records import new_origin


def test_same_origin_twice_gives_the_first_game(store: GameStore) -> None:
    key = new_origin()
    first = store.create_game(game_doc(1), origin=key)
    again = store.create_game(game_doc(2), origin=key)  # a retry, even of a longer game
    assert again.id == first.id and again.doc == first.doc
    assert [g.id for g in store.list_games()] == [first.id]
    assert first.origin == key and store.get_game(first.id).origin == key


def test_other_origins_and_none_make_new_games(store: GameStore) -> None:
    a = store.create_game(game_doc(1), origin=new_origin())
    b = store.create_game(game_doc(1), origin=new_origin())
    c = store.create_game(game_doc(1))
    d = store.create_game(game_doc(1))
    assert len({a.id, b.id, c.id, d.id}) == 4 and c.origin is None


def test_the_origin_is_found_after_a_restart(tmp_path: Path) -> None:
    key = new_origin()
    store = GameStore(tmp_path)
    first = store.create_game(game_doc(1), origin=key)
    store.close()
    (tmp_path / "index.json").unlink()  # the list is rebuilt from the games themselves
    reopened = GameStore(tmp_path)
    assert reopened.create_game(game_doc(1), origin=key).id == first.id
    assert len(reopened.list_games()) == 1


def test_two_sends_at_once_make_one_game(store: GameStore) -> None:
    key = new_origin()
    start = threading.Barrier(8)
    ids: list[str] = []

    def send() -> None:
        start.wait()
        ids.append(store.create_game(game_doc(3), origin=key).id)

    threads = [threading.Thread(target=send) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(ids) == 8 and len(set(ids)) == 1
    assert len(store.list_games()) == 1


@pytest.mark.parametrize("key", ["", "abc", "G" * 32, "0" * 31, "0" * 33, "../" * 11])
def test_a_bad_origin_is_refused_and_nothing_is_saved(store: GameStore, key: str) -> None:
    with pytest.raises(InvalidGame):
        store.create_game(game_doc(1), origin=key)
    assert store.list_games() == []


def test_an_export_does_not_carry_the_origin(store: GameStore) -> None:
    game = store.create_game(game_doc(1), origin=new_origin())
    assert "origin" not in game.file_doc()
