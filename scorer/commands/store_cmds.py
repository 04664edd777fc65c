"""`tarabish import`, `export` and `games`: move games in and out of the store.

`games` and `export` only read (a read-only store: no lock, no writes), so they
work beside a running server, on a full disk and in a read-only folder.
`import` writes, so it takes the data folder's lock; while a table server
holds it, the games are handed to that server (see `scorer.handoff.local_import`),
which stores them itself, so one process alone writes the folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from typing import Any

from rules.errors import GameFileError
from rules.game import MAX_TEAM_NAME_LENGTH
from rules.game_file import parse_game
from scorer.backends import backends_of
from scorer.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_NOT_SAVED,
    EXIT_OK,
    counted,
    data_dir_option,
    find_game,
    groups_of,
    open_for_writing,
    open_store,
    reports_no_store,
    table_codes,
    write_file,
)
from scorer.commands.event_cmds import run_event_import
from scorer.commands.game_input import load_game_doc
from scorer.commands.stats_cmds import run_export_csv
from scorer.handoff.local_import import HandOffFailed, hand_to_server
from scorer.store import GameNotFound, GameSummary, InvalidGame
from scorer.store.errors import NotSaved, StoreError
from scorer.store.folder_lock import FolderBusy
from scorer.store.validation import validate_doc
from scorer.text.terminal import json_for_terminal, label, one_line


def register(sub: Any) -> None:
    """Add the `import`, `export` and `games` subcommands."""
    common = data_dir_option()
    p = sub.add_parser(
        "import", parents=[common], help="store games from tarabish-game/1 files"
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="game files ('-' reads stdin)")
    p.add_argument("--event", metavar="EVENT",
                   help="a club night: store one finished paper game as a table's game")
    p.add_argument("--table", metavar="T",
                   help="with --event: the table of the current round that played it")
    p.add_argument("--group", metavar="GROUP",
                   help="the imported games join this group (its name or id)")
    p.add_argument("--public-url", metavar="URL", default=None,
                   help="a community's address, e.g. https://bish.example.org (default: "
                   "$TARABISH_PUBLIC_URL): each game's address on it is printed")
    p.set_defaults(run=run_import)

    p = sub.add_parser(
        "export", parents=[common],
        help="write one game as a tarabish-game/1 file (--csv: every hand as CSV)",
    )
    p.add_argument("game", metavar="GAME", nargs="?",
                   help="game id (or its first few characters); with --csv, all games if left out")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    p.add_argument("--csv", action="store_true",
                   help="one row a hand for spreadsheets, of GAME or of every saved game")
    p.add_argument("--no-history", action="store_true",
                   help="leave the edit trail out (for versions of Tarabish older than it)")
    p.set_defaults(run=run_export)

    p = sub.add_parser("games", parents=[common], help="list the saved games")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(run=run_games)


@reports_no_store
def run_import(args: argparse.Namespace) -> int:
    """Validate every file first; store them only if all are good."""
    if getattr(args, "event", None) is not None:
        return run_event_import(args)
    docs: list[dict[str, Any]] = []
    for name in args.files:
        doc, error = _load_game_file(name)
        if error is not None:
            print(f"{label(name)}: {error}", file=sys.stderr)
        elif doc is not None:
            docs.append(doc)
    if len(docs) != len(args.files):
        print("Nothing was imported.", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        base = _address_base(args)
    except ValueError as e:
        print(f"tarabish: {e} Nothing was imported.", file=sys.stderr)
        return EXIT_BAD_INPUT
    group = getattr(args, "group", None)
    try:
        store = open_for_writing(args)
    except FolderBusy as busy:
        return _hand_off(busy, docs, group, base)
    with store:
        groups = groups_of(store)
        try:  # the group is found before any game is stored: a wrong name stores none
            group_id = None if group is None else groups.find(group).id
        except StoreError as e:
            print(f"tarabish: {one_line(str(e))} Nothing was imported.", file=sys.stderr)
            return EXIT_BAD_INPUT
        try:
            made = store.create_games(docs)
        except NotSaved as e:
            print(f"tarabish: {e}", file=sys.stderr)
            return EXIT_NOT_SAVED
        except InvalidGame as e:  # checked above; only a changed rules engine gets here
            print(f"tarabish: {e} Nothing was imported.", file=sys.stderr)
            return EXIT_BAD_INPUT
        ids = [game.id for game in made]
        try:
            codes = table_codes(store, ids)
        except NotSaved as e:  # the games are in: their codes come at the server's start
            print(f"tarabish: {e}", file=sys.stderr)
            codes = {}
        joined = None
        if group_id is not None:
            try:
                joined = groups.add_games(group_id, [(g.id, tuple(g.doc["players"]))
                                                     for g in made])
            except StoreError as e:
                _print_imported(ids, codes, {game.id: game.doc for game in made}, base)
                print(f"tarabish: the games were imported but did not join the group: "
                      f"{one_line(str(e))}", file=sys.stderr)
                return EXIT_FAILED
    _print_imported(ids, codes, {game.id: game.doc for game in made}, base)
    if joined is not None:
        print(f"They joined the group {joined.name} ({len(joined.games)} games).",
              file=sys.stderr)
    return EXIT_OK


def _address_base(args: argparse.Namespace) -> str | None:
    """Where the imported games' addresses are printed: the server's rule
    (`scorer.sharing.Reach.bases`) with only the `--public-url` to go by; None with none
    (a command cannot know the address a proxy forwards). ValueError for a bad one."""
    from scorer.sharing import Reach, public_url_of

    bases = Reach(public_url_of(getattr(args, "public_url", None))).bases()
    return bases[0] if bases else None


def _print_imported(ids: list[str], codes: dict[str, str],
                    docs: dict[str, dict[str, Any]] | None = None,
                    base: str | None = None) -> None:
    """The new ids on stdout, one a line (for scripts); each game's table code beside a
    player's words on stderr (for the person at the terminal), and its address on
    `base` (a community's public address) if known."""
    from scorer.sharing import game_url

    for game_id in ids:
        print(game_id)
    for n, game_id in enumerate(ids):
        doc = (docs or {}).get(game_id)
        who = f" ({one_line(_teams_line(doc), 70)})" if doc else ""
        code = codes.get(game_id)
        said = (f"table code {code}" if code else
                "no table code yet: it gets one when the table server starts")
        if base is not None:
            said += f", at {game_url(base, game_id)}"
        print(f"Game {n + 1} of {len(ids)}, {game_id}{who}: {said}", file=sys.stderr)


def _teams_line(doc: dict[str, Any]) -> str:
    p = doc.get("players", ["?"] * 4)
    return f"{p[0]} & {p[2]} v {p[1]} & {p[3]}"


def _hand_off(busy: FolderBusy, docs: list[dict[str, Any]], group: str | None,
              base: str | None = None) -> int:
    """Give the games to the server holding the folder; it stores them (and puts them
    in `group`)."""
    try:
        ids, codes = hand_to_server(busy, docs, group)
    except HandOffFailed as e:
        print(f"tarabish: {e}", file=sys.stderr)
        return e.exit_code
    _print_imported(ids, codes, dict(zip(ids, docs, strict=False)), base)
    return EXIT_OK


def _load_game_file(name: str) -> tuple[dict[str, Any] | None, str | None]:
    """Read, decode and check one file as `check` does; the error is one short line."""
    try:
        doc = load_game_doc(name)
        # The strict reading of a file (control characters in names refused...);
        # the store's own check below replays it as every saved game is.
        parse_game(doc)
    except GameFileError as e:
        where = "" if e.hand is None else f"Hand {e.hand + 1}: "
        return None, one_line(where + e.message)
    if not isinstance(doc, dict):
        return None, "is not a game file (expected a JSON object)"
    try:
        validate_doc(doc)
    except InvalidGame as e:
        return None, one_line(str(e))
    return doc, None


@reports_no_store
def run_export(args: argparse.Namespace) -> int:
    if getattr(args, "csv", False):
        return run_export_csv(args)
    if args.game is None:
        print("tarabish: say which game to export (its id), or use --csv for every hand "
              "of every game.", file=sys.stderr)
        return EXIT_BAD_INPUT
    with open_store(args) as store:
        game_id = find_game(store, args.game)
        if game_id is None:
            return EXIT_FAILED
        try:
            game = store.get_game(game_id)
        except GameNotFound as e:
            print(f"tarabish: {one_line(str(e))}", file=sys.stderr)
            return EXIT_FAILED
    doc = game.doc if getattr(args, "no_history", False) else game.file_doc()
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if args.output is None or args.output == "-":
        sys.stdout.write(json_for_terminal(text))
        return EXIT_OK
    hands = game.doc.get("hands")
    count = counted(len(hands) if isinstance(hands, list) else 0, "hand")
    return write_file(args.output, text.encode("utf-8"), f"game {game.id} ({count})")


@reports_no_store
def run_games(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        games = store.list_games()
        where = ("the community's database" if backends_of(store).community
                 else label(str(store.data_dir)))
    if args.json:
        print(json_for_terminal(json.dumps([g.model_dump(mode="json") for g in games],
                                           indent=2, ensure_ascii=False)))
        return EXIT_OK
    if not games:
        print(f"No saved games in {where}.")
        return EXIT_OK
    print(format_games(games))
    return EXIT_OK


def format_games(games: list[GameSummary]) -> str:
    """The game list as a plain-text table."""
    header = ("ID", "STARTED", "LAST HAND", "PLAYERS", "SCORE", "WINNER")
    rows = [header]
    flagged = False
    for g in games:
        p = g.players
        score = f"{g.totals[0]}-{g.totals[1]}"
        if g.invalid_from is not None:
            score += "*"
            flagged = True
        rows.append((
            g.id,
            _when(g.created),
            _when(g.updated) if g.hand_count else "-",
            # Names saved before they were checked may hold ESC, CR...: escaped, cut short.
            one_line(f"{p[0]} & {p[2]} v {p[1]} & {p[3]}", 2 * MAX_TEAM_NAME_LENGTH + 3),
            score,
            one_line(g.teams[g.winner], MAX_TEAM_NAME_LENGTH) if g.winner is not None else "-",
        ))
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in rows]
    if flagged:
        lines.append("* a hand needs fixing; the score counts the hands before it")
    return "\n".join(lines)


def _when(dt: datetime) -> str:
    return str(dt.astimezone().strftime("%Y-%m-%d %H:%M"))
