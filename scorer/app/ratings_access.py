"""The rated games of a store for the pages, worked out once per change of the games.

One `RatedFolder` per store, shared by every phone (and the TV leaderboard): the
games' finish times are read once per game revision, and the ratings are rated again
only when a finished game changed, came or went. A group's timeline counts only
its games (`games_of`); the timelines of the groups last asked for are kept.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from datetime import datetime
from typing import Final

from scorer.app.group_access import get_groups
from scorer.backends import backends_of
from scorer.groups.model import Group, check_id, member_key
from scorer.ratings.model import match_of
from scorer.ratings.sources import finished_at
from scorer.ratings.timeline import BoardRow, DatedMatch, Timeline, leaderboard, rate_in_order
from scorer.store import GameNotFound
from scorer.store.models import GameSummary
from scorer.store.ports import GamesPort

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


def community(store: GamesPort) -> bool:
    """The store is a community's database: its ratings are per group only (Ann at
    one table is not Ann at another), no board of all games."""
    return backends_of(store).community


def games_of(summaries: list[GameSummary], group: Group | None) -> list[GameSummary]:
    """The games a group holds; every game of the store for None (a laptop's "All
    games")."""
    if group is None:
        return summaries
    held = set(group.games)
    return [s for s in summaries if s.id in held]


def as_members(timeline: Timeline, group: Group) -> Timeline:
    """The timeline with each player named as the group writes its member (capitals
    do not matter); a player who is no member keeps the name last typed."""
    spelt = {member_key(m): m for m in group.members}
    names = {key: spelt.get(key, name) for key, name in timeline.names.items()}
    return Timeline(steps=timeline.steps, names=names)


_Made = tuple[tuple[tuple[str, int], ...], tuple[str, ...], Timeline]

CACHED_GROUPS: Final = 32
"""Timelines kept (the groups last asked for, "All games" counted as one): a
community with a thousand groups does not keep a thousand in memory."""


class RatedFolder:
    """The timelines of one store's finished games, in the order they finished: all
    of them, and each group's (one cached per group, the last `CACHED_GROUPS` asked)."""

    def __init__(self, store: GamesPort) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._dated: dict[tuple[str, int], DatedMatch | None] = {}
        # group id (None: all games) -> (its finished games' ids and revisions, its
        # members, timeline)
        self._made: OrderedDict[str | None, _Made] = OrderedDict()
        # group id -> (folder mark, the group as read) when its timeline was last checked
        self._seen: dict[str | None, tuple[int, Group | None]] = {}
        self._listed: tuple[int | None, list[GameSummary]] | None = None
        self._boards: dict[tuple[str | None, str, datetime | None],
                           tuple[Timeline, list[BoardRow]]] = {}
        self.rated = 0
        """How many times games were rated (a test reads it: not at every visit)."""

    def group(self, group_id: str) -> Group:
        """The group as saved now; GroupNotFound for a bad or unknown id."""
        return get_groups(self.store).get(check_id(group_id))

    def timeline(self, group_id: str | None = None) -> Timeline:
        """Every finished game rated (None), or only the group's; GroupNotFound for a
        bad or unknown group id."""
        # The group is read at every visit (a small file, or one query): a game added
        # to it or taken out is seen at once, though no game file changed.
        group = None if group_id is None else self.group(group_id)
        with self._lock:
            folder = self._folder_mark()
            made = self._made.get(group_id)
            if (made is not None and folder is not None
                    and self._seen.get(group_id) == (folder, group)):
                self._made.move_to_end(group_id)
                return made[2]
            finished = [s for s in games_of(self._list(folder), group)
                        if s.winner is not None]
            key = tuple(sorted((s.id, s.revision) for s in finished))
            members = () if group is None else group.members
            if made is None or made[0] != key:
                # Each game's finish time is read once per revision: a change rates again
                # without reading every game.
                dated = [self._dated_match(s) for s in finished]
                games = sorted((d for d in dated if d is not None),
                               key=lambda d: (d.when, d.game_id))
                timeline = rate_in_order(games)
                made = (key, members,
                        timeline if group is None else as_members(timeline, group))
                self.rated += 1
            elif group is not None and made[1] != members:  # a member added: names only
                made = (key, members, as_members(made[2], group))
            self._made[group_id] = made
            self._made.move_to_end(group_id)
            while len(self._made) > CACHED_GROUPS:
                dropped, _ = self._made.popitem(last=False)
                self._seen.pop(dropped, None)
            if folder is not None:
                self._seen[group_id] = (folder, group)
            return made[2]

    def _list(self, folder: int | None) -> list[GameSummary]:
        """The store's games, listed once per change of the folder (every time for a
        community's store); finish times of games gone or changed are forgotten."""
        if self._listed is not None and folder is not None and self._listed[0] == folder:
            return self._listed[1]
        summaries = self.store.list_games()
        kept = {(s.id, s.revision) for s in summaries if s.winner is not None}
        self._dated = {k: v for k, v in self._dated.items() if k in kept}
        self._listed = (folder, summaries)
        return summaries

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

    def board(self, season: str, group_id: str | None = None) -> list[BoardRow]:
        """The leaderboard of a season (of a group's games), worked out once per change
        of the games (and per day, since a season starts on a date)."""
        timeline = self.timeline(group_id)
        since = season_start(season)
        key = (group_id, season, since)
        with self._lock:
            found = self._boards.get(key)
            if found is None or found[0] is not timeline:
                rows = leaderboard(timeline, since)
                if group_id is not None:
                    kept = self._made.get(group_id)
                    # Other requests may have pushed this timeline out of the kept ones
                    # meanwhile: its members are then read again (not taken as none).
                    members = (kept[1] if kept is not None and kept[2] is timeline
                               else self.group(group_id).members)
                    # Someone from outside who sat in moved the members' ratings (they
                    # were at the table) but is not on the group's board.
                    keys = {member_key(m) for m in members}
                    rows = [r for r in rows if r.key in keys]
                found = (timeline, rows)
                # Only boards of timelines still kept stay: bounded as they are.
                live = {id(made[2]) for made in self._made.values()}
                self._boards = {k: v for k, v in self._boards.items() if id(v[0]) in live}
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
            winner = summary.winner or 0
            dated = DatedMatch(game_id=summary.id, when=when, match=match,
                               points=(summary.totals[winner], summary.totals[1 - winner]))
        self._dated[found] = dated
        return dated


_lock = threading.Lock()
_folder: RatedFolder | None = None


def rated_folder(store: GamesPort) -> RatedFolder:
    """The shared `RatedFolder` of `store` (a new one if the store changed, as in tests)."""
    global _folder
    with _lock:
        if _folder is None or _folder.store is not store:
            _folder = RatedFolder(store)
        return _folder


def game_timeline(store: GamesPort, game_id: str | None) -> Timeline | None:
    """The ratings a game's chances go by: its group's (a game in two groups: the first
    by name), else every game's on a laptop; None on a community server for a game in
    no group (no all-games ratings there)."""
    if game_id is not None:
        groups = sorted(get_groups(store).groups_of_game(game_id),
                        key=lambda g: (member_key(g.name), g.id))
        if groups:
            return rated_folder(store).timeline(groups[0].id)
    if community(store):
        return None
    return rated_folder(store).timeline()
