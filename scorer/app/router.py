"""Addresses to screens. Every screen is rebuilt from the store on every visit,
so a phone that slept or reloaded comes back to the same place."""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
import re
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import flet as ft

from scorer.app import CONFIG, live
from scorer.app.actions import RIGHTS_SCREENS, game_topic
from scorer.app.context import AppContext
from scorer.app.game_sight import games_private
from scorer.app.theme import PAD
from scorer.app.unsaved import restore
from scorer.app.views.common import message_view, redraws_shown
from scorer.rights import TooManyTries
from scorer.text.terminal import one_line

logger = logging.getLogger(__name__)
GAME = r"(?P<gid>[0-9a-f]{8})"
CONTROL_VIEW_FIELDS = ("controls", "appbar", "bottom_appbar", "floating_action_button",
                       "navigation_bar", "drawer", "end_drawer")
VALUE_VIEW_FIELDS = ("padding", "bgcolor", "decoration", "scroll", "spacing",
                     "vertical_alignment", "horizontal_alignment")
"""Fields holding plain values, not controls: set again only when they changed (an
equal new Padding is still a change to Flet, sent to the phone with every redraw)."""
REDRAWN_VIEW_FIELDS = CONTROL_VIEW_FIELDS + VALUE_VIEW_FIELDS
PUSHES_KEPT = 16
"""Addresses sent to the browser and not yet announced back, kept at most (a client
that never announces them must not grow the list)."""
WATCHERS_AFTER_S = 0.03
"""How long after a change the phones watching the game redraw it."""
Builder = Callable[[AppContext, dict[str, str], dict[str, str]], ft.View]


def _extra_routes() -> list[tuple[str, Builder]]:
    """Screens from other modules (rules reference, run checker, card counter)."""
    try:
        from scorer.app.views.reference_routes import ROUTES
    except ImportError:
        return []
    return list(ROUTES)


@functools.cache
def compiled_routes() -> tuple[tuple[re.Pattern[str], Builder], ...]:
    """Every screen's address pattern, compiled once per process (a phone alone compiles
    them into its memory snapshot: scorer.browser.start)."""
    return tuple((re.compile(f"^{pattern}$"), build) for pattern, build in ROUTES + _extra_routes())


VIEW_MODULES = ("home", "new_game", "past_games", "statistics", "sheet", "record_hand")
"""Screens imported when first shown: a phone alone, which runs all this Python at
each start, shows its first screen sooner (the sheet's chart library, the forms)."""


def _view(module: str, name: str) -> Callable[..., ft.View]:
    built: Callable[..., ft.View] = getattr(
        importlib.import_module(f"scorer.app.views.{module}"), name)
    return built


RATINGS_ALONE = ("Ratings, the leaderboard and fair teams are worked out on the table "
                 "server, not on a phone alone. Open the table server's address to see them.")


def _rated(module: str, name: str) -> Callable[..., ft.View]:
    """A ratings screen; on a phone alone a plain word instead (the site leaves the
    ratings and openskill out: docs/RATINGS.md)."""
    if CONFIG.alone:
        return lambda ctx, *_args: message_view(ctx, "/ratings", "Leaderboard", RATINGS_ALONE)
    return _view(module, name)


def import_views() -> None:
    """Import every screen now (the table server at start; a phone once it shows one)."""
    for module in VIEW_MODULES:
        importlib.import_module(f"scorer.app.views.{module}")
    try:
        from scorer.app.views.reference_routes import import_views as import_reference_views
    except ImportError:
        return
    import_reference_views()


ROUTES: list[tuple[str, Builder]] = [
    (r"/", lambda ctx, _p, _q: _view("home", "home_view")(ctx)),
    (r"/new", lambda ctx, _p, q: _view("new_game", "new_game_view")(
        ctx, q.get("again"), q.get("seats"), q.get("group"))),
    (r"/games", lambda ctx, _p, q: _view("past_games", "past_games_view")(ctx, q.get("page"))),
    (r"/stats", lambda ctx, _p, _q: _view("statistics", "statistics_view")(ctx)),
    (r"/statistics", lambda ctx, _p, q: _view("statistics", "statistics_view")(ctx, q)),
    (r"/ratings", lambda ctx, _p, q: _rated("leaderboard", "leaderboard_view")(ctx, q)),
    (r"/player/(?P<name>[^/]{1,200})",
     lambda ctx, p, q: _rated("player_page", "player_view")(ctx, p["name"], q)),
    (r"/group", lambda ctx, _p, _q: _rated("group_page", "group_view")(ctx)),
    (r"/groups", lambda ctx, _p, _q: _rated("groups_list", "groups_view")(ctx)),
    # Any text: a group id that is not one is refused with a plain screen.
    (r"/group/(?P<group>[^/]{1,64})",
     lambda ctx, p, _q: _rated("group_one", "group_one_view")(ctx, p["group"])),
    (r"/group/(?P<group>[^/]{1,64})/add",
     lambda ctx, p, _q: _rated("group_one", "add_game_view")(ctx, p["group"])),
    (r"/group/(?P<group>[^/]{1,64})/teams",
     lambda ctx, p, _q: _rated("group_one", "fair_teams_view")(ctx, p["group"])),
    (r"/group/(?P<group>[^/]{1,64})/games",
     lambda ctx, p, _q: _rated("group_one", "group_games_view")(ctx, p["group"])),
    (r"/group/(?P<group>[^/]{1,64})/people",
     lambda ctx, p, _q: _rated("group_one", "people_view")(ctx, p["group"])),
    (r"/host", lambda ctx, _p, _q: _view("table_code", "host_view")(ctx)),
    (rf"/game/{GAME}", lambda ctx, p, _q: _view("sheet", "sheet_view")(ctx, p["gid"])),
    (rf"/game/{GAME}/hand",
     lambda ctx, p, _q: _view("record_hand", "record_hand_view")(ctx, p["gid"])),
    (rf"/game/{GAME}/clash",
     lambda ctx, p, _q: _view("conflict", "sync_clash_view")(ctx, p["gid"])),
    (rf"/game/{GAME}/hand/(?P<n>[0-9]{{1,4}})",
     lambda ctx, p, _q: _view("record_hand", "record_hand_view")(ctx, p["gid"], int(p["n"]))),
    (r"/club", lambda ctx, _p, _q: _view("club", "club_view")(ctx)),
    (r"/club/new", lambda ctx, _p, _q: _view("club_new", "club_new_view")(ctx)),
    (r"/club/(?P<eid>[0-9a-f]{8})",
     lambda ctx, p, _q: _view("club_event", "club_event_view")(ctx, p["eid"])),
]


GAME_QUERY = ("game", "again")
"""Query keys naming a game: the tools' `?game=` (the rules, the run checker, the card
counter read its hands) and New game's `?again=` (its players)."""
LISTS = ("/games", "/stats", "/statistics", "/ratings", "/groups", "/club")
"""Screens listing games, groups or club nights: where games are private they depend
on the phone (drawn again once it is known)."""

SHEET = re.compile(rf"^/game/{GAME}$")
ONE_VIEW = ("/", "/new", "/ratings")
"""Home, New game and the leaderboard: a switch between them, or between one of them
and the sheet (with Record hand laid over it), refills the View on show (the
leaderboard then opens as fast as a sheet: benchmarks/bench_leaderboard.py). Each
starts with a kind of control of its own at the top (the sheet a layer,
`views.sheet.layered`; New game `views.common.own_kind`; the leaderboard a Row), so
the phone builds the new screen afresh and nothing of one screen (its scroll offset)
passes to the other."""


def _path(route: str) -> str:
    return urlsplit(route or "/").path.rstrip("/") or "/"


def _in_place(shown: str | None, route: str) -> bool:
    """Whether a switch from `shown` to `route` refills the View on show."""
    if shown is None:
        return False
    return all(path in ONE_VIEW or SHEET.match(path) for path in (_path(shown), _path(route)))


MAX_CONTENT_WIDTH = 720
"""On a laptop the screens keep a phone-like column in the middle."""


def side_margin(width: float | None) -> float:
    """Left and right margin: 16 px on a phone, more on a wide screen."""
    return max(PAD, ((width or 0) - MAX_CONTENT_WIDTH) / 2)


class Router:
    """Shows the screen for the page's route and keeps it fresh when the game changes."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.route = "/"
        self.game_id: str | None = None
        self._drawn_width: float | None = None
        self._page_sent = False
        self.routes = compiled_routes()
        self._pushed: list[str] = []
        """Addresses sent to the browser (`push`) that it has not announced back yet."""
        self._address = ctx.page.route or "/"
        """The browser's address once it has taken every address sent to it."""
        self._coming: set[str] = set()
        """Games whose redraw is waiting (`_on_game_changed`): news meanwhile joins it
        (a synced phone hears a save's answer and the game's state at once)."""
        # Another process's saves reach this session (scorer.app.live).
        pubsub = ctx.page.pubsub
        if pubsub is not None:  # None: a page made up by a test
            live.hear(pubsub)
            pubsub.subscribe(self._on_redraw_all)
        if CONFIG.phone_sync is not None:  # a phone keeping the game: the server's word
            CONFIG.phone_sync.watch(
                lambda game_id: ctx.page.run_task(self._on_game_changed, "", game_id),
                lambda: ctx.page.run_task(self._on_redraw_all, live.REDRAW_ALL))

    def build(self, route: str) -> ft.View:
        parts = urlsplit(route or "/")
        path = _path(route)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        for key in GAME_QUERY:  # a game named in the query is read only if this phone sees it
            if key in query and not self.ctx.actions.sees(query[key]):
                del query[key]
        for pattern, build in self.routes:
            match = pattern.match(path)
            if match:
                groups = match.groupdict()
                if "gid" in groups:
                    try:  # a game's own address: where games are private, now it sees it
                        self.ctx.actions.open_game(groups["gid"])
                    except TooManyTries as exc:
                        return message_view(self.ctx, route, "Wait a moment", str(exc))
                return build(self.ctx, groups, query)
        return message_view(self.ctx, route, "Page not found",
                            "There is nothing at this address. Start again from home.")

    def show(self, route: str | None = None) -> None:
        """Build the screen for an address (the page's own by default) and send it."""
        asked = route if route is not None else (self.ctx.page.route or "/")
        self.put(self.prepare(route))
        if self.route != asked:  # another screen was shown instead: the address follows
            self.ctx.page.run_task(self.push, self.route)

    def prepare(self, route: str | None = None) -> ft.View:
        """Build the screen for an address, to be sent with `put`: apart, so that a
        switch can tell the browser the new address just before or just after
        the screen (`AppContext.go`)."""
        page = self.ctx.page
        self.route = route if route is not None else (page.route or "/")
        self.route = self._unsaved(self.route)
        self._drawn_width = page.width
        try:
            view = self.build(self.route)
        except Exception:  # a broken screen must not leave a phone on a blank page
            # The route comes from the client: one_line keeps ESC & co. out of the console.
            logger.exception("could not show %s", one_line(self.route, 200))
            view = message_view(self.ctx, self.route, "Something went wrong",
                                "This screen could not be shown. Your games are safe.")
        game_id = self._game_of(self.route)
        self._follow(game_id)
        if game_id is not None:
            self.ctx.actions.showed_game(game_id)
        view.padding = ft.Padding.symmetric(horizontal=side_margin(page.width), vertical=8)
        return view

    def put(self, view: ft.View) -> None:
        """Send a screen from `prepare`: refilled into the View on show, or in a new one."""
        ctx = self.ctx
        page = ctx.page
        refill = redraws_shown(ctx, view.route) or (
            len(page.views) == 1 and self._page_sent and _in_place(ctx.on_show, view.route))
        ctx.on_show = view.route
        if refill:
            shown = page.views[-1]
            # A redraw of the screen on show (a hand saved on another phone, dark
            # mode) or a switch to or from the sheet: refill the same View. A new
            # View would orphan an open dialog (Share, table code) on the phone, and
            # costs it twice the work (docs/FLET_NOTES.md, section 7).
            for name in REDRAWN_VIEW_FIELDS:
                value = getattr(view, name)
                if name not in VALUE_VIEW_FIELDS or getattr(shown, name) != value:
                    setattr(shown, name, value)
            if self._page_sent:
                # Compared from the screen down: page.update() would also walk the
                # page's themes, media and services on every redraw of every phone.
                shown.update()
                return
        else:
            page.views.clear()
            page.views.append(view)
        page.update()  # the first one also sends the page's theme and fonts
        self._page_sent = True

    async def push(self, route: str) -> None:
        """Tell the browser its address (the screen for it was sent). The browser
        announces an address it is sent as it takes it (a route_change), but only one
        that differs from its own (flet's client: `RouteState.route`, set by its page's
        `push_route`): that announcement is then known for what it is (`announced`)."""
        if route != self._address:
            self._pushed.append(route)
            del self._pushed[:-PUSHES_KEPT]
            self._address = route
        await self.ctx.page.push_route(route)

    def announced(self, route: str) -> bool:
        """Whether the browser's announcement of `route` only says it took an address it
        was sent, or the one on show: then no screen is drawn for it.

        The screen goes to the phone before its address (`AppContext._switch`), so a
        player can tap on it before the phone has taken its address: the announcement
        comes after the tap, of a screen the tap has already left (Save, then a quick
        tap on Record hand: the sheet was drawn again, then Record hand again, and the
        taps on the first Record hand were lost). Any other address is the player's
        own (the browser's back button, a typed address)."""
        if route in self._pushed:
            del self._pushed[:self._pushed.index(route) + 1]
            return True
        if not self._pushed:
            self._address = route
        return route == self.route

    def _unsaved(self, route: str) -> str:
        """The route to show for `route`: another if the phone kept a hand of its game
        whose Save was never answered (`scorer.app.unsaved`)."""
        if self.ctx.actions.unsaved is None:
            return route
        game_id = self._game_of(route)
        if game_id is None:
            return route
        return restore(self.ctx, game_id, route) or route

    @staticmethod
    def _game_of(route: str) -> str | None:
        match = re.match(rf"^/game/{GAME}", urlsplit(route).path)
        return match.group("gid") if match else None

    def _follow(self, game_id: str | None) -> None:
        """Listen for changes to the game on screen, and only that one."""
        if game_id == self.game_id:
            return
        pubsub = self.ctx.page.pubsub
        if self.game_id is not None:
            pubsub.unsubscribe_topic(game_topic(self.game_id))
        self.game_id = game_id
        if game_id is not None:
            pubsub.subscribe_topic(game_topic(game_id), self._on_game_changed)

    def resized(self, width: float | None) -> None:
        """Redraw only when the margins change (a laptop window resized, a phone turned)."""
        if self.ctx.page.views and side_margin(width) != side_margin(self._drawn_width):
            self.show(self.route)
        self._drawn_width = width

    def phone_known(self) -> None:
        """What the browser keeps for this phone is read: show its colours, and draw the
        screen on show again if it depends on the phone (a game's buttons, a club night
        and the host screen on its rights, home's Continue card on its games)."""
        self.show_theme(self.ctx.actions.phone.theme_mode)
        if self.ctx.page.views and self._drawn_for_another_phone():
            self.show(self.route)

    def _drawn_for_another_phone(self) -> bool:
        path = _path(self.route)
        if path == "/":
            game = self.ctx.actions.game_to_continue()
            return (game.id if game else None) != self.ctx.continued
        if path == "/statistics":  # a group's: renaming is its keeper's
            return "group=" in self.route
        if path in LISTS and games_private(self.ctx.store):
            return True
        if path in ("/new", "/club/new"):
            # Their forms draw what this phone may do (New game: whether it keeps the
            # group the game is for; New club night: its groups) in place, keeping what
            # was typed (`when_identified`); a whole new screen emptied it.
            return False
        return path.startswith(("/game/", "/club/", "/group/")) or path in RIGHTS_SCREENS

    def show_theme(self, mode: ft.ThemeMode) -> None:
        """Light, dark or like the phone. Only the page's theme mode changes: a theme
        built anew would rebuild every control at every switch (docs/FLET_NOTES.md 7).
        No screen is drawn again: every colour that differs between light and dark is
        a role of the theme (theme.py), which the phone recolours itself, so a form
        keeps what was typed when the phone turns dark."""
        page = self.ctx.page
        if page.theme_mode == mode:
            return
        page.theme_mode = mode
        page.update()

    async def _on_game_changed(self, _topic: str, game_id: str) -> None:
        # Async, so on the server's event loop: a sync handler runs on a pool
        # thread, one per watching phone, and those threads fought the saving
        # phone's own switch for the GIL (its sheet came 200 ms after Save with
        # 11 phones watching, 35 ms alone) and raced this session's own taps.
        # The wait lets the phone that saved be sent its sheet first.
        if game_id in self._coming:
            return  # a redraw is on its way: it will read the game as it is then
        self._coming.add(game_id)
        try:
            await asyncio.sleep(WATCHERS_AFTER_S)
        finally:
            self._coming.discard(game_id)
        self.game_changed(game_id)

    async def _on_redraw_all(self, message: str) -> None:
        # The game on show, as for news of it: a phone keeping the game hears a save's
        # answer, which moves the game and the sheet's line at once (one redraw).
        if message == live.REDRAW_ALL and self.game_id is not None:
            await self._on_game_changed("", self.game_id)

    def game_changed(self, game_id: str) -> None:
        """Redraw a sheet of this game; a hand being entered keeps its taps and
        learns of the change when it saves (the store refuses a stale revision)."""
        path = urlsplit(self.route).path.rstrip("/")
        if game_id == self.game_id and path == f"/game/{game_id}":
            self.show(self.route)

    def close(self) -> None:
        self.ctx.page.pubsub.unsubscribe_all()
