"""Addresses of the server's own pages that name nothing (a board, a TV leaderboard,
table cards of a club night or group that does not exist): where games are private
(a community, `scorer.app.game_sight`) each counts as a guess against the
connection's address, with the brake a game's own address has
(`TableRights.missed_game_address`: ten, then waits doubling to 15 min). These pages
are public by design to whoever has their address; the brake keeps strangers from
finding addresses by trying them. On a laptop's table server nothing is counted.
"""

from __future__ import annotations

import math

from fastapi import Request, Response
from starlette.responses import HTMLResponse

from scorer.app.game_sight import games_private
from scorer.rights import get_rights
from scorer.store.ports import GamesPort

GUESSING = ("Too many addresses that name nothing were opened from here: try again in "
            "{seconds} s.")


def _address(request: Request) -> str:
    # As the proxy headers the server trusts say (uvicorn's), never the page's own word.
    return request.client.host if request.client else "unknown"


def braked(store: GamesPort, request: Request) -> Response | None:
    """A 429 for an address that guessed too much lately; None: answer as usual."""
    if not games_private(store):
        return None
    wait = get_rights(store.data_dir).game_address_wait(_address(request))
    if wait <= 0:
        return None
    seconds = max(1, math.ceil(wait))
    return HTMLResponse(GUESSING.format(seconds=seconds), status_code=429,
                        headers={"Retry-After": str(seconds), "Cache-Control": "no-store"})


def missed(store: GamesPort, request: Request) -> None:
    """The address named nothing: one guess more for the connection's address."""
    if games_private(store):
        get_rights(store.data_dir).missed_game_address(_address(request))
