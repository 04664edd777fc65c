"""Costs of Flet 1.0.5 that this app does not pay."""

from __future__ import annotations

import itertools
import os
import secrets
from collections.abc import Iterator
from typing import Any

from flet.controls import id_counter
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import DiffBuilder
from flet.messaging.protocol import Message


def _short_repr(message: Message) -> str:
    return f"Message({message.action.name})"


def short_message_repr() -> None:
    """flet_web puts every message it sends into a debug line with an f-string, so
    the text is made even with debug logging off: the repr of every control on a
    new screen (4 ms and 300 KB of text for 120 buttons). A short repr costs
    nothing and still says what was sent."""
    Message.__repr__ = _short_repr  # type: ignore[method-assign,assignment]


def _clean(control: object) -> None:
    dirty = getattr(control, "_dirty", None)
    if dirty:
        dirty.clear()


def forget_sent_changes() -> None:
    """Flet 1.0.5 marks a field as changed when it is set after its control was
    made, and clears the mark only when it compares a control in place. A control
    it compares by value (a keyed screen drawn again on show: the sheet) or sends
    whole kept its marks, so the next in-place update walking past it (Flet's own,
    after every tap) sent those fields again in a message of their own: the phone
    rebuilt the whole sheet under Record hand before the switch and again after.
    Once compared or sent whole, a control is on the phone as it is: its marks go."""
    compare = DiffBuilder._compare_dataclasses
    configure = DiffBuilder._configure_dataclass
    if getattr(compare, "_forgets", False):
        return

    def compared(self: DiffBuilder, parent: Any, path: list[Any], src: Any, dst: Any,
                 frozen: bool) -> None:
        compare(self, parent, path, src, dst, frozen)
        # Not under an isolated control: Flet skips those children, unsent.
        skipped = (isinstance(parent, BaseControl) and parent.is_isolated()
                   and parent is not self.dst_doc)
        if frozen and not skipped:
            _clean(dst)

    def configured(self: DiffBuilder, item: Any, parent: Any, frozen: bool,
                   configure_setattr_only: bool = False) -> Iterator[Any]:
        yield from configure(self, item, parent, frozen, configure_setattr_only)
        if frozen and not configure_setattr_only:
            _clean(item)

    compared._forgets = True  # type: ignore[attr-defined]
    DiffBuilder._compare_dataclasses = compared  # type: ignore[method-assign]
    DiffBuilder._configure_dataclass = configured  # type: ignore[method-assign]


def keep_retained_controls() -> None:
    """A keyed screen drawn again reuses its unchanged parts (`views.kept`): Flet
    skips such a control (`frozen and src is dst`), yet Flet 1.0.5 also lists it,
    and everything under it, among the controls removed with the old parent it
    was reconciled away from (the old parent's children, read from its snapshot).
    The session then drops them from its index (a tap on an older row of a
    watching phone's sheet found no control) and walks the whole old screen on
    every redraw. A control kept in the new screen is not removed, nor anything
    under it."""
    compare = DiffBuilder._compare_dataclasses
    removed = DiffBuilder._removed_controls
    if getattr(removed, "_keeps", False):
        return

    def compared(self: DiffBuilder, parent: Any, path: list[Any], src: Any, dst: Any,
                 frozen: bool) -> None:
        if frozen and src is dst:
            kept = self.__dict__.get("_kept_ids")
            if kept is None:
                kept = self.__dict__["_kept_ids"] = set()
            kept.add(id(dst))
        compare(self, parent, path, src, dst, frozen)

    def removed_controls(self: DiffBuilder, item: Any, recurse: bool) -> Iterator[Any]:
        kept = self.__dict__.get("_kept_ids")
        if kept is not None and id(item) in kept:
            return
        yield from removed(self, item, recurse)

    removed_controls._keeps = True  # type: ignore[attr-defined]
    DiffBuilder._compare_dataclasses = compared  # type: ignore[method-assign]
    DiffBuilder._removed_controls = removed_controls  # type: ignore[method-assign]


CONTROL_ID_SPAN = 1 << 30
"""Control ids of one process start somewhere in [2**20, 2**30 + 2**20): far apart
between two processes, and well under 2**31 after a billion controls."""


def fresh_control_ids() -> None:
    """Flet 1.0.5 numbers controls from 3 in every process, and the phone's client
    binds a service (SharedPreferences) to its control id. A tab that reconnects to a
    new server process keeps its old binding for an id the new session reuses, now
    tied to the old control: every read of what the phone keeps timed out (10 s), and
    a holder showed as a watcher until a reload. Ids that start at a random point in
    each process never meet the old session's. A process forked from one that drew
    its start (the tests' fork server, tests/server_zygote.py) draws its own."""
    counter = id_counter.ControlId
    if getattr(counter, "_fresh", False):
        return
    _draw_control_ids()
    counter._fresh = True  # type: ignore[attr-defined]
    if hasattr(os, "register_at_fork"):  # not in a phone's browser (Pyodide)
        os.register_at_fork(after_in_child=_draw_control_ids)


def _draw_control_ids() -> None:
    start = (1 << 20) + secrets.randbelow(CONTROL_ID_SPAN)
    id_counter.ControlId._counter = itertools.count(start)


def late_answers_dropped() -> None:
    """A phone's answer to a method call (the sheet's `scroll_to` after a save) that
    arrives once the server has dropped that control (the phone already moved on to
    the next hand) makes Flet 1.0.5 raise in the websocket's receive loop, which ends
    the connection: the phone showed "Lost the table server" for a moment. Such an
    answer now only wakes its caller, with an error, and the page stays connected."""
    from flet.messaging.session import Session

    original = Session.handle_invoke_method_results
    if getattr(original, "_late_ok", False):
        return

    def handle(self: Session, control_id: int, call_id: str, result: Any,
               error: str | None) -> None:
        try:
            original(self, control_id, call_id, result, error)
        except RuntimeError:
            calls = getattr(self, "_Session__method_calls", {})
            evt = calls.pop(call_id, None)
            if evt is not None:
                getattr(self, "_Session__method_call_results", {})[evt] = (
                    None, "the control was removed before its answer came")
                evt.set()

    handle._late_ok = True  # type: ignore[attr-defined]
    Session.handle_invoke_method_results = handle  # type: ignore[method-assign]
