"""The phone's link to the server: when to connect, what to send, when to give a
connection up and try again. Pure: it is told what happened (with the time) and
answers what to do (`Connect`, `Send`, `Close`); `scorer.browser.carrier` does it with
the browser's WebSocket, the tests with a fake one.

- A connection starts with the client's Hello; the client's outgoing messages go
  out after every event (its outbox in order, one Push at a time).
- A dropped connection is tried again after a short wait that doubles (0.25 s, 0.5 s,
  1 s, 2 s, never more than `MAX_DELAY_S`), each with jitter so that the phones of a
  restarted server do not all come back at once. Kept short on purpose: the page
  cannot know the network came back without trying, and the waiting changes must
  go out within 3 s of it (issue 40).
- The page's online/offline events are hints only: online tries at once; offline
  asks an open connection for a sign of life (a Ping answered within `PING_WAIT_S`),
  as a connection can stay "open" with no network under it.
- An open connection that stays silent longer than `ANSWER_WAIT_S` after the phone
  sent something, or does not open within `CONNECT_WAIT_S`, is closed and tried again.
- The server told the phone to update: no more connections until the page reloads.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from pydantic import ValidationError

from scorer.sync.client import ClientMessage, ServerMessage, SyncClient
from scorer.sync.messages import Ping, ProtocolError, Unwatch, decode_server, encode

FIRST_DELAY_S = 0.25
MAX_DELAY_S = 2.0
PATIENT_DELAY_S = 30.0
"""The longest wait while the phone has nothing of the server's to keep (no synced game:
a server that never answered Hello, or a static host's page)."""
CONNECT_WAIT_S = 6.0
ANSWER_WAIT_S = 10.0
"""Longest silence after the phone sent something before the connection counts as dead
(a push of 32 changes on a slow server answers well within it)."""
IDLE_PING_S = 25.0
"""A Ping after this long without a word either way (keeps proxies from closing it, and
finds a dead one)."""
PING_WAIT_S = 3.0
"""How long a Ping sent on an offline hint waits for its Pong."""


class Stage(StrEnum):
    IDLE = "idle"
    CONNECTING = "connecting"
    OPEN = "open"
    WAITING = "waiting"
    """Waiting to try again."""
    STOPPED = "stopped"
    """The app must be updated (reloaded) first."""


@dataclass(frozen=True)
class Connect:
    """Open a new connection (closing any other first)."""


@dataclass(frozen=True)
class Send:
    text: str


@dataclass(frozen=True)
class Close:
    reason: str


Action = Connect | Send | Close
UPDATE = "update"
"""The reason of the `Close` that ends the link for good: the server told this app to
update (the carrier asks the page to take the host's version)."""


def retry_delay(failures: int, jitter: float, cap: float = MAX_DELAY_S) -> float:
    """The wait before try number `failures` + 1; `jitter` in [0, 1)."""
    base: float = min(cap, FIRST_DELAY_S * 2.0 ** max(0, failures - 1))
    return base * (0.5 + jitter / 2)


class Link:
    """One phone's link (see the module docstring). Every method takes the time now (a
    monotonic clock, in seconds) and returns what to do, in order."""

    def __init__(self, client: SyncClient, *, jitter: Callable[[], float] = random.random,
                 heard: Callable[[ServerMessage], None] = lambda _m: None) -> None:
        self.client = client
        self.jitter = jitter
        self.heard = heard
        """Told of each message from the server, after the client took it."""
        self.stage = Stage.IDLE
        self.failures = 0
        """Tries since the last connection that was welcomed."""
        self.offline_hint = False
        self.patient = False
        """Nothing to keep in step yet (set by the phone): wait up to PATIENT_DELAY_S."""
        self._since = 0.0
        self._retry_at = 0.0
        self._last_heard = 0.0
        self._last_sent = 0.0
        self._awaiting: float | None = None
        """When the oldest unanswered message was sent (None: nothing awaited)."""
        self._ping_deadline: float | None = None
        self._pings = 0

    # -- what the screens ask --------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self.stage is Stage.OPEN and self.client.status().connected

    @property
    def alone(self) -> bool:
        """The server cannot be reached now: not connected, after a try failed (or the
        page says it is offline). A first connection under way is not yet alone."""
        if self.connected:
            return False
        return self.failures > 0 or self.offline_hint or self.stage is Stage.STOPPED

    def next_wake(self) -> float | None:
        """When `tick` must be called next at the latest."""
        times = []
        if self.stage is Stage.WAITING:
            times.append(self._retry_at)
        elif self.stage is Stage.CONNECTING:
            times.append(self._since + CONNECT_WAIT_S)
        elif self.stage is Stage.OPEN:
            if self._awaiting is not None:
                times.append(self._awaiting + ANSWER_WAIT_S)
            if self._ping_deadline is not None:
                times.append(self._ping_deadline)
            times.append(max(self._last_heard, self._last_sent) + IDLE_PING_S)
            wake = self.client.wake_at()
            if wake is not None:
                times.append(wake)
        return min(times) if times else None

    # -- events -------------------------------------------------------------------------------

    def start(self, now: float) -> list[Action]:
        if self.stage is not Stage.IDLE:
            return []
        return self._connect(now)

    def opened(self, now: float) -> list[Action]:
        if self.stage is not Stage.CONNECTING:
            return []
        self.stage = Stage.OPEN
        self._since = self._last_heard = now
        self._awaiting = self._ping_deadline = None
        self.client.connected()
        return self._flush(now)

    def received(self, text: str, now: float) -> list[Action]:
        if self.stage is not Stage.OPEN:
            return []
        self._last_heard = now
        self._awaiting = self._ping_deadline = None
        self.offline_hint = False  # a word from the server: the network works
        try:
            message = decode_server(text)
        except (ProtocolError, ValidationError, ValueError):
            return []  # a newer server's message this phone cannot read: not fatal
        self.client.receive(message)
        if self.client.status().connected:
            self.failures = 0
        self.heard(message)
        if self.client.update_needed:
            self.stage = Stage.STOPPED
            self.client.disconnected()
            return [Close(UPDATE)]
        return self._flush(now)

    def closed(self, now: float) -> list[Action]:
        """The connection ended (either side, or it never opened)."""
        if self.stage not in (Stage.CONNECTING, Stage.OPEN):
            return []
        self.client.disconnected()
        self.failures += 1
        self.stage = Stage.WAITING
        cap = PATIENT_DELAY_S if self.patient else MAX_DELAY_S
        self._retry_at = now + retry_delay(self.failures, self.jitter(), cap)
        return []

    def poke(self, now: float) -> list[Action]:
        """The player changed something (or chose): send what waits now."""
        return self._flush(now) if self.stage is Stage.OPEN else []

    def online(self, now: float) -> list[Action]:
        """The page says the network is back: try now."""
        self.offline_hint = False
        if self.stage is Stage.WAITING:
            return self._connect(now)
        return []

    def offline(self, now: float) -> list[Action]:
        """The page says the network is gone: an open connection must prove it lives."""
        self.offline_hint = True
        if self.stage is Stage.OPEN and self._ping_deadline is None:
            self._ping_deadline = now + PING_WAIT_S
            return self._send([self._ping()], now)
        return []

    def tick(self, now: float) -> list[Action]:
        """Time passed: retry, give up a silent connection, ping an idle one."""
        if self.stage is Stage.WAITING and now >= self._retry_at:
            return self._connect(now)
        if self.stage is Stage.CONNECTING and now >= self._since + CONNECT_WAIT_S:
            return self._drop(now, "did not open")
        if self.stage is not Stage.OPEN:
            return []
        if self._awaiting is not None and now >= self._awaiting + ANSWER_WAIT_S:
            return self._drop(now, "no answer")
        if self._ping_deadline is not None and now >= self._ping_deadline:
            return self._drop(now, "no answer to a ping")
        if now >= max(self._last_heard, self._last_sent) + IDLE_PING_S:
            return self._send([self._ping()], now)
        return self._flush(now)

    # -- helpers ------------------------------------------------------------------------------

    def _connect(self, now: float) -> list[Action]:
        self.stage = Stage.CONNECTING
        self._since = now
        return [Connect()]

    def _drop(self, now: float, why: str) -> list[Action]:
        self.closed(now)
        return [Close(why)]

    def _ping(self) -> Ping:
        self._pings += 1
        return Ping(n=self._pings)

    def _flush(self, now: float) -> list[Action]:
        return self._send(self.client.outgoing(), now)

    def _send(self, messages: list[ClientMessage], now: float) -> list[Action]:
        if not messages:
            return []
        self._last_sent = now
        if self._awaiting is None and any(not isinstance(m, Unwatch) for m in messages):
            self._awaiting = now  # every other message is answered
        return [Send(encode(m)) for m in messages]
