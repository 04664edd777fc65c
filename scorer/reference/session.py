"""Screen state that must outlive one drawing of a screen: the run checker's and
the card counter's taps survive a redraw (the phone switching to dark mode, a
look at the rules and back) for as long as the browser session lives."""

from __future__ import annotations

import weakref
from typing import Any

_STATE: dict[int, dict[str, Any]] = {}


def session_state(owner: object) -> dict[str, Any]:
    """A dict that lives as long as `owner` (the session's AppContext)."""
    key = id(owner)
    if key not in _STATE:
        _STATE[key] = {}
        weakref.finalize(owner, _STATE.pop, key, None)
    return _STATE[key]
