"""Guessing a table code gets nowhere, however the guesser dresses up (issue 9, item 2).

The brake counts per game and per connection address as the server's socket
sees it; a new device token, a patched `client_ip` or an X-Forwarded-For header
buys no new tries."""

from __future__ import annotations

import secrets
from pathlib import Path

from scorer.rights.codes import CODE_DIGITS
from tests.hostile.conftest import StartServer, make_game
from tests.hostile.flet_client import FletClient

WRONG = "not this game's table code"
WAIT = "Too many wrong codes"


def guess(client: FletClient, code: str) -> str:
    """Type `code` on the code entry's pad; what the phone is told."""
    mark = client.mark()
    for digit in code:
        client.click(digit, kind="OutlinedButton")
        client.pump(0.05)
    return client.wait_for(WRONG, WAIT, since=mark)


def open_code_entry(client: FletClient) -> None:
    client.click("Enter table code")
    client.wait_for("Ask the phone that started the game")


def wrong_code(code: str) -> str:
    return "0" * CODE_DIGITS if code != "0" * CODE_DIGITS else "1" * CODE_DIGITS


def test_new_tokens_patched_addresses_and_forwarded_headers_buy_no_new_tries(
    start_server: StartServer, tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    game_id, code = make_game(data)
    server = start_server(data)
    answers = []
    for session in range(2):  # bounded: two sessions, two guesses each
        fake = f"10.{session}.0.{session + 1}"
        with FletClient(server.port, route=f"/game/{game_id}",
                        device=secrets.token_urlsafe(24),
                        page_extra={"client_ip": fake},
                        headers={"X-Forwarded-For": fake, "X-Real-IP": fake}) as guest:
            guest.pump(0.5)
            guest.patch_page(client_ip=f"10.9.{session}.9")
            open_code_entry(guest)
            for _ in range(2):
                answers.append(guess(guest, wrong_code(code)))
    assert all(WRONG in a for a in answers[:2]), answers
    # The third wrong code from this address waits, whatever the new session says it is.
    assert WAIT in answers[2], answers


def test_a_game_has_one_budget_of_wrong_codes_across_addresses(
    start_server: StartServer, tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    game_id, code = make_game(data)
    server = start_server(data)
    answers = []
    for n in range(6):  # six "phones" with real, distinct addresses; two guesses each
        with FletClient(server.port, route=f"/game/{game_id}",
                        source=f"127.0.0.{n + 2}") as guest:
            guest.pump(0.5)
            open_code_entry(guest)
            for _ in range(2):
                answers.append(guess(guest, wrong_code(code)))
    first_wait = next((i for i, a in enumerate(answers) if WAIT in a), None)
    assert first_wait is not None and first_wait <= 10, answers
    # Once the game's budget is spent, even the right code from a fresh address waits.
    with FletClient(server.port, route=f"/game/{game_id}", source="127.0.0.20") as late:
        late.pump(0.5)
        open_code_entry(late)
        assert WAIT in guess(late, code)

