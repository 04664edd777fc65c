"""`tarabish group new NAME | add GROUP GAME | list [--json]`: groups of players.

A group is a name, its members and its games; `tarabish ratings --group G` rates
its games only. Adding a game adds its four players as members (capitals do not
matter). Bad input: one line on stderr, exit 2, nothing changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from scorer.commands.common import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_OK,
    data_dir_option,
    find_game,
    reports_no_store,
)
from scorer.commands.group_source import open_groups
from scorer.store.errors import StoreError
from scorer.store.folder_lock import FolderBusy
from scorer.store.group_models import Group
from scorer.terminal_text import for_terminal, json_for_terminal, one_line

GROUP_LIST_FORMAT = "tarabish-groups/1"


def register(sub: Any) -> None:
    """Add the `group` subcommand and its own subcommands."""
    p = sub.add_parser("group", help="groups of players who play together",
                       description="Keep groups: a name, its members and its games. "
                       "`tarabish ratings --group NAME` rates a group's games only.")
    g = p.add_subparsers(dest="group_command", metavar="{new,add,list}", required=True)
    new = g.add_parser("new", parents=[data_dir_option()], help="make a group",
                       description="Make a group and print its keeper code (shown once: "
                       "a phone needs it to change the group).")
    new.add_argument("name", metavar="NAME")
    new.set_defaults(run=_new)
    add = g.add_parser("add", parents=[data_dir_option()], help="add a saved game to a group",
                       description="Add a saved game (its id, or the start of it) to a "
                       "group; its four players become members.")
    add.add_argument("group", metavar="GROUP", help="the group's name or id")
    add.add_argument("game", metavar="GAME", help="a saved game's id")
    add.set_defaults(run=_add)
    ls = g.add_parser("list", parents=[data_dir_option()], help="list the groups",
                      description="List the groups. --json prints {\"format\": "
                      f"\"{GROUP_LIST_FORMAT}\", \"groups\": [{{\"id\", \"name\", "
                      "\"members\", \"games\"}, ...]}.")
    ls.add_argument("--json", action="store_true", help="print the groups as JSON")
    ls.set_defaults(run=_list)


def _say(message: str) -> None:
    print(f"tarabish: {one_line(message, 300)}", file=sys.stderr)


def _busy(busy: FolderBusy) -> int:
    _say(f"{busy} Change groups on the server's page, or stop it first.")
    return EXIT_FAILED


@reports_no_store
def _new(args: argparse.Namespace) -> int:
    try:
        with open_groups(args, writing=True) as place:
            group, code = place.groups.new_group(args.name)
    except FolderBusy as busy:
        return _busy(busy)
    except StoreError as e:
        _say(str(e))
        return EXIT_BAD_INPUT
    print(for_terminal(f"Made the group {group.name} (id {group.id}).\n"
                       f"Keeper code: {code} (shown once: a phone needs it to change "
                       "the group)."))
    return EXIT_OK


@reports_no_store
def _add(args: argparse.Namespace) -> int:
    try:
        with open_groups(args, writing=True) as place:
            group = place.groups.get_group(args.group)
            game_id = find_game(place.games, args.game)
            if game_id is None:
                return EXIT_BAD_INPUT
            players = place.games.get_game(game_id).doc.get("players", [])
            group = place.groups.add_game(group.id, game_id)
            for name in players:
                group = place.groups.add_member(group.id, str(name))
    except FolderBusy as busy:
        return _busy(busy)
    except StoreError as e:
        _say(str(e))
        return EXIT_BAD_INPUT
    print(for_terminal(f"Added game {game_id} to {group.name}: "
                       f"{len(group.games)} games, {len(group.members)} members."))
    return EXIT_OK


@reports_no_store
def _list(args: argparse.Namespace) -> int:
    try:
        with open_groups(args, writing=False) as place:
            groups = place.groups.list_groups()
    except StoreError as e:
        _say(str(e))
        return EXIT_BAD_INPUT
    if args.json:
        doc = {"format": GROUP_LIST_FORMAT, "groups": [g.contract() for g in groups]}
        print(json_for_terminal(json.dumps(doc, ensure_ascii=False, indent=2)))
    else:
        print(for_terminal(format_groups(groups)))
    return EXIT_OK


def format_groups(groups: list[Group]) -> str:
    """One line a group: name, id, how many members and games."""
    if not groups:
        return "No groups yet: make one with `tarabish group new NAME`."
    return "\n".join(f"{g.name} (id {g.id}): {len(g.members)} members, {len(g.games)} games"
                     for g in groups)
