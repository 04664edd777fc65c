"""Costs of Flet 1.0.5 that this app does not pay."""

from __future__ import annotations

from flet.messaging.protocol import Message


def _short_repr(message: Message) -> str:
    return f"Message({message.action.name})"


def short_message_repr() -> None:
    """flet_web puts every message it sends into a debug line with an f-string, so
    the text is made even with debug logging off: the repr of every control on a
    new screen (4 ms and 300 KB of text for 120 buttons). A short repr costs
    nothing and still says what was sent."""
    Message.__repr__ = _short_repr  # type: ignore[method-assign,assignment]
