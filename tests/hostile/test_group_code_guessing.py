"""Guessing a group's keeper code through two processes of one community (two
`Database` pools): the wrong codes add up, as a table code's do, so a guesser gains
nothing by reaching another process."""

from __future__ import annotations

import pytest

from scorer.groups.pg import PgGroups
from scorer.rights.limiter import TooManyTries, WrongCode
from scorer.store.database import Database

TOKEN = "guesser-token-0123456789"


def test_wrong_keeper_codes_through_two_processes_add_up(pg_url: str) -> None:
    one, two = Database(pg_url), Database(pg_url)
    try:
        first, second = PgGroups(one), PgGroups(two)
        group, code = first.create("Friday")
        wrong = f"{(int(code) + 1) % 10**8:08d}"
        for _ in range(3):  # the address's free tries, all through the first process
            with pytest.raises(WrongCode):
                first.enter_code(group.id, TOKEN, "203.0.113.9", wrong)
        with pytest.raises(TooManyTries):
            second.enter_code(group.id, TOKEN, "203.0.113.9", wrong)
        with pytest.raises(TooManyTries):  # even the right code waits
            second.enter_code(group.id, TOKEN, "203.0.113.9", code)
        assert not second.holds(group.id, TOKEN)
    finally:
        one.close()
        two.close()
