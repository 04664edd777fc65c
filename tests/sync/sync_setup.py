"""What the sync tests share: phones with fixed ids and clocks, small games and hands."""

from __future__ import annotations

import copy
import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from scorer.sync.client import MemoryKeeper, SyncClient
from scorer.sync.kinds import sync_fingerprint
from scorer.sync.messages import Change, Create, Hello

ANN = "ann-device-token-0001"
BOB = "bob-device-token-0002"
CID = "cid-device-token-0003"
START = datetime(2025, 6, 1, 20, 0, tzinfo=UTC)

# Caller seat 1 (team 1) makes it: 70 to team 0 and 92 to team 1.
MADE: dict[str, Any] = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
MADE_0: dict[str, Any] = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}
BAD_TRUMP: dict[str, Any] = {"caller": 1, "trump": "X", "points": {"team": 0, "tricks": 70}}


def made(tricks: int) -> dict[str, Any]:
    """A made hand that tells itself apart by its trick points (0..80: seat 1 makes it)."""
    return {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": tricks}}


def game_doc(hands: int = 0, *, target: int | None = None) -> dict[str, Any]:
    rules: dict[str, Any] = {} if target is None else {"target": target}
    return {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
            "first_dealer": 0, "rules": rules,
            "hands": [copy.deepcopy(MADE) for _ in range(hands)]}


class Ids:
    """Change ids and keys in order, per phone (a test reads them back)."""

    def __init__(self, prefix: int) -> None:
        self._n = itertools.count(1)
        self.prefix = prefix

    def __call__(self) -> str:
        return f"{self.prefix:08x}{next(self._n):024x}"


class Clock:
    """A phone's clock that moves only when told."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t

    def at(self) -> datetime:
        return START + timedelta(seconds=self.t)


def phone(device: str, n: int, keeper: MemoryKeeper | None = None,
          clock: Clock | None = None) -> SyncClient:
    clock = clock or Clock()
    return SyncClient(device, keeper or MemoryKeeper(), now=clock.at, clock=clock,
                      new_id=Ids(n))


def hello(device: str = ANN, **extra: Any) -> Hello:
    return Hello(protocol=1, rules=sync_fingerprint(), device=device, **extra)


def create(n: int = 1, doc: dict[str, Any] | None = None) -> Change:
    key = f"{n:032x}"
    return Change(id=f"{n + 1000:032x}", game=key, base=0, at=START,
                  kind=Create(doc=doc or game_doc(), origin=key))
