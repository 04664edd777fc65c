"""Flet tuning (issue 11): the short repr of messages, the weight of a screen."""

from __future__ import annotations

import flet as ft
from flet.messaging.protocol import Message, MessageAction, PatchControlBody

import scorer.app.table_app  # noqa: F401  (the table app applies it on import)
from scorer.app.flet_tuning import control_count


def test_a_message_with_a_whole_screen_prints_as_one_short_line() -> None:
    screen = ft.Column([ft.OutlinedButton(content=ft.Text(str(n))) for n in range(120)])
    message = Message(MessageAction.PATCH_CONTROL, PatchControlBody(1, [screen]))
    assert f"send_message: {message}" == "send_message: Message(PATCH_CONTROL)"


def test_control_count_counts_every_control_under_a_screen_once() -> None:
    rows = [ft.Row([ft.Text("a"), ft.OutlinedButton(content=ft.Text("b"))]) for _ in range(30)]
    view = ft.View(route="/", controls=[ft.Column(rows)], appbar=ft.AppBar(title=ft.Text("x")))
    assert control_count(view) == 1 + 1 + 30 * 4 + 2
    assert control_count(view, limit=10) == 10
    assert control_count(ft.Text("alone")) == 1
