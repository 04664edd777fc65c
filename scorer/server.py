"""Serve the table app to the browsers at the table, with no internet needed.

`build_app` returns an ASGI app made of two layers, the same way `ft.run`
assembles it in Flet 1.0.5 (flet_web/fastapi/serve_fastapi_web_app.py):

- an outer `flet_web.fastapi.FastAPI` (a FastAPI subclass whose lifespan
  starts and stops Flet's session manager): add middleware here
  (compression, cache headers) and routes of our own (e.g. a file download),
  *before* the mount below, which catches every path;
- mounted at "/", `flet_web.fastapi.app(main, ...)`: the page, its static
  files (flet-web wheel + our assets/) and the /ws WebSocket of the sessions.

`serve` runs it with our own uvicorn server instead of `ft.run`, so nothing
else (browser opening, port choice, signal handling) is left to Flet.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import ipaddress
import json
import logging
import os
import secrets
import socket
import sys
import threading
import time
import urllib.request
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI, Request, Response, WebSocket

from scorer.app import CONFIG, FONTS
from scorer.events.service import EventService
from scorer.handoff.local_import import (
    GROUP_PATH,
    IMPORT_PATH,
    error_answer,
    handle_import,
    read_payload,
)
from scorer.machine.paths import resolve_data_dir
from scorer.rights import RightsPort, get_rights
from scorer.rights.service import HOST_CODE_DIGITS
from scorer.sharing import Reach
from scorer.store import folder_lock
from scorer.store.errors import StoreError
from scorer.store.folder_lock import FolderBusy, FolderLease
from scorer.sync.messages import SYNC_PATH
from scorer.sync.service import SyncService
from scorer.web.club import BoardHub, add_club_routes, start_clock_watch
from scorer.web.compression import (
    QUIET_S,
    CompressedCache,
    CompressionMiddleware,
    best_levels_wanted,
    page_file_cache,
)
from scorer.web.connections import (
    ConnectionGuard,
    ConnectionLimits,
    guarded_protocols,
    limits_for_this_machine,
    parse_networks,
)
from scorer.web.crash_notice import CrashNoticeMiddleware
from scorer.web.flet_names import app_sources, flet_names, resolve_flet_names
from scorer.web.floods import metered_main
from scorer.web.forwarded import ForwardedHeaders, request_bases, via_proxy
from scorer.web.game_address import GameAddress
from scorer.web.leaderboard import add_leaderboard_routes
from scorer.web.live_feed import DatabaseFeed, InProcessFeed, LiveFeed
from scorer.web.page_script import PAGE_SCRIPT, PageScripts
from scorer.web.phone_app import (
    NO_LOCK,
    REPO_ROOT,
    BackgroundBuild,
    PhoneApp,
    build_when_quiet,
    phone_app_for,
    site_folder,
)
from scorer.web.phone_site import PREFIX as PHONE_SITE_PREFIX
from scorer.web.phone_site import PhoneSite, add_phone_site
from scorer.web.reconnect import ALIVE_PATH, PAGE_TAG, add_reconnect_routes
from scorer.web.send import SEND_PATH, handle_send
from scorer.web.sessions import LIMITS, ServerSessions, SessionGuard
from scorer.web.sync_socket import SyncHub

logger = logging.getLogger(__name__)

#: The repository's assets/ folder (fonts, icons), served at the site root.
#: Resolved from this file so the server works from any working directory.
ASSETS_DIR = Path(__file__).resolve().parent.parent / "assets"

APP_NAME = "Tarabish"
APP_DESCRIPTION = "Score keeper and rules referee for Tarabish"

#: Font families in the flet-web wheel's FontManifest.json that this app never
#: draws with: KaTeX (only `ft.Markdown` with LaTeX uses it) and Cupertino
#: icons (only `ft.CupertinoIcons`). Flutter downloads every family listed at
#: start-up (0.85 MB), so the manifest we serve leaves them out. Remove a
#: prefix here before using Markdown maths or Cupertino icons.
UNUSED_FONT_PREFIXES = ("packages/flutter_math_fork/", "packages/cupertino_icons/")

#: Flutter's Material Icons font, as its FontManifest asks for it (1.26 MB in the
#: flet-web wheel), is answered with our subset (`assets/fonts/`, made by
#: `tools/subset_fonts.py`: the icons scorer/ names plus those Flutter's own
#: widgets draw; a few KB).
ICON_FONT_URL = "/assets/fonts/MaterialIcons-Regular.otf"
ICON_FONT_SUBSET = "MaterialIcons-subset.otf"

#: Page files a phone fetches on its first visit, compressed (or read from the
#: disk cache) as soon as the server starts, in gzip only: browsers ask for
#: brotli only over HTTPS or localhost, and the table's Wi-Fi is plain HTTP (the
#: laptop's own browser gets brotli copies when it asks). First what Chrome on a
#: phone at the table fetches for its first screen (the wasm build; on a
#: plain-HTTP LAN address Chrome has no ImageDecoder, secure contexts only, and
#: loads skwasm_heavy instead of skwasm). The big two in the order the page asks
#: for them (skwasm_heavy.wasm ~0.15 s before main.dart.wasm; the fast gzip takes
#: ~0.1 s for each, so each is ready about when it is asked for), then the small ones.
WARM_FIRST = (
    "/canvaskit/skwasm_heavy.wasm", "/main.dart.wasm",
    "/", "/python.js", "/flutter_bootstrap.js", "/canvaskit/skwasm_heavy.js",
    "/main.dart.mjs", ICON_FONT_URL, *(f"/{path}" for path in FONTS.values()),
)
#: Then, once the server has been quiet for QUIET_S (the first phones have
#: loaded), the rest: skwasm for secure contexts, and the JavaScript build that
#: Safari and Firefox load (a first start compresses these ~0.7 s of CPU later
#: instead of while the first phone loads; a phone asking sooner gets them
#: compressed on demand, as any file).
WARM_LATER = (
    "/canvaskit/skwasm.wasm", "/canvaskit/skwasm.js", "/flutter.js",
    "/assets/AssetManifest.bin.json",
    "/main.dart.js", "/canvaskit/canvaskit.wasm", "/canvaskit/canvaskit.js",
    "/assets/packages/wakelock_plus/assets/no_sleep.js",
)
WARM_PATHS = WARM_FIRST + WARM_LATER


def build_app(data_dir: str | os.PathLike[str] | None = None,
              compressed: CompressedCache | None = None,
              phone_site: PhoneSite | PhoneApp | None = None) -> FastAPI:
    """The ASGI app: the Flet page, its static files and its WebSocket.

    Everything, CanvasKit/skwasm and fonts included, is served from the
    installed `flet-web` wheel and `ASSETS_DIR` (`no_cdn=True`), so phones
    on a table's Wi-Fi with no internet still get a working page.
    `compressed`: where compressed page files are kept (default: this process's
    `compression_cache`, in memory only; `serve` gives one kept on disk too).
    `phone_site`: the app for phones to serve under /alone/ (scorer.web.phone_app:
    a built site, or what serves one once it is built, and opens game addresses in it).
    """
    import flet_web.fastapi as flet_fastapi

    from scorer.app.main import main
    from scorer.app.router import import_views

    import_views()  # screens are imported when first shown; a server has them ready
    resolve_flet_names(flet_names(app_sources()))  # and so are Flet's controls
    CONFIG.data_dir = Path(data_dir).expanduser() if data_dir is not None else None
    CONFIG.sessions = ServerSessions()  # pages count per connection address
    CONFIG.via_proxy = via_proxy  # a page that came through the trusted proxy
    if not ASSETS_DIR.is_dir():
        logger.warning("assets folder not found: %s (suit symbols may not draw)", ASSETS_DIR)

    app: FastAPI = flet_fastapi.FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    # Every page's scripts: it asks no other host (scorer.web.page_script), and a page
    # that loses the server says so and comes back as soon as it answers
    # (scorer.web.reconnect). The phone-alone site has its own index.html. Added
    # first, so innermost: the compression added next, around it, compresses the
    # page with its scripts in it.
    app.add_middleware(PageScripts, scripts=(PAGE_SCRIPT.encode(), PAGE_TAG),
                       skip=(PHONE_SITE_PREFIX,))
    phone_app = PhoneApp(site=phone_site) if isinstance(phone_site, PhoneSite) else phone_site
    # A game's address opens the app where it should (scorer.web.game_address).
    if phone_app is not None:
        app.add_middleware(GameAddress, opens_games=phone_app.opens_games)
    # Compressed page files, compressed once, revalidated with ETags (see
    # scorer.web.compression). Outermost, so it sees every response.
    app.add_middleware(CompressionMiddleware, cache=compressed or compression_cache,
                       unnoticed=frozenset({ALIVE_PATH}))
    # A crashed session's traceback stays in the server's log; the phone gets a
    # short notice (scorer.web.crash_notice).
    app.add_middleware(CrashNoticeMiddleware)
    # Page websockets: the connection's real address for the page code, and
    # a bound on open pages (scorer.web.sessions), on a community counted across its
    # processes in the database (scorer.web.open_pages).
    app.state.open_pages = None
    if CONFIG.database is not None:
        from scorer.web.open_pages import PgOpenPages  # psycopg: a community's only

        app.state.open_pages = PgOpenPages(CONFIG.database, LIMITS.open_per_address)
    app.add_middleware(SessionGuard, community=app.state.open_pages,
                       skip=(SYNC_PATH,))  # the sync socket keeps its own bounds
    # Routes of our own: declared here, before the mount, or the page's
    # catch-all "/" shadows them.
    font_manifest = trimmed_font_manifest()
    font_manifest_etag = '"fm-' + hashlib.sha256(font_manifest).hexdigest()[:20] + '"'

    @app.get("/assets/FontManifest.json", include_in_schema=False)
    def serve_font_manifest(request: Request) -> Response:
        headers = {"ETag": font_manifest_etag, "Cache-Control": "no-cache"}
        if font_manifest_etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(font_manifest, media_type="application/json", headers=headers)

    @app.post(IMPORT_PATH, include_in_schema=False)
    async def local_import(request: Request) -> Response:
        # `tarabish import` while this server holds the data folder (needs the
        # key from the lock file; see scorer.handoff.local_import).
        from scorer.app.store_access import get_store

        return await handle_import(request, CONFIG.import_key, get_store, codes_for,
                                   joining_group)

    @app.post(GROUP_PATH, include_in_schema=False)
    async def group_command(request: Request) -> Response:
        # `tarabish group new` while this server holds the data folder (the key from
        # the lock file, as for import): the server makes the group and gives its code.
        from fastapi.responses import JSONResponse

        payload = await read_payload(request, CONFIG.import_key, "That request is too big.")
        if not isinstance(payload, dict):
            return payload
        try:
            made = await asyncio.to_thread(new_group, payload)
        except (StoreError, ValueError) as exc:  # BadGroup, NotSaved...
            return error_answer(400, str(exc))
        return JSONResponse(made)

    @app.post(SEND_PATH, include_in_schema=False)
    async def send_from_phone(request: Request) -> Response:
        # A game kept on a phone alone, sent once it is online (scorer.web.send).
        from scorer.app.store_access import get_store

        return await handle_send(request, get_store, server_rights, addresses)

    CONFIG.phone_site = None
    if phone_app is not None:
        add_phone_site(app, phone_app.current, phone_app.version)
        if phone_app.site is not None:
            phone_app.use(phone_app.site)
    app.state.phone_app = phone_app
    app.state.board_hub = add_club_night(app)
    app.state.sync_hub = add_sync_socket(app)
    add_reconnect_routes(app)

    icon_font = ASSETS_DIR / "fonts" / ICON_FONT_SUBSET
    if icon_font.is_file():
        icon_font_bytes = icon_font.read_bytes()
        icon_font_etag = '"mi-' + hashlib.sha256(icon_font_bytes).hexdigest()[:20] + '"'

        @app.api_route(ICON_FONT_URL, methods=["GET", "HEAD"], include_in_schema=False)
        def serve_icon_font(request: Request) -> Response:
            headers = {"ETag": icon_font_etag, "Cache-Control": "no-cache"}
            if icon_font_etag in request.headers.get("if-none-match", ""):
                return Response(status_code=304, headers=headers)
            return Response(icon_font_bytes, media_type="font/otf", headers=headers)
    else:
        logger.warning("%s not found: serving the full Material Icons font", icon_font)

    page_app = flet_fastapi.app(
        metered_main(main),  # its time counts to the page's budget (scorer.web.floods)
        assets_dir=str(ASSETS_DIR) if ASSETS_DIR.is_dir() else None,
        app_name=APP_NAME,
        app_short_name=APP_NAME,
        app_description=APP_DESCRIPTION,
        no_cdn=True,
        # An abandoned tab's session is dropped after this (Flet: 1 h).
        session_timeout_seconds=LIMITS.abandoned_after_s,
    )
    # Flet's inner FastAPI keeps FastAPI's API pages (/docs loads its script from
    # a CDN, /openapi.json lists the routes): nothing a guest needs.
    page_app.router.routes = [r for r in page_app.router.routes
                              if getattr(r, "path", None) not in API_PAGES]
    # Its index.html gets our scripts on its way out (PageScripts, above).
    app.mount("/", page_app)
    return app


API_PAGES = frozenset({"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"})


def club_events() -> EventService:
    """The process's club nights, beside its game store (and its one store of groups:
    a night's games join its group through the same lock as the phones' changes)."""
    from scorer.app.event_access import get_events
    from scorer.app.group_access import get_groups
    from scorer.app.store_access import get_store

    store = get_store()
    service = get_events(store)
    service.use_groups(get_groups(store))
    return service


def game_saved(game_id: str) -> None:
    """A phone saved a change to a game: wake the boards of its event, if it has one."""
    club_events().game_changed(game_id)


def add_club_night(app: FastAPI) -> BoardHub:
    """Club night's own pages (the board, the table cards) and the door for `tarabish
    event` commands; every saved game and event change wakes the boards."""
    hub = BoardHub(club_events)
    CONFIG.club_changed = hub.changed
    CONFIG.game_saved = game_saved
    add_club_routes(app, club_events, lambda: CONFIG.import_key, addresses, hub)
    from scorer.app.store_access import get_store

    add_leaderboard_routes(app, get_store)
    return hub


def add_sync_socket(app: FastAPI) -> SyncHub:
    """The sync socket (scorer.web.sync_socket) for phones that keep the game: its
    changes reach the drawn pages and boards, and every change this process hears of
    (`CONFIG.game_saved`: a drawn page's, the feed's) reaches its phones."""
    from scorer.app import live

    def open_service() -> SyncService:
        from scorer.app.store_access import get_backends

        backends = get_backends()
        return SyncService(backends.games, backends.rights)

    def tell_pages(game_id: str) -> None:
        live.game_changed(game_id)  # the drawn pages showing it redraw
        game_saved(game_id)  # its club night's board

    hub = SyncHub(open_service, tell_pages)

    def saved(game_id: str) -> None:
        game_saved(game_id)
        hub.changed(game_id)

    CONFIG.game_saved = saved

    @app.websocket(SYNC_PATH)
    async def sync_socket(websocket: WebSocket) -> None:
        await hub.serve(websocket)

    return hub


def addresses(request: Request) -> list[str]:
    """Base addresses to give out in the answer to `request`, best first: the one rule
    (`scorer.sharing.Reach.bases`), with the address it came to."""
    return request_bases(CONFIG.reach, request.scope, str(request.base_url))


def server_rights() -> RightsPort:
    """The process's table rights: its data folder's, or a community's database's (which
    has no data folder: asking for one there failed every send with a 500)."""
    return get_rights(CONFIG.data_dir)


def codes_for(game_ids: list[str]) -> dict[str, str]:
    """Table codes for games that came without one (an import): no phone holds them
    until their code is entered; the host can show it."""
    rights = server_rights()
    rights.give_codes(game_ids)
    return {game_id: code for game_id in game_ids if (code := rights.code(game_id))}


def joining_group(name: str) -> Callable[[list[tuple[str, tuple[str, ...]]]], None]:
    """For `tarabish import --group` handed to this server: the group named `name`
    (GroupNotFound if none), and what puts the imported games in it."""
    from scorer.app.group_access import get_groups
    from scorer.app.store_access import get_store

    groups = get_groups(get_store())
    group_id = groups.find(name).id

    def join(games: list[tuple[str, tuple[str, ...]]]) -> None:
        groups.add_games(group_id, games)

    return join


def new_group(payload: dict[str, object]) -> dict[str, object]:
    """A group made for `tarabish group new` handed to this server: its contract and its
    keeper code (shown once, by the command)."""
    from scorer.app.group_access import get_groups
    from scorer.app.store_access import get_store

    name, members = payload.get("name"), payload.get("members", [])
    if not isinstance(name, str) or not (
            isinstance(members, list) and all(isinstance(m, str) for m in members)):
        raise ValueError("That is not a group's name and members: no group was made.")
    group, code = get_groups(get_store()).create(name, members)
    return {"group": group.contract(), "code": code}


#: One compressed-bytes cache per process (build_app may be called again in tests).
compression_cache = CompressedCache()


def trimmed_font_manifest() -> bytes:
    """Flutter's FontManifest.json as Flet serves it offline (`no_cdn`: Roboto from
    the wheel appended), less the families in UNUSED_FONT_PREFIXES."""
    from flet_web import get_package_web_dir

    own = ASSETS_DIR / "assets" / "FontManifest.json"
    source = own if own.is_file() else Path(get_package_web_dir()) / "assets" / "FontManifest.json"
    families = json.loads(source.read_text(encoding="utf-8"))
    kept = [f for f in families
            if not str(f.get("family", "")).startswith(UNUSED_FONT_PREFIXES)]
    if not any(f.get("family") == "Roboto" for f in kept):
        kept.append({"family": "Roboto", "fonts": [{"asset": "fonts/roboto.woff2"}]})
    # Our fonts too: Flutter loads the manifest's before the first frame, so no
    # text is laid out before they are there (page.fonts arrive after it: for
    # those frames a suit fell back to a Noto font asked of the server, a 404).
    # Manifest assets are under assets/; ours are served at the site root.
    kept += [{"family": family, "fonts": [{"asset": f"../{path}"}]}
             for family, path in FONTS.items()]
    return json.dumps(kept, indent=1).encode("utf-8")


class TableServer(uvicorn.Server):
    """uvicorn's server, which first answers the boards' long waits when it stops:
    a stop prints one calm line, whatever pages are open."""

    def __init__(self, config: uvicorn.Config, hub: BoardHub,
                 sync: SyncHub | None = None) -> None:
        super().__init__(config)
        self.hub = hub
        self.sync = sync
        self._watching = False

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        if not self._watching:
            self._watching = True
            stop_at_the_latest(STOP_WITHIN_S)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.hub.stop()
        if self.sync is not None:  # phones that keep the game hear why, then go
            await self.sync.stop()
        # What still runs when the grace ends (a phone too slow to hang up on a busy
        # laptop) is cut off on purpose: that is no error to print a traceback for.
        logging.getLogger("uvicorn.error").addFilter(not_cut_off_at_stop)
        await super().shutdown(sockets)
        open_pages = getattr(getattr(self.config.app, "state", None), "open_pages", None)
        if open_pages is not None:  # this process's pages count no more (a community)
            await asyncio.to_thread(open_pages.stop)


STOP_WITHIN_S = 8.0
"""A stop (Ctrl-C, SIGTERM) ends the process within this, whatever still runs: uvicorn
waits for open websockets (3 s, `timeout_graceful_shutdown`), then for Flet's sessions
and the threads that run page code, with no bound of its own."""


def stop_at_the_latest(after_s: float) -> threading.Thread:
    """End the process `after_s` from now if it is still running (a daemon thread: it
    goes with the process when the stop is quicker). Saves are atomic on both stores,
    so cutting one off loses no game."""

    def watch() -> None:
        time.sleep(after_s)
        print(f"tarabish: the server had not stopped {after_s:.0f} s after it was asked "
              "to: stopped now.", file=sys.stderr, flush=True)
        os._exit(1)

    thread = threading.Thread(target=watch, name="stop-watch", daemon=True)
    thread.start()
    return thread


def not_cut_off_at_stop(record: logging.LogRecord) -> bool:
    """Keep a log record unless it tells of a request the stop cut off (uvicorn's
    "Cancel N running task(s)" and the CancelledError it raised in them)."""
    if str(record.msg).startswith("Cancel ") and "graceful shutdown" in str(record.msg):
        return False
    exc = record.exc_info[1] if record.exc_info else None
    return not isinstance(exc, asyncio.CancelledError)


def wait_until_started(server: uvicorn.Server, timeout_s: float = 30.0) -> bool:
    """Wait (in a helper thread) until the server answers; False if it is stopping."""
    deadline = time.monotonic() + timeout_s
    while not server.started:
        if server.should_exit or time.monotonic() > deadline:
            return False
        threading.Event().wait(0.1)
    return True


def warm_compression(server: uvicorn.Server, base_url: str, cache: CompressedCache,
                     paths: tuple[str, ...] = WARM_FIRST,
                     later: tuple[str, ...] = ()) -> threading.Thread:
    """Once the server answers, fetch the page files the way phones will, so each
    is compressed (or read from the disk cache) before the first phone asks; then
    `later`, once the server has had no request for the cache's `quiet_s`. If this
    start compressed page files itself (a first start of this version), says so in
    one line: their best levels follow in the background. Runs in a daemon thread;
    failures only cost speed."""

    def fetch(path: str) -> None:
        req = urllib.request.Request(base_url.rstrip("/") + path,
                                     headers={"Accept-Encoding": "gzip"})
        with contextlib.suppress(OSError), urllib.request.urlopen(req, timeout=60) as r:
            r.read()

    def run() -> None:
        if not wait_until_started(server):
            return
        for path in paths:
            if server.should_exit:
                return
            fetch(path)
        # Said only when this start compressed page files itself (none were on disk: a
        # new version); copies found on disk are upgraded quietly, if need be.
        if cache.compressions and cache.pending() and not server.should_exit:
            where = (f"; later starts reuse them from {cache.disk.folder}"
                     if cache.disk is not None else "")
            print("First start of this version: compressing the page files for phones "
                  f"in the background for about a minute, at low priority{where}.", flush=True)
        # Our own requests count as requests too: wait once, then fetch them all.
        while later and not server.should_exit and (idle := cache.idle_s()) < cache.quiet_s:
            time.sleep(min(1.0, cache.quiet_s - idle))
        for path in later:
            if server.should_exit:
                return
            fetch(path)

    thread = threading.Thread(target=run, name="warm-compression", daemon=True)
    thread.start()
    return thread


def build_in_background(server: uvicorn.Server, phone_app: PhoneApp, cache: CompressedCache,
                        url: str) -> threading.Thread:
    """Build this version's app for phones once the server has been quiet for the cache's
    `quiet_s`, in a process of the lowest priority, then serve it (a daemon thread)."""
    phone_app.builder = BackgroundBuild()

    def run() -> None:
        assert phone_app.builder is not None
        build_when_quiet(phone_app, site_folder(), started=lambda: wait_until_started(server),
                         stopping=lambda: bool(server.should_exit), idle_s=cache.idle_s,
                         quiet_s=cache.quiet_s, build=phone_app.builder, say=_say, url=url)

    thread = threading.Thread(target=run, name="build-phone-app", daemon=True)
    thread.start()
    return thread


def lan_ipv4_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses, best guess first.

    Uses only the standard library: the address of the default route (a UDP
    "connect" sends no packet), then every interface's address (Linux ioctl),
    then whatever the host name resolves to.
    """
    found: list[str] = []

    def add(addr: str) -> None:
        try:
            ip = ipaddress.IPv4Address(addr)
        except ValueError:
            return
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
            return
        if addr not in found:
            found.append(addr)

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("10.255.255.255", 1))
        add(s.getsockname()[0])

    if sys.platform.startswith("linux"):
        import fcntl
        import struct

        siocgifaddr = 0x8915
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _index, name in socket.if_nameindex():
                with contextlib.suppress(OSError):
                    packed = struct.pack("256s", name.encode()[:15])
                    res = fcntl.ioctl(s.fileno(), siocgifaddr, packed)
                    add(socket.inet_ntoa(res[20:24]))

    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            add(str(info[4][0]))

    return found


def page_urls(host: str, port: int) -> list[str]:
    """The addresses to print: localhost first, then what phones can use."""
    if host in ("", "0.0.0.0", "*"):
        hosts = ["localhost", *lan_ipv4_addresses()]
    elif host in ("127.0.0.1", "localhost"):
        hosts = ["localhost"]
    else:
        hosts = [host]
    return [f"http://{h}:{port}/" for h in hosts]


def print_qr(urls: list[str]) -> None:
    """A QR code of the first address phones can use, for their cameras."""
    from scorer.sharing import is_local, qr_text

    lan = [u for u in urls if not is_local(u)]
    if not lan:
        return
    try:
        print(f"Or scan this with a phone's camera ({lan[0]}):", flush=True)
        print(qr_text(lan[0]), end="", flush=True)
    except UnicodeEncodeError:  # a console that cannot draw block characters
        print("  (this console cannot draw the QR code)", flush=True)


def print_host_code(folder: Path, game_ids: list[str]) -> None:
    """Give a code to every game that has none, and print this run's host code: the
    person at the laptop is the host (a phone that enters it holds every game)."""
    rights = get_rights(folder)
    try:
        given = rights.give_codes(game_ids)
    except StoreError as exc:  # a full or read-only folder: the games can still be read
        print(f"  The table codes could not be saved: {exc}", flush=True)
        given = []
    if rights.community:  # the operator's admin code, shared by every process: never printed
        print("Host code: the community's admin code (made by: tarabish admin-code)",
              flush=True)
    else:
        code = rights.new_host_code()
        half = HOST_CODE_DIGITS // 2
        print(f"Host code: {code[:half]} {code[half:]}  (enter it on your own phone, under "
              "Past games > Host: it opens every game; keep it to yourself)", flush=True)
    if given:
        print(f"  {len(given)} game{'s' if len(given) > 1 else ''} had no table code and "
              f"{'have' if len(given) > 1 else 'has'} one now: the host's phone shows it "
              "under Share.", flush=True)


def _bind(host: str, port: int) -> socket.socket:
    """Bind the listening socket ourselves: a clear error if the port is taken,
    and the real port number when `port` is 0."""
    bind_host = "0.0.0.0" if host in ("", "*") else host
    family = socket.AF_INET6 if ":" in bind_host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    if sys.platform != "win32":  # on Windows it would let two servers share the port
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((bind_host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def _open_browser_later(server: uvicorn.Server, url: str) -> None:
    """Open the host's browser once the server accepts connections.

    Runs in a daemon thread: `webbrowser` may start a console browser that
    blocks, and it must never hold up the server. On a Linux machine with no
    display there is no graphical browser to open, so we don't try.
    """
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return

    def wait_and_open() -> None:
        if not wait_until_started(server):
            return
        with contextlib.suppress(Exception):
            webbrowser.open(url)

    threading.Thread(target=wait_and_open, name="open-browser", daemon=True).start()


def serve(
    host: str = "0.0.0.0",
    port: int = 8550,
    data_dir: str | os.PathLike[str] | None = None,
    open_browser: bool = True,
    phone_site: str | os.PathLike[str] | None = None,
    trusted: tuple[str, ...] = (),
    games_in_app: bool | None = None,
    public_url: str | None = None,
) -> int:
    """Run the table server until Ctrl-C (or SIGTERM); returns the exit code.
    `public_url`: the address phones open (`--public-url`, an origin), if known.

    Refuses to start while another process writes the same data folder (the
    folder's lock, `scorer.store.folder_lock`), naming that process.
    """
    where = resolve_data_dir(None if data_dir is None else os.fspath(data_dir))
    site = phone_app_for(phone_site, community=False, games_in_app=games_in_app, say=_say)
    if site is None:
        return 1
    try:
        lease = folder_lock.acquire(where, "the table server")
    except FolderBusy as busy:
        print(f"tarabish: {busy}", file=sys.stderr)
        print("Only one server may use a data folder: stop that one first, or give this "
              "one another --data-dir.", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"tarabish: cannot use the data folder {where} ({exc.strerror or exc})",
              file=sys.stderr)
        return 1
    try:
        return _serve_holding(lease, host, port, open_browser, site, trusted, public_url)
    finally:
        lease.release()


def _serve_holding(lease: FolderLease, host: str, port: int, open_browser: bool,
                   site: PhoneApp | None = None, trusted: tuple[str, ...] = (),
                   public_url: str | None = None) -> int:
    """`serve`, once the data folder's lock is held."""
    sock = _listen(host, port)
    if sock is None:
        return 1
    port = sock.getsockname()[1]

    compressed = CompressedCache(disk=page_file_cache(), quiet_s=QUIET_S,
                                 best=best_levels_wanted())
    app = build_app(lease.folder, compressed, site)
    try:
        from scorer.app.store_access import get_store

        store = get_store()  # now, so a folder that cannot be used is said at once
    except OSError as exc:
        sock.close()
        print(f"tarabish: cannot use the data folder {lease.folder} "
              f"({exc.strerror or exc})", file=sys.stderr)
        return 1
    _print_addresses(host, port, site, public_url, bool(trusted))
    print(f"Games are stored in {lease.folder}", flush=True)
    for problem in store.problems:
        print(f"  {problem}", flush=True)
    print_host_code(lease.folder, [game.id for game in store.list_games()])
    _start_club_nights()
    if not lease.locked:
        print("  This folder cannot be written: games can be read, not saved.", flush=True)
    CONFIG.import_key = secrets.token_urlsafe(32)
    local_url = _local_url(host, port)
    lease.describe(address=local_url, key=CONFIG.import_key)
    return _run(app, sock, compressed, host, port, open_browser, InProcessFeed(), trusted,
                build_phone_app=site is not None and phone_site_wanted(site))


def phone_site_wanted(site: PhoneApp) -> bool:
    """Whether a laptop's server builds its app for phones: it has none, none was named
    (`--phone-site`) and it can (uv.lock is there to build it from; else said once)."""
    if site.site is not None or not site.auto:
        return False
    if not (REPO_ROOT / "uv.lock").is_file():
        _say(NO_LOCK)
        return False
    return True


def _say(line: str) -> None:
    print(line, flush=True)


#: The largest websocket message a page may send (uvicorn's default: 16 MiB). A page
#: sends taps and short texts, and a game file picked on the phone (the app refuses
#: one over 2 MB in words: it must reach the app to be refused).
WS_MAX_BYTES = 4 * 1024 * 1024
#: Seconds an idle kept-alive connection is held after its last answer.
KEEP_ALIVE_S = 5


def server_config(app: FastAPI, trusted: tuple[str, ...] = (),
                  limits: ConnectionLimits | None = None) -> uvicorn.Config:
    """uvicorn's settings for the table server: websockets as Flet's own `ft.run`
    has them, the connection bounds of `scorer.web.connections`, and the client's
    address from X-Forwarded-For / X-Forwarded-Proto, and the address it opened from
    X-Forwarded-Host, only when the connection comes from a `trusted` proxy (IPs or
    CIDRs); from anyone else those headers are ignored (`scorer.web.forwarded`, which
    runs uvicorn's ProxyHeadersMiddleware: right to left, skipping trusted hops)."""
    networks = parse_networks(list(trusted))
    guard = ConnectionGuard(limits or limits_for_this_machine(), exempt=networks)
    http, ws = guarded_protocols(guard, light=(SYNC_PATH,))
    config = uvicorn.Config(
        # uvicorn's proxy headers, and the forwarded host, from the trusted proxy only
        ForwardedHeaders(app, networks),
        log_level="warning",
        access_log=False,
        http=http,
        ws=ws,  # websockets-sansio, what ft.run uses in Flet 1.0.5, counted by the guard
        ws_max_size=WS_MAX_BYTES,
        timeout_keep_alive=KEEP_ALIVE_S,
        timeout_graceful_shutdown=3,
        lifespan="on",
        proxy_headers=False,  # ForwardedHeaders runs uvicorn's, for the trusted only
    )
    config.connection_guard = guard  # type: ignore[attr-defined]
    return config


def _listen(host: str, port: int) -> socket.socket | None:
    """The listening socket, or None (said on stderr) when the port cannot be had."""
    try:
        return _bind(host, port)
    except OSError as exc:
        print(f"tarabish: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        print(
            "Is another tarabish server running? Try --port with another number.", file=sys.stderr
        )
        return None


def _print_addresses(host: str, port: int, site: PhoneApp | None = None,
                     public_url: str | None = None, behind_proxy: bool = False) -> None:
    """Say where phones open the server (`Reach.bases`, the rule of every address it
    gives out), and keep that rule for the pages (`CONFIG.reach`)."""
    urls = page_urls(host, port)
    reach = CONFIG.reach = Reach(public_url, tuple(urls), behind_proxy)
    bases = reach.bases()
    if public_url is not None:
        print("Tarabish server. Phones open:", flush=True)
        print(f"  {public_url}", flush=True)
        print_qr([public_url])
        print(f"  (this process listens on {', '.join(urls)})", flush=True)
    elif behind_proxy:
        print(f"Tarabish server behind a proxy, listening on {', '.join(urls)}. Phones open "
              "the proxy's address; each page is given the address the proxy forwards "
              "(--public-url names it here too).", flush=True)
    else:
        if len(urls) > 1 or not urls[0].startswith("http://localhost:"):
            print("Tarabish table server. Open one of these addresses on the phones:",
                  flush=True)
        else:
            print("Tarabish table server (this machine only). Open:", flush=True)
        for url in urls:
            print(f"  {url}", flush=True)
        print_qr(urls)
    if site is not None and site.site is not None:
        where = ("/alone/ of the same address" if reach.public and public_url is None
                 else f"{bases[0]}{PHONE_SITE_PREFIX[1:]}")
        print(f"Phones can keep games alone (offline) at {where} (the site in "
              f"{site.site.root}).", flush=True)


def _start_club_nights() -> None:
    try:
        club_events()  # now: organisers hold their events' games from the first phone on
    except (StoreError, OSError) as exc:
        print(f"  The club nights could not be read: {exc}", flush=True)


def _local_url(host: str, port: int) -> str:
    local_host = "127.0.0.1" if host in ("", "0.0.0.0", "*", "localhost") else host
    if ":" in local_host:
        local_host = f"[{local_host}]"
    return f"http://{local_host}:{port}/"


def _run(app: FastAPI, sock: socket.socket, compressed: CompressedCache, host: str, port: int,
         open_browser: bool, feed: LiveFeed, trusted: tuple[str, ...] = (),
         build_phone_app: bool = False) -> int:
    """Serve `app` on `sock` until Ctrl-C (or SIGTERM), hearing changes through `feed`.
    `build_phone_app`: build the app for phones in the background once the first phones
    have loaded (a laptop's first start of this version: scorer.web.phone_app)."""
    config = server_config(app, trusted)
    server = TableServer(config, app.state.board_hub, app.state.sync_hub)
    clock_stop = threading.Event()
    start_clock_watch(club_events, clock_stop)
    print("Press Ctrl-C to stop.", flush=True)

    if open_browser:
        _open_browser_later(server, f"http://localhost:{port}/")
    warm_compression(server, _local_url(host, port), compressed, WARM_FIRST, WARM_LATER)
    phone_app: PhoneApp | None = app.state.phone_app
    if build_phone_app and phone_app is not None:
        build_in_background(server, phone_app, compressed, page_urls(host, port)[-1])
    feed.start()
    # What start-up made lives as long as the process: out of the collector's full
    # passes, which with thousands of open sockets paused every phone for ~0.5 s.
    gc.collect()
    gc.freeze()
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        # uvicorn shuts down gracefully on the first Ctrl-C, then re-raises
        # the signal once it is done: that lands here.
        pass
    finally:
        feed.stop()
        clock_stop.set()
        if phone_app is not None:
            phone_app.stop()
        sock.close()
    print("Tarabish server stopped.", flush=True)
    return 0


def serve_community(url: str, host: str = "0.0.0.0", port: int = 8550,
                    open_browser: bool = False,
                    phone_site: str | os.PathLike[str] | None = None,
                    trusted: tuple[str, ...] = (),
                    data_dir: str | os.PathLike[str] | None = None,
                    games_in_app: bool | None = None,
                    public_url: str | None = None) -> int:
    """Run one process of a community's server on its database (`tarabish --database`)
    until Ctrl-C; returns the exit code. Any number may run on one database: they
    share games, rights and club nights, and hear each other's saves
    (`scorer.web.live_feed.DatabaseFeed`). No data folder, no folder lock, no door
    for `tarabish import` (it writes to the database itself). The schema is brought
    up to date first; a newer one, or a database that cannot be reached, is one
    line on stderr and exit 1. `data_dir` keeps only this machine's caches."""
    from scorer.store.database import Database, DatabaseUnavailable, SchemaTooNew, ensure_schema
    from scorer.store.database.connect import operator_detail, shown_url
    from scorer.store.database.feed import with_writer, writer_name

    site = phone_app_for(phone_site, community=True, games_in_app=games_in_app, say=_say)
    if site is None:
        return 1
    try:
        ensure_schema(url)
    except (SchemaTooNew, DatabaseUnavailable) as exc:
        print(f"tarabish: {exc}{operator_detail(exc)}", file=sys.stderr)
        return 1
    sock = _listen(host, port)
    if sock is None:
        return 1
    port = sock.getsockname()[1]
    writer = writer_name("server")
    db = Database(with_writer(url, writer))
    CONFIG.database = db
    from scorer.app.store_access import get_backends, use_backends

    try:
        compressed = CompressedCache(disk=page_file_cache(), quiet_s=QUIET_S,
                                     best=best_levels_wanted())
        app = build_app(data_dir, compressed, site)
        get_backends()  # the community's games, rights, club nights and groups, at once
        _print_addresses(host, port, site, public_url, bool(trusted))
        print(f"Games are kept in the community's database {shown_url(url)}", flush=True)
        print("  The host code is the operator's admin code (tarabish admin-code).",
              flush=True)
        _start_club_nights()
        hub: BoardHub = app.state.board_hub
        sync: SyncHub = app.state.sync_hub

        def tell_everything() -> None:  # the feed may have lost notices
            hub.changed_all()
            sync.changed_all()

        return _run(app, sock, compressed, host, port, open_browser,
                    DatabaseFeed(db, writer, tell_everything), trusted)
    finally:
        sock.close()
        use_backends(None)
        CONFIG.database = None
        db.close()
