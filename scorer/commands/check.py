"""`tarabish check FILE [--json]`: adjudicate a tarabish-game/1 file."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rules.errors import GameFileError
from rules.game_file import parse_game_and_trail
from rules.hands import PassedHand
from rules.replay import GameReplay, replay
from scorer.commands.game_input import load_game_doc
from scorer.reference.house import house_rules_line
from scorer.text.sheet import render_sheet
from scorer.text.terminal import for_terminal, json_for_terminal, label, one_line
from scorer.text.trail import trail_lines, trail_rows

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
    p.add_argument("--history", action="store_true",
                   help="also print the game's edit trail (hands edited, undone, put back)")
    p.set_defaults(run=run)


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
        game, trail = parse_game_and_trail(load_game_doc(args.file))
        result = replay(game)
        error = result.first_error
        if error is not None:
            raise error
    except GameFileError as exc:
        message = one_line(exc.message)
        if args.json:
            print(json.dumps({"error": {"hand": exc.hand, "message": message}}))
        else:
            if exc.hand is None:
                line = f"{label(args.file)}: {message}"
            else:
                line = f"This game file has a problem in hand {exc.hand + 1}: {message}"
            print(line, file=sys.stderr)
        return EXIT_INVALID
    if args.json:
        out = check_json(result)
        if args.history:
            out["history"] = trail_rows(trail, game)
        print(json_for_terminal(json.dumps(out, ensure_ascii=False, indent=2)))
    else:
        print(for_terminal(house_rules_line(game.rules)))
        print(for_terminal(render_sheet(game, result)))
        if args.history:
            print(for_terminal("\n".join(["", *trail_lines(trail, game)])))
    return EXIT_OK
