"""The carrier keeps the phone's link going on a real loop: whatever a turn of it or a
redraw raises, a phone whose connection dropped goes on trying (the page's online event
does not reach the worker the app runs in: the carrier's task is the only clock)."""

from __future__ import annotations

import asyncio
from typing import Any

from sync_setup import ANN, phone

from scorer.browser.carrier import Carrier, SocketEvents
from scorer.browser.link import Link
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
