"""`tarabish ratings [GAME.json ...] [--json]`: openskill ratings over finished games."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rules.errors import GameFileError
from scorer.backends import open_backends
from scorer.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_OK,
    NoStore,
    data_dir_option,
    database_of,
    groups_of,
    open_store,
)
from scorer.commands.game_input import load_game_doc
from scorer.machine.paths import ENV_VAR, resolve_data_dir
from scorer.ratings import PROVISIONAL_GAMES, Match, Ratings, compute_ratings
from scorer.ratings.sources import as_members, match_of_doc, stored_matches
from scorer.store import StoreError
from scorer.text.terminal import for_terminal, json_for_terminal, label, one_line


def register(sub: Any) -> None:
    """Add the `ratings` subcommand."""
    p = sub.add_parser(
        "ratings", parents=[data_dir_option()],
        help="ratings from finished games (openskill, Plackett-Luce)",
        description="Rate the players of finished games, one game after another: the "
        "game files given, in the order given, or else every saved game in the order "
        "the games finished. Unfinished games are left out. Exits 2 on a file it "
        "cannot read or a data folder that does not exist.",
    )
    p.add_argument("files", nargs="*", metavar="GAME.json",
                   help="game files (tarabish-game/1), rated in this order")
    p.add_argument("--group", metavar="GROUP",
                   help="the group's games (by its name or id), each player named as the "
                   "group's member; with game files, only the names")
    p.add_argument("--json", action="store_true", help="print the ratings as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    members = None
    if getattr(args, "group", None) is not None:
        members = _group_members(args, args.group)
        if members is None:
            return EXIT_BAD_INPUT
    if args.files:
        matches = _from_files(args.files)
    else:
        matches = _from_store(args, only=None if members is None else members[1])
    if matches is None:
        return EXIT_BAD_INPUT
    if members is not None:
        matches = as_members(matches, members[0])
    ratings = compute_ratings(matches)
    if args.json:
        print(json_for_terminal(json.dumps(ratings.contract(), ensure_ascii=False, indent=2)))
    else:
        print(for_terminal(format_ratings(ratings)))
    return EXIT_OK


def _from_files(files: list[str]) -> list[Match] | None:
    matches: list[Match] = []
    for name in files:
        try:
            match = match_of_doc(load_game_doc(name))
        except GameFileError as exc:
            where = ":" if exc.hand is None else f" has a problem in hand {exc.hand + 1}:"
            print(f"tarabish: {label(name)}{where} {one_line(exc.message)}", file=sys.stderr)
            return None
        if match is not None:
            matches.append(match)
    return matches


def _group_members(args: argparse.Namespace,
                   group: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The group's members and games; None (said on stderr) if there is no such group."""

    try:
        if database_of(args) is not None:
            with open_store(args) as store:
                found = groups_of(store).find(group)
            return found.members, found.games
        where = resolve_data_dir(getattr(args, "data_dir", None)
                                 or os.environ.get(ENV_VAR, "").strip() or None)
        with open_backends(where, read_only=True).games as folder:
            found = groups_of(folder).find(group)
    except NoStore:
        return None
    except (StoreError, OSError) as exc:
        print(f"tarabish: {one_line(str(exc))}", file=sys.stderr)
        return None
    return found.members, found.games


def _from_store(args: argparse.Namespace,
                only: tuple[str, ...] | None = None) -> list[Match] | None:
    try:
        if database_of(args) is not None:
            with open_store(args) as store:
                return stored_matches(store, only)
    except NoStore:
        return None
    named = getattr(args, "data_dir", None) or os.environ.get(ENV_VAR, "").strip() or None
    where = resolve_data_dir(named)
    if not where.exists() and named is None:
        return []  # the user's own folder: no game saved on this machine yet
    if not where.is_dir():
        what = "is not a folder" if where.exists() else "does not exist"
        print(f"tarabish: the data folder {label(str(where))} {what}", file=sys.stderr)
        return None
    try:
        store = open_backends(where, read_only=True).games
    except OSError as e:
        print(f"tarabish: cannot use the data folder {label(str(where))} ({e.strerror or e})",
              file=sys.stderr)
        return None
    with store:
        for problem in store.problems:
            print(f"tarabish: {one_line(problem)}", file=sys.stderr)
        return stored_matches(store, only)


def format_ratings(ratings: Ratings) -> str:
    """A table: rank, player, rating, games, wins; provisional ratings marked."""
    if not ratings.players:
        return "No finished games to rate yet."
    rows = [("", "Player", "Rating", "Games", "Wins", "")]
    for rank, p in enumerate(ratings.players, start=1):
        rows.append((str(rank), p.player, f"{p.rating:.1f}", str(p.games), str(p.wins),
                     "provisional" if p.provisional else ""))
    widths = [max(len(row[i]) for row in rows) for i in range(6)]
    right = {0, 2, 3, 4}
    lines = [
        "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                  for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
        for row in rows
    ]
    games = ratings.games
    lines += ["", f"{games} finished game{'' if games == 1 else 's'} rated, one after another.",
              "The rating is a cautious estimate of skill (mu - 3 sigma): it starts low",
              f"and climbs as the games tell us more. Provisional: under {PROVISIONAL_GAMES} "
              "games."]
    return "\n".join(lines)
