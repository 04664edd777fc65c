"""A table code and a host code typed with spaces or dashes are the code, not a wrong
try (issue 41, point 2); on both stores."""

from __future__ import annotations

from pathlib import Path

from scorer.rights import TableCodes, TableRights
from scorer.text.codes import code_digits
from tests.sharing.conftest import Backend

GAME = "0123abcd"


def test_code_digits_drops_spaces_and_dashes_only() -> None:
    assert code_digits("7301 4914") == "73014914"
    assert code_digits(" 7301-4914\n") == "73014914"
    assert code_digits("7301\u00a04914") == "73014914"
    assert code_digits("7301\u20134914") == "73014914"
    assert code_digits("73O1 4914") == "73O14914"  # a letter makes a wrong code
    assert code_digits(None) == "" and code_digits(12345678) == ""
    assert len(code_digits("1" * 10_000)) == 64


def test_a_table_code_typed_in_two_halves_opens_the_game(backend: Backend) -> None:
    rights = backend.rights()
    code = rights.start(GAME, "starter-device-token-0000")
    rights.enter_code(GAME, "second-device-token-0000", "10.0.0.5", f"{code[:3]} {code[3:]}")
    rights.enter_code(GAME, "third-device-token-00000", "10.0.0.5", f"{code[:3]}-{code[3:]}")
    assert rights.may_edit(GAME, "second-device-token-0000")
    assert rights.may_edit(GAME, "third-device-token-00000")
    assert rights.backoff.tries_left(f"{GAME}|addr|10.0.0.5") == 3


def test_the_host_code_as_printed_makes_a_host(tmp_path: Path) -> None:
    rights = TableRights(TableCodes(tmp_path))
    code = rights.new_host_code()
    rights.enter_host_code("host-device-token-000000", "10.0.0.7", f"{code[:5]} - {code[5:]}")
    assert rights.is_host("host-device-token-000000")
    assert rights.host_backoff.tries_left("host|addr|10.0.0.7") == 3
