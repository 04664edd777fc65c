"""What every screen of one browser session shares: the page, the store, navigation."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import flet as ft

from scorer.app.actions import TableActions
from scorer.app.game_view_model import GameModel
from scorer.app.theme import ERROR_BAR, TOAST
from scorer.recording.conflicts import DraftPlace, draft_key
from scorer.recording.draft import HandDraft
from scorer.store.ports import GamesPort
from scorer.text.trail import notice_text

MAX_NOTICES = 10
"""Unread notices kept per game (the newest)."""


def saved_line(file_name: str) -> str:
    """What a phone reads once it has saved a file."""
    return f"Saved {file_name} to this phone's downloads."


@dataclass
class AppContext:
    """Per-session state. Only conveniences live here: the truth is in the store."""

    page: ft.Page
    store: GamesPort
    address: str = "unknown"
    """The connection's address as the server's socket saw it (`CONFIG.sessions`,
    set by the table server), never `page.client_ip`, which the client can change."""
    via_proxy: bool = False
    """The page came through a trusted proxy (`CONFIG.via_proxy`): the address it
    opened (`page.url`) is the one to give other phones."""
    drafts: dict[str, HandDraft] = field(default_factory=dict)
    """Hands being entered, by game id and hand index, so a detour to the run
    checker or the card counter does not lose the taps."""
    places: dict[str, DraftPlace] = field(default_factory=dict)
    """Under the same keys: the hand number each draft is for and the revision of the
    game the player saw it on (`scorer.recording.conflicts`)."""
    notices: dict[str, list[str]] = field(default_factory=dict)
    """By game: changes made on other phones (edits, undos) this phone has not read."""
    seen: dict[str, int] = field(default_factory=dict)
    """By game: the revision this phone last showed, for the notices of what came after."""
    alone_finished: set[str] = field(default_factory=set)
    """Finished games this phone showed while they had no next game yet."""
    next_started: set[str] = field(default_factory=set)
    """Finished games whose next game was started while this phone showed them."""
    open_panels: set[str] = field(default_factory=set)
    """Parts of screens a player opened (e.g. the race chart), kept across redraws."""
    on_show: str | None = None
    """The route of the screen on show (set by the router as it sends one): a View
    keeps the route it was made with while other screens are refilled into it."""
    kept: object | None = None
    """The parts of the last keyed screen drawn, for its next drawing to reuse
    (a `views.kept.Kept`: only that class reads it, so the session need not
    know the screens)."""
    share_open: object | None = None
    """The Share panel on show (a `views.share.OpenShare`: only that module reads it),
    drawn again with the sheet when the table code arrives."""
    actions: TableActions = field(init=False)
    _awake: bool = False
    router_refresh: Callable[[], None] = lambda: None
    """Redraw the current screen from the store (set by the router)."""
    game_changed: Callable[[str], None] = lambda _game_id: None
    """Redraw the screen if it shows this game's sheet (set by the router)."""
    prepare: Callable[[str], ft.View] | None = None
    """Build the screen for an address, for `put` (set by the router)."""
    put: Callable[[ft.View], None] = lambda _view: None
    """Send a screen from `prepare` to the phone (set by the router)."""
    shown_route: Callable[[], str] = lambda: ""
    """The address of the screen on show (set by the router)."""
    push_route: Callable[[str], Awaitable[None]] | None = None
    """Tell the browser its address, knowing its announcement of it (set by the router)."""
    phone_known: Callable[[], None] = lambda: None
    """Apply what the browser keeps for this phone once read (set by the router)."""
    continued: str | None = None
    """The game home's Continue card was drawn for: home is drawn again if the phone,
    once known, has another one."""

    def __post_init__(self) -> None:
        self.actions = TableActions(self)

    def go(self, route: str) -> None:
        """Navigate (adds a browser history entry). Navigation comes from taps,
        which is when a browser lets the page keep the screen awake."""
        self.keep_awake()
        self.page.run_task(self._switch, route)

    async def _switch(self, route: str) -> None:
        """Send the new screen, then tell the browser its new address.

        The new address makes the phone rebuild the whole screen on show, and the
        two messages are handled a frame apart: sent first, the screen is on show a
        frame sooner, and the rebuild comes while the player reads it (sent after
        the address, the screen waited for the old one's rebuild: sheet → Record
        hand took about twice as long at CPU/4). Not waiting for the browser to announce
        the address saves a round trip (the announcement is then taken as already
        shown, however late it comes: `Router.announced`)."""
        push = self.push_route or self.page.push_route
        if self.prepare is None or route == self.shown_route():
            await push(route)
            return
        self.put(self.prepare(route))
        # The route shown: another than asked for if a hand the phone kept is put back.
        await push(self.shown_route())

    def download(self, file_name: str, data: bytes) -> None:
        """Hand the browser a file to save (an exported game), and say so on screen:
        a browser's download shows nothing on many phones."""

        async def save() -> None:
            try:
                await ft.FilePicker().save_file(file_name=file_name, src_bytes=data)
            except Exception:  # the browser refused the download
                logging.getLogger(__name__).exception("download failed")
                self.toast(f"This phone would not save {file_name}.", error=True)
                return
            self.toast(saved_line(file_name))

        self.page.run_task(save)

    def keep_awake(self) -> None:
        """Keep the screen on. Browsers allow it only from a tap, so screens call
        this from their buttons; once per session is enough."""
        if not self._awake:
            self._awake = True
            self.page.run_task(_enable_wakelock)

    def toast(self, message: str, error: bool = False) -> None:
        """A short message at the bottom of the screen."""
        # A snack bar draws its words in the inverse colours: on the error colour
        # they must be set too (pale on pale pink was 1.14:1).
        colours = ERROR_BAR if error else TOAST
        bar = ft.SnackBar(
            content=ft.Text(message, size=16, color=colours.fg),
            bgcolor=colours.bg,
            duration=4000 if error else 2500,
        )
        self.page.show_dialog(bar)

    @staticmethod
    def draft_key(game_id: str, index: int | None) -> str:
        return draft_key(game_id, index)

    def forget_draft(self, key: str) -> None:
        """The hand was saved, or dropped: its taps and its place go, and the copy the
        phone kept while its Save was on the way (`scorer.app.unsaved`)."""
        self.drafts.pop(key, None)
        self.places.pop(key, None)
        self.actions.drop_unsaved(key)

    def take_news(self, model: GameModel) -> None:
        """Note what other phones changed in the game since this phone last showed it
        (an edit, an undo: a new hand shows on the sheet by itself), to be shown until
        read; then the game counts as seen at its revision now."""
        game_id = model.id
        last = self.seen.get(game_id)
        self.seen[game_id] = model.stored.revision
        if last is None or last >= model.stored.revision:
            return
        news = [text for entry in model.changes_since(last)
                if not self.actions.made_here(game_id, entry.revision)
                and (text := notice_text(entry, model.game)) is not None]
        for text in news:
            self.tell(game_id, text)

    def next_is_news(self, game_id: str, next_id: str | None) -> bool:
        """Whether the finished game's next game (`next_id`, None if none yet) was
        started since this phone first showed it with none: then it is announced,
        else (a reload, Past games) only linked."""
        if next_id is None:
            self.alone_finished.add(game_id)
        elif game_id in self.alone_finished:  # announced once, until opened
            self.alone_finished.discard(game_id)
            self.next_started.add(game_id)
        return game_id in self.next_started

    def tell(self, game_id: str, text: str) -> None:
        """A notice on the game's sheet, shown until read."""
        kept = self.notices.setdefault(game_id, [])
        kept.append(text)
        del kept[:-MAX_NOTICES]

    def read_notices(self, game_id: str) -> None:
        self.notices.pop(game_id, None)


async def _enable_wakelock() -> None:
    with contextlib.suppress(Exception):  # not every browser offers it
        await ft.Wakelock().enable()
