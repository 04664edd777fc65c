"""Where the rated games come from: game files in the order given, or the stored
games of a data folder in the order they finished."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from rules.game_file import parse_game
from rules.replay import replay
from rules.stats import player_key
from scorer.ratings.groups import GroupGame
from scorer.ratings.model import Match, match_of
from scorer.store import GameNotFound
from scorer.store.ports import GamesPort

_PLAYED_HAND = frozenset({"added", "redone"})


def match_of_doc(doc: Any) -> Match | None:
    """The match of one tarabish-game/1 document; None while it is unfinished.

    GameFileError if the file is not a game or a hand is one the rules refuse."""
    game = parse_game(doc)
    result = replay(game)
    error = result.first_error
    if error is not None:
        raise error
    return match_of(game.players, result.winner)


def finished_at(history: Sequence[dict[str, Any]], hands: int, fallback: datetime) -> datetime:
    """When a game was won: when its last hand (the winning one) was recorded or put
    back, by the trail; `fallback` (the last change saved) if the trail does not say."""
    for entry in reversed(history):
        if entry.get("change") in _PLAYED_HAND and entry.get("hand") == hands:
            try:
                when = datetime.fromisoformat(str(entry.get("at")))
            except ValueError:
                break
            if when.tzinfo is not None:
                return when
            break
    return fallback


def stored_group_games(store: GamesPort, game_ids: Sequence[str] | None = None) -> list[GroupGame]:
    """stored_group_games(store, game_ids=None) -> list[GroupGame]: the finished stored
    games among `game_ids` (None: all), in the order they finished (ties by id).

    Unfinished, deleted or unreadable games are left out: deleting a game from a
    group's list or the folder changes the ratings by recomputing."""
    wanted = None if game_ids is None else set(game_ids)
    games: list[GroupGame] = []
    for summary in store.list_games():
        if summary.winner is None or (wanted is not None and summary.id not in wanted):
            continue
        try:
            stored = store.get_game(summary.id)
        except GameNotFound:
            continue  # deleted since the list was read
        try:
            match = match_of(summary.players, summary.winner)
        except ValueError:  # two seats under one name (saved before names were checked)
            continue
        if match is None:
            continue
        when = finished_at(stored.history, len(stored.doc.get("hands", [])), stored.updated)
        won = summary.totals[summary.winner]
        lost = summary.totals[1 - summary.winner]
        games.append(GroupGame(id=stored.id, match=match, finished=when, points=(won, lost)))
    games.sort(key=lambda g: (g.finished, g.id))
    return games


def stored_matches(store: GamesPort, only: Sequence[str] | None = None) -> list[Match]:
    """The finished stored games (those of `only`, when given: a group's), in the order
    they finished (ties by game id)."""
    return [game.match for game in stored_group_games(store, only)]


def as_members(matches: Sequence[Match], members: Sequence[str]) -> list[Match]:
    """`matches` with each player named as the group writes its member (capitals and
    outer spaces ignored); a player who is no member keeps the name as typed."""
    written = {player_key(m): m for m in members}

    def name(player: str) -> str:
        return written.get(player_key(player), player)

    return [Match(winners=(name(m.winners[0]), name(m.winners[1])),
                  losers=(name(m.losers[0]), name(m.losers[1]))) for m in matches]
