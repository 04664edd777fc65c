"""The club night pages the table server serves itself, beside the Flet app: the
standings board (plain HTML, CSS and JavaScript: a TV needs no 5 MB client), the
printable table cards, and the door for `tarabish event` commands run while the
server holds the data folder.

The board follows every save within a second through a long poll: each board asks
for the state newer than the one it has, and the request waits until a game of the
event or the event itself changes (or 25 s pass). One state is worked out per
change and event, whatever the number of boards (`BoardHub`), and the number of
waiting requests is bounded (per address and in all).
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI, Request, Response
from starlette.responses import HTMLResponse, JSONResponse

from scorer.app.ratings_access import game_timeline
from scorer.events.board import board_json
from scorer.events.night import seat_names
from scorer.events.requests import EVENT_PATH, answer
from scorer.events.service import EventService
from scorer.events.tickets import valid
from scorer.handoff.local_import import error_answer, read_payload
from scorer.rights import get_rights
from scorer.sharing import game_url, qr_svg
from scorer.store.errors import NotSaved, StoreError
from scorer.web.guesses import braked, missed
from scorer.web.leaderboard import with_chances
from scorer.web.page_files import add_page_files

PAGES = Path(__file__).resolve().parent / "club_pages"
BOARD_FILES = ("board.js", "board.css", "cards.css")
_ID_RE = re.compile(r"^[0-9a-f]{8}$")
WAIT_S = 25.0
"""How long a board's request waits for a change before it is answered "nothing new"."""
MAX_WAITING = 300
"""Boards waiting at once, in all (a TV, the organiser, and every phone in the hall)."""
MAX_WAITING_PER_ADDRESS = 8
STATES_KEPT = 16
"""Events whose last board state is kept."""
CLOCK_CHECK_S = 1.0
GONE_CHECK_S = 1.0
"""How often a waiting board's request checks that the board is still there."""


class BoardHub:
    """The live state of each watched event's board, shared by all its boards.

    `changed(event_id)` may be called from any thread (a phone's save runs in a
    Flet handler); waiting boards are woken on the server's event loop."""

    def __init__(self, service: Callable[[], EventService]) -> None:
        self.service = service
        self.loop: asyncio.AbstractEventLoop | None = None
        self._versions: dict[str, int] = {}
        self._wakers: dict[str, asyncio.Event] = {}
        self._states: OrderedDict[str, tuple[int, str, bytes]] = OrderedDict()
        self._building: dict[str, asyncio.Lock] = {}
        self.waiting: dict[str, int] = {}
        self.builds = 0
        """States worked out so far (one per change of a watched event)."""
        self.stopping = False
        """The server is stopping: boards are answered at once, none waits."""

    def changed(self, event_id: str) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._bump(event_id)
        else:
            loop.call_soon_threadsafe(self._bump, event_id)

    def changed_all(self) -> None:
        """Every board this process serves may be out of date (the community's feed was
        cut off): each works its state out again. From any thread."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._bump_all)

    def _bump_all(self) -> None:
        for event_id in set(self._versions) | set(self._wakers) | set(self._states):
            self._bump(event_id)

    def stop(self) -> None:
        """The server is stopping: answer every waiting board now ("nothing new"), so
        that none is still waiting when the stop's grace runs out and cuts it off (a
        CancelledError traceback). On the server's loop."""
        self.stopping = True
        for waker in self._wakers.values():
            waker.set()
        self._wakers.clear()

    def _bump(self, event_id: str) -> None:
        self._versions[event_id] = self._versions.get(event_id, 0) + 1
        waker = self._wakers.pop(event_id, None)
        if waker is not None:
            waker.set()

    async def state(self, event_id: str) -> tuple[str, bytes]:
        """The board's state now (its version tag and JSON), worked out once a change."""
        self.loop = asyncio.get_running_loop()
        version = self._versions.get(event_id, 0)
        kept = self._states.get(event_id)
        if kept is not None and kept[0] == version:
            return kept[1], kept[2]
        lock = self._building.setdefault(event_id, asyncio.Lock())
        async with lock:
            version = self._versions.get(event_id, 0)
            kept = self._states.get(event_id)
            if kept is None or kept[0] != version:
                service = self.service()
                body = await asyncio.to_thread(
                    lambda: json.dumps(_board_with_chances(service, event_id),
                                       ensure_ascii=False, separators=(",", ":")).encode())
                self.builds += 1
                tag = hashlib.sha256(body).hexdigest()[:16]
                kept = (version, tag, body)
                self._states[event_id] = kept
                self._states.move_to_end(event_id)
                while len(self._states) > STATES_KEPT:
                    dropped, _ = self._states.popitem(last=False)
                    self._building.pop(dropped, None)
        return kept[1], kept[2]

    async def wait_for_change(self, event_id: str, tag: str, timeout: float) -> bool:
        """Wait until the event's board differs from `tag`; False after `timeout`, or at
        once when the server stops (`stop`)."""
        deadline = time.monotonic() + timeout
        while not self.stopping:
            waker = self._wakers.setdefault(event_id, asyncio.Event())
            now_tag, _body = await self.state(event_id)
            if now_tag != tag:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                await asyncio.wait_for(waker.wait(), left)
            except TimeoutError:
                return False
        return False


def _board_with_chances(service: EventService, event_id: str) -> dict[str, object]:
    """The board's state, with each team's chance on the tables yet to play a hand."""
    board = board_json(service.view(event_id))
    if any(not t["hands"] for t in board["tables"]):
        board = with_chances(board, lambda game: game_timeline(service.games, game))
    return board


def add_club_routes(app: FastAPI, service: Callable[[], EventService],
                    import_key: Callable[[], str | None],
                    addresses: Callable[[Request], list[str]], hub: BoardHub) -> None:
    """The board, its files, the table cards and the command door; before the mount.
    `addresses`: the base addresses to draw on the cards for a request, best first."""
    page = (PAGES / "board.html").read_text(encoding="utf-8")
    add_page_files(app, "/_club", PAGES, BOARD_FILES)

    @app.get("/board/{event_id}", include_in_schema=False)
    async def board(event_id: str, request: Request) -> Response:
        if (refused := await _braked(service, request)) is not None:
            return refused
        if not await _exists(service, event_id, request):
            return HTMLResponse(_plain_page("No such club night",
                                            "There is no club night at this address."), 404)
        return HTMLResponse(page.replace("{{EVENT}}", event_id),
                            headers={"Cache-Control": "no-cache"})

    @app.get("/board/{event_id}/state", include_in_schema=False)
    async def board_state(event_id: str, request: Request, after: str = "") -> Response:
        if (refused := await _braked(service, request)) is not None:
            return refused
        if not await _exists(service, event_id, request):
            return JSONResponse({"error": "There is no such club night."}, 404)
        address = request.client.host if request.client else "unknown"
        mine = hub.waiting.get(address, 0)
        if mine >= MAX_WAITING_PER_ADDRESS or sum(hub.waiting.values()) >= MAX_WAITING:
            return Response(status_code=503, headers={"Retry-After": "5"})
        hub.waiting[address] = mine + 1
        try:
            if after and not await _wait_while_there(hub, request, event_id, after[:32]):
                return Response(status_code=204, headers={"Cache-Control": "no-store"})
            tag, body = await hub.state(event_id)
        finally:
            hub.waiting[address] -= 1
            if not hub.waiting[address]:
                del hub.waiting[address]
        return Response(body, media_type="application/json", headers={
            "Cache-Control": "no-store", "X-Board-Version": tag,
            "X-Server-Time": str(int(time.time() * 1000))})

    @app.get("/event/{event_id}/cards", include_in_schema=False)
    async def cards(event_id: str, request: Request, ticket: str = "") -> Response:
        if (refused := await _braked(service, request)) is not None:
            return refused
        if not await _exists(service, event_id, request):
            return HTMLResponse(_plain_page("No such club night",
                                            "There is no club night at this address."), 404)
        organiser = valid(event_id, ticket)
        base = addresses(request)[0]
        body = await asyncio.to_thread(_cards_page, service(), event_id, base, organiser)
        return HTMLResponse(body, headers={"Cache-Control": "no-store",
                                           "Referrer-Policy": "no-referrer"})

    @app.post(EVENT_PATH, include_in_schema=False)
    async def event_command(request: Request) -> Response:
        payload = await read_payload(request, import_key(), "That request is too big.")
        if not isinstance(payload, dict):
            return payload
        try:
            made = await asyncio.to_thread(answer, service(), payload)
        except NotSaved as exc:
            return error_answer(507, str(exc))
        except ValueError as exc:  # EventError, StoreError: the organiser's input
            return error_answer(400, str(exc))
        return JSONResponse(made)


def start_clock_watch(service: Callable[[], EventService],
                      stop: threading.Event) -> threading.Thread:
    """Call time in every event whose clock has run out (a thread: it may write)."""

    def run() -> None:
        while not stop.wait(CLOCK_CHECK_S):
            try:
                service().check_clocks()
            except (StoreError, OSError):  # the next second tries again
                continue

    thread = threading.Thread(target=run, name="club-clock", daemon=True)
    thread.start()
    return thread


async def _wait_while_there(hub: BoardHub, request: Request, event_id: str, tag: str) -> bool:
    """Wait for a change, as `wait_for_change`, but give up as soon as the board has gone
    (reloaded, closed): a TV reloaded a few times must not use up its address's places."""
    deadline = time.monotonic() + WAIT_S
    while (left := deadline - time.monotonic()) > 0:
        if await hub.wait_for_change(event_id, tag, min(GONE_CHECK_S, left)):
            return True
        if hub.stopping or await request.is_disconnected():  # stopping: answer at once
            return False
    return False


async def _braked(service: Callable[[], EventService], request: Request) -> Response | None:
    """429 for an address that guessed too many club nights' addresses (a community)."""
    return await asyncio.to_thread(braked, service().games, request)


async def _exists(service: Callable[[], EventService], event_id: str,
                  request: Request) -> bool:
    """Whether the club night exists; on a community an address that names none counts
    as a guess (`scorer.web.guesses`)."""
    events = service()
    try:
        if not _ID_RE.match(event_id):
            raise StoreError("no such club night")
        await asyncio.to_thread(events.get, event_id)
    except StoreError:
        await asyncio.to_thread(missed, events.games, request)
        return False
    return True


def _plain_page(title: str, text: str) -> str:
    return (f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport "
            f"content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>"
            f"<link rel=stylesheet href='/_club/board.css'><body><h1>{html.escape(title)}</h1>"
            f"<p>{html.escape(text)}</p></body></html>")


def _team(first: str, second: str) -> str:
    """A team kept on one line (no-break spaces): a card wraps between its two teams,
    never inside one ("Max &" above "Ned")."""
    return "&nbsp;&amp;&nbsp;".join(html.escape(name).replace(" ", "&nbsp;")
                                    for name in (first, second))


def _cards_page(service: EventService, event_id: str, base: str, organiser: bool) -> str:
    """One card a table of the current round: number, players, a QR code of the
    table's game and, for the organiser only, its table code."""
    stored = service.get(event_id)
    ev = stored.night
    current = ev.current
    rights = get_rights(service.games.data_dir)
    cards: list[str] = []
    for t in () if current is None else current.tables:
        seats = seat_names(ev, t.sides)
        people = (f"<li>{_team(seats[0], seats[2])}</li>"
                  f"<li>v {_team(seats[1], seats[3])}</li>")
        address = game_url(base, t.game) if t.game else ""
        qr = qr_svg(address) if address else ""
        code = rights.code(t.game) if organiser and t.game else None
        code_line = (f"<p class=code>Table code <b>{html.escape(code)}</b></p>" if code else
                     "<p class=code>Table code: ask the organiser</p>")
        cards.append(
            f"<section class=card aria-label='Table {t.table}'><h2>Table {t.table}</h2>"
            f"<p class=round>{html.escape(ev.name)} · round {current.round if current else ''}"
            f"</p><ul class=seats>{people}</ul><div class=qr>{qr}</div>{code_line}"
            f"<p class=address>{html.escape(address)}</p></section>")
    if not cards:
        cards.append("<p>No round has been started yet: start one, then print the cards.</p>")
    hint = ("Print this page (one card a table), or show it: each table scans its card and "
            "enters its code." if organiser else
            "Table codes are shown to the organiser only.")
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport "
            f"content='width=device-width, initial-scale=1'><meta name=referrer "
            f"content=no-referrer><title>Table cards: {html.escape(ev.name)}</title>"
            f"<link rel=stylesheet href='/_club/cards.css'></head><body>"
            f"<h1>{html.escape(ev.name)}: table cards</h1><p class=hint>{html.escape(hint)}</p>"
            f"<div class=cards>{''.join(cards)}</div>"
            f"</body></html>")
