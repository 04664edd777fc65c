"""`tarabish group new|add|remove|list|code`: a group's games and members from the
command line (issue 33). The groups live beside the games: a data folder's
groups.json, or a community's database."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from scorer.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    data_dir_option,
    find_game,
    groups_of,
    open_for_writing,
    open_store,
    reports_no_store,
)
from scorer.groups.ports import GroupsPort
from scorer.handoff.local_import import EXIT_NOT_SAVED, HandOffFailed
from scorer.store import StoreError
from scorer.store.folder_lock import FolderBusy
from scorer.store.ports import GamesPort
from scorer.text.terminal import for_terminal, json_for_terminal, one_line


def register(sub: Any) -> None:
    """Add `group` and its commands."""
    p = sub.add_parser("group", help="groups: a family, a weekly table, a league",
                       description="Make groups and put games in them. Ratings and "
                       "statistics can then be counted for one group (tarabish ratings "
                       "--group NAME), where a player is a member's name.")
    cmds = p.add_subparsers(dest="group_command", metavar="COMMAND", required=True)

    new = cmds.add_parser("new", parents=[data_dir_option()], help="make a group",
                          description="Make a group and print its keeper code, once.")
    new.add_argument("name", metavar="NAME")
    new.add_argument("--member", action="append", default=[], metavar="NAME",
                     help="a member (repeat for each; the players of its games join anyway)")
    new.add_argument("--json", action="store_true", help="print the group as JSON")
    new.set_defaults(run=reports_no_store(run_new))

    add = cmds.add_parser("add", parents=[data_dir_option()], help="put games in a group",
                          description="Put saved games in a group; their players become "
                          "members.")
    add.add_argument("group", metavar="GROUP", help="the group's name or id")
    add.add_argument("games", nargs="+", metavar="GAME", help="a saved game's id (its start)")
    add.set_defaults(run=reports_no_store(run_add))

    remove = cmds.add_parser("remove", parents=[data_dir_option()],
                             help="take a game out of a group")
    remove.add_argument("group", metavar="GROUP")
    remove.add_argument("game", metavar="GAME")
    remove.set_defaults(run=reports_no_store(run_remove))

    listing = cmds.add_parser("list", parents=[data_dir_option()], help="list the groups")
    listing.add_argument("--json", action="store_true",
                         help='print [{"id", "name", "members", "games", "created"}]')
    listing.set_defaults(run=reports_no_store(run_list))

    code = cmds.add_parser("code", parents=[data_dir_option()],
                           help="a new keeper code for a group (the old one stops working)")
    code.add_argument("group", metavar="GROUP")
    code.add_argument("--end-others", action="store_true",
                      help="also end the rights of every phone that keeps the group now")
    code.set_defaults(run=reports_no_store(run_code))


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


class _Said(Exception):
    """The command has printed why it stopped (bad input)."""


def _changing(args: argparse.Namespace, what: str,
              act: Callable[[GamesPort, GroupsPort], str],
              handed: Callable[[FolderBusy], str] | None = None) -> int:
    """Run `act` on the groups with the folder held for writing; print what it returns.
    A folder held by the table server goes to `handed` (the server does it), if given.
    A busy folder or a refusal is one line on stderr."""
    try:
        store = open_for_writing(args, what)
    except FolderBusy as busy:
        if handed is not None and busy.holder is not None and busy.holder.key is not None:
            try:
                print(handed(busy))
            except HandOffFailed as failed:
                print(f"tarabish: {one_line(str(failed))}", file=sys.stderr)
                return EXIT_BAD_INPUT if failed.exit_code == EXIT_NOT_SAVED else EXIT_FAILED
            return EXIT_OK
        print(f"tarabish: {busy}", file=sys.stderr)
        print("Groups are changed by one program at a time: stop the server first, or "
              "change the group on its page.", file=sys.stderr)
        return EXIT_FAILED
    with store:
        try:
            said = act(store, groups_of(store))
        except StoreError as exc:
            print(f"tarabish: {one_line(str(exc))}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except _Said:
            return EXIT_BAD_INPUT
    print(said)
    return EXIT_OK


def run_new(args: argparse.Namespace) -> int:
    def said(contract: dict[str, Any], code: str) -> str:
        if args.json:
            return json_for_terminal(json.dumps({**contract, "keeper_code": code},
                                                ensure_ascii=False, indent=2))
        return for_terminal(f"Made the group {contract['name']} ({contract['id']}). Keeper "
                            f"code: {code[:4]} {code[4:]} (shown only now: a phone that "
                            "enters it can change the group).")

    def act(_store: GamesPort, groups: GroupsPort) -> str:
        group, code = groups.create(args.name, members=args.member)
        return said(group.contract(), code)

    def handed(busy: FolderBusy) -> str:
        """The server holds the folder: it makes the group, as it imports games."""
        from scorer.handoff.local_import import GROUP_PATH, post_to_server

        answer = post_to_server(busy, GROUP_PATH, {"name": args.name, "members": args.member},
                                "the group", "made")
        contract, code = answer.get("group"), answer.get("code")
        if not (isinstance(contract, dict) and isinstance(code, str)):
            raise HandOffFailed(f"{busy} It gave an answer this version does not understand.")
        return said(contract, code)

    return _changing(args, "tarabish group new", act, handed)


def run_add(args: argparse.Namespace) -> int:
    def act(store: GamesPort, groups: GroupsPort) -> str:
        group = groups.find(args.group)
        games: list[tuple[str, tuple[str, ...]]] = []
        for prefix in args.games:
            game_id = find_game(store, prefix)
            if game_id is None:
                raise _Said
            games.append((game_id, tuple(store.get_game(game_id).doc["players"])))
        after = groups.add_games(group.id, games)
        joined = len(after.games) - len(group.games)
        return for_terminal(f"{after.name}: {plural(joined, 'game')} added, "
                            f"{len(after.games)} in all, {plural(len(after.members), 'member')}.")

    return _changing(args, "tarabish group add", act)


def run_remove(args: argparse.Namespace) -> int:
    def act(_store: GamesPort, groups: GroupsPort) -> str:
        group = groups.find(args.group)
        game_id = next((g for g in group.games if g.startswith(args.game.strip().lower())),
                       args.game)
        after = groups.remove_game(group.id, game_id)
        return for_terminal(f"{after.name}: game {game_id} taken out, {len(after.games)} "
                            "left.")

    return _changing(args, "tarabish group remove", act)


def run_list(args: argparse.Namespace) -> int:
    with open_store(args) as store:
        found = groups_of(store).list_groups()
    if args.json:
        print(json_for_terminal(json.dumps([g.contract() for g in found], ensure_ascii=False,
                                           indent=2)))
        return EXIT_OK
    if not found:
        print("No groups yet: make one with tarabish group new NAME.")
    for g in found:
        print(for_terminal(f"{g.id}  {g.name}: {plural(len(g.members), 'member')}, "
                           f"{plural(len(g.games), 'game')}"))
    return EXIT_OK


def run_code(args: argparse.Namespace) -> int:
    def act(_store: GamesPort, groups: GroupsPort) -> str:
        group = groups.find(args.group)
        code = groups.new_code(group.id, None, end_others=args.end_others)
        ended = " No phone keeps the group now." if args.end_others else ""
        return for_terminal(f"New keeper code of {group.name}: {code[:4]} {code[4:]} "
                            f"(shown only now; the old one no longer works).{ended}")

    return _changing(args, "tarabish group code", act)
