"""Renaming a player, or merging two names into one, across every stored game.

Each game is changed through the store's own revisioned edit (`update_game`),
so every change is noted in the game's history like any other and a game
changed on a phone meanwhile is read again, never overwritten.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from pydantic import ValidationError

from rules.game import MAX_NAME_LENGTH, Game
from rules.messages import explain
from rules.stats import player_key
from scorer.store import GameNotFound, InvalidGame, StaleRevision
from scorer.store.ports import GamesPort

MAX_TRIES = 3  # per game, when another phone keeps saving it
NOT_YOURS = "this phone does not have the game's table code"


class RenameError(ValueError):
    """The rename cannot be done at all (blank or unknown name); nothing was changed."""


@dataclass
class RenameResult:
    """Which games were re-labelled, and which were left as they were, and why."""

    renamed: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def rename_player(
    store: GamesPort, old: str, new: str, allowed: Callable[[str], bool] | None = None,
    by: str | None = None, among: Collection[str] | None = None,
) -> RenameResult:
    """Call the player `old` (any spelling) `new` in every game they sat in.

    If `new` is another player's name, the two become one player (a merge),
    except in a game where both sat at the table, which is skipped and reported.
    `allowed(game_id)` says which games the one asking may change (a phone at a
    table server: those whose table code it holds); the others are skipped.
    `by` names who renamed, for each game's edit trail. `among`: only these games
    are looked at, and none other is named or counted (a community's phone sees its
    own games only); None: every stored game.
    """
    new_name = new.strip()
    if not new_name:
        raise RenameError("The new name is blank: type the name to use.")
    if len(new_name) > MAX_NAME_LENGTH:
        raise RenameError(f"'{new_name}' is too long: keep names to {MAX_NAME_LENGTH} letters.")
    _check_name(new_name)
    key = player_key(old)
    listed = store.list_games() if among is None else store.list_games_in(among)
    games = [s.id for s in listed if any(player_key(p) == key for p in s.players)]
    if not games:
        raise RenameError(f"No saved game has a player called '{old.strip()}'.")
    result = RenameResult()
    for game_id in games:
        if allowed is not None and not allowed(game_id):
            result.skipped.append((game_id, NOT_YOURS))
            continue
        problem = _rename_in_game(store, game_id, key, new_name, by)
        if problem is None:
            result.renamed.append(game_id)
        elif problem:
            result.skipped.append((game_id, problem))
    return result


def _check_name(name: str) -> None:
    """Whatever else a game asks of a player's name, asked once before any game changes."""
    others = ("Seat 2", "Seat 3", "Seat 4", "Seat 5")
    fillers = [f for f in others if player_key(f) != player_key(name)]
    try:
        Game(players=(name, fillers[0], fillers[1], fillers[2]))
    except ValidationError as e:
        raise RenameError(f"'{name}' cannot be a player's name: {explain(e)}") from e


def _rename_in_game(store: GamesPort, game_id: str, key: str, new_name: str,
                    by: str | None = None) -> str | None:
    """None once renamed; "" if there was nothing to change; else why it was not."""
    for _ in range(MAX_TRIES):
        try:
            game = store.get_game(game_id)
        except GameNotFound:
            return ""  # deleted meanwhile: nothing left to rename
        players = list(game.doc["players"])
        seats = [s for s, name in enumerate(players) if player_key(str(name)) == key]
        if not seats:
            return ""
        others = [str(name).strip() for s, name in enumerate(players) if s not in seats]
        clash = [name for name in others if player_key(name) == player_key(new_name)]
        if clash:
            return f"{clash[0]} and {players[seats[0]]} sat at the same table"
        if all(players[s] == new_name for s in seats):
            return ""
        for seat in seats:
            players[seat] = new_name
        try:
            store.update_game(game_id, {**game.doc, "players": players}, game.revision, by=by)
        except StaleRevision:
            continue
        except InvalidGame as e:
            return str(e)
        return None
    return "it kept changing on another phone; try again"
