"""Sync on the wire (issue 40, phase 2): the websocket at SYNC_PATH of a real table
server, on both stores (a folder; a community's PostgreSQL, two processes on one
database), spoken to by small phones of JSON frames (tests/sync/wire.py)."""

from __future__ import annotations

import json
import signal
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scorer.sync.messages import (
    Applied,
    Claim,
    Error,
    GameState,
    Gone,
    Hello,
    Ping,
    Pong,
    Problem,
    Reason,
    Refused,
    Update,
    Watch,
    Welcome,
)
from scorer.web.sync_socket import Close
from tests.sync.wire import Served, WirePhone, add, create, doc, hand, serve

pytestmark = pytest.mark.slow  # a table server in a subprocess

ANN = "ann-device-token-0001"
BOB = "bob-device-token-0002"
CID = "cid-device-token-0003"

Start = Callable[..., Served]


@pytest.fixture(scope="module", params=["folder", "postgresql"])
def shared(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           page_file_cache: Path) -> Iterator[Served]:
    """One table server per store for the tests that share one (each test speaks from
    its own addresses, so the brakes per address of one do not reach another)."""
    database = None
    if request.param == "postgresql":
        cluster = request.getfixturevalue("pg_cluster")
        database = cluster.new_database(template=request.getfixturevalue("pg_schema_template"))
    served = serve(tmp_path_factory.mktemp("sync-socket"), page_file_cache, database)
    yield served
    served.stop()
    assert "Traceback" not in served.log(), served.log()


@pytest.fixture(params=["folder", "postgresql"])
def start(request: pytest.FixtureRequest, tmp_path: Path,
          page_file_cache: Path) -> Iterator[Start]:
    """start() -> a table server of its own on this test's store."""
    database = request.getfixturevalue("pg_url") if request.param == "postgresql" else None
    started: list[Served] = []

    def start_one() -> Served:
        served = serve(tmp_path / f"data{len(started)}", page_file_cache, database)
        started.append(served)
        return served

    yield start_one
    for served in started:
        served.stop()
    for served in started:
        assert "Traceback" not in served.log(), served.log()


def started_game(phone: WirePhone, hands: int = 0) -> tuple[str, int]:
    """A game started through `phone` (it holds it): its id and revision."""
    change = create(doc([hand() for _ in range(hands)]))
    [applied] = phone.push(change)
    assert isinstance(applied, Applied), applied
    state = phone.expect(GameState)
    return applied.game, state.game.revision


def test_hello_watch_push_and_every_watcher_told(shared: Served) -> None:
    server = shared
    ann = WirePhone(server.port, ANN, source="127.0.2.1")
    bob = WirePhone(server.port, BOB, source="127.0.2.2")
    welcome = ann.hello()
    assert isinstance(welcome, Welcome) and welcome.limits.max_message_bytes == 512 * 1024
    game, revision = started_game(ann)
    assert isinstance(bob.hello([(game, revision)]), Welcome)  # bob has it: nothing more
    ann.send(Ping(n=7))
    assert ann.expect(Pong).n == 7

    [applied] = ann.push(add(game, revision))
    assert isinstance(applied, Applied) and applied.revision == revision + 1
    for phone in (ann, bob):
        state = phone.expect(GameState, timeout=1.0)
        assert state.game.revision == revision + 1 and len(state.game.doc["hands"]) == 1
        assert state.game.history[-1]["phone_at"]  # the phone's time, in the trail
    assert ann.seen[-1].holds and ann.seen[-1].code and not bob.seen[-1].holds
    assert bob.seen[-1].code is None  # a watcher never learns the table code
    ann.close(), bob.close()


def test_a_change_through_one_process_reaches_a_phone_on_the_other(
        tmp_path: Path, page_file_cache: Path, pg_url: str) -> None:
    """A community: Ann's phone on process A, Bob's on B; B hears A's save through
    the database's notices, within 1 s."""
    a = serve(tmp_path / "a", page_file_cache, pg_url)
    b = serve(tmp_path / "b", page_file_cache, pg_url)
    try:
        ann, bob = WirePhone(a.port, ANN), WirePhone(b.port, BOB, source="127.0.0.2")
        ann.hello()
        game, revision = started_game(ann)
        bob.hello([(game, revision)])
        for n in range(3):
            saved = time.monotonic()
            [applied] = ann.push(add(game, revision + n))
            assert isinstance(applied, Applied)
            state = bob.expect(GameState, timeout=1.0)
            assert time.monotonic() - saved < 1.0
            assert state.game.revision == revision + n + 1
            assert len(state.game.doc["hands"]) == n + 1
        ann.close(), bob.close()
    finally:
        a.stop(), b.stop()
    assert "Traceback" not in a.log() + b.log()


# -- a stranger's frames, on both stores -------------------------------------------------


def test_oversized_and_malformed_frames_are_told_and_the_connection_lives(shared: Served) -> None:
    server = shared
    ann = WirePhone(server.port, ANN, source="127.0.3.1")
    ann.hello()
    game, revision = started_game(ann)
    big = add(game, revision, {**hand(), "note": "x" * (600 * 1024)})
    ann.send(big.model_dump_json().join(['{"type":"push","changes":[', "]}"]))
    error = ann.expect(Error)
    assert error.problem == Problem.TOO_BIG and not error.fatal and "stored" in error.words
    for frame in ("not json", '{"type":"push"}', '{"type":"launch"}', b"\xff\xfe",
                  '{"type":"push","changes":[{"id":"x"}]}', "[" * 10_000):
        ann.send(frame)
        assert ann.expect(Error).problem == Problem.MALFORMED
    ann.send(Ping(n=1))
    assert ann.expect(Pong).n == 1  # still connected
    bob = WirePhone(server.port, BOB, source="127.0.3.2")
    bob.hello()
    bob.send(Watch(game=game))
    assert bob.expect(GameState).game.revision == revision  # nothing was stored
    ann.close(), bob.close()


def test_too_many_unreadable_frames_end_the_connection_with_a_reason(shared: Served) -> None:
    server = shared
    ann = WirePhone(server.port, ANN, source="127.0.4.1")
    ann.hello()
    for _ in range(21):
        ann.send("not json")
    errors = [ann.expect(Error) for _ in range(21)]
    assert errors[-1].fatal and not errors[0].fatal
    code, reason = ann.closed()
    assert code == Close.FATAL and reason


def test_nothing_but_a_ping_before_hello(shared: Served) -> None:
    server = shared
    phone = WirePhone(server.port, ANN, source="127.0.5.1")
    phone.send(Ping(n=2))
    assert phone.expect(Pong).n == 2
    phone.send(add("deadbeef", 1).model_dump_json().join(['{"type":"push","changes":[',
                                                           "]}"]))
    error = phone.expect(Error)
    assert error.problem == Problem.HELLO_FIRST and error.fatal
    assert phone.closed()[0] == Close.FATAL


def test_refused_changes_store_nothing_and_the_connection_lives(shared: Served) -> None:
    """An unknown game, a stale revision, a change id another phone sent, a game the
    phone does not hold: each refused with its reason, nothing stored."""
    server = shared
    ann = WirePhone(server.port, ANN, source="127.0.6.1")
    bob = WirePhone(server.port, BOB, source="127.0.6.2")
    ann.hello(), bob.hello()
    game, revision = started_game(ann)
    [unknown] = ann.push(add("deadbeef", 1))
    assert isinstance(unknown, Refused) and unknown.reason == Reason.UNKNOWN_GAME

    [stale] = ann.push(add(game, revision + 5))
    assert isinstance(stale, Refused) and stale.reason == Reason.STALE
    assert stale.state is not None and stale.state.game.revision == revision

    [not_held] = bob.push(add(game, revision))
    assert isinstance(not_held, Refused) and not_held.reason == Reason.NOT_ALLOWED
    assert not_held.state is not None and not_held.state.code is None

    mine = add(game, revision)
    [applied] = ann.push(mine)
    assert isinstance(applied, Applied)
    code = ann.expect(GameState).code
    assert code
    bob.send(Claim(game=game, code=code))
    assert bob.expect(GameState).holds
    [replayed] = bob.push(add(game, revision + 1, change_id=mine.id))
    assert isinstance(replayed, Refused)
    assert replayed.reason == Reason.DUPLICATE_FROM_ANOTHER_PHONE
    [again] = ann.push(mine)  # the same phone's retry: answered, not applied again
    assert isinstance(again, Applied) and again.revision == applied.revision

    cid = WirePhone(server.port, CID, source="127.0.6.3")
    cid.hello([(game, 1)])
    state = cid.expect(GameState)
    assert state.game.revision == revision + 1 and len(state.game.doc["hands"]) == 1
    for phone in (ann, bob, cid):
        phone.send(Ping(n=3))
        assert phone.expect(Pong).n == 3
        phone.close()


def test_a_flood_of_changes_meets_the_brake(shared: Served) -> None:
    """240 changes at once, then 2 a second: the rest are refused with a wait, and the
    connection lives."""
    server = shared
    ann = WirePhone(server.port, ANN, source="127.0.7.1")
    ann.hello()
    answers = []
    for n in range(8):  # 256 changes, each of another (unknown) game
        answers += ann.push(*(add(f"{n:02x}{m:06x}", 1) for m in range(32)))
    reasons = [a.reason for a in answers]
    # The brake refills at 2 a second meanwhile: a few more than 240 may pass.
    assert 240 <= reasons.count(Reason.UNKNOWN_GAME) < 256 and Reason.TOO_MANY in reasons
    braked = [a for a in answers if a.reason == Reason.TOO_MANY]
    assert all(a.retry_after and a.retry_after > 0 for a in braked)
    ann.send(Ping(n=4))
    assert ann.expect(Pong).n == 4


def test_sync_sockets_per_address_are_bounded(shared: Served) -> None:
    server = shared
    phones = [WirePhone(server.port, f"phone-{n:02d}-token-000000", source="127.0.8.9")
              for n in range(32)]
    extra = WirePhone(server.port, "phone-extra-token-00000", source="127.0.8.9")
    code, reason = extra.closed()
    assert code == Close.TRY_LATER and reason and "Too many" in reason
    other = WirePhone(server.port, ANN, source="127.0.8.10")  # another address: welcome
    assert isinstance(other.hello(), Welcome)
    phones[0].close()
    deadline = time.monotonic() + 5
    while True:  # its place is free once the server saw it go
        again = WirePhone(server.port, "phone-again-token-00000", source="127.0.8.9")
        try:
            assert isinstance(again.hello(), Welcome)
            break
        except Exception:
            if time.monotonic() > deadline:
                raise
    for phone in phones[1:]:
        phone.close()


def test_the_new_game_brake_holds_across_connections_of_an_address(shared: Served) -> None:
    server = shared
    answers = []
    for n in range(3):
        phone = WirePhone(server.port, f"starter-{n}-token-00000000", source="127.0.9.1")
        phone.hello()
        for _ in range(8):
            answers += phone.push(create())
        phone.close()
    made = [a for a in answers if isinstance(a, Applied)]
    braked = [a for a in answers if isinstance(a, Refused)]
    assert len(made) == 20 and all(a.reason == Reason.TOO_MANY for a in braked)


def test_a_phone_that_does_not_read_is_let_go(shared: Served) -> None:
    """A phone asks for a long game again and again and reads nothing: what waits for
    it is bounded (the kernel's buffer, then the socket's queue), then it is let go;
    the other phones go on."""
    server = shared
    ann = WirePhone(server.port, ANN, source="127.0.10.1")
    ann.hello()
    [applied] = ann.push(create({**doc([hand(1, 10 + n % 60) for n in range(800)]),
                                 "rules": {"target": 1_000_000}}))
    assert isinstance(applied, Applied), applied
    game = applied.game
    sleeper = WirePhone(server.port, BOB, source="127.0.10.2", receive_buffer=4096,
                        compression=False, keepalive=False)
    sleeper.hello()
    for _ in range(250):  # 250 x the game's ~46 KB: far more than the bounds hold
        sleeper.send(Watch(game=game))
    deadline = time.monotonic() + 60
    while "did not read" not in server.log():
        assert time.monotonic() < deadline, "the sleeping phone was never let go"
        time.sleep(0.05)
    code, _reason = sleeper.closed(timeout=20)
    assert code in (None, Close.NOT_READING)  # cut: it never read the close frame
    ann.send(Ping(n=5))
    assert ann.expect(Pong).n == 5  # the others go on

def test_an_app_older_than_the_server_is_told_to_update_and_closed(shared: Served) -> None:
    """Another rules engine (an app built before the server's): `Update`, then the
    connection ends with its own code, which the phone reads as 'take the new app'."""
    old = WirePhone(shared.port, ANN, source="127.0.12.2")
    old.send(Hello(protocol=1, rules="0123456789abcdef", device=ANN))
    update = old.recv()
    assert isinstance(update, Update) and update.words
    code, reason = old.closed(timeout=10)
    assert code == Close.UPDATE and reason


def test_a_phone_that_never_says_hello_is_closed(shared: Served) -> None:
    silent = WirePhone(shared.port, ANN, source="127.0.12.1")
    code, reason = silent.closed(timeout=15)
    assert code == Close.NO_HELLO and reason


def test_sigterm_with_open_sync_sockets_stops_within_10_s(start: Start) -> None:
    server = start()
    phones = [WirePhone(server.port, f"phone-{n}-token-000000000", source=f"127.0.1.{n}")
              for n in range(1, 6)]
    for phone in phones:
        phone.hello()
    game, revision = started_game(phones[0])
    for phone in phones[1:]:
        phone.send(Watch(game=game))
        assert phone.expect(GameState).game.revision == revision
    stopped = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(10)
    assert time.monotonic() - stopped < 10
    for phone in phones:
        code, reason = phone.closed()
        assert code == Close.RESTART and reason and "restarting" in reason


def test_a_gone_game_is_said(shared: Served) -> None:
    server = shared
    ann = WirePhone(server.port, ANN, source="127.0.11.1")
    ann.hello([("0badc0de", 3)])
    assert ann.expect(Gone).game == "0badc0de"


def test_a_club_nights_board_hears_a_hand_saved_through_the_sync(
        tmp_path: Path, page_file_cache: Path) -> None:
    """A club night's table played on a phone that keeps the game: its save through the
    sync socket reaches the hall's board (which waits for news of the night) at once."""
    from scorer.events.board import board_json
    from scorer.events.service import EventService
    from scorer.rights import TableCodes, TableRights
    from scorer.store import GameStore
    from tests.e2e.club_seats import seed_night

    data = tmp_path / "data"
    event_id = seed_night(data, 2, "started")
    with GameStore(data) as store:
        game = board_json(EventService(store).view(event_id))["tables"][0]["game"]
    TableRights(TableCodes(data)).start(game, ANN)  # the phone that holds table 1
    server = serve(data, page_file_cache)
    try:
        board = f"http://127.0.0.1:{server.port}/board/{event_id}/state"
        with urllib.request.urlopen(board, timeout=10) as answer:
            tag = answer.headers["X-Board-Version"]
            assert json.loads(answer.read())["tables"][0]["hands"] == 0
        ann = WirePhone(server.port, ANN)
        ann.hello()
        ann.send(Watch(game=game))
        state = ann.expect(GameState)
        assert state.holds
        [applied] = ann.push(add(game, state.game.revision))
        assert isinstance(applied, Applied), applied
        saved = time.monotonic()
        # The board's next question waits for news of the night (up to its 25 s).
        with urllib.request.urlopen(f"{board}?after={tag}", timeout=30) as answer:
            assert answer.status == 200, "the board was not told of the sync's save"
            table = json.loads(answer.read())["tables"][0]
        assert table["hands"] == 1 and table["points"] != [0, 0], table
        print(f"board told {time.monotonic() - saved:.2f} s after the save")
        ann.close()
    finally:
        server.stop()
    assert "Traceback" not in server.log()
