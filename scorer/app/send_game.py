"""Send a game kept on a phone alone to the table server that serves the phone-alone
site (same address), once the phone is online again (the server's side:
`scorer.web.send`).

The game goes as its game file (tarabish-game/1 with its history), with its key
(`origin`, given when the phone first kept it: sending again, after a lost answer or
from another tab, gives the same game and code) and this browser's device token (the
one the table server's page keeps here too: same address, same storage), so that the
phone holds the game there. How the bytes travel is the edge's (`CONFIG.send_to_server`:
the browser's fetch); this module returns values and raises `NotSent` in player words.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets

from pydantic import BaseModel, ConfigDict

from scorer.app import CONFIG
from scorer.app.actions import DEVICE_KEY
from scorer.app.context import AppContext
from scorer.app.phone_prefs import KeptPrefs
from scorer.store.errors import StoreError
from scorer.store.models import StoredGame

logger = logging.getLogger(__name__)

SEND_PATH = "/_tarabish/send"
ORIGIN_HEADER = "X-Tarabish-Origin"
DEVICE_HEADER = "X-Tarabish-Device"
"""As `scorer.web.send` reads them (the app may not import the server's edge)."""
SEND_WAIT_S = 30.0
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
_ID = re.compile(r"^[0-9a-f]{8}$")
_CODE = re.compile(r"^[0-9]{4,12}$")
MAX_ERROR_CHARS = 300

OFFLINE = ("The table server did not answer. Send it again once this phone is on the "
           "table server's Wi-Fi or online.")
NO_SERVER = "No table server serves this page, so there is nowhere to send the game."


class NotSent(Exception):
    """The game was not sent (or its answer was lost); the message says why, plainly."""


class SentGame(BaseModel):
    """The table server's answer: the game's id there, its table code and address."""

    model_config = ConfigDict(frozen=True)

    id: str
    code: str
    address: str


def game_key(game: StoredGame, device: str) -> str:
    """The game's key: the one given when it was first kept, or for a game kept before
    phones gave keys, one made from this phone's token and the game (the same at every
    send from this phone)."""
    if game.origin is not None:
        return game.origin
    made = f"{game.id}\n{game.created.isoformat()}".encode()
    return hmac.new(device.encode(), made, hashlib.sha256).hexdigest()[:32]


async def device_token(prefs: KeptPrefs) -> str:
    """This browser's device token, as the table server's page keeps it; made and kept
    now if there is none yet (that page then finds it and holds the game)."""
    stored = await prefs.get(DEVICE_KEY)
    if isinstance(stored, str) and _TOKEN.match(stored):
        return stored
    token = secrets.token_urlsafe(24)
    await prefs.set(DEVICE_KEY, token)
    return token


async def send_game(ctx: AppContext, game_id: str, prefs: KeptPrefs) -> SentGame:
    """Send the game to the table server; its answer. Raises NotSent."""
    post = CONFIG.send_to_server
    if post is None:
        raise NotSent(NO_SERVER)
    try:
        game = ctx.store.get_game(game_id)
    except StoreError as e:
        raise NotSent(str(e)) from None
    try:
        device = await asyncio.wait_for(device_token(prefs), SEND_WAIT_S)
    except Exception:  # the browser's storage refused or hung
        logger.warning("no device token to send a game with", exc_info=True)
        raise NotSent("This browser would not give its storage: try again.") from None
    body = json.dumps(game.file_doc(), ensure_ascii=False).encode("utf-8")
    headers = {ORIGIN_HEADER: game_key(game, device), DEVICE_HEADER: device,
               "Content-Type": "application/json"}
    try:
        status, text = await asyncio.wait_for(post(SEND_PATH, body, headers), SEND_WAIT_S)
    except Exception:  # offline, the server gone, a timeout: nothing to go on
        logger.info("sending a game failed", exc_info=True)
        raise NotSent(OFFLINE) from None
    return read_answer(status, text)


def read_answer(status: int, text: str) -> SentGame:
    """The server's answer as a SentGame; NotSent with its words (or plain ones)."""
    try:
        answer = json.loads(text)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        answer = {}
    if status == 200:
        game_id, code, address = answer.get("id"), answer.get("code"), answer.get("address")
        if (isinstance(game_id, str) and _ID.match(game_id) and isinstance(code, str)
                and _CODE.match(code) and isinstance(address, str) and len(address) < 300):
            return SentGame(id=game_id, code=code, address=address)
        raise NotSent("The table server gave an answer this page does not understand: "
                      "reload it, then send again.")
    error = answer.get("error")
    if isinstance(error, str) and error.strip():
        raise NotSent(" ".join(error.split())[:MAX_ERROR_CHARS])
    if status in (404, 405):
        raise NotSent(NO_SERVER)
    raise NotSent(f"The table server did not take the game (error {status}). "
                  "Send it again later.")
