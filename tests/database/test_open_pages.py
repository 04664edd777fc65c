"""Open pages per address, counted across a community's processes (scorer.web.open_pages):
two `PgOpenPages` on two pools of one database stand for two processes. A killed
process's count expires; one that stops takes its count away at once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from scorer.store.database import Database
from scorer.web.open_pages import EXPIRE_S, PgOpenPages

CAP = 12
HALL = "198.51.100.1"


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


class Process:
    """One process's pages, as its SessionGuard counts them."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.counts = PgOpenPages(db, CAP, clock=clock)
        self.open: dict[str, int] = {}

    def open_page(self, address: str = HALL) -> bool:
        self.open[address] = self.open.get(address, 0) + 1
        if self.counts.admit(address, lambda: self.open[address]):
            return True
        self.open[address] -= 1
        return False

    def close_page(self, address: str = HALL) -> None:
        self.open[address] -= 1
        self.counts.release(address, lambda: self.open[address])


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[Process, Process, Clock]]:
    clock = Clock()
    one, other = Database(pg_url), Database(pg_url)
    try:
        yield Process(one, clock), Process(other, clock), clock
    finally:
        one.close()
        other.close()


def test_an_address_keeps_its_cap_of_pages_across_processes(
        two: tuple[Process, Process, Clock]) -> None:
    a, b, _clock = two
    for n in range(CAP):
        assert (a if n % 3 else b).open_page(), f"page {n + 1} was refused"
    assert not a.open_page() and not b.open_page()
    assert b.open_page("203.0.113.5"), "another address is still welcome"
    a.close_page()
    assert b.open_page()
    assert not a.open_page()


def test_a_killed_processs_pages_expire(two: tuple[Process, Process, Clock]) -> None:
    a, b, clock = two
    for _ in range(CAP):
        assert a.open_page()
    assert not b.open_page()
    clock.now += EXPIRE_S / 2
    b.counts.refresh(b.open)  # a live process refreshes; `a` was killed and does not
    assert not b.open_page()
    clock.now += EXPIRE_S
    for n in range(CAP - 1):
        assert b.open_page(), f"page {n + 1} was refused after the dead process's expired"
    b.counts.refresh(b.open)  # and the dead process's rows are deleted
    with b.counts.db.connection() as conn:
        row = conn.execute("SELECT count(*) FROM open_pages WHERE process = %s",
                           (a.counts.process,)).fetchone()
    assert row is not None and row[0] == 0


def test_a_live_process_keeps_its_pages_counted(two: tuple[Process, Process, Clock]) -> None:
    a, b, clock = two
    for _ in range(CAP):
        assert a.open_page()
    for _ in range(4):  # a minute, each process refreshing as it does
        clock.now += EXPIRE_S / 2
        a.counts.refresh(a.open)
        b.counts.refresh(b.open)
    assert not b.open_page()


def test_a_process_that_stops_takes_its_pages_away(two: tuple[Process, Process, Clock]) -> None:
    a, b, _clock = two
    for _ in range(CAP):
        assert a.open_page()
    a.counts.stop()
    for _ in range(CAP):
        assert b.open_page()


def test_pages_are_let_in_on_the_process_count_while_the_database_is_away(
        two: tuple[Process, Process, Clock]) -> None:
    a, _b, _clock = two
    a.counts.db.close()  # the pool is gone: every statement fails
    assert a.open_page()
