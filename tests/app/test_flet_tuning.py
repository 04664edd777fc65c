"""Flet tuning (issue 11): the short repr of messages; (issue 26) the parts a screen
drawn again keeps stay reachable by taps."""

from __future__ import annotations

from typing import Any, cast

import flet as ft
import msgpack
from flet.controls.base_control import BaseControl
from flet.controls.context import _context_page
from flet.messaging.connection import Connection
from flet.messaging.protocol import (
    Message,
    MessageAction,
    PatchControlBody,
    configure_encode_object_for_msgpack,
)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub

import scorer.app.table_app  # noqa: F401  (the table app applies it on import)


def test_a_message_with_a_whole_screen_prints_as_one_short_line() -> None:
    screen = ft.Column([ft.OutlinedButton(content=ft.Text(str(n))) for n in range(120)])
    message = Message(MessageAction.PATCH_CONTROL, PatchControlBody(1, [screen]))
    assert f"send_message: {message}" == "send_message: Message(PATCH_CONTROL)"



class _Packing(Connection):
    """A connection that packs what it sends, as flet_web does (packing gives Flet's
    controls the snapshots its later updates are compared against)."""

    def __init__(self) -> None:
        super().__init__()
        self.pubsubhub = PubSubHub()
        self._encode = configure_encode_object_for_msgpack(BaseControl)

    def pack(self, body: Any) -> bytes:
        return bytes(msgpack.packb(body, default=self._encode))

    def send_message(self, message: Message) -> None:
        self.pack([message.action, message.body])


def test_a_part_kept_in_a_screen_drawn_again_still_answers_taps() -> None:
    """A keyed screen drawn again on show reuses its unchanged parts (`views.kept`).
    Flet 1.0.5 dropped them from the session's index as if removed with the old
    parent they were reconciled from: a tap on an older row of a watching phone's
    sheet, after a save on another phone, found no control."""
    conn = _Packing()
    session = Session(conn)
    page = session.page
    _context_page.set(page)
    conn.pack(session.get_page_patch())
    row = ft.Container(content=ft.Text("1. Ann dealt"), key="hand1", on_click=lambda _e: None)

    def screen(*rows: ft.Control) -> ft.View:
        body = ft.Column(list(rows), key="part0")
        return ft.View(route="/game/0123abcd", controls=[ft.SafeArea(content=body, key="s")])

    page.views.clear()
    page.views.append(screen(row))
    page.update()
    assert page.get_control(row._i) is row
    shown = page.views[-1]
    for n in (2, 3):  # two saves on another phone: the sheet drawn again each time
        shown.controls = screen(ft.Container(content=ft.Text(f"{n}. Bob dealt"), key=f"hand{n}"),
                                row).controls
        shown.update()
        assert page.get_control(row._i) is row
        assert page.get_control(cast(ft.Control, row.content)._i) is row.content


def test_control_ids_of_a_process_start_at_a_random_point_far_from_three() -> None:
    """A tab reconnected to a new process kept the old session's service bound to id
    123; the new session's SharedPreferences got 123 again and never answered."""
    from flet.controls import id_counter

    from scorer.app.flet_tuning import CONTROL_ID_SPAN, fresh_control_ids

    fresh_control_ids()
    first = ft.Text("a")._i
    fresh_control_ids()  # once a process: a second call does not move the ids
    assert ft.Text("b")._i == first + 1
    assert 1 << 20 <= first < (1 << 20) + CONTROL_ID_SPAN + 10_000_000
    assert getattr(id_counter.ControlId, "_fresh", False)


def test_a_late_answer_to_a_method_call_keeps_the_page_connected() -> None:
    """The phone answered the sheet's `scroll_to` after the phone had moved on and the
    control was dropped: Flet raised in the receive loop, ending the websocket."""
    import asyncio

    conn = _Packing()
    session = Session(conn)
    waiting = asyncio.Event()
    calls = session._Session__method_calls  # type: ignore[attr-defined]
    calls["call-7"] = waiting
    session.handle_invoke_method_results(987_654_321, "call-7", None, None)  # no raise
    assert waiting.is_set() and "call-7" not in calls
    results = session._Session__method_call_results  # type: ignore[attr-defined]
    assert results[waiting][1] == "the control was removed before its answer came"
    session.handle_invoke_method_results(987_654_321, "never-asked", None, None)
