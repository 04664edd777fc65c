"""New game plays to any target from 100 to 5000, typed or tapped (issue 25)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from scorer.app.views.new_game import NewGameForm
from scorer.app.views.play_to import OUT_OF_RANGE, typed_target
from scorer.store import GameStore, StoredGame


class _Actions:
    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.created: list[str] = []

    def create_game(self, doc: dict[str, Any]) -> StoredGame:
        stored = self.store.create_game(doc)
        self.created.append(stored.id)
        return stored


def form(tmp_path: Path) -> tuple[NewGameForm, Any]:
    store = GameStore(tmp_path)
    ctx = SimpleNamespace(store=store, actions=_Actions(store), go=lambda _route: None)
    new = NewGameForm(ctx, None)  # type: ignore[arg-type]
    new.names = ["Ann", "Bob", "Cid", "Dee"]
    new.dealer = 3
    return new, ctx


def test_a_typed_target_is_a_whole_number_from_100_to_5000() -> None:
    assert typed_target("750") == 750
    assert typed_target(" 100 ") == 100 and typed_target("5000") == 5000
    assert typed_target("99") is None and typed_target("5001") is None
    assert typed_target("7.5") is None and typed_target("") is None
    assert typed_target("0000000750") is None  # no one plays to a number that long


def test_a_typed_target_is_the_games_and_one_out_of_range_is_refused_in_words(
    tmp_path: Path,
) -> None:
    new, ctx = form(tmp_path)
    new.play_to.typed("50")
    new.start()
    assert new.error == OUT_OF_RANGE == "Play to a number from 100 to 5000, or tap 300, 500 or 1000."
    assert not ctx.actions.created
    new.play_to.typed("750")
    new.start()
    assert new.error == ""
    [game] = ctx.actions.created
    assert ctx.store.get_game(game).doc["rules"]["target"] == 750


def test_a_tap_empties_the_box_and_an_emptied_box_goes_back_to_the_last_tap(
    tmp_path: Path,
) -> None:
    new, _ctx = form(tmp_path)
    new.play_to.tapped(1000)
    new.play_to.typed("9")
    assert new.play_to.problem  # mid-number: refused only if the player starts with it
    new.play_to.typed("")
    assert new.play_to.target == 1000 and not new.play_to.problem
    assert new.rules["target"] == 1000
    new.play_to.typed("500")
    assert new.play_to.target == 500 and "target" not in new.rules  # 500 is the standard
    new.play_to.tapped(300)
    assert new.play_to.box.value == "" and new.rules["target"] == 300
