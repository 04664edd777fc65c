"""Costs of Flet 1.0.5 that this app does not pay."""

from __future__ import annotations

from flet.controls.base_control import BaseControl
from flet.messaging.protocol import Message


def _short_repr(message: Message) -> str:
    return f"Message({message.action.name})"


def short_message_repr() -> None:
    """flet_web puts every message it sends into a debug line with an f-string, so
    the text is made even with debug logging off: the repr of every control on a
    new screen (4 ms and 300 KB of text for 120 buttons). A short repr costs
    nothing and still says what was sent."""
    Message.__repr__ = _short_repr  # type: ignore[method-assign,assignment]


COUNT_LIMIT = 5_000
"""Enough to order two screens; a bound on the walk."""


def control_count(root: BaseControl, limit: int = COUNT_LIMIT) -> int:
    """How many controls hang under `root` (itself included), up to `limit`: what a
    phone builds, or rebuilds, to show it."""
    count = 0
    stack: list[object] = [root]
    while stack and count < limit:
        item = stack.pop()
        if isinstance(item, BaseControl):
            count += 1
            # Children are fields holding controls or lists of them, kept as
            # attributes or (set values of properties) in `_values`; the parent is
            # a weak reference, so the walk only goes down.
            fields = vars(item)
            for value in (*fields.values(), *fields.get("_values", {}).values()):
                if isinstance(value, (BaseControl, list)):
                    stack.append(value)
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, (BaseControl, list)))
    return count
