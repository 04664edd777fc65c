"""A community's rights in PostgreSQL, as two processes see them: each `TableRights`
here has its own `Database` pool, as two `tarabish --database` processes would."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from scorer.rights import TableCodes, TableRights, TooManyTries, WrongCode
from scorer.rights.codes import MAX_HOSTS, device_key
from scorer.rights.pg_admin import ADMIN_CODE_DIGITS, AdminCode, code_matches, hash_code
from scorer.rights.pg_limiter import PgBackoff, PgRateWindow
from scorer.rights.phones import MAX_PHONES
from scorer.rights.service import GAME_FREE_TRIES
from scorer.store.database import Database

GAME = "0123abcd"
OTHER = "89abcdef"
ALICE = "alice-device-token-0123456789"
BOB = "bob-device-token-0123456789ab"


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[TableRights, TableRights]]:
    """Two processes' rights on one community database."""
    dbs = [Database(pg_url, max_size=2), Database(pg_url, max_size=2)]
    yield TableRights.on_database(dbs[0]), TableRights.on_database(dbs[1])
    for db in dbs:
        db.close()


def _wrong(code: str | None, digits: int = 6) -> str:
    return "0" * digits if code != "0" * digits else "1" * digits


def test_a_code_entered_through_one_process_holds_on_the_other(
        two: tuple[TableRights, TableRights]) -> None:
    a, b = two
    code = a.start(GAME, ALICE)
    assert b.code(GAME) == code and b.may_edit(GAME, ALICE) and not b.may_edit(GAME, BOB)
    b.enter_code(GAME, BOB, "10.0.0.2", code)
    assert a.may_edit(GAME, BOB) and a.codes.holders(GAME) == 2
    # Play again: the next game is held by the phones that held this one, on both.
    next_code = b.start_next(OTHER, BOB, follows=GAME)
    assert a.code(OTHER) == next_code and a.may_edit(OTHER, ALICE) and a.may_edit(OTHER, BOB)
    # A phone known by a session's token, whose stored token came late, keeps its rights.
    assert a.move_device(BOB, "bob-stored-token-000000001") == 2
    assert b.may_edit(GAME, "bob-stored-token-000000001") and not b.may_edit(GAME, BOB)
    b.enter_code(GAME, BOB, "10.0.0.2", code)
    a.forget(GAME)
    assert b.code(GAME) is None and not b.may_edit(GAME, BOB)


def test_wrong_codes_through_two_processes_add_up_to_one_brake(
        two: tuple[TableRights, TableRights]) -> None:
    a, b = two
    code = a.start(GAME, ALICE)
    wrong = _wrong(code)
    with pytest.raises(WrongCode, match=r"\(2 more tries"):
        a.enter_code(GAME, BOB, "10.0.0.5", wrong)
    with pytest.raises(WrongCode, match=r"\(1 more try"):
        b.enter_code(GAME, BOB, "10.0.0.5", wrong)
    with pytest.raises(TooManyTries, match=r"try again in 30 s"):
        a.enter_code(GAME, BOB, "10.0.0.5", wrong)
    with pytest.raises(TooManyTries):  # the other process makes it wait too, right code or not
        b.enter_code(GAME, BOB, "10.0.0.5", code)
    assert not a.may_edit(GAME, BOB)
    # The game's own budget counts every address on every process: 10 in all.
    for n in range(GAME_FREE_TRIES - 3 - 1):
        with pytest.raises(WrongCode):
            (a if n % 2 else b).enter_code(GAME, f"t-{n}", f"10.0.1.{n}", wrong)
    with pytest.raises(TooManyTries):
        a.enter_code(GAME, "t-x", "10.0.2.1", wrong)
    with pytest.raises(TooManyTries):
        b.enter_code(GAME, "t-y", "10.0.2.2", code)


def test_wrong_codes_at_once_are_each_counted(pg_url: str) -> None:
    """Eight threads on two pools, 5 wrong codes each: the count is 40, not less."""
    dbs = [Database(pg_url, max_size=4), Database(pg_url, max_size=4)]
    brakes = [PgBackoff(db, "test", free=1000, forget_after=3600.0) for db in dbs]

    def guess(brake: PgBackoff) -> None:
        for _ in range(5):
            brake.failed("game")

    threads = [threading.Thread(target=guess, args=(brakes[n % 2],)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert brakes[0].tries_left("game") == 1000 - 40
    for db in dbs:
        db.close()


def test_the_admin_code_opens_every_game_from_either_process(
        two: tuple[TableRights, TableRights], pg_url: str) -> None:
    a, b = two
    assert a.community  # the Host screen says the code is the operator's admin code
    a.start(GAME, ALICE)
    with pytest.raises(WrongCode, match="not the host code"):  # none set yet: nothing opens
        a.enter_host_code(BOB, "10.0.0.9", "0" * ADMIN_CODE_DIGITS)
    code = AdminCode(b.codes.db).replace()  # type: ignore[union-attr]
    assert len(code) == ADMIN_CODE_DIGITS and code.isdigit()
    a.enter_host_code(BOB, "10.0.0.9", code[:5] + " " + code[5:])
    assert b.is_host(BOB) and b.may_edit(GAME, BOB) and b.may_edit(OTHER, BOB)
    b.enter_host_code("carol-device-token-0123456", "10.0.0.10", code)
    assert a.is_host("carol-device-token-0123456")
    # Only a slow salted hash is kept: neither the code nor a token is in the database.
    with psycopg.connect(pg_url) as conn:
        (stored,) = conn.execute("SELECT hash FROM admin_code").fetchone()  # type: ignore[misc]
        hosts = [r[0] for r in conn.execute("SELECT device FROM hosts")]
    assert code not in stored and stored.startswith("scrypt$16384$8$1$")
    assert sorted(hosts) == sorted([device_key(BOB), device_key("carol-device-token-0123456")])
    assert code_matches(code, stored) and not code_matches(_wrong(code, 10), stored)


def test_a_new_admin_code_replaces_the_old(two: tuple[TableRights, TableRights]) -> None:
    a, b = two
    admin = AdminCode(a.codes.db)  # type: ignore[union-attr]
    old = admin.replace()
    new = admin.replace()
    assert old != new  # the same twice: 1 chance in 10^10
    with pytest.raises(WrongCode):
        b.enter_host_code(ALICE, "10.0.0.1", old)
    b.enter_host_code(ALICE, "10.0.0.1", new)
    assert a.is_host(ALICE)


def test_wrong_admin_codes_are_braked_across_processes(
        two: tuple[TableRights, TableRights]) -> None:
    a, b = two
    code = AdminCode(a.codes.db).replace()  # type: ignore[union-attr]
    wrong = _wrong(code, 10)
    for rights in (a, b):
        with pytest.raises(WrongCode):
            rights.enter_host_code(BOB, "10.0.0.9", wrong)
    with pytest.raises(TooManyTries):
        a.enter_host_code(BOB, "10.0.0.9", wrong)
    with pytest.raises(TooManyTries):
        b.enter_host_code(BOB, "10.0.0.9", code)
    assert not a.is_host(BOB)


def test_the_hash_is_salted() -> None:
    assert hash_code("1234567890") != hash_code("1234567890")


def test_hosts_and_phones_stay_bounded(two: tuple[TableRights, TableRights]) -> None:
    a, b = two
    for n in range(MAX_HOSTS + 5):
        (a if n % 2 else b).codes.add_host(f"phone-token-{n:04d}-0123456789")
    with a.codes.db.connection() as conn:  # type: ignore[union-attr]
        assert conn.execute("SELECT count(*) FROM hosts").fetchone() == (MAX_HOSTS,)
    assert a.is_host(f"phone-token-{MAX_HOSTS + 4:04d}-0123456789")
    assert not a.is_host("phone-token-0000-0123456789")
    for n in range(MAX_PHONES + 3):
        a.phones.label(f"p-{n}")
    with a.codes.db.connection() as conn:  # type: ignore[union-attr]
        assert conn.execute("SELECT count(*) FROM phones").fetchone() == (MAX_PHONES,)


def test_phone_numbers_are_never_given_twice_across_processes(
        two: tuple[TableRights, TableRights]) -> None:
    a, b = two
    assert a.phone_label(ALICE) == "phone 1"
    assert b.phone_label(BOB) == "phone 2"
    assert b.phone_label(ALICE) == "phone 1"  # known: no new number
    assert a.name_phone(BOB, "  Mary \u202e ") == "Mary"
    assert b.phone_label(BOB) == "Mary" and b.phone_name(BOB) == "Mary"
    assert b.name_phone(BOB, "") == "phone 2" and a.phone_name(BOB) is None


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_quiet_brakes_are_forgotten_and_pruned(pg_url: str) -> None:
    db = Database(pg_url, max_size=1)
    clock = Clock()
    brake = PgBackoff(db, "test", free=3, clock=clock, forget_after=3600.0, max_keys=50)
    brake.failed("old")
    brake.failed("old")
    clock.now += 3601
    assert brake.tries_left("old") == 3  # forgotten, as Backoff forgets
    brake.failed("new")
    with db.connection() as conn:
        assert [r[0] for r in conn.execute("SELECT key FROM brakes")] == ["new"]
    long_key = "0123abcd|addr|" + "f" * 1000  # whatever an address looks like, it is kept
    brake.failed(long_key)
    assert brake.tries_left(long_key) == 2
    for n in range(120):
        brake.failed(f"k{n}")
        clock.now += 1
    with db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM brakes").fetchone() == (50,)
    db.close()


def test_games_per_address_count_across_processes(pg_url: str) -> None:
    dbs = [Database(pg_url, max_size=1), Database(pg_url, max_size=1)]
    clock = Clock()
    windows = [PgRateWindow(db, "new-games", 3, 3600.0, clock=clock) for db in dbs]
    for n in range(3):
        assert windows[n % 2].wait_left("10.0.0.1") == 0
        windows[n % 2].record("10.0.0.1")
        clock.now += 10
    assert windows[1].wait_left("10.0.0.1") == 3600 - 30
    assert windows[0].wait_left("10.0.0.2") == 0
    clock.now += 3600
    assert windows[0].wait_left("10.0.0.1") == 0
    windows[0].record("10.0.0.3")  # prunes the quiet address
    with dbs[0].connection() as conn:
        assert [r[0] for r in conn.execute("SELECT key FROM rate_windows")] == ["10.0.0.3"]
    for db in dbs:
        db.close()


def test_the_host_screen_says_where_the_code_comes_from(
        two: tuple[TableRights, TableRights], tmp_path: Path) -> None:
    from types import SimpleNamespace

    from scorer.app.views.table_code import COMMUNITY_HOST_INTRO, HOST_INTRO, host_intro

    def ctx(rights: TableRights) -> Any:
        return SimpleNamespace(actions=SimpleNamespace(rights=rights))

    assert host_intro(ctx(two[0])) == COMMUNITY_HOST_INTRO
    assert host_intro(ctx(TableRights(TableCodes(tmp_path)))) == HOST_INTRO
