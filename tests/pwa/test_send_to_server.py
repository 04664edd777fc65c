"""The phone-alone site served by a table server (`tarabish --phone-site`, under /alone/):
a game kept with the network cut goes to the table server by itself once the phone is
back online (the server's sync), gets its table code, and the app started again shows
the same code with no second game. The table server's own page links to the site, and
the phone that sent the game holds it there."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pwa_phone import Phone, show_app, start_again
from table_steps import see, show_scheme, tap, type_points
from test_phone_alone import start_game

from scorer.app.views.share import SEND_LABEL
from scorer.browser.phone_sync import MEETS_FILE
from scorer.store.game_store import GameStore
from scorer.webbuild.site import LAZY

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
CODE = re.compile(r"^Table code \d{6}$")
KEPT_JS = """async (lazy) => {
  // Every file of the site the service worker keeps for offline use is kept.
  const name = (await caches.keys()).find((n) => n.startsWith("tarabish-site-"));
  if (!name) return false;
  const cache = await caches.open(name);
  const listed = await cache.match(new URL("__site_files__.json", location.href).href);
  if (!listed) return false;
  for (const path of Object.keys(await listed.json())) {
    if (lazy.some((prefix) => path.startsWith(prefix))) continue;
    const key = new URL(path === "index.html" ? "./" : path, location.href).href;
    if (!(await cache.match(key))) return false;
  }
  return true;
}"""
SITE_LINK = "Keep games on this phone"
NOT_SENT = "not sent yet"
GOES_THERE = "This game goes to the table server as soon as this phone reaches it"
MET_JS = """(name) => new Promise((resolve) => {
  // The phone's folder in IndexedDB (Emscripten's IDBFS, scorer.browser.storage) holds
  // the note that the table server answered its sync Hello (scorer.browser.phone_sync).
  const opened = indexedDB.open("/tarabish");
  opened.onerror = () => resolve(false);
  opened.onsuccess = () => {
    const db = opened.result;
    if (!db.objectStoreNames.contains("FILE_DATA")) { db.close(); resolve(false); return; }
    const keys = db.transaction("FILE_DATA").objectStore("FILE_DATA").getAllKeys();
    keys.onerror = () => { db.close(); resolve(false); };
    keys.onsuccess = () => {
      db.close();
      resolve(keys.result.some((key) => String(key).endsWith("/" + name)));
    };
  };
})"""


def wait_until_kept(page: Page, timeout_s: float = 180.0) -> None:
    """Until the service worker has kept the whole site (it fetches the rest a moment
    after the first start), as a phone does before it goes where there is no network."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(KEPT_JS, list(LAZY)):
        assert time.monotonic() < deadline, "the site was not kept for offline use"
        page.wait_for_timeout(500)


def wait_until_met(page: Page, timeout_s: float = 120.0) -> None:
    """Until the table server has answered this phone's sync once (kept in its folder):
    from then on a game started here goes to the server by itself, even offline."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(MET_JS, MEETS_FILE):
        assert time.monotonic() < deadline, "the table server never answered this phone"
        page.wait_for_timeout(500)


def shown_code(page: Page) -> str:
    label = page.get_by_text(CODE).first
    expect(label).to_be_visible(timeout=30_000)
    return re.sub(r"\D", "", label.inner_text())


SHOT_ORDER = (((390, 844), "light"), ((390, 844), "dark"), ((360, 640), "dark"),
              ((360, 640), "light"))
"""Two switches of colours, not four, and the page ends in light."""


def shots(page: Page, name: str) -> None:
    """Light and dark, at 390x844 and 360x640 (the same page, its size and colours set)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for (width, height), scheme in SHOT_ORDER:
        page.set_viewport_size({"width": width, "height": height})
        show_scheme(page, scheme)
        page.screenshot(path=SHOTS / f"{name}-{width}-{scheme}.png")
    page.set_viewport_size({"width": 390, "height": 844})


@pytest.mark.server_stops  # requests cut by the phone going offline are no fault
def test_a_game_kept_offline_is_sent_once_and_gets_its_table_code(
    phone: Phone, table_server: Callable[[], Any], open_phone_site: Callable[..., float],
) -> None:
    server = table_server()
    url, data = server.url, server.data_dir

    # The table server's page offers the phone-alone site.
    page = phone.new_page()
    open_phone_site(page, url, first_text=SITE_LINK)
    shots(page, "table-home-phone-site-link")
    tap(page, SITE_LINK)
    expect(page).to_have_url(url + "alone/")
    # The first visit: the app loads itself again once its service worker is in charge,
    # before Flutter starts (boot.js): the app shown is the service worker's, cross-origin
    # isolated, and the site starts offline from then on.
    show_app(page, "New game")
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller",
                           timeout=120_000)
    if not page.evaluate("crossOriginIsolated"):
        # boot.js loads the page again only if its service worker takes over within a
        # few seconds; on a loaded machine it may take longer (the first-visit check
        # itself is test_phone_alone's): the next start is the service worker's.
        start_again(page, "New game")
    assert page.evaluate("crossOriginIsolated") is True

    # The network is cut (once the site is kept, and the table server has answered this
    # phone): the site starts from the phone and keeps a game, its hand not sent yet.
    wait_until_kept(page)
    wait_until_met(page)
    phone.context.set_offline(True)
    start_again(page, "New game")
    start_game(page)
    tap(page, "Record hand")
    tap(page, "Ann called")
    tap(page, re.compile("Hearts"))
    type_points(page, "100")
    tap(page, "Save hand")
    see(page, "400 to go")
    expect(page.get_by_text(NOT_SENT)).to_have_count(1)

    # Offline, Share says where the game goes, and nothing is there yet.
    tap(page, "Share this game")
    see(page, GOES_THERE)
    expect(page.get_by_role("button", name=SEND_LABEL)).to_have_count(0)
    shots(page, "phone-alone-send-offline")
    assert GameStore(data, read_only=True).list_games() == []
    tap(page, "Close")

    # Back online: it goes by itself, with its hand, and gets its table code.
    phone.context.set_offline(False)
    expect(page.get_by_text(NOT_SENT)).to_have_count(0, timeout=60_000)
    tap(page, "Share this game")
    code = shown_code(page)
    see(page, re.compile(r"^The game is at http://127\.0\.0\.1:\d+/game/[0-9a-f]{8}$"))
    shots(page, "phone-alone-sent")
    address = page.get_by_text(re.compile("^The game is at ")).first.inner_text()
    address = address.removeprefix("The game is at ")

    # The app started again: the same code, still one game (nothing sent twice).
    open_phone_site(page, url + "alone/", first_text="Continue")
    page.get_by_text("Continue").first.click()
    see(page, "400 to go")
    tap(page, "Share this game")
    assert shown_code(page) == code
    [game] = GameStore(data, read_only=True).list_games()
    assert address.endswith(f"/game/{game.id}") and game.hand_count == 1
    assert game.players == ("Ann", "Bob", "Cid", "Dee")

    # On the table server's page this phone holds the game: its table code is shown.
    open_phone_site(page, address, first_text="Record hand")
    see(page, "400 to go")
    tap(page, "Share this game")
    assert shown_code(page) == code

    # The table server's page took nothing from the site: it still starts offline.
    phone.context.set_offline(True)
    open_phone_site(page, url + "alone/", first_text="Continue")
