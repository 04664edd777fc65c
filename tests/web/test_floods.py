"""How much a page and an address may ask of a process (scorer.web.floods).

The budgets are checked on a clock of the test's own: what real use sends
(measured with benchmarks/bench_flood.py --real-use) is never held back, a flood
is read at the budget's pace and then closed, and a handler is charged only the
time it runs, not the time it waits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from scorer.web import floods
from scorer.web.floods import LIMITS, TOO_FAST, FloodLimits, Pace, Shares, paced_receive
from tests.in_thread import run_async


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def tap(pace: Pace, frames: int = 1, work_s: float = 0.006) -> None:
    """One tap: the page may send at once, and its handler runs."""
    for _ in range(frames):
        assert pace.wait_s() == 0, "a player was held back"
        pace.charge_frame(60)
    pace.charge_work(work_s)


def pad_taps(paces: list[Pace], clock: Clock, seconds: float, per_s: float = 10.0,
             ) -> Iterator[int]:
    """Every page taps the number pad at `per_s` for `seconds` (two frames a tap, the
    measured most); yields each tap's number."""
    for n in range(int(seconds * per_s)):
        for pace in paces:
            tap(pace, frames=2)
        clock.now += 1 / per_s
        yield n


def test_a_player_flat_out_is_never_held_back(clock: Clock) -> None:
    pace = Shares(clock=clock).join("203.0.113.7")
    for _ in pad_taps([pace], clock, 120):  # two minutes of the number pad, 10 taps a second
        pass
    for _hand in range(30):  # thirty hands in a row: eight taps, Save, a glance at the sheet
        for _ in pad_taps([pace], clock, 0.8):
            pass
        tap(pace, work_s=0.1)
        clock.now += 2.0
    for _ in range(100):  # a name of 100 keys, typed with no pause (two frames a key)
        tap(pace, frames=2, work_s=0.001)
    clock.now += 5.0  # Start game
    tap(pace, work_s=0.4)  # a leaderboard of 200 players, then back to it
    tap(pace, work_s=0.4)
    clock.now += 2.0
    for _ in range(20):  # rotated twenty times, ten a second: six frames, a redraw
        clock.now += 0.1
        tap(pace, frames=6, work_s=0.015)


def test_a_halls_phones_behind_one_address_are_never_held_back(clock: Clock) -> None:
    shares = Shares(clock=clock)
    table = [shares.join("198.51.100.1") for _ in range(4)]
    for _ in pad_taps(table, clock, 60):  # a table's four phones, all flat out for a minute
        pass
    hall = table + [shares.join("198.51.100.1") for _ in range(8)]
    for _round in range(5):  # twelve phones record a hand at the same moment, each round
        for _ in pad_taps(hall, clock, 0.8):
            pass
        for pace in hall:
            tap(pace, work_s=0.1)  # Save
        clock.now += 60


def test_a_closed_page_does_not_leave_its_address_a_fresh_budget(clock: Clock) -> None:
    shares = Shares(clock=clock)
    pace = shares.join("192.0.2.5")
    pace.charge_work(LIMITS.address_work_burst + 1.0)
    shares.leave(pace)
    again = shares.join("192.0.2.5")
    assert again.wait_s() > 0
    shares.leave(again)
    clock.now += 60
    assert shares.join("192.0.2.5").wait_s() == 0


def test_addresses_without_pages_are_let_go_once_rested(clock: Clock) -> None:
    shares = Shares(clock=clock)
    for n in range(Shares.KEEP + 50):
        shares.leave(shares.join(f"10.0.{n // 256}.{n % 256}"))
    assert len(shares) <= Shares.KEEP + 1


async def frames_forever() -> dict[str, Any]:
    return {"type": "websocket.receive", "bytes": b"\x00\x92\x03\x80"}


def test_a_flood_is_read_at_the_budgets_pace_then_closed() -> None:
    limits = FloodLimits(messages_per_s=200.0, messages_burst=20.0, close_after_s=0.3)
    closed: list[str] = []

    async def close(reason: str) -> None:
        closed.append(reason)

    async def flood() -> tuple[int, float, dict[str, Any]]:
        pace = Shares(limits).join("203.0.113.66")
        loop = asyncio.get_running_loop()
        start = loop.time()
        read = 0
        while True:
            event = await paced_receive(frames_forever, pace, close)
            if event["type"] != "websocket.receive":
                return read, loop.time() - start, event
            read += 1

    read, took, last = run_async(flood())
    assert closed == [TOO_FAST]
    assert last == {"type": "websocket.disconnect", "code": 1008, "reason": TOO_FAST}
    assert read <= limits.messages_burst + limits.messages_per_s * took + 1
    assert read >= limits.messages_burst


def test_a_page_with_its_handlers_all_running_is_not_read_until_one_ends() -> None:
    limits = FloodLimits(events_in_flight=2, close_after_s=30.0)

    async def close(_reason: str) -> None:
        raise AssertionError("closed")

    async def run() -> list[str]:
        pace = Shares(limits).join("203.0.113.8")
        pace.in_flight = 2
        said: list[str] = []

        async def read() -> None:
            await paced_receive(frames_forever, pace, close)
            said.append("read")

        reading = asyncio.create_task(read())
        for _ in range(5):
            await asyncio.sleep(0)
        said.append("handler ended")
        pace.in_flight -= 1
        pace.progressed()
        await asyncio.wait_for(reading, 5)
        return said

    assert run_async(run()) == ["handler ended", "read"]


def test_a_page_that_does_not_read_what_it_asked_for_is_not_read(clock: Clock) -> None:
    pace = Shares(clock=clock).join("203.0.113.9")
    assert not pace.busy()
    pace.unsent = lambda: LIMITS.unsent_messages
    assert pace.busy()


def test_a_handler_is_charged_the_time_it_runs_not_the_time_it_waits(
        monkeypatch: pytest.MonkeyPatch, clock: Clock) -> None:
    running = Clock()  # the handler's own time; the budgets' clock stands still
    monkeypatch.setattr(floods.time, "perf_counter", running)
    pace = Shares(clock=clock).join("203.0.113.10")

    async def handler() -> str:
        running.now += 0.02  # works
        await asyncio.sleep(0)  # waits (the phone's answer): no time of the loop's
        running.now += 0.03  # works again
        return "done"

    async def run() -> str:
        outcome = await floods._Metered(handler(), pace)
        return str(outcome)

    full = pace.work._level
    assert run_async(run()) == "done"
    assert pace.work._level == pytest.approx(full - 0.05)
