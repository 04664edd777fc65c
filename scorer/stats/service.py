"""Statistics over the stored games: the store's side of `rules.stats`."""

from __future__ import annotations

import threading

from rules.stats import PlayedGame, Stats, StatsFilter, compute_stats, display_names
from scorer.stats.cache import FactsCache
from scorer.stats.facts import facts_of_doc
from scorer.store import GameNotFound
from scorer.store.ports import GamesPort
from scorer.store.validation import scoring_fingerprint


class StatsService:
    """Figures for one store, with each game's facts cached per revision.

    One per store (the app keeps one for its process); thread-safe. The
    cache file is read on first use and written after a refresh that changed it.
    """

    def __init__(self, store: GamesPort) -> None:
        self.store = store
        self._cache = FactsCache(store.data_dir, scoring_fingerprint())
        self._loaded = False
        self._lock = threading.Lock()

    def played_games(self) -> list[PlayedGame]:
        """Every stored game's facts, oldest first; only changed games are replayed."""
        with self._lock:
            if not self._loaded:
                self._cache.load()
                self._loaded = True
            games: list[PlayedGame] = []
            summaries = self.store.list_games()
            for summary in summaries:
                updated = summary.updated.isoformat()
                facts = self._cache.get(summary.id, summary.revision, updated)
                started = summary.created
                if facts is None:
                    try:
                        stored = self.store.get_game(summary.id)
                    except GameNotFound:
                        continue  # deleted (or damaged) since the list was read
                    facts = facts_of_doc(stored.doc)
                    self._cache.put(stored.id, stored.revision, stored.updated.isoformat(), facts)
                    started = stored.created
                games.append(PlayedGame(
                    facts=facts, started=started, day=started.astimezone().date(),
                    game_id=summary.id,
                ))
            self._cache.keep_only({summary.id for summary in summaries})
            self._cache.save_if_dirty()
        games.sort(key=lambda g: (g.started, g.game_id))
        return games

    def stats(self, wanted: StatsFilter | None = None) -> Stats:
        """The figures for the games and seats `wanted` picks (all by default)."""
        return compute_stats(self.played_games(), wanted)

    def player_names(self) -> list[str]:
        """Every player's name as shown (for a filter's choices), in name order."""
        return sorted(display_names(self.played_games()).values(), key=str.casefold)


def load_stats(store: GamesPort, wanted: StatsFilter | None = None) -> Stats:
    """One-off figures (the command line); the app keeps a StatsService instead."""
    return StatsService(store).stats(wanted)
