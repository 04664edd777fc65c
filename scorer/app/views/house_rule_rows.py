"""The house rules as rows of switches and choices: one drawing for New game and for a
club night's new event, so both offer the same rules in the same words."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import flet as ft

from rules.house_rules import HouseRules
from scorer.app.house_rule_text import CHOICES, FORCED_TITLE, SWITCHES, forced_line
from scorer.app.widgets import small_toggle

FORCED_MARKS = (300, 400, 450)
FORCED_MARK = 400
"""The mark the forced rule starts at when it is switched on."""

SetRule = Callable[[str, Any], None]


def rule_rows(rules: Mapping[str, Any], set_rule: SetRule) -> list[ft.Control]:
    """A row for each house rule, showing `rules` (only what differs from the standard);
    a tap calls `set_rule(key, value)`."""
    rows: list[ft.Control] = []
    for key, title, line in SWITCHES:
        rows.append(_switch(title, line, bool(rules.get(key, False)),
                            lambda on, k=key: set_rule(k, on)))
    forced_on = rules.get("forced_at") is not None
    mark = rules["forced_at"] if forced_on else FORCED_MARK
    rows.append(_switch(FORCED_TITLE, forced_line(mark), forced_on,
                        lambda on: set_rule("forced_at", FORCED_MARK if on else None)))
    if forced_on:
        rows.append(ft.Row([small_toggle(f"Over {m}", mark == m,
                                         lambda _e, m=m: set_rule("forced_at", m))
                            for m in FORCED_MARKS], spacing=6))
    for key, title, options, line in CHOICES:
        now = rules.get(key, HouseRules.model_fields[key].default)
        rows.append(ft.Column([
            ft.Text(title, size=16, weight=ft.FontWeight.W_600),
            ft.Text(line, size=13, color=ft.Colors.ON_SURFACE_VARIANT),
            ft.Row([small_toggle(label, now == value,
                                 lambda _e, k=key, v=value: set_rule(k, v))
                    for value, label in options], spacing=6),
        ], spacing=4))
    return rows


def _switch(title: str, line: str, value: bool, on: Callable[[bool], None]) -> ft.Control:
    return ft.Row([
        ft.Column([ft.Text(title, size=16, weight=ft.FontWeight.W_600),
                   ft.Text(line, size=13, color=ft.Colors.ON_SURFACE_VARIANT)],
                  spacing=2, expand=True),
        ft.Switch(value=value, on_change=lambda e: on(bool(e.control.value)), tooltip=title),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)
