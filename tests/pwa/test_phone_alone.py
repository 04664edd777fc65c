"""One phone alone: the built site in Chromium, no server but a static file host, no
internet. Games, hands and house rules are kept on the phone, through reloads,
a page closed right after Save, and with the file host gone (offline)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pwa_phone import Phone, start_again
from table_steps import PLAYERS, record_counted_hand, see, tap, type_names, type_points

from scorer.webbuild.site import write_service_worker
from scorer.webbuild.static_server import SiteServer

Open = Callable[..., float]


def start_game(page: Page) -> None:
    tap(page, "New game")
    see(page, "Who sits where")
    type_names(page, PLAYERS)
    tap(page, "Dee")
    see(page, "Dee deals first")
    tap(page, "Start game")
    see(page, "Hand 1: Dee deals, Ann speaks and leads")


def game_route(page: Page) -> str:
    """The page's address names the game (hash routes: #/game/<id>). The screen is drawn
    before its address: the address bar follows a frame later, so it is waited for."""
    expect(page, "the game's address in the address bar").to_have_url(
        re.compile(r"#/game/[0-9a-f]{8}$"))
    match = re.search(r"#/game/([0-9a-f]{8})", page.url)
    assert match, page.url
    return match.group(1)


@pytest.mark.server_stops
def test_a_whole_game_on_one_phone_survives_closing_the_page_at_once_reloads_and_going_offline(
    phone: Phone, site_server: Callable[..., SiteServer], open_phone_site: Open,
) -> None:
    server = site_server()
    page = phone.new_page()
    open_phone_site(page, server.url)
    # Already on the first visit the page is the service worker's, cross-origin
    # isolated as at every later start (boot.js loads it once more when the worker
    # takes over): what the browser compiles now, it uses again from the home screen.
    assert page.evaluate("self.crossOriginIsolated") is True
    start_game(page)
    game = game_route(page)

    # Hand 1: Ann calls hearts, her side counts 100: made.
    tap(page, "Record hand")
    tap(page, "Ann called")
    tap(page, re.compile("Hearts"))
    type_points(page, "100")
    see(page, "Ann & Cid called: 100 of 162, needed 82: made")
    tap(page, "Save hand")
    see(page, "400 to go")
    see(page, "438 to go")
    # Hand 2: Bob calls spades, his side counts 70: bait (162 to Ann & Cid).
    record_counted_hand(page, "Bob", "Spades", "70")
    see(page, "BAIT")
    # Undo says what it removes.
    tap(page, "Undo last hand")
    see(page, "Undo hand 2?")
    tap(page, "Remove hand")
    see(page, "Hand 2: Ann deals, Bob speaks and leads")

    # Share: the game lives here; no address, no table code.
    tap(page, "Share this game")
    see(page, "This game lives on this phone.")
    expect(page.get_by_text("Table code")).to_have_count(0)
    tap(page, "Close")

    # Rules reference and run checker are there with no server.
    page.goto(server.url + "#/rules")
    see(page, "Players, partners and seats", timeout=60_000)
    page.goto(server.url + "#/check")
    see(page, "Run checker", timeout=60_000)

    # Hand 2 again, made this time: the tab is gone the moment it says saved.
    page.goto(server.url + f"#/game/{game}")
    see(page, "Hand 2: Ann deals, Bob speaks and leads", timeout=60_000)
    tap(page, "Record hand")
    see(page, "Who called?")
    tap(page, "Bob called")
    tap(page, re.compile("Spades"))
    type_points(page, "90")
    page.get_by_role("button", name="Save hand").first.click()
    see(page, "2. Ann dealt · Bob called ♠")
    page.close(run_before_unload=False)

    # A new tab: every hand is still there, read back from the phone's storage.
    page = phone.new_page()
    open_phone_site(page, server.url, first_text="Continue")
    # Served by the service worker, the page is cross-origin isolated: Flutter draws in
    # a thread of its own, as on the table server (the static host sends no such header).
    assert page.evaluate("crossOriginIsolated")
    tap(page, re.compile("^Continue"), exact=False)
    see(page, "2. Ann dealt · Bob called ♠")
    see(page, "1. Dee dealt · Ann called ♥")
    # Up to here the file host was up: no request failed, none went to another host.
    assert not phone.problems(), phone.problems()

    # The file host goes away (airplane mode): the app still opens the game.
    server.stop()
    start_again(page, "2. Ann dealt · Bob called ♠")
    # And with the phone itself offline (navigator.onLine false: no update check at all).
    phone.context.set_offline(True)
    start_again(page, "2. Ann dealt · Bob called ♠")
    # The page's online and offline events reach the Python worker, where the sync
    # link takes them as hints (scorer.browser.link): Chromium fires them at the page only.
    assert heard_in_the_worker(page, "online", lambda: phone.context.set_offline(False))
    assert heard_in_the_worker(page, "offline", lambda: phone.context.set_offline(True))
    phone.context.set_offline(False)
    assert not phone.foreign()  # and no other host was asked, ever


def heard_in_the_worker(page: Page, event: str, cause: Callable[[], None]) -> bool:
    """Whether the app's Python worker hears `event` on its own scope after `cause()`
    (waited for 15 s at most)."""
    [worker] = [w for w in page.workers if w.url.endswith("/worker.js")]
    worker.evaluate("(kind) => { self.tarabishHeard = new Promise((resolve) => "
                    "addEventListener(kind, () => resolve(true), { once: true })); }", event)
    cause()
    return bool(worker.evaluate("() => Promise.race([self.tarabishHeard, new Promise("
                                "(resolve) => setTimeout(() => resolve(false), 15000))])"))


# -- the memory snapshot -------------------------------------------------------------------------


def snapshot_name(site: Path) -> str:
    match = re.search(r'const SNAPSHOT = "([^"]+)"', (site / "worker.js").read_text("utf-8"))
    if match is None:
        pytest.skip("built without Node.js: no memory snapshot")
    return match.group(1)


def start_then_offline(phone: Phone, site: Path,
                       open_phone_site: Open) -> tuple[Page, list[str], SiteServer]:
    """First visit, wait until the service worker keeps the snapshot (it fetches the
    rest of the site once the first screen is up), then open the site again with the
    file host gone (returned, stopped: its port is the site's origin)."""
    name = snapshot_name(site)
    server = SiteServer(site).start()
    try:
        page = phone.new_page()
        said: list[str] = []
        page.on("console", lambda message: said.append(message.text))
        open_phone_site(page, server.url)
        kept = "name => caches.match(name).then(hit => hit !== undefined)"
        for _ in range(120):
            if page.evaluate(kept, name):
                break
            page.wait_for_timeout(500)
        assert page.evaluate(kept, name)
    finally:
        server.stop()
    said.clear()
    open_phone_site(page, server.url)  # served by the service worker alone
    return page, said, server


@pytest.mark.server_stops  # the file host is away, then back with a new version
def test_a_phone_that_keeps_the_memory_snapshot_starts_from_it_and_takes_a_new_deployment_on_the_next_visit(
    phone: Phone, built_site: Path, open_phone_site: Open, tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    page, said, away = start_then_offline(phone, site, open_phone_site)
    assert any("Python runtime ready (memory snapshot)" in line for line in said), said
    # pydantic-core was compiled beside the runtime, and its library made from that.
    assert any("library pydantic_core._pydantic_core.wasm from its module compiled" in line
               for line in said), said
    start_game(page)  # pydantic, the rules and the store, imported after the snapshot
    described = "document.querySelector('meta[name=description]').content"
    assert "new version" not in page.evaluate(described)

    # The host is back with a new version: one file changed, the service worker lists it.
    index = site / "index.html"
    html = index.read_text(encoding="utf-8")
    new_html = re.sub(r'(<meta name="description" content=")[^"]*', r"\1new version", html)
    assert new_html != html
    index.write_text(new_html, encoding="utf-8")
    for stale in ("index.html.br", "index.html.gz"):
        (site / stale).unlink(missing_ok=True)
    old_sw = (site / "sw.js").read_text(encoding="utf-8")
    write_service_worker(site)
    assert (site / "sw.js").read_text(encoding="utf-8") != old_sw
    server = SiteServer(site, port=away.port).start()  # the same origin
    try:
        # The next visit starts the new version, and the game started from the
        # snapshot is still there.
        page.goto(server.url + "#/")
        start_again(page, "Continue")
        assert page.evaluate(described) == "new version"
        tap(page, re.compile("^Continue"), exact=False)
        see(page, "Hand 1: Dee deals, Ann speaks and leads")
    finally:
        server.stop()


@pytest.mark.server_stops
def test_a_snapshot_that_cannot_be_used_is_left_aside(
    phone: Phone, built_site: Path, open_phone_site: Open, tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    snapshot = site / snapshot_name(site)
    snapshot.write_bytes(b"not a snapshot" * 1000)  # say, a runtime that changed under it
    for stale in (".br", ".gz"):
        snapshot.with_name(snapshot.name + stale).unlink(missing_ok=True)
    write_service_worker(site)
    page, said, _away = start_then_offline(phone, site, open_phone_site)
    assert any("starting without the memory snapshot" in line for line in said), said
    start_game(page)
