"""New game's dealer buttons stay the same controls while names are typed: a tap on its
way to one of them when a letter's redraw replaced it found no control on the server
(tests/e2e/test_new_game_taps.py shows it on slow Wi-Fi)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest

from scorer.app.views.new_game import NewGameForm
from scorer.store import GameStore


def buttons(form: NewGameForm) -> list[Any]:
    """The dealer's buttons on show, in order: the four seats, then Draw at random."""
    found: list[Any] = []

    def walk(control: Any) -> None:
        if isinstance(control, ft.OutlinedButton):
            found.append(control)
        for child in getattr(control, "controls", None) or []:
            walk(child)

    walk(form.dealer_box)
    return found


def typed(form: NewGameForm, seat: int, text: str) -> None:
    """Letters typed into a seat's box, each sent as the phone sends it."""
    for end in range(1, len(text) + 1):
        changed: Any = form.fields[seat].on_change
        changed(SimpleNamespace(control=SimpleNamespace(value=text[:end])))


def test_typing_a_name_keeps_the_dealer_buttons_a_tap_may_be_on_its_way_to(
    tmp_path: Path,
) -> None:
    ctx = SimpleNamespace(store=GameStore(tmp_path), go=lambda _route: None)
    form = NewGameForm(ctx, None)  # type: ignore[arg-type]
    form.body.controls = form._controls()
    before = buttons(form)
    assert len(before) == 5
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        typed(form, seat, name)
    after = buttons(form)
    assert all(now is then for now, then in zip(after, before, strict=True))
    # Draw at random tapped on the button the phone showed before the last letter.
    before[4].on_click(SimpleNamespace())
    assert form.drawn and form.dealer is not None
    assert form.dealer_note.value == f"{form._short(form.dealer)} deals first (drawn)"
    assert form.dealer_note in form.dealer_box.controls
    # The chips show the names typed, the drawn one chosen; a seat tapped after it too.
    labels = [button.content.value for button in buttons(form)[:4]]
    assert labels == ["Ann", "Bob", "Cid", "Dee"]
    before[1].on_click(SimpleNamespace())
    assert (form.dealer, form.drawn) == (1, False)
    assert form.dealer_note.value == "Bob deals first"


def test_new_game_for_a_group_says_so_once_the_phone_is_known_and_keeps_the_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Opened by its address before the browser has said which phone it is, the form
    says the phone does not keep the group; once known, its line says the game will
    count, and the names typed meanwhile stay (a whole new screen emptied them)."""
    from scorer.app.views import new_game
    from scorer.app.views.for_group import ForGroup

    known = SimpleNamespace(identified=False)
    ctx: Any = SimpleNamespace(store=GameStore(tmp_path), go=lambda _route: None,
                               actions=known)
    monkeypatch.setattr(new_game, "for_group", lambda c, group_id: ForGroup(
        c, group_id, "Friday bish", keeper=c.actions.identified))
    form = NewGameForm(ctx, None, group="0123abcd")
    form.body.controls = form._controls()
    assert "Only the group's keeper" in text_of(form.body)
    typed(form, 0, "Ann")
    known.identified = True
    form.regroup()
    assert "This game will count for Friday bish." in text_of(form.body)
    assert form.fields[0] in walk_all(form.body) and form.names[0] == "Ann"


def walk_all(control: Any) -> list[Any]:
    found = [control]
    for attr in ("controls", "content"):
        child = getattr(control, attr, None)
        for one in child if isinstance(child, list) else [child] if child is not None else []:
            found.extend(walk_all(one))
    return found


def text_of(control: Any) -> str:
    return " ".join(str(c.value) for c in walk_all(control) if isinstance(c, ft.Text))
