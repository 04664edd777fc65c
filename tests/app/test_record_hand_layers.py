"""Record hand draws each part on a layer of its own, and a digit that turns bait into
made recolours the ruling box without rebuilding the words and the Why? button in it
(issue 25: the pad tap at a phone's speed; docs/FLET_NOTES.md, section 14)."""

from __future__ import annotations

from pathlib import Path

import flet as ft

from scorer.app.game_view_model import GameModel
from scorer.app.views.record_hand import RecordHand
from scorer.app.widgets import own_layer
from scorer.recording.conflicts import DraftPlace
from scorer.store import GameStore
from tests.app.test_conflicts import GAME, phone


def open_form(tmp_path: Path) -> RecordHand:
    store = GameStore(tmp_path / "data")
    stored = store.create_game(GAME)
    ctx = phone(store, "phone-a-token-0123456789", stored.id)
    model = GameModel.load(store.get_game(stored.id))
    form = RecordHand(ctx, model, None, DraftPlace(number=2, revision=stored.revision))
    form.build()
    form.tap_caller(0)
    form.tap_trump("H")
    return form


def holders(root: ft.Control) -> dict[int, ft.Control]:
    """Each control under `root` (by id) with the control directly holding it."""
    found: dict[int, ft.Control] = {}
    stack = [root]
    while stack:
        item = stack.pop()
        content = getattr(item, "content", None)
        inside = [content] if isinstance(content, ft.Control) else []
        inside += getattr(item, "controls", None) or []
        for child in inside:
            found[id(child)] = item
            stack.append(child)
    return found


def test_own_layer_is_a_screenshot_holding_the_control() -> None:
    text = ft.Text("x")
    layer = own_layer(text)
    assert isinstance(layer, ft.Screenshot) and layer.content is text


def test_each_part_a_tap_changes_is_on_a_layer_of_its_own(tmp_path: Path) -> None:
    form = open_form(tmp_path)
    held_by = holders(form.body)
    for part in (form.pad, form.figures_row, form.caller_part, form.trump_part,
                 form.extras_part):
        assert isinstance(held_by.get(id(part)), ft.Screenshot), part


def test_a_digit_turning_bait_into_made_recolours_the_box_only(tmp_path: Path) -> None:
    form = open_form(tmp_path)
    form.set(form.draft.press_digit("9"))  # 9 of 162: bait
    assert form.ruling_outcome.value == "Bait"
    bait = form.ruling_colour.bgcolor
    form.draft = form.draft.press_digit("0")  # 90: made
    form.draw()
    assert form.ruling_outcome.value == "Made"
    assert form.ruling_colour.bgcolor != bait
    changed = {id(c) for c in form._dirty}
    assert id(form.ruling_colour) in changed
    held_by = holders(form.save_button)
    node: ft.Control | None = next(c for c in form.ruling_verdict.controls
                                   if isinstance(c, ft.TextButton))
    assert node is not None and id(node) in held_by  # the Why? button is on show
    while node is not None:  # nothing holding the Why? button is sent again
        assert id(node) not in changed, node
        node = held_by.get(id(node))
