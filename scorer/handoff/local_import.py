"""`tarabish import` while the table server runs: the server stores the games.

Only one process may write a data folder (`scorer.store.folder_lock`). While
the table server holds it, `tarabish import` sends its games (already checked)
to that server, which checks them again and stores them, all or none. The
request goes to the address the server wrote into the lock file and carries
the secret key written there too. The lock file is readable by its owner only,
so a guest on the Wi-Fi, who can reach the port but not the file, can import
nothing (403). The body is bounded. The club night commands (`tarabish event`)
hand their changes over the same way (`post_to_server`, `read_payload`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import re
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Any, TypeAlias

from scorer.store.errors import NotSaved, StoreError
from scorer.store.folder_lock import FolderBusy

if TYPE_CHECKING:  # the command line does not need the web stack
    from collections.abc import Callable

    from starlette.requests import Request
    from starlette.responses import JSONResponse

    from scorer.store.ports import GamesPort

IMPORT_PATH = "/_tarabish/import"
GROUP_PATH = "/_tarabish/group"
"""`tarabish group new` while the server runs: {"name", "members"} -> {"group", "code"}."""
KEY_HEADER = "X-Tarabish-Key"
MAX_BODY_BYTES = 32 * 1024 * 1024
MAX_ANSWER_BYTES = 1024 * 1024
TIMEOUT_S = 120.0
_ID_RE = re.compile(r"^[0-9a-f]{8}$")

EXIT_FAILED = 1
EXIT_NOT_SAVED = 2


class HandOffFailed(Exception):
    """The server did not store the games; nothing was imported. `exit_code` for the CLI."""

    def __init__(self, message: str, exit_code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.exit_code = exit_code


# -- the command's side ------------------------------------------------------------------------

def hand_to_server(busy: FolderBusy, docs: list[dict[str, Any]],
                   group: str | None = None) -> tuple[list[str], dict[str, str]]:
    """Give `docs` to the server named in `busy` (to join `group`, a group's name or id,
    if given); returns the new ids and their table codes (raises HandOffFailed)."""
    payload: dict[str, Any] = {"games": docs}
    if group is not None:
        payload["group"] = group
    answer = post_to_server(busy, IMPORT_PATH, payload, "the games", "imported")
    ids = answer.get("ids")
    if not (isinstance(ids, list) and all(isinstance(i, str) and _ID_RE.match(i) for i in ids)):
        raise HandOffFailed(f"{busy} It gave an answer this version does not understand.")
    codes = answer.get("codes")
    if not isinstance(codes, dict):
        codes = {}
    return ids, {str(k): str(v) for k, v in codes.items() if k in ids}


def post_to_server(busy: FolderBusy, path: str, payload: dict[str, Any],
                   what: str = "the change", done: str = "changed") -> dict[str, Any]:
    """POST `payload` to `path` on the server named in `busy`, with the key from the
    lock file; its answer (a JSON object). Raises HandOffFailed, with EXIT_NOT_SAVED
    when the server refused the input or could not save it."""
    holder = busy.holder
    if holder is None or holder.key is None or holder.address is None:
        raise HandOffFailed(f"{busy} Nothing was {done}: try again once it has finished.")
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(
        holder.address.rstrip("/") + path, data=body, method="POST",
        headers={KEY_HEADER: holder.key, "Content-Type": "application/json"},
    )
    # No proxy: the server is on this machine, and the key must not travel further.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=TIMEOUT_S) as response:
            answer = json.loads(response.read(MAX_ANSWER_BYTES))
    except urllib.error.HTTPError as e:
        message = _error_text(e)
        code = EXIT_NOT_SAVED if e.code in (400, 409, 413, 507) else EXIT_FAILED
        raise HandOffFailed(f"{message} (said {holder.describe()})", code) from None
    except (OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise HandOffFailed(f"{busy} It did not take {what} ({reason}); "
                            f"nothing was {done}.") from None
    if not isinstance(answer, dict):
        raise HandOffFailed(f"{busy} It gave an answer this version does not understand.")
    return answer


def _error_text(e: urllib.error.HTTPError) -> str:
    try:
        error = json.loads(e.read(MAX_ANSWER_BYTES)).get("error")
    except (OSError, ValueError, AttributeError):
        error = None
    return error if isinstance(error, str) and error else f"The server refused ({e.code})."


# -- the server's side -------------------------------------------------------------------------

GroupJoin: TypeAlias = "Callable[[str], Callable[[list[tuple[str, tuple[str, ...]]]], None]]"
"""A group's name or id -> what puts games (id, players) in it; the first call raises
a StoreError for a group that does not exist."""


async def handle_import(request: Request, key: str | None,
                        get_store: Callable[[], GamesPort],
                        give_codes: Callable[[list[str]], dict[str, str]],
                        join_group: GroupJoin | None = None) -> JSONResponse:
    """POST IMPORT_PATH: {"games": [tarabish-game/1, ...], "group"?: name or id}
    -> {"ids": [...], "codes": {...}}.

    Every game stored gets its table code (`give_codes`), which no phone holds yet; with
    a group, the group is found first (none stored if it is not) and the games join it."""
    payload = await read_payload(request, key, "Too many games at once: nothing was imported.")
    if not isinstance(payload, dict):
        return payload
    docs = payload.get("games")
    if not (isinstance(docs, list) and docs and all(isinstance(d, dict) for d in docs)):
        return error_answer(400, "That is not a list of games: nothing was imported.")
    group = payload.get("group")
    join = None
    if group is not None:
        if not isinstance(group, str) or join_group is None:
            return error_answer(400, "That is not a group's name: nothing was imported.")
        try:
            join = await asyncio.to_thread(join_group, group)
        except StoreError as e:
            return error_answer(400, f"{e} Nothing was imported.")
    try:
        made = await asyncio.to_thread(lambda: get_store().create_games(docs))
    except NotSaved as e:
        return error_answer(507, str(e))
    except (StoreError, RecursionError) as e:  # InvalidGame, mostly
        return error_answer(400, f"{e} Nothing was imported.")
    from starlette.responses import JSONResponse

    if join is not None:
        players = [(game.id, tuple(game.doc["players"])) for game in made]
        try:
            await asyncio.to_thread(join, players)
        except StoreError as e:
            return error_answer(409, f"The games were imported but did not join the group: "
                                f"{e}")
    ids = [game.id for game in made]
    try:
        codes = await asyncio.to_thread(give_codes, ids)
    except NotSaved:  # the games are in; their codes come at the server's next start
        codes = {}
    return JSONResponse({"ids": ids, "codes": codes})


async def read_payload(request: Request, key: str | None,
                       too_big: str) -> dict[str, Any] | JSONResponse:
    """The request's JSON object, if it carries the key from the lock file; else the
    answer to send (403 without the key, 413 over MAX_BODY_BYTES, 400 for no object)."""
    given = request.headers.get(KEY_HEADER, "")
    if key is None or not hmac.compare_digest(given.encode("utf-8"), key.encode("utf-8")):
        return error_answer(403, "Not allowed.")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return error_answer(413, too_big)
        chunks.append(chunk)
    try:
        payload = json.loads(b"".join(chunks))
    except (ValueError, RecursionError):
        payload = None
    if not isinstance(payload, dict):
        return error_answer(400, "That is not what this version of Tarabish sends: nothing was "
                           "changed.")
    return payload


def error_answer(status: int, message: str) -> JSONResponse:
    """`{"error": message}` with `status`, for the command line to print."""
    from starlette.responses import JSONResponse

    return JSONResponse({"error": message}, status_code=status)
