"""What a group is, its bounds and its errors: shared by the folder and PostgreSQL stores."""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any, Final

from pydantic import BaseModel, ConfigDict

from scorer.store.errors import StoreError

MAX_GROUPS: Final = 1000
MAX_MEMBERS: Final = 500
MAX_GAMES: Final = 20_000
MAX_NAME: Final = 40
MAX_KEEPERS: Final = 20
"""Phones kept per group as holding its keeper code; the one not seen longest goes first."""
CODE_DIGITS: Final = 8
_ID_RE: Final = re.compile(r"^[0-9a-f]{8}$")


class Group(BaseModel):
    """A group: its name, its members (names as first typed) and its games (ids, in the
    order added). Never holds the keeper code."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    members: tuple[str, ...] = ()
    games: tuple[str, ...] = ()

    def contract(self) -> dict[str, Any]:
        """One entry of `tarabish group list --json`: id, name, members, games."""
        return {"id": self.id, "name": self.name, "members": list(self.members),
                "games": list(self.games)}


class GroupNotFound(StoreError):
    """No group has this id or name."""

    def __init__(self, wanted: str) -> None:
        super().__init__(f"There is no group {wanted!r}.")


class GroupRefused(StoreError):
    """A change the group cannot take (bad name, full, unknown game id)."""


def key(name: str) -> str:
    """A name with capitals and outer spaces ignored: how members and groups match."""
    return name.strip().casefold()


def clean_name(name: object, what: str) -> str:
    """`name` trimmed, or GroupRefused with one line saying why not."""
    if not isinstance(name, str) or not name.strip():
        raise GroupRefused(f"A {what} needs a name.")
    text = " ".join(name.split())
    if len(text) > MAX_NAME:
        raise GroupRefused(f"A {what} name can be at most {MAX_NAME} letters.")
    if any(not ch.isprintable() for ch in text):
        raise GroupRefused(f"A {what} name cannot hold control characters.")
    return text


def check_game_id(game_id: object) -> str:
    """A game id (eight hex digits) or GroupRefused."""
    if not isinstance(game_id, str) or not _ID_RE.match(game_id.strip()):
        raise GroupRefused(f"{str(game_id)[:20]!r} is not a game id.")
    return game_id.strip()


def new_group_id() -> str:
    return secrets.token_hex(4)


def new_code() -> str:
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"


def code_hash(group_id: str, code: str) -> str:
    """How a keeper code is kept: never as typed (salted with the group's id)."""
    typed = "".join(ch for ch in code if ch.isdigit())
    return hashlib.sha256(f"tarabish-group|{group_id}|{typed}".encode()).hexdigest()


def device_key(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
