"""A game's address on a server whose game addresses open the app (a community's default,
`--open-games-in app` on a laptop): a phone that can run the app gets the app on that
game (its sheet, kept by the phone through the server's sync), one that cannot gets the
server-drawn page by itself, `?drawn=1` is the drawn page, and an app older than the
server's takes the server's version at a calm moment, keeping the games on the phone."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect
from pwa_phone import Phone, show_app
from table_steps import see, seed_game
from test_phone_alone import start_game
from test_send_to_server import shots

from scorer.webbuild.site import built_rules, write_service_worker, write_version

APP = ("--open-games-in", "app")
LIVES_THERE = "This game lives on the server: open it there to see it and record hands."
"""What the app says of a server's game on a server without the sync socket."""
UPDATING = re.compile("^A newer Tarabish is on the server")
NO_WASM = "delete window.WebAssembly;"
LITTLE_MEMORY = "Object.defineProperty(Navigator.prototype, 'deviceMemory', {get: () => 0.5});"
NO_SERVICE_WORKER = "delete Navigator.prototype.serviceWorker;"
BROKEN_WORKER = """window.Worker = class {
  constructor() { setTimeout(() => this.onerror && this.onerror(new Event("error")), 0); }
  postMessage() {}
  terminate() {}
};"""
"""The app's Python worker does not load (a browser that refuses it, a file cut short)."""
MARK = "tarabishBeforeUpdate"
"""Set on the page by the test: a page the app loaded again has none."""
OWN_VERSION_JS = """() => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = (event) => resolve(event.data);
  navigator.serviceWorker.controller.postMessage("version", [channel.port2]);
})"""


def seeded(tmp_path: Path) -> tuple[Path, str]:
    data = tmp_path / "community"
    return data, seed_game(data, [])


FIRST_HAND = "Hand 1: Dee deals, Ann speaks and leads"


def see_drawn(page: Page, text: str = FIRST_HAND) -> None:
    """The server-drawn page shows `text` (its accessibility tree turned on)."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=120_000)
    page.eval_on_selector("flt-semantics-placeholder", "e => e.click()")
    see(page, text, timeout=60_000)


def wait_for_url(page: Page, pattern: str, what: str, timeout_ms: float = 120_000) -> None:
    try:
        page.wait_for_url(re.compile(pattern), timeout=timeout_ms, wait_until="commit")
    except Exception as exc:  # say what was waited for
        raise AssertionError(f"the phone never reached {what} (at {page.url})") from exc


def test_a_communitys_game_address_opens_the_game_in_the_app(
    phone: Phone, table_server: Callable[..., Any], tmp_path: Path,
) -> None:
    data, game = seeded(tmp_path)
    server = table_server(args=APP, data=data)
    page = phone.new_page()
    page.goto(f"{server.url}game/{game}", wait_until="commit")
    wait_for_url(page, rf"/alone/game/{game}", "the app's address of the game")
    # The app, under its own scope, on that game: the phone keeps it (the server's sync)
    # and shows its sheet; recording needs the table code. The page is not opened again
    # from here: on a first visit the app loads itself again once its service worker is
    # in charge, and a navigation of the test's own was interrupted by it.
    show_app(page, FIRST_HAND)
    see(page, "Enter table code")
    expect(page.get_by_text(LIVES_THERE)).to_have_count(0)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller",
                           timeout=120_000)
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/alone/sw.js")
    assert re.search(rf"/alone/game/{game}", page.url)
    shots(page, "app-server-game")
    # The server's own page of it is still at ?drawn=1, beside the app.
    page.goto(f"{server.url}game/{game}?drawn=1", wait_until="commit")
    see_drawn(page)
    assert page.url == f"{server.url}game/{game}?drawn=1"


@pytest.mark.parametrize("script", [NO_WASM, NO_SERVICE_WORKER, LITTLE_MEMORY, BROKEN_WORKER],
                         ids=["no-wasm", "no-service-worker", "little-memory", "app-fails"])
def test_a_phone_that_cannot_run_the_app_gets_the_drawn_page_by_itself(
    phone: Phone, table_server: Callable[..., Any], tmp_path: Path, script: str,
) -> None:
    data, game = seeded(tmp_path)
    server = table_server(args=APP, data=data)
    phone.context.add_init_script(script)
    page = phone.new_page()
    page.goto(f"{server.url}game/{game}", wait_until="commit")
    wait_for_url(page, rf"/game/{game}\?drawn=1$", "the drawn page",
                 timeout_ms=120_000 if script == BROKEN_WORKER else 30_000)
    if script in (LITTLE_MEMORY, BROKEN_WORKER):  # the drawn page works there
        see_drawn(page)
    if script == BROKEN_WORKER:
        return  # it tried the app (its files were loaded), which could not start
    # Even at the app's own address, a browser that cannot run it goes there too.
    if script in (NO_WASM, NO_SERVICE_WORKER):
        phone.context.clear_cookies()
        page.goto(f"{server.url}alone/game/{game}", wait_until="commit")
        wait_for_url(page, rf"/game/{game}\?drawn=1$", "the drawn page from the app's address",
                     timeout_ms=30_000)
    heavy = re.compile(r"/alone/.*(\.wasm|worker\.js|app\.zip|pyodide|flutter)")
    assert not [u for u in phone.requests if heavy.search(u)], \
        "the app's files were loaded by a phone that cannot run it"


def test_the_drawn_address_is_the_drawn_page_and_keeps_this_phone_there(
    phone: Phone, table_server: Callable[..., Any], tmp_path: Path,
) -> None:
    data, game = seeded(tmp_path)
    server = table_server(args=APP, data=data)
    page = phone.new_page()
    page.goto(f"{server.url}game/{game}?drawn=1", wait_until="commit")
    see_drawn(page)
    # The game's plain address now keeps this phone on the drawn pages too.
    page.goto(f"{server.url}game/{game}", wait_until="commit")
    see_drawn(page)
    assert page.url == f"{server.url}game/{game}"
    assert not [u for u in phone.requests if "/alone/" in u]


def older_site(built: Path, out: Path) -> Path:
    """The same app, another build: its boot.js knows other rules (an app older than the
    server's) and so its version differs."""
    shutil.copytree(built, out)
    boot = out / "boot.js"
    boot.write_text(boot.read_text().replace(built_rules(), "0000000000000000"))
    write_version(out, write_service_worker(out), built_rules())
    return out


@pytest.mark.server_stops  # the server is restarted under the phone
def test_an_app_older_than_the_servers_takes_its_version_at_a_calm_moment(
    phone: Phone, table_server: Callable[..., Any], open_phone_site: Callable[..., float],
    built_site: Path, tmp_path: Path,
) -> None:
    old = table_server(site=older_site(built_site, tmp_path / "old-site"))
    page = phone.new_page()
    open_phone_site(page, old.url + "alone/")
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller",
                           timeout=120_000)
    old_version = page.evaluate(OWN_VERSION_JS)
    start_game(page)  # kept in IndexedDB

    # The server is upgraded (same address) while the phone has the app open on a
    # screen being filled in.
    old.stop()
    new = table_server(port=old.port, data=old.data_dir)
    page.evaluate("location.hash = '#/new'")
    see(page, "Who sits where")
    page.evaluate(f"window.{MARK} = true")  # gone once the page is loaded again
    phone.context.set_offline(True)
    phone.context.set_offline(False)  # back online: the app checks the server's version
    see(page, UPDATING, timeout=120_000)
    shots(page, "app-update-line")
    # Not while a screen is filled in: the same page, the same version.
    assert page.evaluate(f"window.{MARK} === true")
    assert page.evaluate(OWN_VERSION_JS) == old_version

    # Back home, a calm moment: the app keeps every change, lets the new version take
    # over and loads itself again (boot.js's update). That load is what is waited for
    # (a new document has no mark): the page is then the new version's, and the test
    # turns its accessibility tree on. Opening the page from the test instead raced
    # that reload, and a promise in wait_for_function does not wait (Playwright takes
    # the promise for a true value at once).
    page.evaluate("location.hash = '#/'")
    try:
        page.wait_for_function(f"() => window.{MARK} === undefined", timeout=120_000)
    except PlaywrightError as exc:
        raise AssertionError("the app never loaded itself again into the new version") \
            from exc
    assert page.evaluate(OWN_VERSION_JS) != old_version
    show_app(page, "Continue")
    expect(page.get_by_text(UPDATING)).to_have_count(0)
    page.get_by_text("Continue").first.click()
    see(page, FIRST_HAND)
    assert new.process.poll() is None
