"""A group as a value, its limits, and the keeper code's hashing. Pure: no I/O."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from pydantic import BaseModel, ConfigDict, field_validator

from rules.plain_text import describe, first_unsafe
from rules.stats import player_key
from scorer.store.errors import StoreError
from scorer.text.codes import code_digits

NAME_MAX: Final = 40
MAX_MEMBERS: Final = 500
MAX_GAMES: Final = 20_000
MAX_GROUPS: Final = 1_000
MAX_KEEPERS: Final = 20
"""Phones kept as a group's keepers; the one not seen longest goes first."""
CODE_DIGITS: Final = 8
_ID_RE: Final = re.compile(r"^[0-9a-f]{8}$")


@dataclass(frozen=True)
class Keeper:
    """A phone keeping a group, as another keeper sees it."""

    mark: str
    since: datetime
    this_phone: bool


class GroupNotFound(StoreError):
    """No group has this id or name."""

    def __init__(self, what: str) -> None:
        super().__init__(f"There is no group {what!r}.")


class BadGroup(StoreError):
    """A name, member or game a group cannot take; the message says why."""


class NotKeeper(StoreError):
    """This phone may look at the group but not change it."""

    def __init__(self) -> None:
        super().__init__("Only the group's keeper can change it: enter the keeper code "
                         "first.")


def member_key(name: str) -> str:
    """How a member is known: "ann " and "Ann" are one member (as the statistics count)."""
    return player_key(name)


def clean_name(name: str, what: str = "A group's name") -> str:
    """`name` trimmed; BadGroup if it is empty, too long or holds a hidden character."""
    if not isinstance(name, str):
        raise BadGroup(f"{what} must be text.")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise BadGroup(f"{what} cannot be empty.")
    if len(cleaned) > NAME_MAX:
        raise BadGroup(f"{what} can have at most {NAME_MAX} characters.")
    char = first_unsafe(cleaned)
    if char is not None:  # PostgreSQL refuses NUL and lone surrogates; a terminal obeys ESC
        raise BadGroup(f"{what} has a hidden character in it ({describe(char)}): use "
                       "letters, digits, spaces and punctuation only.")
    return cleaned


def check_id(group_id: object) -> str:
    if not (isinstance(group_id, str) and _ID_RE.match(group_id)):
        raise GroupNotFound(str(group_id))
    return group_id


class Group(BaseModel):
    """One group: its members as they are written (one per `member_key`), its games
    (ids, in the order they joined) and when it was made."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    members: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    created: datetime

    @field_validator("members")
    @classmethod
    def _one_per_member(cls, members: tuple[str, ...]) -> tuple[str, ...]:
        keys = [member_key(m) for m in members]
        if len(set(keys)) != len(keys) or "" in keys:
            raise ValueError("each member once, with a name")
        return members

    def member(self, name: str) -> str | None:
        """The member `name` is, as the group writes it; None for no member."""
        key = member_key(name)
        return next((m for m in self.members if member_key(m) == key), None)

    def contract(self) -> dict[str, object]:
        """One entry of `tarabish group list --json`."""
        return {"id": self.id, "name": self.name, "members": list(self.members),
                "games": len(self.games), "created": self.created.isoformat()}


def with_members(members: tuple[str, ...], names: list[str]) -> tuple[str, ...]:
    """`members` and those of `names` not in it yet (as first written), bounded."""
    keys = {member_key(m) for m in members}
    added = list(members)
    for name in names:
        cleaned = clean_name(name, "A member's name")
        if member_key(cleaned) not in keys:
            keys.add(member_key(cleaned))
            added.append(cleaned)
            if len(added) > MAX_MEMBERS:  # said at once: a flood of names is not read on
                raise BadGroup(f"A group can have at most {MAX_MEMBERS} members.")
    return tuple(added)


def new_code() -> str:
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"


def hash_code(code: str, salt: bytes | None = None) -> str:
    """What is kept of a keeper code: scrypt with a random salt. Eight digits behind a
    plain hash are found offline in a second; scrypt makes each guess cost 16 MiB."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(code.encode(), salt=salt, n=2 ** 14, r=8, p=1, dklen=32)
    return f"scrypt${salt.hex()}${digest.hex()}"


def code_matches(code: str, kept: str | None) -> bool:
    if not kept or not isinstance(code, str):
        return False
    try:
        kind, salt, _digest = kept.split("$")
        if kind != "scrypt":
            return False
        return hmac.compare_digest(hash_code(code_digits(code), bytes.fromhex(salt)), kept)
    except ValueError:
        return False


def device_key(token: str) -> str:
    """What is kept of a phone's device token: its SHA-256, never the token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
