"""Two phones save the same hand at the same moment (issue 23, item 1).

Both hold the game's table code and record hand 1; their Save taps reach the
server within 10 ms of each other (sent back to back on their two sockets).
The game must end up with one hand 1 and never a phantom hand 2: the phone that
lost the race is told the hand is already recorded (same hand) or is shown both
versions to choose from (different hands)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from scorer.rights.codes import TableCodes
from tests.hostile.conftest import StartServer, make_game
from tests.hostile.flet_client import FletClient

PHONES = ("race-phone-a-token-0123456789", "race-phone-b-token-0123456789")


def hands_saved(data: Path, game_id: str) -> list[dict[str, object]]:
    record = json.loads((data / "games" / f"{game_id}.json").read_text())["game"]["1"]
    return list(record["doc"]["hands"])


def ready_to_save(phone: FletClient, caller: str, suit: str, digits: str) -> int:
    """Record hand 1 up to Save; the Save button's id."""
    phone.wait_for("Who called?", timeout=15)
    for label in (caller, suit, *digits):
        phone.click(label)
        phone.pump(0.3)
    phone.wait_for(f"called: {digits} of 162")
    return phone.buttons("Save hand")[0]


SAME_MOMENT_S = 0.010
TRIES = 3
"""Races run until one had its two taps sent within SAME_MOMENT_S (each race's outcome
is checked, whatever the gap): on a loaded machine the thread that sends them can be
put aside between the two for longer (12 ms seen beside another full run)."""


def race(start_server: StartServer, data: Path, b_hand: tuple[str, str, str],
         loser_reads: str) -> float:
    """One race on a game of its own: both phones Save hand 1 back to back; one hand 1 is
    stored and the loser reads `loser_reads`. Returns the gap between the two taps."""
    game_id, _code = make_game(data, holder=PHONES[0])
    TableCodes(data).grant(game_id, PHONES[1])
    server = start_server(data)
    route = f"/game/{game_id}/hand"
    with FletClient(server.port, route=route, device=PHONES[0]) as a, \
            FletClient(server.port, route=route, device=PHONES[1], source="127.0.0.2") as b:
        a.pump(1.0)
        b.pump(1.0)
        save_a = ready_to_save(a, "Bob", "♥", "90")  # Ann deals: Bob speaks first
        save_b = ready_to_save(b, *b_hand)
        mark_a, mark_b = a.mark(), b.mark()
        # Both taps from one thread, back to back: two threads let go by a barrier were
        # 85 ms apart once on a loaded machine (a thread not scheduled in time).
        sent: list[float] = []
        for phone, save in ((a, save_a), (b, save_b)):
            phone.event(save, "click")
            sent.append(time.perf_counter())
        deadline = time.monotonic() + 10
        while loser_reads not in " ".join(a.said(mark_a) + b.said(mark_b)):
            assert time.monotonic() < deadline, (a.said(mark_a), b.said(mark_b))
            a.pump(0.2)
            b.pump(0.2)
    saved = hands_saved(data, game_id)
    assert len(saved) == 1, saved  # one hand 1, no phantom hand 2
    assert "Traceback" not in server.log()
    server.stop()
    return abs(sent[0] - sent[1])


@pytest.mark.parametrize(("b_hand", "loser_reads"), [
    (("Bob", "♥", "90"), "already recorded by another phone"),
    (("Cid", "♠", "100"), "Hand 1: two versions"),
])
def test_two_saves_in_the_same_10_ms_store_one_hand(
    start_server: StartServer, tmp_path: Path, b_hand: tuple[str, str, str], loser_reads: str,
) -> None:
    gaps = []
    for n in range(TRIES):
        gaps.append(race(start_server, tmp_path / f"data{n}", b_hand, loser_reads))
        if gaps[-1] < SAME_MOMENT_S:
            return
    pytest.fail(f"the two Save taps were never sent within {SAME_MOMENT_S * 1000:.0f} ms of "
                f"each other in {TRIES} races (gaps {[round(g * 1000, 1) for g in gaps]} ms)")
