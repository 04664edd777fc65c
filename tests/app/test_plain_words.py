"""Words a player stumbled on, made plain (issue 25): each is read here as a screen shows it."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft

from scorer.app.game_files import IMPORT_LABEL
from scorer.app.house_rule_text import CHOICES, FORCED_TITLE, changed_text, forced_line
from scorer.app.views.share import EXPORT_LABEL, phone_panel
from scorer.reference.sections import BY_ID, house_section_id

REPO = Path(__file__).resolve().parents[2]
SHOWN_CODE = ("scorer", "rules")
"""Where every text a screen shows is written (rulings, notices, screens, the reference)."""


def texts(control: Any) -> Iterator[str]:
    """Every text in a tree of controls, as a screen would show it."""
    if isinstance(control, ft.Text):
        if control.value:
            yield control.value
        for span in control.spans or []:
            yield span.text or ""
    if isinstance(control, list):
        for item in control:
            yield from texts(item)
    elif dataclasses.is_dataclass(control) and isinstance(control, ft.BaseControl):
        for field in dataclasses.fields(control):
            if not field.name.startswith("_") and field.name != "parent":
                value = getattr(control, field.name, None)
                if isinstance(value, (ft.BaseControl, list)):
                    yield from texts(value)


def test_the_forced_rule_says_who_must_call_in_plain_words() -> None:
    assert FORCED_TITLE == "Forced to call"
    line = forced_line(400)
    assert line.startswith("A team with more than 400 points")
    assert "the other team's dealer" in line and "one of them must call" in line
    assert "over the mark" not in line and "reach the other dealer" not in line
    assert "more than 450 points" in forced_line(450)  # the mark the table picked
    section = BY_ID[house_section_id("forced_at")]
    assert section.title == "Forced to call"
    assert '"400 forced"' in section.body  # the name tables use, said once in the body


def test_long_runs_say_five_or_six_in_a_row_are_still_a_fifty() -> None:
    line = next(line for key, _title, _options, line in CHOICES if key == "long_runs")
    assert "5 or 6 in a row is a fifty" in line
    assert "7 is a fifty and a twenty" in line
    assert "8 or 9 are two fifties" in line
    assert "One fifty: 4 or more in a row is only ever one fifty" in line


def test_house_rules_changed_is_plural_only_when_it_is() -> None:
    assert changed_text(0) == "Standard rules"
    assert changed_text(1) == "1 house rule changed"
    assert changed_text(2) == "2 house rules changed"


def test_the_phone_alone_share_panel_names_the_buttons_to_tap() -> None:
    ctx = SimpleNamespace(page=None)
    model = SimpleNamespace(id="0123abcd")
    shown = " ".join(texts(phone_panel(cast(Any, ctx), cast(Any, model))))
    assert "`" not in shown
    assert "tarabish import" not in shown
    assert f"tap {EXPORT_LABEL}" in shown
    assert f"open Past games and tap {IMPORT_LABEL}" in shown
    assert EXPORT_LABEL in list(texts(phone_panel(cast(Any, ctx), cast(Any, model))))


def _docstrings(tree: ast.AST) -> set[int]:
    """The string statements of a module (docstrings, attribute notes): never on screen."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


def test_no_text_a_screen_can_show_holds_a_backtick() -> None:
    """Backticks are for programmers' notes; on a phone they show as they are."""
    found = []
    for folder in SHOWN_CODE:
        for path in sorted((REPO / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            notes = _docstrings(tree)
            found += [f"{path.relative_to(REPO)}:{node.lineno}" for node in ast.walk(tree)
                      if isinstance(node, ast.Constant) and isinstance(node.value, str)
                      and "`" in node.value and id(node) not in notes]
    assert not found, found
