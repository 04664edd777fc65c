"""`tarabish event new | round | standings | export` and `tarabish import FILE --event E
--table T`: club nights from the command line (docs/CLUB_NIGHT.md).

Changes (`new`, `round`, `import --event`) take the data folder's lock, or, while a
table server holds it, are handed to that server (`scorer.events.requests`), so one
process alone writes the folder. `standings` and `export` only read: they work
beside a running server. Bad input exits 2 with one line saying why.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from typing import Any

from rules.errors import GameFileError
from rules.game_json import decode_game_json
from scorer.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    data_dir_option,
    events_of,
    groups_of,
    open_for_writing,
    open_store,
    reports_no_store,
    write_file,
)
from scorer.commands.game_input import load_game_doc, read_game_bytes
from scorer.events.model import RANKING_RULE, parse_spec
from scorer.events.report import standings_json
from scorer.events.requests import EVENT_PATH, answer
from scorer.events.service import EventService
from scorer.handoff.local_import import HandOffFailed, post_to_server
from scorer.store.errors import StoreError
from scorer.store.folder_lock import FolderBusy
from scorer.text.terminal import json_for_terminal, label, one_line

MAX_EVENT_FILE_BYTES = 1024 * 1024
NEW_HELP = """\
Create a club night from FILE.json and print its id. The file:

  {"name": "Legion Thursday", "format": "swiss", "rounds": 4, "target": 500,
   "house_rules": {"dealer_may_pass": true},
   "teams": [["Ann", "Bob"], ["Cid", "Dee"], ...]}

"format" is "swiss" (the default), "round_robin" or "progressive"; a progressive
night lists single players instead: "players": ["Ann", "Bob", ...]. "rounds" may
be left out (Swiss: ceil(log2(teams)) + 1; round robin: everyone meets everyone).
Optional: "clock_minutes" (rounds on the clock), "seed" (the draw of round 1) and
"group" (a group's id, or --group NAME: the night's games join the group, and a
progressive night's partners are the fairest the group's ratings allow).
"house_rules" takes the keys of a game file's "rules" (docs/GAME_FORMAT.md). The
organiser code is printed on stderr: enter it on a phone under Club night.
"""
CSV_COLUMNS = ("round", "table", "team_1", "team_2", "score_1", "score_2", "winner",
               "result", "game")


class _Done(Exception):
    """The command has said what went wrong; exit with `code`."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def register(sub: Any) -> None:
    """Add `event` and its actions."""
    common = data_dir_option()
    parser = sub.add_parser("event", help="club nights: create one, start rounds, standings",
                            description="Club nights: many tables, one standings board "
                            "(docs/CLUB_NIGHT.md).")
    actions = parser.add_subparsers(dest="event_action", metavar="ACTION", required=True)
    p = actions.add_parser("new", parents=[common], help="create a club night from FILE.json",
                           description=NEW_HELP,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE.json", help="the event's settings and entrants")
    p.add_argument("--group", metavar="GROUP",
                   help="run the night for this group (its name or id): its games join it")
    p.set_defaults(run=run_new)
    p = actions.add_parser("round", parents=[common],
                           help="start the next round and print its tables")
    p.add_argument("event", metavar="EVENT", help="the event's id (or its first characters)")
    p.add_argument("--json", action="store_true", help="print the round as JSON")
    p.set_defaults(run=run_round)
    p = actions.add_parser("standings", parents=[common], help="print the standings")
    p.add_argument("event", metavar="EVENT", help="the event's id (or its first characters)")
    p.add_argument("--json", action="store_true", help="print the standings as JSON")
    p.set_defaults(run=run_standings)
    p = actions.add_parser("export", parents=[common],
                           help="the results (one row a game) and every game file")
    p.add_argument("event", metavar="EVENT", help="the event's id (or its first characters)")
    p.add_argument("--csv", action="store_true", help="only the results, as CSV")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    p.set_defaults(run=run_export)


def _said(run: Any) -> Any:
    """`run` with its `_Done` turned into an exit code."""
    def wrapped(args: argparse.Namespace) -> int:
        try:
            code: int = run(args)
        except _Done as done:
            return done.code
        return code

    wrapped.__doc__ = run.__doc__
    return reports_no_store(wrapped)


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> _Done:
    print(f"tarabish: {one_line(message, 300)}", file=sys.stderr)
    return _Done(code)


def _change(args: argparse.Namespace, request: dict[str, Any]) -> dict[str, Any]:
    """Do `request` here, or hand it to the server that holds the data folder."""
    try:
        store = open_for_writing(args, "tarabish event")
    except FolderBusy as busy:
        try:
            return post_to_server(busy, EVENT_PATH, request)
        except HandOffFailed as exc:
            raise _fail(str(exc), exc.exit_code) from None
    with store:
        service = events_of(store)
        try:
            return answer(service, request)
        except ValueError as exc:  # EventError, StoreError (NotSaved too): said, exit 2
            raise _fail(str(exc)) from None
        finally:
            service.events.close()


def _event_id(args: argparse.Namespace, service: EventService | None = None) -> str:
    """The one event whose id starts with what was typed."""
    if service is None:
        with open_store(args) as store:
            return _event_id(args, events_of(store))
    typed = str(args.event).strip().lower()
    found = service.find(typed)
    if typed in found:
        return typed
    if len(found) == 1:
        return found[0]
    what = "no club night" if not found else f"{len(found)} club nights"
    raise _fail(f"{what} with an id starting {typed[:20]!r}.")


@_said
def run_new(args: argparse.Namespace) -> int:
    """Create the event; its id on stdout, its organiser code on stderr."""
    try:
        data = read_game_bytes(args.file)
        if len(data) > MAX_EVENT_FILE_BYTES:
            raise _fail(f"{args.file}: an event file is at most 1 MB")
        spec = decode_game_json(data)
        parse_spec(spec)  # said here in one line, before anything is opened
    except GameFileError as exc:
        raise _fail(f"{label(args.file)}: {exc.message}") from None
    except ValueError as exc:
        raise _fail(f"{label(args.file)}: {exc}") from None
    if args.group is not None or spec.get("group") is not None:
        spec = {**spec, "group": _group_id(args, spec.get("group"))}
    made = _change(args, {"action": "new", "spec": spec})
    print(made.get("id"))
    code = str(made.get("code", ""))
    print(f"Club night {one_line(str(made.get('name', '')), 60)}: organiser code "
          f"{code[:4]} {code[4:]} (enter it on a phone under Club night; keep it to "
          "yourself).", file=sys.stderr)
    return EXIT_OK


def _group_id(args: argparse.Namespace, in_file: Any) -> str:
    """The id of the group the night is for (`--group`: a name or id; else the file's
    "group"); one line and exit 2 if there is no such group."""
    with open_store(args) as store:
        groups = groups_of(store)
        try:
            if args.group is not None:
                found = groups.find(str(args.group)).id
                if in_file is not None and in_file != found:
                    raise _fail(f'{label(args.file)} is for the group "{in_file}", '
                                f"not {one_line(str(args.group), 60)}")
                return found
            return groups.get(str(in_file)).id
        except StoreError as exc:  # GroupNotFound, BadGroup (several ids start so)
            raise _fail(str(exc)) from None


@_said
def run_round(args: argparse.Namespace) -> int:
    """Start the next round; print its tables (and, as text, their table codes)."""
    made = _change(args, {"action": "round", "event": _event_id(args)})
    shown = made.get("round", {})
    if args.json:
        print(json_for_terminal(json.dumps(shown, ensure_ascii=False, indent=2)))
        return EXIT_OK
    codes = made.get("codes", {})
    print(f"Round {shown.get('round')}")
    for table in shown.get("tables", []):
        seats = table.get("seats", ["?"] * 4)
        code = codes.get(str(table.get("table")))
        print(one_line(f"  Table {table.get('table')}: {seats[0]} & {seats[2]} v "
                       f"{seats[1]} & {seats[3]}  (game {table.get('game')}"
                       f"{f', table code {code}' if code else ''})", 200))
    if shown.get("bye"):
        print(one_line(f"  Bye: {', '.join(shown['bye'])}", 200))
    return EXIT_OK


@_said
def run_standings(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        service = events_of(store)
        event_id = _event_id(args, service)
        try:
            view = service.view(event_id)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    out = standings_json(view.id, view.night, view.standings, view.rounds_played)
    if args.json:
        print(json_for_terminal(json.dumps(out, ensure_ascii=False, indent=2)))
        return EXIT_OK
    rows = [("RANK", "ENTRANT", "PLAYED", "WON", "LOST", "FOR", "AGAINST", "DIFF")]
    for line in view.standings:
        rows.append((str(line.rank), one_line(" & ".join(line.names), 64), str(line.played),
                     str(line.wins), str(line.losses), str(line.points_for),
                     str(line.points_against), f"{line.difference:+d}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    print(f"{one_line(view.night.name, 60)}: {view.rounds_played} of {view.night.rounds} "
          "rounds played")
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    print(RANKING_RULE)
    return EXIT_OK


@_said
def run_export(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        service = events_of(store)
        event_id = _event_id(args, service)
        try:
            exported = service.export(event_id)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    if args.csv:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for row in exported["results"]:
            writer.writerow([" & ".join(v) if isinstance(v, list) else ("" if v is None else v)
                             for v in (row[c] for c in CSV_COLUMNS)])
        text = buffer.getvalue()
    else:
        text = json.dumps(exported, ensure_ascii=False, indent=2) + "\n"
    if args.output is None or args.output == "-":
        sys.stdout.write(json_for_terminal(text))
        return EXIT_OK
    what = f"club night {event_id} ({len(exported['results'])} results)"
    return write_file(args.output, text.encode("utf-8"), what)


def run_event_import(args: argparse.Namespace) -> int:
    """`tarabish import FILE --event E --table T`: a finished paper game as the table's
    game of the current round."""
    try:
        if len(args.files) != 1:
            raise _fail("give one game file for one table")
        table = str(args.table or "").strip()
        if not table.isdigit() or len(table) > 4:
            raise _fail("say which table the game was played at, by its number (--table 3)")
        try:
            doc = load_game_doc(args.files[0])
        except GameFileError as exc:
            raise _fail(f"{label(args.files[0])}: {exc.message}") from None
        made = _change(args, {"action": "import", "event": _event_id(args),
                              "table": int(table), "game": doc})
    except _Done as done:
        return done.code
    print(made.get("id"))
    code = made.get("code")
    print(f"Table {table}'s game is now {made.get('id')}"
          f"{f' (table code {code})' if code else ''}.", file=sys.stderr)
    return EXIT_OK

