"""`tarabish import`, `export` and `games`: move games in and out of the store."""

from __future__ import annotations

from typing import Any


def register(sub: Any) -> None:
    pass
