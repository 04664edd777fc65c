"""`tarabish check FILE [--json]`: adjudicate a tarabish-game/1 file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rules.errors import GameFileError
from rules.game_file import parse_game
from rules.hands import PassedHand
from rules.replay import GameReplay, replay
from scorer.sheet_text import render_sheet

EXIT_OK = 0
EXIT_INVALID = 2


def register(sub: Any) -> None:
    p = sub.add_parser(
        "check",
        help="check a game file and print its score sheet",
        description="Rule on every hand of a tarabish-game/1 file. Exits 0 when the file "
        "is valid, 2 when it is not (the first bad hand is named).",
    )
    p.add_argument("file", help="the game file (JSON, tarabish-game/1)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run)


def read_game_file(path: Path) -> Any:
    """Read and decode a game file; every failure becomes a GameFileError."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise GameFileError(f"there is no file called {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise GameFileError(f"cannot read {path}: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameFileError(
            f"{path.name} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from exc


def check_json(result: GameReplay) -> dict[str, Any]:
    """The `--json` object of GAME_FORMAT.md for a valid game."""
    hands = []
    for hand in result.hands:
        ruling = hand.ruling
        assert ruling is not None  # only valid games get here
        hands.append({
            "dealer": hand.dealer,
            "caller": None if isinstance(hand.hand, PassedHand) else hand.hand.caller,
            "outcome": ruling.outcome.value,
            "total": ruling.total,
            "scores": list(ruling.scores),
            "runs_to": ruling.runs_to,
            "reasons": [reason.text for reason in ruling.reasons],
        })
    return {
        "hands": hands,
        "totals": list(result.totals),
        "winner": result.winner,
        "next_dealer": result.next_dealer,
        "forced": list(result.forced),
    }


def run(args: argparse.Namespace) -> int:
    try:
        game = parse_game(read_game_file(Path(args.file)))
        result = replay(game)
        error = result.first_error
        if error is not None:
            raise error
    except GameFileError as exc:
        if args.json:
            print(json.dumps({"error": {"hand": exc.hand, "message": exc.message}}))
        else:
            where = f"hand {exc.hand + 1}" if exc.hand is not None else "the file"
            print(f"This game file has a problem in {where}: {exc.message}", file=sys.stderr)
        return EXIT_INVALID
    if args.json:
        print(json.dumps(check_json(result), ensure_ascii=False, indent=2))
    else:
        print(render_sheet(game, result))
    return EXIT_OK
