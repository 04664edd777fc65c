"""Who keeps a group: only a phone that holds its keeper code may change it.

The brake is the organiser code's (`scorer.events.organisers`): three tries an
address, ten per group from everyone, then waits doubling up to 15 min. The store
(folder or PostgreSQL) keeps the code hashed and the keepers' phones hashed.
"""

from __future__ import annotations

from typing import Protocol

from scorer.rights.limiter import Backoff, TooManyTries, WrongCode
from scorer.rights.service import ADDRESS_FREE_TRIES, GAME_FREE_TRIES, WAIT_CAP_S
from scorer.store.errors import StoreError


class NotKeeper(StoreError):
    """This phone may look at the group but not change it."""

    def __init__(self) -> None:
        super().__init__("Only the group's keeper can change it: enter the keeper code first.")


class KeptGroups(Protocol):
    """What the brake needs of a group store (FolderGroups and PgGroups both give it)."""

    def code_matches(self, group_id: str, code: str) -> bool: ...
    def grant(self, group_id: str, token: str) -> None: ...
    def holds(self, group_id: str, token: str | None) -> bool: ...


class GroupKeepers:
    """The braked door to a group store's keeper codes."""

    def __init__(self, store: KeptGroups) -> None:
        self.store = store
        self.backoff = Backoff(free=ADDRESS_FREE_TRIES, cap=WAIT_CAP_S, forget_after=3600.0)
        self.group_backoff = Backoff(free=GAME_FREE_TRIES, cap=WAIT_CAP_S,
                                     forget_after=6 * 3600.0)

    def holds(self, group_id: str, token: str | None) -> bool:
        return self.store.holds(group_id, token)

    def check(self, group_id: str, token: str | None) -> None:
        """NotKeeper unless `token` keeps the group."""
        if not self.store.holds(group_id, token):
            raise NotKeeper()

    def enter(self, group_id: str, token: str, address: str, code: str) -> None:
        """Make `token` a keeper for the right code; WrongCode or TooManyTries otherwise.
        `address` is the connection's: a new token buys no new tries."""
        here = f"{group_id}|addr|{address}"
        wait = max(self.backoff.wait_left(here), self.group_backoff.wait_left(group_id))
        if wait > 0:
            raise TooManyTries(wait)
        if not self.store.code_matches(group_id, code[:40]):
            wait = max(self.backoff.failed(here), self.group_backoff.failed(group_id))
            if wait > 0:
                raise TooManyTries(wait)
            left = min(self.backoff.tries_left(here), self.group_backoff.tries_left(group_id))
            raise WrongCode(f"That is not this group's keeper code ({left} more "
                            f"{'try' if left == 1 else 'tries'} before a wait).")
        self.backoff.succeeded(here)
        self.store.grant(group_id, token)
