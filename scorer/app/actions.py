"""Every change a phone makes to a game goes through here: one place to check
who may edit, to save, and to tell the other phones at the table.

Edit rights (see `scorer.rights`): a phone is known by a random device token
kept in the browser's SharedPreferences; the server keeps which tokens entered
each game's table code. The checks are made here, on the server, for every
save, undo and delete, not only by hiding buttons. Brakes (wrong codes, new
games) count per connection address as the server's socket saw it
(`AppContext.address`), never per anything the client says about itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import flet as ft
from pydantic import BaseModel, ConfigDict

from scorer.app import CONFIG
from scorer.app.game_sight import Sight, games_private, sees_game, sight_of, visible_games
from scorer.app.hold_for_tests import hold
from scorer.app.phone_prefs import (
    SHOWN_KEY,
    THEME_KEY,
    THEMES,
    UNSAVED_KEY,
    KeptPrefs,
    PhonePrefs,
    read_prefs,
)
from scorer.recording.kept_save import KeptSave, read_kept
from scorer.rights import NotAllowed, RightsPort, get_rights
from scorer.rights.limiter import TooManyTries
from scorer.rights.owner import PHONE_DEVICE, OwnerRights
from scorer.sharing import game_url
from scorer.store.errors import GameDamaged, GameNotFound, NextGameExists, NotSaved, StoreError
from scorer.store.models import GameSummary, StoredGame
from scorer.store.ports import GamesPort

if TYPE_CHECKING:
    from scorer.app.game_view_model import GameModel

logger = logging.getLogger(__name__)

DEVICE_KEY = "tarabish.device"
"""SharedPreferences key of this browser's device token."""
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")


READ_DELAYS_S: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0)
"""Waits between the first reads of what the browser keeps; then the phone acts on a
token for this session while the reads go on now and then."""
QUIET_DELAY_S = 30.0
QUIET_TRIES = 20
"""Reads after the first ones (10 minutes); a reload starts them again."""
READ_WAIT_S = 15.0
"""Longest wait for one read: the browser gives up at 10 s itself, but an answer lost
with a dropped connection would be awaited for ever."""
KEEP_WAIT_S = 3.0
"""Longest wait at Save for the phone to say it keeps the hand: a phone that does not
answer still has its hand saved (only not kept against the server going away)."""


def _short(exc: BaseException) -> str:
    """An exception in one line (the browser's timeout is a long one)."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:160]}" if text else type(exc).__name__


_GUESSING = ("Too many addresses of games that do not exist were opened from here: "
             "try again in {seconds} s.")
_SEEN_MAX = 1_000
"""Games a session remembers it may see (a bound on one session's memory)."""

RIGHTS_SCREENS = ("/host",)
"""Screens besides a game's that show what this phone may do (drawn again once it is known)."""


def game_topic(game_id: str) -> str:
    return f"game:{game_id}"


class NextGame(BaseModel):
    """What Play again led to: the next game, and whether this tap made it (False:
    another phone had started it already)."""

    model_config = ConfigDict(frozen=True)

    game_id: str
    made: bool


class TableSession(Protocol):
    """What the actions use of a browser session (`AppContext` is one). Named here,
    not imported, so that the session can hold its actions without a circle."""

    @property
    def page(self) -> ft.Page: ...

    @property
    def store(self) -> GamesPort: ...

    @property
    def address(self) -> str: ...

    @property
    def via_proxy(self) -> bool:
        """The page came through a trusted proxy (its `page.url` is the one phones open)."""
        ...

    @property
    def router_refresh(self) -> Callable[[], None]:
        """Redraw the screen on show from the store."""
        ...

    @property
    def game_changed(self) -> Callable[[str], None]:
        """Redraw the screen if it shows this game's sheet."""
        ...

    @property
    def phone_known(self) -> Callable[[], None]:
        """What the browser keeps for this phone has been read: apply its colours and
        redraw the screen on show if it depends on this phone (its games, its rights)."""
        ...


class TableActions:
    """Edit rights, saving hands and announcing changes for one session: values
    and errors only, never controls (the screens draw them)."""

    def __init__(self, ctx: TableSession) -> None:
        self.ctx = ctx
        self.device: str | None = None
        """This browser's device token; None until read from SharedPreferences
        (a moment after the session starts)."""
        self.phone = PhonePrefs()
        """This phone's colours and games, as the browser keeps them (read at the start)."""
        self._prefs: KeptPrefs | None = None
        self.prefs_factory: Callable[[], KeptPrefs] = ft.SharedPreferences
        """Where the browser's kept values are read (a fake one in tests)."""
        self.read_ok = False
        """The browser answered: the device token is the one it keeps."""
        self.given_up = False
        """The first tries failed: this phone has a token for this session for now."""
        self.read_delays: tuple[float, ...] = READ_DELAYS_S
        self.quiet_delay_s = QUIET_DELAY_S
        self.read_wait_s = READ_WAIT_S
        self._reads = 0
        self._quiet_tries = 0
        self._seen: dict[str | None, set[str]] = {}
        """By device token: games this session found it may see (`sees`)."""
        self.made: deque[tuple[str, int]] = deque(maxlen=64)
        """(game, revision) of the last changes this session saved."""
        self.unsaved: KeptSave | None = None
        """A hand the phone kept at a Save the store never answered (the server went
        away), found at the start; settled when a screen of its game opens
        (`scorer.app.unsaved`)."""
        self._kept_key: str | None = None
        """The draft key of the hand the phone keeps now, if any."""
        if CONFIG.alone:  # one phone, no server: it is the only device there is
            self.device = PHONE_DEVICE
        try:
            ctx.page.run_task(self._read_phone)
        except Exception:  # no running session (plain tests): session-only identity
            logger.debug("no session to read the phone's settings from", exc_info=True)

    # -- who is this phone -------------------------------------------------------------------

    async def _read_phone(self) -> None:
        """Read what the browser keeps for this phone (colours, games and, at a table
        server, the device token: made and kept if there is none), then let the session
        apply it.

        A read that fails or hangs (a busy laptop, a dropped connection) is tried
        again, soon and then quietly now and then (`READ_DELAYS_S`, `QUIET_DELAY_S`):
        meanwhile the phone is "being checked", not a watcher. Only once the first
        tries have failed does it get a token for this session, so that it can start
        or join a game; the stored token still wins when it comes (`_identify`), and
        a reload reads again (`reconnected`)."""
        self._reads += 1
        run = self._reads
        delays = iter(self.read_delays)
        while not self.read_ok and run == self._reads:
            try:
                await asyncio.wait_for(self._read_once(), self.read_wait_s)
            except Exception as exc:  # storage refused, slow or gone: try again
                delay = next(delays, None)
                if delay is None and not self.given_up:
                    self.given_up = True
                    logger.warning("could not read this phone's settings (%s); trying again "
                                   "now and then, its rights last this session meanwhile",
                                   _short(exc))
                    self._device()  # the phone may act now; the stored token still wins
                    self.ctx.phone_known()
                if delay is None:
                    self._quiet_tries += 1
                    if self._quiet_tries > QUIET_TRIES:
                        return  # a reload reads again
                    delay = self.quiet_delay_s
                logger.debug("phone settings not read, again in %.1f s", delay, exc_info=True)
                await asyncio.sleep(delay)
                continue
            self.ctx.phone_known()

    async def _read_once(self) -> None:
        if self._prefs is None:
            self._prefs = self.prefs_factory()
        await read_prefs(self._prefs, self.phone)
        if not CONFIG.alone:  # both at once: no more round trips before the rights
            await asyncio.gather(self._identify(self._prefs), self._read_unsaved(self._prefs))
        self.read_ok = True

    def reconnected(self) -> None:
        """The page came back (a reload in the same tab reattaches to this session, and
        the session starts no new read): read again if no read has worked yet."""
        if self.read_ok:
            return
        self._quiet_tries = 0
        try:
            self.ctx.page.run_task(self._read_phone)
        except Exception:  # the session is closing
            logger.debug("no session to read the phone's settings from", exc_info=True)

    async def _identify(self, prefs: KeptPrefs) -> None:
        """Read (or make and keep) this browser's device token. The stored token wins
        over one made for this session meanwhile; what that one gained (a game started,
        a code typed) goes with it, checked here: only a token this server made moves."""
        stored = await prefs.get(DEVICE_KEY)
        if isinstance(stored, str) and _TOKEN_RE.match(stored):
            made = self.device
            if made is not None and made != stored and not CONFIG.alone:
                moved = self.rights.move_device(made, stored)
                logger.info("this phone's stored token came late: %d rights moved to it",
                            moved)
            self.device = stored
        else:  # a new browser: keep its token (made now, or for this session meanwhile)
            await prefs.set(DEVICE_KEY, self._device())

    async def _read_unsaved(self, prefs: KeptPrefs) -> None:
        """A hand the phone kept at a Save that was never answered, if any; anything
        there this app could not have written is removed."""
        value = await prefs.get(UNSAVED_KEY)
        if value is None:
            return
        kept = read_kept(value)
        if kept is None:
            logger.warning("a kept hand this app could not have written was removed")
            await prefs.remove(UNSAVED_KEY)
            return
        self.unsaved = kept
        self._kept_key = kept.key

    # -- what this phone keeps for itself ----------------------------------------------------

    def choose_theme(self, choice: str) -> ft.ThemeMode:
        """Keep the screen colours this phone chose (a key of `phone_prefs.THEMES`);
        the theme mode that shows them."""
        if choice not in THEMES:
            raise ValueError(f"no such colours: {choice!r}")
        self.phone.theme = choice
        self._keep(THEME_KEY, choice)
        return self.phone.theme_mode

    def showed_game(self, game_id: str) -> None:
        """A game's screen is on show: it becomes this phone's game to continue."""
        if self.phone.showed(game_id):
            self._keep(SHOWN_KEY, self.phone.shown_text())

    def game_to_continue(self) -> GameSummary | None:
        """The unfinished game this phone showed last (or the one started with Play
        again after a finished game it showed), or else the one it holds that was
        played last; None if there is none (or the phone is not known yet)."""
        games = self.visible_games()  # on a community: this phone's games only
        playing = {game.id: game for game in games if not game.finished}
        after: dict[str, str] = {}  # by game: the first game started after it
        for game in sorted(games, key=lambda g: (g.created, g.id), reverse=True):
            if game.follows:
                after[game.follows] = game.id
        for game_id in self.phone.shown:
            for _ in range(len(after) + 1):  # along the table's games (no link loops)
                if game_id in playing:
                    return playing[game_id]
                if game_id not in after:
                    break
                game_id = after[game_id]
        return next((game for game in playing.values() if self.can_edit(game.id)), None)

    def _keep(self, key: str, value: str) -> None:
        """Write a choice to the browser, in the background (a write that fails only
        loses it for the next session)."""
        prefs = self._prefs
        if prefs is None:  # not read yet: `read_prefs` keeps the games shown meanwhile
            return

        async def write() -> None:
            try:
                await prefs.set(key, value)
            except Exception:
                logger.warning("could not keep %s on this phone", key, exc_info=True)

        self.ctx.page.run_task(write)

    async def keep_unsaved(self, key: str, kept: str) -> None:
        """At Save, before the store sees the hand: have the phone keep it (`kept`, a
        `kept_save.kept_text`) and wait for it to say so, so that a server that goes
        away now leaves the hand on the phone (`scorer.app.unsaved`). A phone that
        does not answer in time still gets its save."""
        if CONFIG.alone:  # the phone is the server: nothing can go away under it
            return
        if self._prefs is None:
            self._prefs = self.prefs_factory()
        self._kept_key = key
        try:
            await asyncio.wait_for(self._prefs.set(UNSAVED_KEY, kept), KEEP_WAIT_S)
        except Exception as exc:
            logger.warning("this phone did not keep the hand being saved (%s)", _short(exc))

    def drop_unsaved(self, key: str) -> None:
        """The hand under `key` was saved or dropped: the phone's copy goes (in the
        background; one left behind is found stored or dropped at the next start)."""
        prefs = self._prefs
        if self._kept_key != key or prefs is None:
            return
        self._kept_key = None

        async def remove() -> None:
            try:
                await prefs.remove(UNSAVED_KEY)
            except Exception:
                logger.warning("could not drop the hand this phone kept", exc_info=True)

        self.ctx.page.run_task(remove)

    def _device(self) -> str:
        """The device token, making a session-only one if it is not known yet."""
        if self.device is None:
            self.device = secrets.token_urlsafe(24)
        return self.device

    @property
    def identified(self) -> bool:
        """Whether what this phone may do can be drawn: its stored token is read, or the
        first reads failed and it acts on a token for this session. Until then screens
        say it is being checked, not that it is watching."""
        return self.device is not None and (self.read_ok or self.given_up or CONFIG.alone)

    @property
    def rights(self) -> RightsPort:
        if CONFIG.alone:  # the server's word on a phone that meets one, else every game
            return CONFIG.phone_rights or OwnerRights()
        return get_rights(self.ctx.store.data_dir)

    # -- edit rights -------------------------------------------------------------------------

    def can_edit(self, game_id: str) -> bool:
        """Whether this phone may record, edit or undo hands of the game: it started
        the game, entered its table code, or is the host. No game is open to the first
        comer (an imported one is held by nobody until its code is entered)."""
        return self.device is not None and self.rights.may_edit(game_id, self.device)

    def require_edit(self, game_id: str) -> None:
        """Refuse (NotAllowed) unless this phone may change the game (`can_edit`)."""
        if not self.rights.may_edit(game_id, self._device()):
            raise NotAllowed()

    @property
    def is_host(self) -> bool:
        """This phone entered the server's host code: it holds every game."""
        return self.device is not None and self.rights.is_host(self.device)

    def enter_host_code(self, code: str) -> None:
        """Make this phone the host for a right code; raises WrongCode / TooManyTries."""
        self.rights.enter_host_code(self._device(), self.ctx.address, code)

    def game_created(self, game_id: str) -> str:
        """The phone that started a game holds it: give the game its table code.

        If the code cannot be saved (disk full), the new game is deleted again:
        the player reads "nothing was saved", so nothing may be left over.
        """
        try:
            return self.rights.start(game_id, self._device())
        except NotSaved:
            with contextlib.suppress(StoreError):
                self.ctx.store.delete_game(game_id)
            raise

    def enter_code(self, game_id: str, code: str) -> None:
        """Grant edit rights for a right code; raises WrongCode / TooManyTries."""
        self.rights.enter_code(game_id, self._device(), self.ctx.address, code)

    def table_code(self, game_id: str) -> str | None:
        """The game's code, for phones that hold it (None for watchers)."""
        if self.device is None or not self.rights.may_edit(game_id, self.device):
            return None
        return self.rights.code(game_id)

    # -- what this phone may see (a community: its own games only) --------------------------

    def sight(self) -> Sight:
        """The games this phone may see (`scorer.app.game_sight`): every one on a
        laptop; on a community those it holds, opened, keeps or organises."""
        return sight_of(self.ctx.store, self.rights, self.device)

    def visible_games(self) -> list[GameSummary]:
        """The games this phone may see, newest activity first (Past games, pickers)."""
        return visible_games(self.ctx.store, self.sight())

    def sees(self, game_id: str) -> bool:
        """Whether this phone may see the game (checked on the server at every read)."""
        seen = self._seen.get(self.device)
        if seen is not None and game_id in seen:
            return True
        if not sees_game(self.ctx.store, self.rights, self.device, game_id):
            return False
        self._remember_seen(game_id)
        return True

    def require_sight(self, game_id: str) -> None:
        """Refuse (GameNotFound, as for a game that does not exist: a stranger learns
        nothing of another home's games) unless this phone may see the game."""
        if not self.sees(game_id):
            raise GameNotFound(game_id)

    def open_game(self, game_id: str) -> None:
        """The phone opened the game's own address (`/game/<id>`): where games are
        private, it may see the game from now on (recorded once it is known). An
        address that names no game counts against the connection's address; past the
        free ones, TooManyTries before any game is looked up."""
        if not games_private(self.ctx.store) or self.sees(game_id):
            return
        rights = self.rights
        wait = rights.game_address_wait(self.ctx.address)
        if wait > 0:
            raise TooManyTries(wait, _GUESSING.format(seconds=max(1, round(wait))))
        try:
            self.ctx.store.get_game(game_id)
        except GameDamaged:
            return  # it exists: its screen says what is wrong
        except GameNotFound:
            wait = rights.missed_game_address(self.ctx.address)
            if wait > 0:
                raise TooManyTries(wait, _GUESSING.format(seconds=max(1, round(wait)))
                                   ) from None
            return  # its screen says there is no such game
        if self.device is None:
            return  # shown now; recorded when the phone is known (the screen is redrawn)
        rights.opened(game_id, self.device)
        self._remember_seen(game_id)

    def _remember_seen(self, game_id: str) -> None:
        """Games this phone may see, kept for the session (a sheet redraws at every
        save of another phone): per device token, which may change once."""
        seen = self._seen.setdefault(self.device, set())
        if len(seen) < _SEEN_MAX:
            seen.add(game_id)

    # -- starting and deleting games ---------------------------------------------------------

    def create_game(self, doc: dict[str, Any]) -> StoredGame:
        """Save a new game held by this phone; refuses (TooManyGames) an address
        that started too many games this hour."""
        rights = self.rights
        rights.check_new_game(self.ctx.address)
        stored = self.ctx.store.create_game(doc)
        rights.game_started(self.ctx.address)
        self.game_created(stored.id)
        return stored

    def next_game(self, game_id: str) -> str | None:
        """The game started with Play again after this one, if there is one."""
        return self.ctx.store.next_game(game_id)

    def play_again(self, finished: str, seen_revision: int, doc: dict[str, Any]) -> NextGame:
        """Start the game that follows `finished`, as this phone saw it at `seen_revision`.

        A phone that held the finished game makes the table's next game: every phone
        that held the finished one holds this one too, and the phones showing the
        finished sheet are told. If another phone made it first, that game is
        returned (`made` False) and none is made. A watcher's Play again is a game
        of its own: it gives nobody rights and is no table's next game.
        Raises StaleRevision if the finished game changed since (a hand undone)."""
        made = self.next_game(finished)
        if made is not None:
            return NextGame(game_id=made, made=False)
        if not self.can_edit(finished):
            return NextGame(game_id=self.create_game(doc).id, made=True)
        rights = self.rights
        rights.check_new_game(self.ctx.address)
        try:
            stored = self.ctx.store.create_next_game(finished, doc, seen_revision)
        except NextGameExists as exc:
            return NextGame(game_id=exc.game_id, made=False)
        rights.game_started(self.ctx.address)
        try:
            rights.start_next(stored.id, self._device(), finished)
        except NotSaved:
            with contextlib.suppress(StoreError):
                self.ctx.store.delete_game(stored.id)
            raise
        # The phones on the finished sheet draw it again: it now offers the next game.
        self.ctx.page.pubsub.send_others_on_topic(game_topic(finished), finished)
        CONFIG.game_saved(finished)  # and the phones that keep it (sync) learn of it
        return NextGame(game_id=stored.id, made=True)

    def delete_game(self, game_id: str) -> None:
        """Delete a game for good, with its table code; needs edit rights
        (NotAllowed otherwise), like any other change."""
        self.require_edit(game_id)
        self.ctx.store.delete_game(game_id)
        self.rights.forget(game_id)  # after: a failed delete must not free the game
        self.ctx.page.pubsub.send_others_on_topic(game_topic(game_id), game_id)
        CONFIG.game_saved(game_id)  # the phones that keep it (sync) are told it is gone

    # -- changing a game ---------------------------------------------------------------------

    def save_hand(self, model: GameModel, hand: dict[str, Any], index: int | None) -> StoredGame:
        """Append (index None) or replace a hand, on the revision the phone showed
        (`model`): refuses a stale sheet (StaleRevision) and a phone without edit
        rights (NotAllowed)."""
        self.require_edit(model.id)
        store = self.ctx.store
        hold("before")
        if index is None:
            stored = store.add_hand(model.id, hand, expected_revision=model.stored.revision,
                                    by=self.label())
        else:
            stored = store.replace_hand(model.id, index, hand,
                                        expected_revision=model.stored.revision, by=self.label())
        hold("after")
        return self._saved(stored)

    def undo_last_hand(self, model: GameModel) -> StoredGame:
        """Remove the last hand (same checks as save_hand)."""
        self.require_edit(model.id)
        return self._saved(self.ctx.store.undo_last_hand(
            model.id, expected_revision=model.stored.revision, by=self.label()))

    def redo_hand(self, model: GameModel) -> StoredGame:
        """Put back the last hand undone (same checks as save_hand)."""
        self.require_edit(model.id)
        return self._saved(self.ctx.store.redo_hand(
            model.id, expected_revision=model.stored.revision, by=self.label()))

    def _saved(self, stored: StoredGame) -> StoredGame:
        self.made.append((stored.id, stored.revision))
        self.changed(stored.id)
        return stored

    def made_here(self, game_id: str, revision: int) -> bool:
        """Whether this session saved that revision of the game (its own change needs
        no notice)."""
        return (game_id, revision) in self.made

    def label(self) -> str | None:
        """What the game's trail calls this phone: its chosen name, or "phone 2"."""
        try:
            return self.rights.phone_label(self._device())
        except StoreError:  # the phones file: a label is not worth refusing a save for
            logger.warning("no label for this phone", exc_info=True)
            return None

    def phone_name(self) -> str | None:
        return None if self.device is None else self.rights.phone_name(self.device)

    def name_phone(self, name: str) -> str:
        """Keep the name this phone chose for itself; its label now."""
        return self.rights.name_phone(self._device(), name)

    def changed(self, game_id: str) -> None:
        """Tell every phone showing this game (this one included) to redraw it."""
        # Other phones hear it on the topic; this one redraws here and now (a
        # redraw on a second thread could race the closing of a dialog).
        self.ctx.page.pubsub.send_others_on_topic(game_topic(game_id), game_id)
        self.ctx.game_changed(game_id)
        CONFIG.game_saved(game_id)  # the club night board, if the game is a table's

    # -- sharing -----------------------------------------------------------------------------

    def share_urls(self, game_id: str) -> list[str]:
        """The game's address on every base address phones can use, best first
        (`Reach.bases`: the rule of every address the server gives out)."""
        return [game_url(base, game_id)
                for base in CONFIG.reach.bases(self.ctx.page.url, self.ctx.via_proxy)]

