"""One address keeps at most its cap of pages open on the whole server, on both stores:
a folder's one process, and a community's two processes on one database (issue 38
§2: 24 pages opened from one address through two processes where SECURITY.md
promises 12). Pages go through the processes in turn, as a proxy spreads them."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorer.web.sessions import LIMITS, TOO_MANY_HERE
from tests.hostile.conftest import Server, StartServer
from tests.hostile.flet_client import FletClient, Refused

ADDRESS = "127.0.0.4"


@pytest.fixture(params=["folder", "postgresql"])
def processes(request: pytest.FixtureRequest, start_server: StartServer,
              tmp_path: Path) -> list[Server]:
    """The server's processes: a folder's one, or a community's two on one database."""
    if request.param == "folder":
        return [start_server(tmp_path / "data")]
    env = {"TARABISH_DATABASE": request.getfixturevalue("pg_url")}
    return [start_server(tmp_path / f"cache-{n}", env=env) for n in range(2)]


@pytest.fixture
def pages() -> Iterator[list[FletClient]]:
    opened: list[FletClient] = []
    yield opened
    for page in opened:
        page.close()


def open_on(server: Server, source: str = ADDRESS) -> FletClient:
    return FletClient(server.port, source=source)


def test_one_address_keeps_its_cap_of_pages_across_the_servers_processes(
        processes: list[Server], pages: list[FletClient]) -> None:
    for n in range(LIMITS.open_per_address):
        pages.append(open_on(processes[n % len(processes)]))
    for server in processes:
        with pytest.raises(Refused) as refused:
            pages.append(open_on(server))
        assert TOO_MANY_HERE in str(refused.value)
    with open_on(processes[-1], source="127.0.0.5") as other:  # another phone is welcome
        assert other.session_id

    # A page closed on the first process makes room on the last.
    pages.pop(0).close()
    deadline = time.monotonic() + 10
    while True:
        try:
            pages.append(open_on(processes[-1]))
            break
        except Refused:  # the close is counted a moment later (bounded)
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    with pytest.raises(Refused):
        pages.append(open_on(processes[0]))
