"""The pages' ratings of a data folder: rated again only when a finished game changed,
came or went; the same numbers as `tarabish ratings` over the stored games."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from ratings_docs import game_doc

from scorer.app.ratings_access import RatedFolder, season_start
from scorer.ratings import compute_ratings
from scorer.ratings.sources import stored_matches
from scorer.ratings.timeline import leaderboard
from scorer.store import GameStore


def test_rated_once_per_change_of_the_finished_games(tmp_path: Path) -> None:
    with GameStore(tmp_path) as store:
        for players, winner in ((("Ann", "Bob", "Cid", "Dee"), 0),
                                (("Eve", "Ann", "Fay", "Bob"), 1),
                                (("Ann", "Bob", "Cid", "Dee"), None)):
            store.create_game(game_doc(players, winner))
        folder = RatedFolder(store)
        first = folder.timeline()
        assert folder.timeline() is first and folder.rated == 1  # a second visit: no work
        board = leaderboard(first)
        assert [(r.player, r.rating, r.games) for r in board] == [
            (p.player, p.rating, p.games) for p in compute_ratings(stored_matches(store)).players]
        unfinished = store.create_game(game_doc(("Ann", "Bob", "Cid", "Dee"), None))
        assert folder.timeline() is first  # an unfinished game changes no rating
        store.delete_game(unfinished.id)
        added = store.create_game(game_doc(("Gil", "Hal", "Ann", "Bob"), 0))
        assert len(folder.timeline().steps) == 3 and folder.rated == 2
        store.delete_game(added.id)
        assert len(folder.timeline().steps) == 2 and folder.rated == 3


def test_seasons_start_at_the_month_and_the_year() -> None:
    now = datetime(2026, 11, 26, 21, 30).astimezone()
    assert season_start("all", now) is None
    month, year = season_start("month", now), season_start("year", now)
    assert month is not None and (month.month, month.day, month.hour) == (11, 1, 0)
    assert year is not None and (year.month, year.day) == (1, 1)


def test_a_communitys_games_are_rated_too(pg_url: str, tmp_path: Path) -> None:
    """A community's store keeps rows, not files: no folder time to read."""
    from scorer.app.ratings_access import RatedFolder
    from scorer.store.database import Database
    from scorer.store.pg_games import PgGameStore

    db = Database(pg_url)
    try:
        store = PgGameStore(db, data_dir=tmp_path)
        folder = RatedFolder(store)  # type: ignore[arg-type]
        assert folder.timeline().steps == ()
        store.create_game(game_doc(["Ann", "Bob", "Cid", "Dee"], 0))
        assert len(folder.timeline().steps) == 1
        assert folder.board("all")[0].games == 1
    finally:
        db.close()
