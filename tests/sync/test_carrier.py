"""The carrier keeps the phone's link going on a real loop: whatever a turn of it or a
redraw raises, a phone whose connection dropped goes on trying (the page's online event
does not reach the worker the app runs in: the carrier's task is the only clock)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sync_setup import ANN, phone

import scorer.browser.carrier as carrier_module
from scorer.browser.carrier import Carrier, SocketEvents
from scorer.browser.link import Link
from scorer.sync.messages import PROTOCOL, Update, encode
from tests.in_thread import run_async

TRIES = 4
WAIT_S = 10.0


class DeadNetwork:
    """Every socket fails right after it is opened; counts the tries."""

    def __init__(self) -> None:
        self.tries = 0
        self.enough = asyncio.Event()

    def open(self, url: str, events: SocketEvents) -> Any:
        self.tries += 1
        if self.tries >= TRIES:
            self.enough.set()
        asyncio.get_running_loop().call_soon(events.closed)
        return self

    def send(self, text: str) -> None:
        raise AssertionError("nothing is sent on a socket that never opened")

    def close(self) -> None:
        pass


async def tries_made(*, changed: Any = lambda: None, broken_ticks: int = 0) -> int:
    network = DeadNetwork()
    link = Link(phone(ANN, 1), jitter=lambda: 0.0)
    tick = link.tick

    def failing_tick(now: float) -> Any:
        nonlocal broken_ticks
        if broken_ticks:
            broken_ticks -= 1
            raise RuntimeError("a turn that fails")
        return tick(now)

    link.tick = failing_tick  # type: ignore[method-assign]
    carrier = Carrier(link, "ws://phone.test/sync", network.open, changed=changed)
    carrier.start()
    try:
        await asyncio.wait_for(network.enough.wait(), WAIT_S)
    except TimeoutError:
        pass
    finally:
        carrier.stop()
    return network.tries


def test_a_redraw_that_fails_every_time_does_not_stop_the_tries() -> None:
    def broken_screen() -> None:
        raise RuntimeError("the page is gone")

    assert run_async(tries_made(changed=broken_screen)) >= TRIES


def test_a_turn_that_fails_is_followed_by_the_next_try() -> None:
    assert run_async(tries_made(broken_ticks=2)) >= TRIES


class ServerWithNewerRules:
    """Opens, then answers the phone's Hello with Update (the server's rules are newer)."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()

    def open(self, url: str, events: SocketEvents) -> Any:
        loop = asyncio.get_running_loop()
        loop.call_soon(events.opened)
        update = encode(Update(protocol=PROTOCOL, rules="newer", words="Reload"))
        loop.call_soon(events.received, update)
        return self

    def send(self, text: str) -> None:
        pass

    def close(self) -> None:
        self.closed.set()


def test_told_to_update_the_page_is_asked_to_take_the_hosts_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sync's Update ends the link, and the page (boot.js) is asked to compare its app
    with the host's now: its service worker takes the new one at a calm moment."""
    asked: list[str] = []
    monkeypatch.setattr(carrier_module, "check_for_update", lambda: asked.append("check"))
    server = ServerWithNewerRules()

    async def told() -> None:
        carrier = Carrier(Link(phone(ANN, 1), jitter=lambda: 0.0), "ws://phone.test/sync",
                          server.open)
        carrier.start()
        try:
            await asyncio.wait_for(server.closed.wait(), WAIT_S)
        finally:
            carrier.stop()

    run_async(told())
    assert asked == ["check"]
