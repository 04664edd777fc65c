"""The rated games of a store for the pages, worked out once per change of the games.

One `RatedFolder` per store, shared by every phone (and the TV leaderboard): the
games' finish times are read once per game revision, and the ratings are rated again
only when a finished game changed, came or went. `games_of` is the seam a group
fills: today every finished game of the folder is the group's.
"""

from __future__ import annotations

import os
import threading
import time
from datetime import datetime
from typing import Final

from scorer.ratings.model import match_of
from scorer.ratings.sources import finished_at
from scorer.ratings.timeline import BoardRow, DatedMatch, Timeline, leaderboard, rate_in_order
from scorer.store import GameNotFound, GameStore
from scorer.store.models import GameSummary

SEASONS: Final = (("all", "All"), ("year", "This year"), ("month", "This month"))
"""The seasons offered as taps: key and label."""
ALL_GAMES: Final = "all"
TRUSTED_AFTER_NS: Final = 1_000_000_000


def season_start(season: str, now: datetime | None = None) -> datetime | None:
    """When a season began, in the server's local time; None for all games."""
    local = (now or datetime.now().astimezone()).astimezone()
    if season == "month":
        return local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    if season == "year":
        return local.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    return None


def games_of(summaries: list[GameSummary], group: str | None) -> list[GameSummary]:
    """The games a group holds. The seam for groups: until a store of groups exists,
    a laptop's folder is one group of all its games (`group` is None)."""
    del group
    return summaries


class RatedFolder:
    """The timeline of one store's finished games, in the order they finished."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._dated: dict[tuple[str, int], DatedMatch | None] = {}
        self._made: tuple[tuple[tuple[str, int], ...], Timeline] | None = None
        self._seen: int | None = None
        self._boards: dict[tuple[int, str, datetime | None], tuple[Timeline, list[BoardRow]]] = {}
        self.rated = 0
        """How many times the games were rated (a test reads it: not at every visit)."""

    def timeline(self, group: str | None = None) -> Timeline:
        with self._lock:
            folder = self._folder_mark()
            if self._made is not None and folder is not None and folder == self._seen:
                return self._made[1]
            summaries = games_of(self.store.list_games(), group)
            finished = [s for s in summaries if s.winner is not None]
            key = tuple(sorted((s.id, s.revision) for s in finished))
            if self._made is None or self._made[0] != key:
                # Each game's finish time is read once per revision: a change rates again
                # without reading every game.
                dated = [self._dated_match(s) for s in finished]
                kept = set(key)
                self._dated = {k: v for k, v in self._dated.items() if k in kept}
                games = sorted((d for d in dated if d is not None),
                               key=lambda d: (d.when, d.game_id))
                self._made = (key, rate_in_order(games))
                self.rated += 1
            self._seen = folder
            return self._made[1]

    def _folder_mark(self) -> int | None:
        """The games folder's change time, when it can be trusted to show any change
        since: every save replaces a game's file (a new entry in the folder), so an
        unchanged folder has the same games, and listing 5,000 files is skipped.
        None (list the games) while the folder changed in the last second: a change in
        the same tick of the file system's clock would leave the time as it was. A
        community's store has no folder (its games are rows): listed every time."""
        games_dir = getattr(self.store, "games_dir", None)
        if games_dir is None:
            return None
        try:
            changed = os.stat(games_dir).st_mtime_ns
        except OSError:
            return None
        if time.time_ns() - changed < TRUSTED_AFTER_NS:
            return None
        return changed

    def board(self, season: str) -> list[BoardRow]:
        """The leaderboard of a season, worked out once per change of the games (and
        per day, since a season starts on a date)."""
        timeline = self.timeline()
        since = season_start(season)
        key = (id(timeline), season, since)
        with self._lock:
            found = self._boards.get(key)
            if found is None or found[0] is not timeline:
                found = (timeline, leaderboard(timeline, since))
                self._boards = {k: v for k, v in self._boards.items() if v[0] is timeline}
                self._boards[key] = found
            return found[1]

    def _dated_match(self, summary: GameSummary) -> DatedMatch | None:
        found = (summary.id, summary.revision)
        if found in self._dated:
            return self._dated[found]
        dated: DatedMatch | None = None
        try:
            match = match_of(summary.players, summary.winner)
            stored = self.store.get_game(summary.id)
        except (ValueError, GameNotFound):  # two seats under one name; deleted since
            match = None
        if match is not None:
            when = finished_at(stored.history, len(stored.doc.get("hands", [])),
                               stored.updated)
            dated = DatedMatch(game_id=summary.id, when=when, match=match)
        self._dated[found] = dated
        return dated


_lock = threading.Lock()
_folder: RatedFolder | None = None


def rated_folder(store: GameStore) -> RatedFolder:
    """The shared `RatedFolder` of `store` (a new one if the store changed, as in tests)."""
    global _folder
    with _lock:
        if _folder is None or _folder.store is not store:
            _folder = RatedFolder(store)
        return _folder
