"""`tarabish stats`, `tarabish export --csv` and `tarabish rename-player`."""

from __future__ import annotations

import argparse
import io
import json
import sys
from datetime import date
from typing import Any

from rules.stats import Relation, StatsFilter
from scorer.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_NOT_SAVED,
    EXIT_OK,
    NoStore,
    counted,
    data_dir_option,
    find_game,
    open_store,
    write_file,
)
from scorer.stats import RenameError, StatsService, rename_player, write_hands_csv
from scorer.stats.renaming import RenameResult
from scorer.stats.text import format_stats
from scorer.store import GameNotFound, StoreError
from scorer.store.folder_lock import FolderBusy


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date: write it as YYYY-MM-DD, e.g. 2026-11-22"
        ) from None


def register(sub: Any) -> None:
    """Add the `stats` and `rename-player` subcommands."""
    p = sub.add_parser("stats", parents=[data_dir_option()],
                       help="figures per player and partnership over saved games")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--since", type=_day, metavar="DATE", help="only games started on or after")
    p.add_argument("--until", type=_day, metavar="DATE", help="only games started on or before")
    p.add_argument("--player", metavar="NAME",
                   help="only this player's games: them and their partners")
    p.add_argument("--opponents", action="store_true",
                   help="with --player: them and their opponents instead (partnerships: "
                   "theirs and their opponents')")
    p.set_defaults(run=run_stats)

    p = sub.add_parser(
        "rename-player", parents=[data_dir_option()],
        help="rename a player in every saved game (a name already used merges the two)",
        description="Rename a player in every saved game; a name already in use merges the "
        "two players. Each game is changed as an ordinary, revisioned edit. Run it while no "
        "table server is using the same data folder.",
    )
    p.add_argument("old", metavar="NAME", help="the name as saved (any capitals)")
    p.add_argument("new", metavar="NEW_NAME", help="the name to use from now on")
    p.add_argument("--group", metavar="GROUP",
                   help="only in this group's games (its name or id), and in its members, "
                   "spelt as NEW_NAME: what a keeper's rename does on the phone")
    p.set_defaults(run=run_rename)


def run_stats(args: argparse.Namespace) -> int:
    if args.opponents and args.player is None:
        print("tarabish: --opponents needs --player NAME", file=sys.stderr)
        return EXIT_BAD_INPUT
    wanted = StatsFilter(
        since=args.since, until=args.until, player=args.player,
        relation=Relation.OPPONENTS if args.opponents else Relation.PARTNERS,
    )
    try:
        with open_store(args) as store:
            stats = StatsService(store).stats(wanted)
    except NoStore:
        return EXIT_FAILED
    if args.json:
        print(json.dumps(stats.contract(), indent=2, ensure_ascii=False))
    else:
        print(format_stats(stats, wanted))
    return EXIT_OK


def run_rename(args: argparse.Namespace) -> int:
    try:
        with open_store(args, read_only=False) as store:
            if getattr(args, "group", None) is not None:
                result = _rename_in_group(store, args)
            else:
                result = rename_player(store, args.old, args.new, by="the command line")
    except NoStore:
        return EXIT_FAILED
    except FolderBusy as busy:
        print(f"tarabish: {busy} Rename players from the app's Statistics screen "
              "while it runs.", file=sys.stderr)
        return EXIT_FAILED
    except RenameError as e:
        print(f"tarabish: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except StoreError as e:  # a full disk: the games renamed so far are kept
        print(f"tarabish: {e}", file=sys.stderr)
        return EXIT_NOT_SAVED
    count = len(result.renamed)
    print(f"Renamed in {count} game{'' if count == 1 else 's'}"
          + (f": {' '.join(result.renamed)}" if count else "."))
    for game_id, why in result.skipped:
        print(f"tarabish: game {game_id} was left as it was: {why}", file=sys.stderr)
    return EXIT_FAILED if result.skipped else EXIT_OK


def _rename_in_group(store: Any, args: argparse.Namespace) -> RenameResult:
    """`--group`: the member renamed in the group's games and its list, as a keeper's
    phone does it (`GroupActions.rename_member`); RenameError if it cannot be."""
    from scorer.commands.common import groups_of
    from scorer.groups.model import member_key

    groups = groups_of(store)
    try:
        group = groups.find(args.group)
    except StoreError as e:
        raise RenameError(str(e)) from None
    if group.member(args.old) is None:
        raise RenameError(f"{args.old.strip()} is not a member of {group.name}.")
    held = set(group.games)
    key = member_key(args.old)
    sat = any(s.id in held and any(member_key(p) == key for p in s.players)
              for s in store.list_games())
    result = (rename_player(store, args.old, args.new, by="the command line", among=sorted(held))
              if sat else RenameResult())
    try:
        groups.rename_member(group.id, args.old, args.new)
    except StoreError as e:
        raise RenameError(str(e)) from None
    return result


def run_export_csv(args: argparse.Namespace) -> int:
    """`tarabish export --csv [GAME] [-o FILE]`: every hand, of one game or of all."""
    buffer = io.StringIO(newline="")
    try:
        with open_store(args) as store:
            ids: list[str] | None = None
            if args.game is not None:
                game_id = find_game(store, args.game)
                if game_id is None:
                    return EXIT_FAILED
                ids = [game_id]
            rows = write_hands_csv(store, buffer, ids)
    except NoStore:
        return EXIT_FAILED
    except GameNotFound as e:
        print(f"tarabish: {e}", file=sys.stderr)
        return EXIT_FAILED
    text = buffer.getvalue()
    if args.output is None or args.output == "-":
        sys.stdout.write(text)
        return EXIT_OK
    source = "every saved game" if ids is None else f"game {ids[0]}"
    # utf-8-sig: spreadsheet programs then read accented names correctly.
    return write_file(args.output, text.encode("utf-8-sig"),
                      f"{counted(rows, 'hand')} of {source}")
