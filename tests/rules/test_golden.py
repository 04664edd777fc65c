"""Golden rule cases: every rule, house rule and error, as data in tests/golden/*.json.

Each case holds a tarabish-game/1 document and either the expected results (per hand:
outcome, scores, total, runs_to, dealer, reason fragments; then totals, winner,
next_dealer, forced) or the expected error (hand index and fragments of the message).
The expected values were worked out by hand from the rules text, not from the engine.
Only the keys a case gives are compared, so a case can leave out what does not apply
(e.g. the total of a passed hand).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.errors import GameFileError
from rules.game_file import check_game

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
HAND_KEYS = {"outcome", "scores", "total", "runs_to", "dealer", "reasons"}
GAME_KEYS = {"hands", "totals", "winner", "next_dealer", "forced"}
CASE_KEYS = {"id", "rule", "game", "expect", "error"}


def _load_cases() -> list[Any]:
    cases: list[Any] = []
    for path in sorted(GOLDEN.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            cases.append(pytest.param(case, id=case["id"]))
    return cases


CASES = _load_cases()


def test_golden_cases_are_well_formed() -> None:
    ids = [param.id for param in CASES]
    assert len(ids) >= 80
    assert len(ids) == len(set(ids)), "duplicate case ids"
    for param in CASES:
        case = param.values[0]
        assert set(case) <= CASE_KEYS, case["id"]
        assert case["rule"].strip(), case["id"]
        assert ("expect" in case) != ("error" in case), case["id"]
        if "expect" in case:
            assert set(case["expect"]) <= GAME_KEYS, case["id"]
            for hand in case["expect"].get("hands", []):
                assert set(hand) <= HAND_KEYS, case["id"]
        else:
            assert set(case["error"]) == {"hand", "contains"}, case["id"]


def _check_error(case: dict[str, Any]) -> None:
    expected = case["error"]
    with pytest.raises(GameFileError) as caught:
        check_game(case["game"])
    error = caught.value
    assert error.hand == expected["hand"], f"error at hand {error.hand}: {error.message}"
    for fragment in expected["contains"]:
        assert fragment.lower() in error.message.lower(), (
            f"{fragment!r} not in error message {error.message!r}"
        )


def _check_result(case: dict[str, Any]) -> None:
    expected = case["expect"]
    try:
        result = check_game(case["game"])
    except GameFileError as exc:
        pytest.fail(f"unexpected error at hand {exc.hand}: {exc.message}")
    if "hands" in expected:
        assert len(result.hands) == len(expected["hands"])
        for index, (got, want) in enumerate(zip(result.hands, expected["hands"], strict=True)):
            ruling = got.ruling
            assert ruling is not None, f"hand {index}: {got.error}"
            actual = {
                "outcome": ruling.outcome.value,
                "scores": list(ruling.scores),
                "total": ruling.total,
                "runs_to": ruling.runs_to,
                "dealer": got.dealer,
            }
            wanted = {key: value for key, value in want.items() if key != "reasons"}
            assert {key: actual[key] for key in wanted} == wanted, (
                f"hand {index}: {ruling.explanation}"
            )
            text = ruling.explanation.lower()
            for fragment in want.get("reasons", []):
                assert fragment.lower() in text, f"hand {index}: {fragment!r} not in {text!r}"
    actual_game = {
        "totals": list(result.totals),
        "winner": result.winner,
        "next_dealer": result.next_dealer,
        "forced": list(result.forced),
    }
    wanted_game = {key: value for key, value in expected.items() if key != "hands"}
    assert {key: actual_game[key] for key in wanted_game} == wanted_game


@pytest.mark.parametrize("case", CASES)
def test_golden(case: dict[str, Any]) -> None:
    if "error" in case:
        _check_error(case)
    else:
        _check_result(case)
