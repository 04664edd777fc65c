"""The phone's link to the server as a state machine (scorer.browser.link): when it
connects, what it sends, when it gives a connection up. Told the time, it answers what
to do; no socket, no browser."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from sync_setup import ANN, game_doc, made, phone

from scorer.browser.link import (
    ANSWER_WAIT_S,
    CONNECT_WAIT_S,
    IDLE_PING_S,
    MAX_DELAY_S,
    PATIENT_DELAY_S,
    PING_WAIT_S,
    Close,
    Connect,
    Link,
    Send,
    Stage,
    retry_delay,
)
from scorer.sync.messages import (
    AddHand,
    GameRecord,
    GameState,
    Limits,
    Update,
    Welcome,
    decode_client,
    encode,
)

WELCOME = encode(Welcome(protocol=1, rules="x", limits=Limits(), time="2025-06-01T20:00:00Z"))


def sent(actions: list[object]) -> list[str]:
    return [decode_client(a.text).type for a in actions if isinstance(a, Send)]


def welcomed_link() -> tuple[Link, float]:
    client = phone(ANN, 1)
    link = Link(client, jitter=lambda: 0.999)
    assert link.start(0.0) == [Connect()]
    assert sent(link.opened(0.1)) == ["hello"]
    assert link.received(WELCOME, 0.2) == []
    assert link.connected and not link.alone
    return link, 0.2


def test_retries_wait_longer_each_time_but_never_more_than_the_cap() -> None:
    delays = [retry_delay(n, 0.999) for n in range(1, 12)]
    assert delays == sorted(delays) and delays[0] < 0.3
    assert max(delays) <= MAX_DELAY_S
    assert all(retry_delay(n, 0.0) >= retry_delay(n, 0.999) / 2 for n in range(1, 12))


def test_a_phone_with_nothing_to_keep_in_step_tries_less_often() -> None:
    assert retry_delay(20, 0.999, PATIENT_DELAY_S) > 10 * MAX_DELAY_S
    link = Link(phone(ANN, 1), jitter=lambda: 0.999)
    link.patient = True
    for n in range(12):
        link.start(0.0) if n == 0 else link.tick(link.next_wake() or 0.0)
        link.closed(100.0 * n)
    wake = link.next_wake()
    assert wake is not None and wake - 1100.0 > MAX_DELAY_S


def test_a_dropped_connection_is_tried_again_and_says_hello_again() -> None:
    link, now = welcomed_link()
    assert link.closed(now + 1) == []
    assert link.stage is Stage.WAITING and link.alone
    wake = link.next_wake()
    assert wake is not None and wake <= now + 1 + MAX_DELAY_S
    assert link.tick(wake - 0.01) == []
    assert link.tick(wake) == [Connect()]
    assert sent(link.opened(wake + 0.1)) == ["hello"]


def test_a_first_connection_under_way_is_not_alone_yet() -> None:
    link = Link(phone(ANN, 1))
    link.start(0.0)
    assert not link.alone
    link.closed(0.5)
    assert link.alone


def test_waiting_changes_go_out_in_one_push_once_welcomed() -> None:
    client = phone(ANN, 1)
    key = client.start(game_doc())
    link = Link(client)
    link.start(0.0)
    assert sent(link.opened(0.1)) == ["hello"]  # nothing else before the answer
    assert sent(link.received(WELCOME, 0.2)) == ["push"]
    assert client.waiting(key) == 1


def test_online_hint_tries_at_once_and_offline_hint_asks_for_a_sign_of_life() -> None:
    link, now = welcomed_link()
    assert sent(link.offline(now + 1)) == ["ping"]
    assert not link.alone  # still connected, until the ping goes unanswered
    assert link.tick(now + 1 + PING_WAIT_S) == [Close("no answer to a ping")]
    assert link.stage is Stage.WAITING and link.alone
    assert link.online(now + 5) == [Connect()]


def test_an_answered_ping_proves_the_offline_hint_wrong() -> None:
    link, now = welcomed_link()
    link.offline(now + 1)
    link.received('{"type":"pong","n":1}', now + 1.2)
    assert link.tick(now + 1 + PING_WAIT_S) == []
    assert link.connected and not link.offline_hint


def test_a_silent_connection_is_given_up() -> None:
    client = phone(ANN, 1)
    client.follow("3f9a0c12")
    link = Link(client, jitter=lambda: 0.5)
    link.start(0.0)
    link.opened(0.1)
    assert sent(link.received(WELCOME, 0.2)) == ["watch"]
    state = GameState(game=GameRecord(id="3f9a0c12", revision=1, created="2025-06-01T20:00:00Z",
                                      updated="2025-06-01T20:00:00Z", doc=game_doc()),
                      holds=True)
    link.received(encode(state), 0.3)
    client.record("3f9a0c12", AddHand(hand=made(10)))
    assert sent(link.poke(1.0)) == ["push"]
    assert link.tick(1.0 + ANSWER_WAIT_S - 0.1) == []
    assert link.tick(1.0 + ANSWER_WAIT_S) == [Close("no answer")]
    assert client.waiting("3f9a0c12") == 1  # kept for the next connection


def test_a_connection_that_never_opens_is_given_up() -> None:
    link = Link(phone(ANN, 1))
    link.start(0.0)
    assert link.tick(CONNECT_WAIT_S) == [Close("did not open")]
    assert link.stage is Stage.WAITING


def test_an_idle_connection_is_pinged() -> None:
    link, now = welcomed_link()
    assert link.tick(now + IDLE_PING_S - 1) == []
    assert sent(link.tick(now + IDLE_PING_S)) == ["ping"]


def test_told_to_update_it_stops_connecting() -> None:
    link, now = welcomed_link()
    update = encode(Update(protocol=2, rules="y", words="Reload"))
    assert link.received(update, now + 1) == [Close("update")]
    assert link.stage is Stage.STOPPED and link.next_wake() is None
    assert link.online(now + 2) == []


def test_an_unreadable_message_is_not_fatal() -> None:
    link, now = welcomed_link()
    assert link.received('{"type":"from_the_future"}', now + 1) == []
    assert link.connected


def test_the_phone_finds_the_servers_fingerprint_from_its_zip(tmp_path: Path) -> None:
    """In the phone's browser the app's sources are inside app.zip: the fingerprint read
    from there is the server's (else every phone would be told to update)."""
    from scorer.sync.kinds import sync_fingerprint

    repo = Path(__file__).resolve().parents[2]
    archive = tmp_path / "app.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for package in ("rules", "scorer"):
            for path in sorted((repo / package).rglob("*.py")):
                zf.write(path, path.relative_to(repo).as_posix())
    code = ("import scorer.sync.kinds as k; assert '.zip' in k.__file__, k.__file__; "
            "print(k.sync_fingerprint())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(archive)}, cwd=tmp_path,
                          check=True)
    assert done.stdout.strip() == sync_fingerprint()
