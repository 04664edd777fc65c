"""Table codes and device grants on disk, and the brake on guessing codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorer.rights import CODES_FILE, Backoff, NotAllowed, TableCodes, TableRights
from scorer.rights.codes import MAX_HOSTS, device_key
from scorer.rights.limiter import TooManyTries, WrongCode
from scorer.rights.service import HOST_CODE_DIGITS
from scorer.store.game_store import GameStore
from tests.sharing.conftest import Backend, set_clock

GAME = "0123abcd"
OTHER = "89abcdef"
ALICE = "alice-device-token-0123456789"
BOB = "bob-device-token-0123456789ab"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_starter_holds_a_six_digit_code(backend: Backend) -> None:
    codes = backend.codes()
    code = codes.start(GAME, ALICE)
    assert len(code) == 6 and code.isdigit()
    assert codes.code(GAME) == code
    assert codes.may_edit(GAME, ALICE)
    assert not codes.may_edit(GAME, BOB)
    assert not codes.may_edit(GAME, None)
    assert not codes.may_edit(OTHER, ALICE)
    assert codes.holders(GAME) == 1
    # Starting again (e.g. the same phone) keeps the code.
    assert codes.start(GAME, ALICE) == code


def test_codes_and_grants_survive_a_restart_without_keeping_tokens(tmp_path: Path) -> None:
    codes = TableCodes(tmp_path)
    code = codes.start(GAME, ALICE)
    codes.grant(GAME, BOB)
    again = TableCodes(tmp_path)
    assert again.code(GAME) == code
    assert again.may_edit(GAME, ALICE) and again.may_edit(GAME, BOB)
    text = (tmp_path / CODES_FILE).read_text()
    assert ALICE not in text and BOB not in text
    assert device_key(ALICE) in text
    doc = json.loads(text)
    assert doc["format"] == "tarabish-table-codes/1"
    # Written atomically: no temp file left behind.
    assert sorted(p.name for p in tmp_path.iterdir()) == [CODES_FILE]


def test_four_digit_codes_from_before_are_lengthened_and_holders_keep_rights(
    tmp_path: Path,
) -> None:
    old = {"format": "tarabish-table-codes/1",
           "games": {GAME: {"code": "4821", "devices": {device_key(ALICE): "2026-01-01T20:00:00Z"}}}}
    (tmp_path / CODES_FILE).write_text(json.dumps(old))
    codes = TableCodes(tmp_path)
    code = codes.code(GAME)
    assert code is not None and len(code) == 6 and code.isdigit()
    assert codes.may_edit(GAME, ALICE)
    assert not codes.matches(GAME, "4821")
    assert TableCodes(tmp_path).code(GAME) == code  # written back
    assert not (tmp_path / "damaged").exists()


def test_matches_compares_the_code(backend: Backend) -> None:
    codes = backend.codes()
    code = codes.start(GAME, ALICE)
    assert codes.matches(GAME, code)
    assert codes.matches(GAME, f" {code} ")
    assert not codes.matches(GAME, "12345")
    assert not codes.matches(GAME, "")
    assert not codes.matches(OTHER, code)


def test_a_game_without_a_code_gets_one_that_no_phone_holds(backend: Backend) -> None:
    codes = backend.codes()
    held = codes.start(OTHER, ALICE)
    assert codes.give_codes([GAME, OTHER, "../../etc"]) == [GAME]
    assert codes.code(OTHER) == held  # a game with a code keeps it
    code = codes.code(GAME)
    assert code is not None and len(code) == 6
    assert codes.holders(GAME) == 0 and not codes.may_edit(GAME, ALICE)
    assert backend.codes().code(GAME) == code  # on disk
    codes.grant(GAME, BOB)
    assert codes.may_edit(GAME, BOB)


def test_hosts_are_kept_by_token_hash_and_bounded(tmp_path: Path) -> None:
    codes = TableCodes(tmp_path)
    codes.add_host(ALICE)
    assert codes.is_host(ALICE) and not codes.is_host(BOB) and not codes.is_host(None)
    assert TableCodes(tmp_path).is_host(ALICE)
    assert ALICE not in (tmp_path / CODES_FILE).read_text()
    for n in range(MAX_HOSTS + 5):
        codes.add_host(f"phone-token-{n:04d}-0123456789")
    assert len(json.loads((tmp_path / CODES_FILE).read_text())["hosts"]) == MAX_HOSTS


def test_grant_needs_a_code_and_a_real_game_id(backend: Backend) -> None:
    codes = backend.codes()
    with pytest.raises(NotAllowed):
        codes.grant(GAME, BOB)
    with pytest.raises(NotAllowed):
        codes.start("../../etc", ALICE)
    codes.start(GAME, ALICE)
    codes.forget(GAME)
    assert codes.code(GAME) is None
    assert not backend.codes().may_edit(GAME, ALICE)


@pytest.mark.parametrize("content", [
    "", "{not json", "[]", '{"format": "other"}',
    '{"format": "tarabish-table-codes/1", "games": {"0123abcd": {"code": "12", "devices": {}}}}',
])
def test_a_damaged_file_is_kept_aside_and_codes_start_afresh(tmp_path: Path,
                                                            content: str) -> None:
    (tmp_path / CODES_FILE).write_text(content)
    codes = TableCodes(tmp_path)
    assert codes.code(GAME) is None
    assert not (tmp_path / CODES_FILE).exists()
    assert len(list((tmp_path / "damaged").iterdir())) == 1
    codes.start(GAME, ALICE)
    assert TableCodes(tmp_path).may_edit(GAME, ALICE)


def test_codes_are_not_in_the_game_file_or_export(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game = store.create_game({"format": "tarabish-game/1", "players": ["A", "B", "C", "D"],
                              "first_dealer": 0, "rules": {}, "hands": []})
    code = TableCodes(tmp_path).start(game.id, ALICE)
    stored = store.get_game(game.id)
    assert "code" not in json.dumps(stored.doc)
    assert code not in (tmp_path / "games" / f"{game.id}.json").read_text().replace(
        game.id, "")  # the id itself could contain the digits
    store.close()


# -- the brake on guessing ---------------------------------------------------------------


def test_backoff_three_free_tries_then_doubling_waits() -> None:
    clock = Clock()
    brake = Backoff(free=3, base=30, cap=120, clock=clock)
    assert brake.failed("k") == 0
    assert brake.failed("k") == 0
    assert brake.tries_left("k") == 1
    assert brake.failed("k") == 30
    assert brake.wait_left("k") == 30
    clock.now += 10
    assert brake.wait_left("k") == 20
    clock.now += 20
    assert brake.wait_left("k") == 0
    assert brake.failed("k") == 60
    clock.now += 60
    assert brake.failed("k") == 120
    clock.now += 120
    assert brake.failed("k") == 120  # capped
    brake.succeeded("k")
    assert brake.wait_left("k") == 0 and brake.tries_left("k") == 3


def test_backoff_keys_are_separate_and_the_longest_wait_counts() -> None:
    clock = Clock()
    brake = Backoff(free=1, base=30, clock=clock)
    brake.failed("a")
    assert brake.wait_left("b") == 0
    assert brake.wait_left("a", "b") == 30


def test_backoff_memory_is_bounded() -> None:
    clock = Clock()
    brake = Backoff(free=3, clock=clock, max_keys=100)
    for i in range(1000):
        brake.failed(f"k{i}")
        clock.now += 1
    assert len(brake._records) <= 100


def rights(backend: Backend, clock: Clock) -> TableRights:
    made = backend.rights()
    set_clock(made, clock)
    return made


def test_enter_code_grants_on_the_right_code(backend: Backend) -> None:
    r = rights(backend, Clock())
    code = r.start(GAME, ALICE)
    assert not r.may_edit(GAME, BOB)
    r.enter_code(GAME, BOB, "192.168.1.30", code)
    assert r.may_edit(GAME, BOB)
    assert not r.may_edit(OTHER, BOB)


def test_wrong_codes_are_refused_then_slowed_down(backend: Backend) -> None:
    clock = Clock()
    r = rights(backend, clock)
    code = r.start(GAME, ALICE)
    wrong = "0000" if code != "0000" else "1111"
    with pytest.raises(WrongCode, match=r"not this game's table code \(2 more tries"):
        r.enter_code(GAME, BOB, "10.0.0.5", wrong)
    with pytest.raises(WrongCode, match=r"\(1 more try before"):
        r.enter_code(GAME, BOB, "10.0.0.5", wrong)
    with pytest.raises(TooManyTries, match=r"^Too many wrong codes: try again in 30 s\.$"):
        r.enter_code(GAME, BOB, "10.0.0.5", wrong)
    # Locked: even the right code waits, and nothing is granted.
    with pytest.raises(TooManyTries, match="try again in 30 s"):
        r.enter_code(GAME, BOB, "10.0.0.5", code)
    assert not r.may_edit(GAME, BOB)
    # A fresh device token from the same address is still slowed down...
    with pytest.raises(TooManyTries):
        r.enter_code(GAME, "a-brand-new-device-token", "10.0.0.5", code)
    # ...but another game, or another phone, is not.
    other_code = r.start(OTHER, ALICE)
    r.enter_code(OTHER, BOB, "10.0.0.5", other_code)
    r.enter_code(GAME, "carol-device-token-01234", "10.0.0.6", code)
    clock.now += 31
    r.enter_code(GAME, BOB, "10.0.0.5", code)
    assert r.may_edit(GAME, BOB)
    # Rights are kept once earned; this address's count starts afresh (the game's
    # own count does not: it is the guessers' budget).
    assert r.backoff.tries_left(f"{GAME}|addr|10.0.0.5") == 3
    assert r.game_backoff.tries_left(GAME) < 10


def test_the_next_wrong_code_after_a_wait_waits_longer(backend: Backend) -> None:
    clock = Clock()
    r = rights(backend, clock)
    code = r.start(GAME, ALICE)
    wrong = "0000" if code != "0000" else "1111"
    for _ in range(2):
        with pytest.raises(WrongCode):
            r.enter_code(GAME, BOB, "ip", wrong)
    with pytest.raises(TooManyTries, match="30 s"):
        r.enter_code(GAME, BOB, "ip", wrong)
    clock.now += 30
    with pytest.raises(TooManyTries, match="60 s"):
        r.enter_code(GAME, BOB, "ip", wrong)


def test_the_host_code_is_long_braked_like_a_table_code_and_holds_every_game(
        tmp_path: Path) -> None:
    clock = Clock()
    rights = TableRights(TableCodes(tmp_path))
    rights.host_backoff.clock = rights.host_game_backoff.clock = clock
    rights.start(GAME, ALICE)
    code = rights.new_host_code()
    assert len(code) == HOST_CODE_DIGITS == 10 and code.isdigit()
    wrong = "0" * 10 if code != "0" * 10 else "1" * 10
    for _ in range(2):
        with pytest.raises(WrongCode, match="not the host code"):
            rights.enter_host_code(BOB, "10.0.0.9", wrong)
    with pytest.raises(TooManyTries):  # the third wrong one from one address
        rights.enter_host_code(BOB, "10.0.0.9", wrong)
    with pytest.raises(TooManyTries):  # even the right code waits now
        rights.enter_host_code(BOB, "10.0.0.9", code)
    assert not rights.may_edit(GAME, BOB)
    # Other addresses together get ten tries, then everyone waits.
    for n in range(7):
        with pytest.raises(WrongCode):
            rights.enter_host_code(BOB, f"10.0.1.{n}", wrong)
    with pytest.raises(TooManyTries):
        rights.enter_host_code(BOB, "10.0.2.1", code)
    clock.now += 31
    rights.enter_host_code(BOB, "10.0.2.1", code[:5] + " " + code[5:])  # spaces are fine
    assert rights.is_host(BOB) and rights.may_edit(GAME, BOB) and rights.may_edit(OTHER, BOB)
    assert TableRights(TableCodes(tmp_path)).is_host(BOB)  # kept across restarts


def test_a_new_run_has_a_new_host_code(tmp_path: Path) -> None:
    rights = TableRights(TableCodes(tmp_path))
    first = rights.new_host_code()
    second = rights.new_host_code()
    assert first != second  # the same twice: 1 chance in 10^10
    with pytest.raises(WrongCode):
        rights.enter_host_code(ALICE, "10.0.0.1", first)


def test_phones_are_numbered_once_and_named_in_plain_text(backend: Backend) -> None:
    rights = backend.rights()
    assert rights.phone_label(ALICE) == "phone 1"
    assert rights.phone_label(BOB) == "phone 2"
    assert rights.phone_label(ALICE) == "phone 1"
    assert rights.name_phone(BOB, "  Mary\x1b ") == "Mary"  # trimmed, no control characters
    assert rights.name_phone(ALICE, "x" * 100) == "x" * 30
    again = backend.rights()  # after a restart, or on another process
    assert again.phone_label(BOB) == "Mary" and again.phone_name(BOB) == "Mary"
    assert again.name_phone(BOB, "") == "phone 2" and again.phone_name(BOB) is None
    assert again.phone_label("carol-device-token-0123456") == "phone 3"
