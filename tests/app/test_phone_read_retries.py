"""A phone never loses its rights (issue 31, section 1): a slow or failed read of what
the browser keeps (the device token that holds the rights) is tried again, never
turns a holder into a watcher for good, and a reload reads again. The stored token
wins over one made for the session meanwhile, and takes what that one gained."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import flet as ft
from in_thread import run_async

from scorer.app.actions import DEVICE_KEY, QUIET_TRIES, TableActions
from scorer.app.context import AppContext
from scorer.app.phone_prefs import THEME_KEY
from scorer.events.organisers import OrganiserCodes
from scorer.rights import get_rights
from scorer.store import GameStore

DOC: dict[str, Any] = {"format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"],
                       "first_dealer": 3, "rules": {}, "hands": []}
STORED = "stored-token-0123456789abcdef"
BROWSER_TIMEOUT = "TimeoutException after 0:00:10.000000: Future not completed"


class FakePrefs:
    """A browser's SharedPreferences whose reads hang, then fail, then answer."""

    def __init__(self, kept: dict[str, str], hang: int = 0, fail: int = 0) -> None:
        self.kept = dict(kept)
        self.hang = hang
        self.fail = fail
        self.reads = 0
        self.while_reading: list[bool] = []
        """`identified` at each read after the first (the screen said "checking"?)."""
        self.actions: TableActions | None = None

    async def get(self, key: str) -> Any:
        self.reads += 1
        if self.actions is not None and self.reads > 1:
            self.while_reading.append(self.actions.identified)
        if self.hang > 0:
            self.hang -= 1
            await asyncio.Event().wait()  # an answer lost on the way: never comes
        if self.fail > 0:
            self.fail -= 1
            raise RuntimeError(BROWSER_TIMEOUT)
        return self.kept.get(key)

    async def set(self, key: str, value: str) -> bool:
        if self.fail > 0:
            raise RuntimeError(BROWSER_TIMEOUT)
        self.kept[key] = value
        return True


class Phone:
    """One session at the table server, with a fake browser storage and quick retries."""

    def __init__(self, store: GameStore, prefs: FakePrefs) -> None:
        loop = asyncio.get_running_loop()
        self.tasks: list[asyncio.Task[None]] = []
        page = SimpleNamespace(theme_mode=ft.ThemeMode.SYSTEM, width=390.0,
                               platform_brightness=ft.Brightness.LIGHT,
                               run_task=self._run_task)
        self.loop = loop
        self.redrawn = 0
        self.ctx = AppContext(page=cast(ft.Page, page), store=store)
        self.ctx.phone_known = self._known
        self.actions = self.ctx.actions
        self.actions.prefs_factory = lambda: prefs
        self.actions.read_delays = (0.01, 0.01, 0.01)
        self.actions.quiet_delay_s = 0.01
        self.actions.read_wait_s = 1.5  # a read that moves rights writes a file: room for a slow disk
        prefs.actions = self.actions

    def _run_task(self, handler: Callable[[], Awaitable[None]]) -> None:
        async def run() -> None:
            await handler()

        self.tasks.append(self.loop.create_task(run()))

    def _known(self) -> None:
        self.redrawn += 1

    async def settled(self) -> None:
        while not all(task.done() for task in self.tasks):
            await asyncio.gather(*self.tasks)


def game(store: GameStore) -> str:
    return store.create_game(DOC).id


def test_a_read_that_hangs_then_answers_keeps_the_holders_rights(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    held = game(store)
    get_rights(tmp_path).start(held, STORED)
    prefs = FakePrefs({DEVICE_KEY: STORED, THEME_KEY: "dark"}, hang=2)

    async def main() -> Phone:
        phone = Phone(store, prefs)
        await phone.settled()
        return phone

    phone = run_async(main())
    assert phone.actions.device == STORED and phone.actions.can_edit(held)
    assert phone.actions.phone.theme == "dark"
    assert not any(prefs.while_reading)  # "checking this phone", never "watching"
    assert phone.redrawn == 1


def test_a_read_that_fails_a_few_times_then_answers_keeps_the_holders_rights(
        tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    held = game(store)
    get_rights(tmp_path).start(held, STORED)
    prefs = FakePrefs({DEVICE_KEY: STORED}, fail=3)

    async def main() -> Phone:
        phone = Phone(store, prefs)
        await phone.settled()
        return phone

    phone = run_async(main())
    assert phone.actions.device == STORED and phone.actions.can_edit(held)
    assert not phone.actions.given_up and not any(prefs.while_reading)
    assert phone.redrawn == 1


def test_a_stored_token_that_comes_late_wins_and_takes_what_the_session_gained(
        tmp_path: Path) -> None:
    """The first reads fail: the phone acts on a token for this session (it types
    another game's code, becomes an event's organiser), then its stored token comes."""
    store = GameStore(tmp_path)
    held, joined = game(store), game(store)
    rights = get_rights(tmp_path)
    rights.start(held, STORED)
    organisers = OrganiserCodes(tmp_path)
    rights.also_move(organisers.move)
    code = rights.start(joined, "another-phone-0123456789")
    prefs = FakePrefs({DEVICE_KEY: STORED}, fail=12)

    async def main() -> Phone:
        phone = Phone(store, prefs)
        while not phone.actions.given_up:
            await asyncio.sleep(0.005)
        actions = phone.actions
        assert actions.identified and not actions.can_edit(held)  # for now
        session_token = actions.device
        assert session_token is not None and session_token != STORED
        actions.enter_code(joined, code)
        organisers.start("0000e0e0", session_token)
        await phone.settled()
        assert not rights.may_edit(joined, session_token)  # moved, not copied
        assert not organisers.holds("0000e0e0", session_token)
        return phone

    phone = run_async(main())
    actions = phone.actions
    assert actions.device == STORED and prefs.kept[DEVICE_KEY] == STORED  # never overwritten
    assert actions.can_edit(held) and actions.can_edit(joined)
    assert organisers.holds("0000e0e0", STORED)
    assert phone.redrawn == 2  # once acting for the session, once known


def test_a_read_that_always_fails_is_read_again_on_reload(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    held = game(store)
    get_rights(tmp_path).start(held, STORED)
    prefs = FakePrefs({DEVICE_KEY: STORED}, fail=10_000)

    async def main() -> Phone:
        phone = Phone(store, prefs)
        await phone.settled()
        actions = phone.actions
        assert actions.given_up and not actions.read_ok and not actions.can_edit(held)
        assert prefs.reads > QUIET_TRIES  # it went on trying quietly, then stopped
        assert prefs.kept[DEVICE_KEY] == STORED  # the session's token was not kept over it
        prefs.fail = 0  # the laptop is less busy; the player reloads the page
        actions.reconnected()
        await phone.settled()
        return phone

    phone = run_async(main())
    assert phone.actions.read_ok and phone.actions.device == STORED
    assert phone.actions.can_edit(held)
    assert phone.redrawn == 2
    phone.actions.reconnected()  # read: a reload reads nothing again
    assert len(phone.tasks) == 2


def test_only_a_sessions_own_rights_move(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    mine, theirs = game(store), game(store)
    rights = get_rights(tmp_path)
    rights.start(mine, "session-token-0123456789")
    rights.start(theirs, "their-token-0123456789ab")
    assert rights.move_device("session-token-0123456789", STORED) == 1
    assert rights.may_edit(mine, STORED) and not rights.may_edit(theirs, STORED)
    assert rights.may_edit(theirs, "their-token-0123456789ab")
    assert rights.move_device(STORED, STORED) == 0
