"""The hosted topology as plain processes (issue 32 §5): PostgreSQL, two `tarabish
--database` processes and Caddy in front with the shipped deploy/Caddyfile (HTTPS by
its internal CA here), as compose.yaml runs them (tests/deploy checks the commands
agree). A phone plays through the proxy; each process in turn is killed (kill -9):
the phone comes back on the other by itself, its rights and every hand kept, none
twice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from test_community import (
    BACK_WITHIN_S,
    join_table,
    kill_now,
    live_again,
    save_and_time,
    seeded_game,
)
from test_sharing import hand_rows

from tests.caddy_proxy import caddy_in_front

PLAYERS = ["Ada", "Ben", "Cy", "Di"]


def app_process(start_server: Callable[..., Any], pg_url: str, port: int | None = None) -> Any:
    """One community process, trusting the proxy on this machine."""
    return start_server(port=port, env={"TARABISH_DATABASE": pg_url},
                        args=("--trusted-proxy", "127.0.0.1"))


def back_and_playing(page: Page, killed_ms: float) -> float:
    """Seconds from the kill until the phone is live again (0 for a phone whose
    process lived: its socket never closed)."""
    page.wait_for_timeout(1_000)  # the socket of a killed process closes in ms
    events = page.evaluate("window.tarabishLink || []")
    if not any(e["what"] == "socket closed" and e["at"] > killed_ms for e in events):
        return 0.0
    _closed, live = live_again(page, killed_ms)
    expect(page.get_by_role("button", name="Record hand")).to_be_visible(timeout=15_000)
    return (live - killed_ms) / 1000


@pytest.mark.server_stops
def test_a_phone_plays_through_the_proxy_while_each_process_dies_in_turn(
    tmp_path: Path, new_context: Callable[..., BrowserContext],
    start_server: Callable[..., Any], open_app: Callable[..., float], pg_url: str,
    screenshot: Callable[[Page, str], Path],
) -> None:
    one, two = app_process(start_server, pg_url), app_process(start_server, pg_url)
    with caddy_in_front([f"127.0.0.1:{one.port}", f"127.0.0.1:{two.port}"],
                        tmp_path / "caddy") as proxy:
        # The game is stored through `tarabish import` (a phone starts one through the
        # proxy in test_behind_caddy.py); both phones enter its code through the proxy.
        game, code = seeded_game(pg_url, tmp_path, PLAYERS)
        host = new_context(ignore_https_errors=True).new_page()
        join_table(host, open_app, proxy.url, game, code)
        player = new_context(ignore_https_errors=True).new_page()
        join_table(player, open_app, proxy.url, game, code)
        save_and_time(player, host, 1, "Ada", "95")

        for number, (victim, name) in enumerate(((one, "one"), (two, "two")), start=2):
            killed = kill_now(victim.process)
            took = [back_and_playing(p, killed) for p in (host, player)]
            print(f"\nprocess {name} killed: its phones live again on the other "
                  f"{max(took):.2f} s after the kill")
            assert max(took) <= BACK_WITHIN_S
            save_and_time(player if number % 2 else host, host if number % 2 else player,
                          number, PLAYERS[number % 4], "95")
            if name == "one":  # a new process on its port, as a restart policy would
                app_process(start_server, pg_url, port=one.port)
        for p in (host, player):
            for number in (1, 2, 3):
                expect(hand_rows(p, number)).to_have_count(1)
            expect(hand_rows(p, 4)).to_have_count(0)
        screenshot(player, "hosted-topology-after-two-kills")
