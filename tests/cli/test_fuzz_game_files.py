"""Fuzzing game files through the real commands (issue 9): `tarabish check` and
`tarabish import`, run in-process through the CLI's main.

Thousands of seeded mutations of valid games, structural (on the decoded
document: keys dropped, values swapped for hostile ones, lists shuffled...)
and textual (on the bytes: flips, cuts, inserted controls, brackets, digits).
Wanted: no traceback, no hang, exit code 0 or 2 only, `import` agreeing with
`check`, every error one short line, nothing printed that a terminal would act on.

TARABISH_FUZZ_CASES, TARABISH_FUZZ_SEED and TARABISH_FUZZ_SECONDS change the
size, the seed and the time budget of a run.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import shutil
import signal
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from rules.plain_text import is_unsafe
from scorer.cli import main
from scorer.text.terminal import MAX_LINE

CASES = int(os.environ.get("TARABISH_FUZZ_CASES", "2500"))
SEED = int(os.environ.get("TARABISH_FUZZ_SEED", "20261122"))
IMPORT_EVERY = 4  # import costs a store; check runs on every case
CASE_SECONDS = 10  # a case taking longer than this is a hang
# The machine is shared: past this many seconds no new case starts beyond the first
# MIN_CASES (the seeded sequence is the same, only cut shorter; the first MIN_CASES
# always run, however busy the machine). Usually all cases run in 25-35 s.
TIME_BUDGET = float(os.environ.get("TARABISH_FUZZ_SECONDS", "45"))
MIN_CASES = min(CASES, 1000)
# Error lines carry a file name (the test's temporary path) before the message.
MAX_ERROR_LINE = MAX_LINE + 200

RUN = {"seat": 1, "cards": ["9S", "10S", "JS"]}
BASES: list[dict[str, Any]] = [
    {
        "format": "tarabish-game/1",
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "teams": ["Ann & Cid", "Bob & Dee"],
        "first_dealer": 3,
        "rules": {"forced_at": 400},
        "hands": [
            {"caller": 0, "trump": "H", "points": {"team": 0, "tricks": 70},
             "runs": [RUN], "bella": 0},
            {"caller": 1, "trump": "S", "misplay": {"called_by": 0, "upheld": True}},
            {"caller": 2, "trump": "C", "thrown_by": 2},
        ],
    },
    {
        "format": "tarabish-game/1",
        "players": ["Zoë", "José", "王芳", "O'Brien"],
        "first_dealer": 0,
        "rules": {"dealer_may_pass": True, "no_trump": True, "target": 300,
                  "long_runs": "single", "run_ties": "turn_order"},
        "hands": [
            {"passed": True},
            {"caller": 2, "trump": "NT", "points": {"tricks": [60, 70]}},
            {"caller": 3, "trump": "♦", "points": {"team": 1, "tricks": 100},
             "runs": [{"seat": 3, "cards": ["6D", "7D", "8D", "9D"]}]},
        ],
    },
    {
        "format": "tarabish-game/1",
        "players": ["A", "B", "C", "D"],
        "first_dealer": 1,
        "hands": [{"caller": 1, "trump": "D", "points": {"team": 1, "tricks": 100}}] * 6,
    },
]

NASTY_TEXT = [
    "", " ", "x", "NT", "10H", "TH", "J♠", "XS", "\x1b[2J", "An\rn", "\u202eevil", "\x00",
    "\x9b31m", "\ud800", "A" * 5000, "tarabish-game/1", "tarabish-game/2", "__proto__",
    "players", "hands", "passed", "🂡", "\u2028", "1e400",
]
NASTY_NUMBERS: list[Any] = [0, 1, 2, 3, 4, -1, 5, 81, 162, 163, 400, 10**18, -10**18, 1.5, 1e300,
                            True, False, None]


def nasty_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.35:
        return rng.choice(NASTY_NUMBERS)
    if roll < 0.7:
        return rng.choice(NASTY_TEXT)
    if roll < 0.8 and depth < 3:
        return [nasty_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if roll < 0.9 and depth < 3:
        return {rng.choice([*NASTY_TEXT, "caller", "trump", "team", "tricks", "seat"]):
                nasty_value(rng, depth + 1) for _ in range(rng.randrange(4))}
    if roll < 0.95:
        return json.loads("[" * 24 + "1" + "]" * 24)  # 24 deep
    return list(range(rng.randrange(1, 300)))


def containers(doc: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every list and object in the document, with its path."""
    if isinstance(doc, dict | list):
        yield path, doc
        items = doc.items() if isinstance(doc, dict) else enumerate(doc)
        for key, value in items:
            yield from containers(value, (*path, key))


def mutate_structure(doc: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    doc = copy.deepcopy(doc)
    steps = []
    for _ in range(rng.randrange(1, 4)):
        path, target = rng.choice(list(containers(doc)))
        if isinstance(target, dict):
            keys = list(target)
            op = rng.choice(["drop", "set", "set", "add", "wrap"] if keys else ["add"])
            if op == "drop":
                key = rng.choice(keys)
                del target[key]
            elif op == "set":
                key = rng.choice(keys)
                target[key] = nasty_value(rng)
            elif op == "wrap":
                key = rng.choice(keys)
                target[key] = [target[key]]
            else:
                key = rng.choice(NASTY_TEXT + list(BASES[0]) + ["bella", "runs", "passed"])
                target[key] = nasty_value(rng)
        else:
            op = rng.choice(["drop", "set", "dup", "swap", "add"] if target else ["add"])
            key = rng.randrange(len(target)) if target else 0
            if op == "drop":
                del target[key]
            elif op == "set":
                target[key] = nasty_value(rng)
            elif op == "dup":
                target.extend([copy.deepcopy(target[key])] * rng.randrange(1, 40))
            elif op == "swap":
                other = rng.randrange(len(target))
                target[key], target[other] = target[other], target[key]
            else:
                target.insert(key, nasty_value(rng))
        steps.append(f"{op} {path}/{key!r}"[:80])
    return doc, "structure: " + "; ".join(steps)


INSERTS = [b"\x00", b"\xff", b"\xc3", b"\x1b[2J", b"\r", b'"', b"\\", b"\\u", b"[", b"]", b"{",
           b"}", b",", b":", b"NaN", b"-Infinity", b"9" * 4400, b"[" * 2000, b"{\"a\":" * 900,
           b"\xef\xbb\xbf", "\u202e".encode(), b"\\ud800", b"1e999", b"-", b"0x10", b"true",
           b"null", b" " * 1000, b"\n"]


def mutate_text(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    steps = []
    for _ in range(rng.randrange(1, 4)):
        at = rng.randrange(len(data) + 1)
        op = rng.choice(["flip", "cut", "insert", "insert", "copy", "truncate"])
        if op == "flip" and data:
            at = min(at, len(data) - 1)
            data = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
        elif op == "cut":
            data = data[:at] + data[at + rng.randrange(1, 30):]
        elif op == "insert":
            data = data[:at] + rng.choice(INSERTS) + data[at:]
        elif op == "copy":
            span = data[at:at + rng.randrange(1, 60)]
            data = data[:at] + span * rng.randrange(1, 5) + data[at:]
        else:
            data = data[:at]
        steps.append(f"{op}@{at}")
    return data, "text: " + " ".join(steps)


def mutate_gently(doc: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """Plausible edits (another trick count, caller or dealer, a hand copied): many stay valid."""
    doc = copy.deepcopy(doc)
    hands = doc["hands"]
    hand = rng.choice(hands)
    op = rng.choice(["tricks", "caller", "dealer", "copy"])
    if op == "tricks" and isinstance(hand.get("points", {}).get("tricks"), int):
        hand["points"]["tricks"] = rng.randrange(0, 163)
    elif op == "caller" and "caller" in hand:
        hand["caller"] = rng.randrange(4)
    elif op == "dealer":
        doc["first_dealer"] = rng.randrange(4)
    else:
        hands.insert(rng.randrange(len(hands) + 1), copy.deepcopy(hand))
    return doc, f"gentle: {op}"


def make_case(rng: random.Random) -> tuple[bytes, str]:
    base = rng.choice(BASES)
    roll = rng.random()
    if roll < 0.1:
        doc, how = mutate_gently(base, rng)
        return json.dumps(doc).encode(), how
    if roll < 0.5:
        doc, how = mutate_structure(base, rng)
        return json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass"), how
    data = json.dumps(base, indent=rng.choice([None, 2]), ensure_ascii=False).encode()
    if roll < 0.9:
        return mutate_text(data, rng)
    doc, how = mutate_structure(base, rng)
    data = json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    more, how2 = mutate_text(data, rng)
    return more, f"{how} + {how2}"


class Hang(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def alarm(_signum: int, _frame: FrameType | None) -> None:
        raise Hang(f"no answer in {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_cli(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit(CASE_SECONDS):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def inert(text: str) -> bool:
    return not any(c != "\n" and is_unsafe(c) for c in text)


def judge(args: list[str], problems: list[str], what: str,
          check: Callable[[int, str, str], str | None]) -> int | None:
    try:
        code, out, err = run_cli(args)
    except BaseException as exc:  # a traceback or a hang, whatever it is
        if isinstance(exc, KeyboardInterrupt):
            raise
        tail = "".join(traceback.format_exception_only(type(exc), exc)).strip()[:300]
        problems.append(f"{what}: {args[0]} raised {tail}")
        return None
    problem = check(code, out, err)
    if problem is not None:
        problems.append(f"{what}: {args[0]}: {problem}")
    return code


def check_json_result(code: int, out: str, err: str) -> str | None:
    if code not in (0, 2):
        return f"exit {code}"
    if err or not inert(out):
        return f"stderr {err[:100]!r} or unsafe output"
    result = json.loads(out)
    if code == 2:
        message = result["error"]["message"]
        if len(message) > MAX_LINE or "\n" in message:
            return f"message of {len(message)} characters"
        if not (result["error"]["hand"] is None or isinstance(result["error"]["hand"], int)):
            return "hand is not a number"
    elif "totals" not in result:
        return "no totals"
    return None


def check_text_result(code: int, out: str, err: str) -> str | None:
    if code not in (0, 2):
        return f"exit {code}"
    if not (inert(out) and inert(err)):
        return "unsafe output"
    if code == 2 and (out or len(err.splitlines()) != 1 or len(err) > MAX_ERROR_LINE):
        return f"error not one short line: {err[:120]!r}"
    return None


def check_import_result(code: int, out: str, err: str) -> str | None:
    if code not in (0, 2):
        return f"exit {code}"
    if not (inert(out) and inert(err)):
        return "unsafe output"
    if code == 2:
        lines = err.splitlines()
        if out or lines[-1:] != ["Nothing was imported."] or len(lines) != 2 \
                or len(lines[0]) > MAX_ERROR_LINE:
            return f"error not one short line: {err[:120]!r}"
    elif len(out.split()) != 1:
        return f"no id printed: {out[:80]!r}"
    return None


@pytest.mark.slow
def test_fuzzed_game_files_never_crash_or_hang_check_or_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # argparse looks up translations for every help text, each a dozen stat
    # calls; "C" skips the lookup (it was half of the time of a case).
    monkeypatch.setenv("LANGUAGE", "C")
    rng = random.Random(SEED)
    problems: list[str] = []
    codes = {0: 0, 2: 0}
    slowest = 0.0
    started = time.monotonic()
    path = tmp_path / "fuzzed.json"
    ran = 0
    for case in range(CASES):
        if ran >= MIN_CASES and time.monotonic() - started > TIME_BUDGET:
            break
        ran += 1
        data, how = make_case(rng)
        path.write_bytes(data)
        what = f"case {case} ({how})"
        began = time.monotonic()
        code = judge(["check", str(path), "--json"], problems, what, check_json_result)
        if code is not None:
            codes[code] += 1
        if case % 3 == 0:
            judge(["check", str(path)], problems, what, check_text_result)
        if case % IMPORT_EVERY == 0:
            data_dir = tmp_path / f"data{case}"
            imported = judge(["import", str(path), "--data-dir", str(data_dir)], problems, what,
                             check_import_result)
            if imported is not None and code is not None and imported != code:
                problems.append(f"{what}: check said {code}, import said {imported}")
            shutil.rmtree(data_dir, ignore_errors=True)
        slowest = max(slowest, time.monotonic() - began)
        if len(problems) > 20:
            break
    elapsed = time.monotonic() - started
    print(f"\nfuzz: {ran} of {CASES} cases (seed {SEED}) in {elapsed:.1f} s, "
          f"slowest {slowest:.2f} s; valid {codes[0]}, refused {codes[2]}")
    assert not problems, "\n".join(problems[:10])
    assert ran >= MIN_CASES, f"only {ran} cases ran of the {MIN_CASES} always run"
    # Both kinds of result must really be exercised, or the fuzzing is too timid or too wild.
    assert codes[0] >= ran // 20 and codes[2] >= ran // 2, codes
