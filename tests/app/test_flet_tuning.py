"""Flet tuning (issue 11): the short repr of messages."""

from __future__ import annotations

import flet as ft
from flet.messaging.protocol import Message, MessageAction, PatchControlBody

import scorer.app.table_app  # noqa: F401  (the table app applies it on import)


def test_a_message_with_a_whole_screen_prints_as_one_short_line() -> None:
    screen = ft.Column([ft.OutlinedButton(content=ft.Text(str(n))) for n in range(120)])
    message = Message(MessageAction.PATCH_CONTROL, PatchControlBody(1, [screen]))
    assert f"send_message: {message}" == "send_message: Message(PATCH_CONTROL)"

