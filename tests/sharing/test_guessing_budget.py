"""What the brakes on wrong codes leave a determined guesser in one night (issue 9, item 2)."""

from __future__ import annotations

import threading
import time

import pytest

from scorer.rights import TableRights, TooManyTries, WrongCode
from scorer.rights.codes import CODE_DIGITS
from scorer.rights.limiter import Busy
from scorer.rights.service import GAME_FREE_TRIES
from tests.sharing.conftest import Backend, set_clock

GAME = "0123abcd"
NIGHT_S = 12 * 3600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def rights(backend: Backend, clock: Clock) -> TableRights:
    """The rights as the server makes them (folder or database), on a test clock."""
    made = backend.rights()
    set_clock(made, clock)
    return made


def test_a_guesser_with_endless_addresses_and_tokens_gets_few_tries_a_night(
    backend: Backend,
) -> None:
    """Every guess from a new address and a new token, each the moment the wait
    is over, for 12 hours (bounded loop: one step per guess or per wait)."""
    clock = Clock()
    r = rights(backend, clock)
    code = r.start(GAME, "holder-token-0123456789")
    start = clock.now
    tries = 0
    for n in range(100_000):
        if clock.now - start > NIGHT_S:
            break
        wrong = f"{n % 10 ** CODE_DIGITS:0{CODE_DIGITS}d}"
        if wrong == code:
            continue
        try:
            r.enter_code(GAME, f"token-{n}", f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}",
                         wrong)
            raise AssertionError("a wrong code was taken")
        except TooManyTries as wait:
            clock.now += wait.seconds
        except WrongCode:
            pass
        else:
            continue
        tries += 1  # counted whether or not it was refused outright: worst case
    chance = tries / 10 ** CODE_DIGITS
    print(f"{tries} tries in 12 h: chance {chance:.6f}")
    assert tries <= 80
    assert chance < 1e-4  # under 1 in 10,000 a night


def test_a_right_code_does_not_reset_the_game_budget(backend: Backend) -> None:
    clock = Clock()
    r = rights(backend, clock)
    code = r.start(GAME, "holder-token-0123456789")
    wrong = "0" * CODE_DIGITS if code != "0" * CODE_DIGITS else "1" * CODE_DIGITS
    for n in range(9):
        with pytest.raises(WrongCode):
            r.enter_code(GAME, f"guesser-{n}", f"10.0.0.{n}", wrong)
    r.enter_code(GAME, "friend-token-0123456789", "10.0.1.1", code)
    with pytest.raises(TooManyTries):
        r.enter_code(GAME, "guesser-x", "10.0.2.2", wrong)


def test_guesses_at_once_through_many_connections_buy_no_extra_tries(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """24 guessers at once (on two processes where a community has them), each compare
    slowed down as on a loaded server: the code is compared at most GAME_FREE_TRIES
    times before everyone waits."""
    sides = backend.processes(2)
    code = sides[0].start(GAME, "holder-token-0123456789")
    wrong = "0" * CODE_DIGITS if code != "0" * CODE_DIGITS else "1" * CODE_DIGITS
    compares: list[str] = []
    for side in dict.fromkeys(sides):
        real = side.codes.matches

        def slow(game_id: str, typed: str, real=real) -> bool:  # type: ignore[no-untyped-def]
            compares.append(typed)
            time.sleep(0.05)
            return bool(real(game_id, typed))

        monkeypatch.setattr(side.codes, "matches", slow)
    start = threading.Barrier(24)

    def guess(n: int) -> None:
        start.wait()
        for _ in range(200):  # bounded: a turn lasts one compare
            try:
                sides[n % 2].enter_code(GAME, f"guesser-{n}", f"10.1.0.{n}", wrong)
            except Busy:
                time.sleep(0.005)
                continue
            except WrongCode:
                return

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(compares) <= GAME_FREE_TRIES
    with pytest.raises(TooManyTries):
        sides[1].enter_code(GAME, "friend-token-0123456789", "10.2.0.1", code)
