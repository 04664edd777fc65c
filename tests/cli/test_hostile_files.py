"""Hostile game files given to `tarabish check` and `tarabish import` (issue 9, item 7).

Every one must end in exit 2 with one short line naming what is wrong, where
in the user's file, and never the whole bad value; nothing is stored.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.game_json import MAX_GAME_FILE_BYTES
from scorer.cli import main
from scorer.text.terminal import MAX_LINE

ROOT = Path(__file__).resolve().parents[2]
VALID: dict[str, Any] = {
    "format": "tarabish-game/1",
    "players": ["Ann", "Bob", "Cid", "Dee"],
    "first_dealer": 3,
    "hands": [{"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 90}}],
}
HUGE = 9_000_000  # characters: under the 10 MB cap, so the value itself is read


def text_of(doc: dict[str, Any], placeholder: str, replacement: str) -> str:
    text = json.dumps(doc)
    assert placeholder in text
    return text.replace(placeholder, replacement, 1)


def position(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first `needle` in `text`, as an editor counts them."""
    index = text.index(needle)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def check_json(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any], str]:
    code = main(["check", str(path), "--json"])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def assert_one_short_line(text: str) -> None:
    lines = text.strip().splitlines()
    assert len(lines) == 1, lines[:3]
    assert len(lines[0]) <= MAX_LINE + 100, lines[0][:200]


def test_a_5000_digit_number_is_refused_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = text_of(VALID, '"hands": [', '"hands": [],\n  "rules": {"target": ' + "9" * 5000 + "}, \"x\": [")
    path = tmp_path / "big-number.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = check_json(path, capsys)
    assert code == 2 and err == ""
    line, column = position(text, "9" * 5000)
    assert out["error"]["hand"] is None
    message = out["error"]["message"]
    assert f"(line {line}, column {column})" in message and "number" in message
    assert "9" * 30 not in message
    assert len(message) <= MAX_LINE


@pytest.mark.parametrize("opener", ["[", '{"a": '])
def test_nesting_1000_deep_is_refused_not_a_recursion_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opener: str
) -> None:
    closer = "]" if opener == "[" else "}"
    deep = opener * 1000 + "1" + closer * 1000
    text = text_of(VALID, '"hands": [', '"hands": [' + deep + ", ")
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    code, out, _ = check_json(path, capsys)
    assert code == 2
    message = out["error"]["message"]
    assert "deep" in message
    # Level 21 is refused: the hands list is level 2, so 18 brackets past the first.
    start = text.index(deep)
    line, column = position(text, deep)
    assert f"(line {line}, column {column + 18 * len(opener)})" in message, (message, start)


def test_deep_nesting_under_the_recursion_limit_is_refused_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = text_of(VALID, '"Ann"', "[" * 25 + "]" * 25)
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    code, out, _ = check_json(path, capsys)
    assert code == 2 and "deep" in out["error"]["message"]


@pytest.mark.parametrize(
    ("where", "replacement"),
    [
        ('"Ann"', '"{huge}"'),  # a player's name
        ('"first_dealer": 3', '"first_dealer": "{huge}"'),  # text where a number belongs
        ('"trump": "H"', '"trump": "{huge}"'),
        ('"format": "tarabish-game/1"', '"format": "tarabish-game/1", "{huge}": 1'),  # unknown key
        ('"points"', '"runs": [{{"seat": 0, "cards": ["{huge}"]}}], "points"'),  # a card
        ('"first_dealer": 3', '"first_dealer": 3, "teams": ["{huge}", "B"]'),
        ('"first_dealer": 3', '"first_dealer": 3, "rules": {{"{huge}": true}}'),  # house rule
        ('"team": 0', '"team": 0, "{huge}": 1'),  # unknown key inside a hand
        ('"hands": [', '"rules": {{"dealer_may_pass": true}}, "hands": [{{"passed": true, "{huge}": 1}}, '),
    ],
    ids=["player", "number", "trump", "key", "card", "team", "rule", "hand-key", "passed-key"],
)
def test_a_huge_value_never_makes_a_huge_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, replacement: str
) -> None:
    text = json.dumps(VALID).replace(where, replacement.format(huge="A" * HUGE), 1)
    assert len(text) > HUGE
    path = tmp_path / "huge.json"
    path.write_text(text, encoding="utf-8")
    code, out, _ = check_json(path, capsys)
    assert code == 2
    assert len(out["error"]["message"]) <= MAX_LINE, out["error"]["message"][:200]
    assert main(["check", str(path)]) == 2
    assert_one_short_line(capsys.readouterr().err)
    assert main(["import", str(path), "--data-dir", str(tmp_path / "data")]) == 2
    out_text, err = capsys.readouterr()
    assert out_text == "" and len(err) < 2 * MAX_LINE
    assert not (tmp_path / "data").exists()


def test_a_file_over_10_mb_is_refused_without_reading_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as f:
        f.truncate(MAX_GAME_FILE_BYTES + 1)  # sparse: no 10 MB written to disk
    code, out, _ = check_json(path, capsys)
    assert code == 2 and "too big" in out["error"]["message"]


def test_stdin_over_10_mb_is_refused_by_import(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = io.BytesIO(b" " * (MAX_GAME_FILE_BYTES + 1))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream))
    assert main(["import", "-", "--data-dir", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err
    assert "too big" in err
    assert stream.tell() <= MAX_GAME_FILE_BYTES + 1 + io.DEFAULT_BUFFER_SIZE


def test_a_game_file_from_stdin_is_still_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(VALID).encode())))
    assert main(["import", "-", "--data-dir", str(tmp_path / "data")]) == 0
    assert len(capsys.readouterr().out.split()) == 1


def test_a_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = check_json(tmp_path, capsys)
    assert code == 2 and "folder" in out["error"]["message"]


def test_not_utf8_names_the_place_in_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.json"
    # Line 2, after "  ", a quote and "é" (two bytes, one character): column 5.
    path.write_bytes(b'{"format": "tarabish-game/1",\n  "\xc3\xa9\xff": 1}')
    code, out, _ = check_json(path, capsys)
    assert code == 2
    assert "not UTF-8 text (line 2, column 5)" in out["error"]["message"]


def test_json_errors_name_the_place_in_the_users_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bom.json"
    # A BOM (as Windows editors write) is fine, and does not shift positions.
    path.write_bytes(b"\xef\xbb\xbf" + b'{"format": "tarabish-game/1",\n "players": [NaN]}')
    code, out, _ = check_json(path, capsys)
    assert code == 2
    assert "(line 2, column 14: NaN is not a JSON value)" in out["error"]["message"]
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(VALID).encode())
    assert main(["check", str(path), "--json"]) == 0
    capsys.readouterr()


def _run_cli(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """The real command in its own process, with its memory capped at 1 GB.

    Before the fix /dev/zero was read until memory ran out and a FIFO hung:
    the cap and the timeout keep such a failure from taking the machine down.
    """

    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "scorer.cli", *args], capture_output=True, text=True,
        timeout=timeout, preexec_fn=cap_memory, env=env, cwd=ROOT, check=False,
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("command", ["check", "import"])
def test_dev_zero_is_refused_at_once(tmp_path: Path, command: str) -> None:
    result = _run_cli([command, "/dev/zero", "--data-dir", str(tmp_path / "d")]
                      if command == "import" else [command, "/dev/zero"], timeout=30)
    assert result.returncode == 2, result.stderr[-500:]
    assert "Traceback" not in result.stderr
    assert "device, pipe or socket" in result.stderr
    assert not (tmp_path / "d").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("command", ["check", "import"])
def test_a_fifo_is_refused_and_never_waited_on(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    args = [command, str(fifo)] + (["--data-dir", str(tmp_path / "d")] if command == "import" else [])
    result = _run_cli(args, timeout=30)
    assert result.returncode == 2, result.stderr[-500:]
    assert "device, pipe or socket" in result.stderr
    assert_one_short_line(result.stderr.replace("Nothing was imported.", ""))


def test_a_file_of_endless_hands_is_refused_before_any_is_ruled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """All-pass hands score nothing, so a 10 MB file could hold 600,000 valid ones
    (minutes of work and gigabytes to rule them all). A game holds 1,000 at most."""
    doc = {**VALID, "rules": {"dealer_may_pass": True}, "hands": [{"passed": True}] * 1001}
    path = tmp_path / "endless.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = check_json(path, capsys)
    assert code == 2
    assert out["error"] == {"hand": None,
                            "message": "this game has 1001 hands: a game holds at most 1000"}
    doc["hands"] = doc["hands"][:1000]
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = check_json(path, capsys)
    assert code == 0 and len(out["hands"]) == 1000


def test_long_digit_runs_inside_text_are_not_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "Ann 1234567890123456789012345"  # 29 characters: a fine, if odd, name
    path = tmp_path / "digits.json"
    path.write_text(json.dumps({**VALID, "players": [name, "Bob", "Cid", "Dee"]}), encoding="utf-8")
    code, out, _ = check_json(path, capsys)
    assert code == 0, out


@pytest.mark.parametrize("inside", ["top", "rules", "passed"])
def test_thousands_of_unknown_keys_make_one_short_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], inside: str
) -> None:
    keys = {f"k{i}": 1 for i in range(100_000)}
    doc: dict[str, Any] = {**VALID, "rules": {"dealer_may_pass": True}}
    if inside == "top":
        doc.update(keys)
    elif inside == "rules":
        doc["rules"] = {**doc["rules"], **keys}
    else:
        doc["hands"] = [{"passed": True, **keys}]
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, _ = check_json(path, capsys)
    assert code == 2
    message = out["error"]["message"]
    assert len(message) <= MAX_LINE and "and 99997 more" in message, message


@pytest.mark.parametrize("word", ["passed", "played", "misplay", "thrown"])
def test_a_hand_kind_used_as_a_stray_key_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], word: str
) -> None:
    """Found by the fuzz test: a key spelled like a kind of hand crashed the message."""
    hand = {"caller": 1, "trump": "S", "misplay": {"called_by": 0, "upheld": True, word: 3}}
    path = tmp_path / "stray.json"
    path.write_text(json.dumps({**VALID, "hands": [hand]}), encoding="utf-8")
    code, out, _ = check_json(path, capsys)
    assert code == 2
    assert out["error"] == {"hand": 0,
                            "message": f"'{word}' is not something this file can hold (in misplay)"}
