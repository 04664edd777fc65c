"""The record screen's actions on a full disk: a plain message, never a raw OSError.

The screens call `TableActions` and show any StoreError's text (record_hand.py
`save`, sheet.py undo, new_game.py); so a StoreError with the player's words is
what a full disk must become here.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from faults import failing_writes, snapshot
from store_docs import MADE_0, game_doc

from scorer.app.actions import TableActions
from scorer.app.game_view_model import GameModel
from scorer.rights import TableCodes, get_rights
from scorer.store import GameStore
from scorer.store.errors import StoreError
from tests.fake_phone import table_actions

DISK_FULL = "The disk is full: nothing was saved."


def phone(store: GameStore, device: str) -> TableActions:
    return table_actions(store, device)


def test_saving_a_hand_on_a_full_disk_says_so(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    store = GameStore(data)
    game = store.create_game(game_doc(1)).id
    ann = phone(store, "ann-device-token-000000001")
    ann.game_created(game)
    before = snapshot(data)
    with failing_writes(monkeypatch, data, errno.ENOSPC):
        shown = GameModel.load(store.get_game(game))
        for act in (lambda: ann.save_hand(shown, MADE_0, None),
                    lambda: ann.save_hand(shown, MADE_0, 0),
                    lambda: ann.undo_last_hand(shown)):
            with pytest.raises(StoreError) as caught:
                act()
            assert str(caught.value) == DISK_FULL
        assert ann.ctx.page.pubsub.sent == []  # no phone is told of a change that did not happen
        assert ann.can_edit(game)
    assert snapshot(data) == before
    ann.save_hand(shown, MADE_0, None)  # room again: saving works
    assert len(store.get_game(game).doc["hands"]) == 2


def test_starting_a_game_on_a_full_disk_leaves_no_half_made_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    store = GameStore(data)
    game = store.create_game(game_doc(0)).id
    bob = phone(store, "bob-device-token-0000000002")
    with failing_writes(monkeypatch, data, errno.ENOSPC):
        with pytest.raises(StoreError) as caught:
            bob.game_created(game)
        assert str(caught.value) == DISK_FULL
        # Memory agrees with the disk: no code that a restart would forget.
        assert get_rights(data).code(game) is None
    # And no game without its code is left over: nothing was saved, as it said.
    assert store.list_games() == []


def test_a_session_starts_on_a_full_disk_with_damaged_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What every page session opens (the store, the table codes) must open when
    nothing can be written: not even the damaged files can be moved aside."""
    data = tmp_path / "data"
    with GameStore(data) as store:
        game = store.create_game(game_doc(1)).id
    (data / "index.json").write_text("{torn")
    (data / "table_codes.json").write_text("{torn")
    before = snapshot(data)
    with failing_writes(monkeypatch, data, errno.ENOSPC) as refused:
        opened = GameStore(data)
        assert [s.id for s in opened.list_games()] == [game]
        codes = TableCodes(data)
        assert codes.code(game) is None
        opened.close()
    assert refused
    assert snapshot(data) == before
