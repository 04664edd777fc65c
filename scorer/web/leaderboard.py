"""The leaderboard for a TV across a hall: a plain page the table server serves
itself, like the club night board (a TV needs no 5 MB client). It asks for the
standings now and then, and shows them a page at a time when they do not fit."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response
from starlette.responses import HTMLResponse

from scorer.app.ratings_access import ALL_GAMES, SEASONS, community, rated_folder, season_start
from scorer.groups import GroupNotFound
from scorer.ratings.model import PROVISIONAL_GAMES
from scorer.ratings.prematch import chances, percent_pair
from scorer.ratings.timeline import BoardRow, Timeline, skills_of
from scorer.store.ports import GamesPort
from scorer.web.guesses import braked, missed
from scorer.web.page_files import add_page_files

PAGES = Path(__file__).resolve().parent / "club_pages"
TV_FILES = ("leaderboard.js", "leaderboard.css")


def leaderboard_json(timeline: Timeline, rows: list[BoardRow], season: str,
                     group: str | None = None) -> dict[str, Any]:
    """What the TV page draws: the group's name, the season, its games, and every
    player's line (`rows`, the season's leaderboard), best first."""
    since = season_start(season)
    return {
        "group": group,
        "season": dict(SEASONS)[season],
        "games": sum(1 for s in timeline.steps if since is None or s.game.when >= since),
        "provisional_games": PROVISIONAL_GAMES,
        "players": [{"rank": n, "player": r.player, "rating": round(r.rating, 1),
                     "change": round(r.change, 1), "games": r.games, "wins": r.wins,
                     "points_for": r.points_for, "points_against": r.points_against,
                     "provisional": r.provisional} for n, r in enumerate(rows, 1)],
    }


def with_chances(board: dict[str, Any],
                 timeline_of: Callable[[str | None], Timeline | None]) -> dict[str, Any]:
    """The club night board's state with each team's chance to win (whole percents)
    on the tables whose game has no hand yet and whose players have rated games, by
    the ratings `timeline_of(game id)` gives (None: no chance shown)."""
    for table in board.get("tables", []):
        if table.get("hands") or table.get("state") != "playing":
            continue
        timeline = timeline_of(table.get("game"))
        if timeline is None:
            continue
        sides = table.get("sides", [])
        if len(sides) != 2 or not all(len(side) == 2 for side in sides):
            continue
        if not any(skills_of(timeline, [*sides[0], *sides[1]])):
            continue  # nobody at the table has a rated game: nothing to go by
        table["chances"] = list(percent_pair(chances(timeline.now, sides[0], sides[1])))
    return board


def add_leaderboard_routes(app: FastAPI, store: Callable[[], GamesPort]) -> None:
    """`/leaderboard` (the TV page), its state and its files; before the mount."""
    page = (PAGES / "leaderboard.html").read_text(encoding="utf-8")
    add_page_files(app, "/_tv", PAGES, TV_FILES)

    @app.get("/leaderboard", include_in_schema=False)
    async def tv_page(request: Request, group: str | None = None) -> Response:
        if group is not None:
            games = store()
            refused = await asyncio.to_thread(braked, games, request)
            if refused is not None:
                return refused
            if not await asyncio.to_thread(_known, games, group):
                await asyncio.to_thread(missed, games, request)
                return HTMLResponse(NO_GROUP_PAGE, status_code=404)
        return HTMLResponse(page, headers={"Cache-Control": "no-cache"})

    @app.get("/leaderboard/state", include_in_schema=False)
    async def tv_state(request: Request, season: str = ALL_GAMES,
                       group: str | None = None) -> Response:
        season = season if season in dict(SEASONS) else ALL_GAMES
        if group is not None:
            refused = await asyncio.to_thread(braked, store(), request)
            if refused is not None:
                return refused

        def build() -> tuple[int, bytes]:
            games = store()
            if group is None and community(games):
                # Ann at one table is not Ann at another: a community's boards are per group.
                return 200, _json({"error": "Add ?group= and the group's id to the address: "
                                            "a community's leaderboards are per group."})
            folder = rated_folder(games)
            try:
                rows = folder.board(season, group)
                name = None if group is None else folder.group(group).name
            except GroupNotFound:
                missed(games, request)
                return 404, _json({"error": "There is no such group."})
            return 200, _json(leaderboard_json(folder.timeline(group), rows, season, name))

        status, body = await asyncio.to_thread(build)
        return Response(body, status_code=status, media_type="application/json",
                        headers={"Cache-Control": "no-store"})


NO_GROUP_PAGE = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<title>No such group</title></head><body style=\"font: 2rem sans-serif; "
                 "margin: 2rem\"><p>There is no such group.</p></body></html>")


def _known(games: GamesPort, group: str) -> bool:
    try:
        rated_folder(games).group(group)
    except GroupNotFound:
        return False
    return True


def _json(value: dict[str, Any]) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
