"""Send to the table server: a game kept on a phone alone comes to this server.

The phone-alone site, served by this server under `/alone/` (scorer.web.phone_site),
posts a game file (tarabish-game/1 with its history) to SEND_PATH once the phone is
online, with two headers: ORIGIN_HEADER, the random key the phone gave the game when
it first kept it, and DEVICE_HEADER, the phone's device token (the one the table
server's page keeps: same address, same browser storage). The body is checked as
`tarabish import` checks a file (bounded, parsed as untrusted); the game is stored
with `create_game(origin=KEY)`, so a retry, two taps or two tabs give the one game
and the same answer: `{"id", "code", "address"}`. The sending phone holds the game
(its table code). Sends that make a new game count against the address's new
games per hour (the rights' RateWindow), as starting a game does.

The key is 128 random bits kept on the phone: knowing it is what lets an answer name
a game, so no other phone can be told another's code. Nothing already stored is
ever changed here.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import sys
import threading
from collections.abc import Callable

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

from scorer.app.game_files import MAX_FILE_BYTES, NotAGameFile, read_game_file
from scorer.rights import RightsPort
from scorer.rights.service import GAMES_PER_HOUR
from scorer.sharing import game_url
from scorer.store.errors import NotSaved, StoreError
from scorer.store.ports import GamesPort
from scorer.store.records import ORIGIN

SEND_PATH = "/_tarabish/send"
ORIGIN_HEADER = "X-Tarabish-Origin"
DEVICE_HEADER = "X-Tarabish-Device"
MAX_SEND_BYTES = MAX_FILE_BYTES
"""The same bound as a game file picked on a phone (a game of 1,000 hands is ~250 KB)."""
SEND_READ_S = 60.0
"""The whole body must arrive in this time (2 MB at 35 KB/s): the connection's header
timeout is over once the headers are in, and a body that trickles forever holds one."""
_DEVICE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
_ONE_AT_A_TIME = threading.Lock()
"""Brake checked, game stored, brake counted, as one step: sends in flight together
otherwise all pass the check. Per process, so N processes let N-1 extra through."""

TOO_BIG = "This game is too big to send."
OUT_OF_DATE = "This page is out of date: reload it, then send the game again."
TOO_SLOW = "The game took too long to arrive: send it again."
NOT_NOW = "The table server cannot keep games just now. Nothing was sent: try again later."

logger = logging.getLogger(__name__)


def too_many(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return (f"This phone has started or sent {GAMES_PER_HOUR} games in the last hour: "
            f"wait {minutes} min, then send again.")


async def handle_send(request: Request, get_store: Callable[[], GamesPort],
                      get_rights: Callable[[], RightsPort],
                      addresses: Callable[[Request], list[str]] | None = None,
                      ) -> JSONResponse:
    """POST SEND_PATH: the game file -> {"id", "code", "address"}, or {"error": words}.
    `addresses`: the base addresses to give out for this request, best first (the
    server's rule, `scorer.sharing.Reach.bases`; default: the one it came to)."""
    origin = request.headers.get(ORIGIN_HEADER, "")
    device = request.headers.get(DEVICE_HEADER, "")
    if not (ORIGIN.match(origin) and _DEVICE.match(device)):
        return _error(400, OUT_OF_DATE)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_SEND_BYTES:
        return _error(413, TOO_BIG)
    body = bytearray()
    try:
        async with asyncio.timeout(SEND_READ_S):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_SEND_BYTES:
                    return _error(413, TOO_BIG)
    except TimeoutError:
        return _error(408, TOO_SLOW)
    except ClientDisconnect:  # hung up mid-body: nobody to answer, nothing to report
        return _error(400, TOO_SLOW)
    address = request.client.host if request.client else "unknown"
    rights = get_rights()  # its brake is asked in the thread: a database call may wait

    def store_it() -> tuple[str, str] | float:
        doc = read_game_file(bytes(body))  # here, off the event loop: up to 2 MB of JSON
        label = rights.phone_label(device)
        with _ONE_AT_A_TIME:
            wait = rights.new_game_wait(address)
            if wait > 0:
                return wait
            game = get_store().create_game(doc, by=label, origin=origin)
            new = rights.code(game.id) is None
            code = rights.start(game.id, device)
            if new:
                rights.game_started(address)
        return game.id, code

    try:
        stored = await asyncio.to_thread(store_it)
    except NotAGameFile as e:
        return _error(400, f"{e} Nothing was sent.")
    except NotSaved as e:
        return _error(507, str(e))
    except (StoreError, RecursionError) as e:  # InvalidGame, mostly
        if _unreachable(e):  # its words name the database's host: for the log only
            logger.warning("a sent game was not stored: %s", e)
            return _error(503, NOT_NOW)
        return _error(400, f"{e} Nothing was sent.")
    if isinstance(stored, float):
        return _error(429, too_many(stored))
    game_id, code = stored
    base = addresses(request)[0] if addresses is not None else str(request.base_url)
    return JSONResponse({"id": game_id, "code": code, "address": game_url(base, game_id)})


def _unreachable(exc: BaseException) -> bool:
    """A community's database could not be reached (looked up, not imported: a laptop's
    server never loads psycopg)."""
    connect = sys.modules.get("scorer.store.database.connect")
    return connect is not None and isinstance(exc, connect.DatabaseUnavailable)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)
