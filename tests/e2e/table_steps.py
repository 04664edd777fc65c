"""What a player does at the table, as Playwright steps (shared by the browser tests)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import statistics
import time
import weakref
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest
from browser_setup import STILL_JS
from playwright.sync_api import BrowserContext, Locator, Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.server_zygote import run_cli

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


Size = tuple[int, int]
SMALL: Size = (360, 640)
"""The harder phone (buttons further down, more scrolls): the size a test walks at."""
LARGE: Size = (390, 844)
PHONE_SIZES: tuple[Size, Size] = (SMALL, LARGE)


@dataclass(frozen=True)
class Phone:
    """A fresh phone (browser context), set to light: `shoot` saves each screen light and
    dark. Its size is the page's, read live: `at_each_size` turns it to each of `sizes`
    in turn, and `width` and `tag` follow."""

    page: Page
    sizes: tuple[Size, ...] = PHONE_SIZES
    """The sizes each checkpoint is checked at (`at_each_size`); the first is the size
    the test walks at."""
    checked: set[Size] = field(default_factory=set, compare=False)
    """The sizes `at_each_size` has checked a screen at (the `phone` fixture asks for
    every one of `sizes`: a test that never checks at 390x844 fails)."""

    @property
    def size(self) -> Size:
        shown = self.page.viewport_size
        assert shown is not None, "a phone's page has a viewport"
        return shown["width"], shown["height"]

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def tag(self) -> str:
        """`390x844`: for screenshot names."""
        return "{}x{}".format(*self.size)


def each_size_checked(test: Any) -> Any:
    """The test walks once, at 360x640 (the `phone` fixture), and checks each screen at
    360x640 and at 390x844 with `at_each_size`: the app lays the screen on show out
    again for a new size, so one walk proves both sizes at half the page loads, taps
    and seeding. (The colours depend on the scheme: `shoot` saves each screen both
    ways, which the app follows live.)"""
    test.each_size_checked = True  # read by the `phone` fixture (tests/e2e/conftest.py)
    return test


def each_size_walked(test: Any) -> Any:
    """Walk the test from the start at 390x844 and at 360x640 (the `phone` fixture), for
    a test that must open a screen at that size to prove it (a screen the server draws
    for the phone's height, a scroll made for the size): say why beside it. Each walk
    checks its own size only (`at_each_size`)."""
    return pytest.mark.parametrize("size", [LARGE, SMALL],
                                   ids=["390x844", "360x640"])(test)


SIZED_JS = """([width, height]) => {
  const root = document.querySelector('flutter-view flt-semantics');
  if (!root) return false;
  const box = root.getBoundingClientRect();
  return Math.round(box.width) === width && Math.round(box.height) === height;
}"""
"""Flutter has laid the app out at this size: the root of its accessibility tree, which
Flutter sizes from the laid-out screen in the frame it builds (not the window's CSS),
is that big."""
RESIZE_WAIT_MS = 15_000


def resize(phone: Phone, size: Size) -> None:
    """Turn the phone's window to `size` and wait until the app has laid itself out at
    it: the browser sent the server the new size (the `resize` event, behind the new
    width and height, so every later tap reaches a server that knows the size) and
    Flutter built a frame at it (`SIZED_JS`), then drew it (`DRAWN`)."""
    if phone.size == size:
        return
    page = phone.page
    width, height = size
    link = _LINKS.get(page)
    if link is not None and link.socket is not None and not link.socket.is_closed():
        with link.socket.expect_event(
                "framesent", predicate=lambda sent: isinstance(sent, bytes) and b"resize" in sent,
                timeout=RESIZE_WAIT_MS):
            page.set_viewport_size({"width": width, "height": height})
    else:
        page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(SIZED_JS, arg=[width, height], polling="raf",
                           timeout=RESIZE_WAIT_MS)
    page.evaluate(DRAWN)


def at_each_size(phone: Phone, check: Callable[[Phone], None]) -> None:
    """A checkpoint of the walk: `check(phone)` at each of the phone's sizes, the size the
    test walks at first, then each other once the app has laid the screen out at it
    (`resize`); then back to the walking size before the test taps on. `check` shoots
    the screen (`shoot(phone, f"NAME-{phone.tag}", ...)`) and asserts what depends on the
    size (`phone.width`): it sees the screen as a phone of that size shows it. A screen
    the server draws for the size at the time (the Share dialog's code) is opened by
    `check` itself, at each size."""
    walking = phone.size
    for size in (walking, *[s for s in phone.sizes if s != walking]):
        resize(phone, size)
        check(phone)
        phone.checked.add(size)
    resize(phone, walking)


TAP_JS = """
async ([el, want, timeoutMs]) => {
  const seen = () => {
    for (const n of document.querySelectorAll('flt-semantics, flt-semantics *')) {
      const t = (n.getAttribute('aria-label') || '') + ' ' + (n.textContent || '');
      if (t.includes(want)) return true;
    }
    return false;
  };
  const target = el.getAttribute('role') === 'button' ? el
    : (el.querySelector('[role=button]') || el);
  // A node a redraw replaced since it was found takes no click (nothing reaches the app).
  if (!target.isConnected) return -2;
  // Flutter stops the click it hands the app as a tap (its ClickDebouncer); one that
  // bubbles up to the document reached no tappable node.
  let missed = false;
  const bubbled = () => { missed = true; };
  document.addEventListener('click', bubbled);
  const t0 = performance.now();
  try {
    target.click();
  } finally {
    document.removeEventListener('click', bubbled);
  }
  if (missed) return -2;
  while (performance.now() - t0 < timeoutMs) {
    await new Promise(r => requestAnimationFrame(r));
    if (seen()) return performance.now() - t0;
  }
  return -1;
}
"""
"""Tap `el` (a button, or the button in it) and await the frame that shows `want`:
ms from the tap to that frame, -1 after `timeoutMs`, or NOT_TAKEN (-2) at once if the
click provably never reached the app (the node was replaced by a redraw since it was
found, or the click came back to the document: no tappable node took it), which a
caller may make again on the node found anew (bench_taps and the sync phones' tap times,
measured in the page so that Playwright's own round trips are not counted)."""
NOT_TAKEN = -2.0


SEEDED_CODES: dict[str, str] = {}
"""The table code `tarabish import` printed for each seeded game, by game id."""


def seed_game(data_dir: Path, hands: list[dict[str, Any]], **extra: Any) -> str:
    """Store a game through `tarabish import`, as a player restoring a backup would; the
    table code it prints is kept for `enter_seeded_code` (no phone holds it yet)."""
    doc = {"format": "tarabish-game/1", "players": PLAYERS, "first_dealer": 3, "rules": {},
           "hands": hands, **extra}
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir.parent / f"seed-{abs(hash(json.dumps(doc)))}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    done = run_cli(["import", str(path), "--data-dir", str(data_dir)], check=True)
    match = re.search(r"\b([0-9a-f]{8})\b", done.stdout)
    code = re.search(r"table code (\d{6})", done.stderr)
    assert match and code, (done.stdout, done.stderr)
    SEEDED_CODES[match.group(1)] = code.group(1)
    return match.group(1)


def seed_won_games(data_dir: Path, seatings: list[list[str]]) -> None:
    """Store one finished game per seating in one `tarabish import`, in this order:
    the first and third named win (`data/won_game.json`'s hands, Ann & Cid's win)."""
    hands = json.loads((Path(__file__).parents[1] / "data" / "won_game.json")
                       .read_text("utf-8"))["hands"]
    data_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for n, players in enumerate(seatings):
        path = data_dir.parent / f"won-{n:03d}.json"
        path.write_text(json.dumps({"format": "tarabish-game/1", "players": players,
                                    "first_dealer": 3, "rules": {"forced_at": 400},
                                    "hands": hands}), encoding="utf-8")
        paths.append(str(path))
    run_cli(["import", *paths, "--data-dir", str(data_dir)], check=True)


def enter_seeded_code(page: Page, game_id: str) -> None:
    """On the game's sheet or a screen that needs the code: type the code `tarabish
    import` printed, as the player who imported the game reads it off the terminal."""
    ask = page.get_by_role("button", name="Enter table code")
    entry = page.get_by_text("Ask the phone that started the game")
    expect(ask.or_(entry).first).to_be_visible(timeout=10_000)
    if not entry.count():
        ask.first.click()
    see(page, "Ask the phone that started the game")
    type_points(page, SEEDED_CODES[game_id])
    expect(page.get_by_text("Ask the phone that started the game")).to_have_count(0)


def become_host(page: Page, server_output: str) -> None:
    """On the Host screen: enter the host code the server printed at start (the host
    holds every game)."""
    found = re.search(r"Host code: (\d{5}) (\d{5})", server_output)
    assert found, server_output
    see(page, "Enter the host code")
    type_points(page, found.group(1) + found.group(2))
    see(page, "This phone is the host.")


def reads(page: Page, text: str) -> None:
    """The text is on screen: as text, or as the label Flutter gives a group of texts."""
    shown = page.get_by_text(text, exact=False).or_(page.get_by_label(text, exact=False))
    expect(shown.first).to_be_visible()


def type_into(page: Page, label: str | Locator, text: str) -> None:
    """Tap a text box (by its label, or found otherwise), wait for the keyboard as a
    person does, and type (a new line for each "\n" of a box of several lines).

    Flutter makes its text input when the box takes focus; keys sent before
    that are lost (so are some of fill()'s change events: a first letter was lost
    once in a full run). Check, and retype.
    """
    box = page.get_by_role("textbox", name=label) if isinstance(label, str) else label
    for _attempt in range(3):
        # Shown first, and tapped once the screen holds still: a box below the fold
        # scrolls into view, and a tap during that scroll lands on whatever passes
        # under it (a Round robin button, once in a full run).
        box.scroll_into_view_if_needed()
        box.evaluate(STILL_JS)
        tapped(page, box.click)
        try:
            # A tap that lands while the screen is drawn again (a busy server answering
            # the taps before) is lost, as a thumb's is: the box is tapped again.
            expect(box).to_be_focused(timeout=5_000)
        except AssertionError:
            continue
        page.keyboard.press("Control+A")
        page.keyboard.type(text, delay=30)
        try:
            # A busy machine redraws late: wait for the value long enough not to take a
            # late redraw for a lost key (retyping is harmless, Control+A comes first).
            expect(box).to_have_value(text, timeout=5_000)
            # The box taking the keyboard scrolls it into view: the next tap must not
            # land during that scroll (browser_setup: Playwright's own check is fooled
            # at the page's 20 frames a second).
            box.evaluate(STILL_JS)
            return
        except AssertionError:
            continue
    expect(box, f"the box {label!r} to take the keyboard").to_be_focused()
    expect(box, f"{text!r} typed into the box {label!r}").to_have_value(text)



def type_names(page: Page, names: list[str] | tuple[str, ...]) -> None:
    """Type the four names around the table on New game and wait until the server has
    every one: the felt in the middle names both teams. A name can reach the box and
    not the server (seen in a full run: the box said "Di", the felt "Player 4", after
    30 s): a name whose dealer button is missing is typed again."""
    a, b, c, d = (re.escape(name) for name in names)
    felt = page.get_by_text(re.compile(rf"^{a} & {c}\s+vs\s+{b} & {d}$"))
    for seat, name in enumerate(names):
        type_into(page, f"Player {seat + 1}", name)
    for _attempt in range(3):
        try:
            expect(felt).to_be_visible(timeout=5_000)
            return
        except AssertionError:
            pass
        for seat, name in enumerate(names):
            if page.get_by_role("button", name=name, exact=True).count() == 0:
                type_into(page, f"Player {seat + 1}", name)
    expect(felt, f"the felt to name the teams of {', '.join(names)}").to_be_visible()


HUMAN_PAUSE_MS = int(os.environ.get("TARABISH_TAP_PAUSE_MS", "250"))
"""A thumb does not tap twice in a few milliseconds; the screen redraws between taps.
The most a tap waits for the server's answer (`tapped`), and the pause after a tap
on a page without the app's socket. TARABISH_TAP_PAUSE_MS=40: quick thumbs."""


@dataclass
class _Link:
    """A page's latest websocket (the app's; a reconnect makes a new one) and how many
    frames its sockets have received."""

    socket: WebSocket | None = None
    frames: int = 0

    def follow(self, socket: WebSocket) -> None:
        self.socket = socket
        socket.on("framereceived", self._count)

    def _count(self, _frame: object) -> None:
        self.frames += 1


_LINKS: weakref.WeakKeyDictionary[Page, _Link] = weakref.WeakKeyDictionary()
DRAWN = """() => new Promise((done) => {
  setTimeout(done, 3000);  // a page whose frames stopped (being left, hidden) answers too
  requestAnimationFrame(() => requestAnimationFrame(done));
})"""
"""Two animation frames: Flutter has applied what arrived before the first and drawn it."""


def follow_answers(context: BrowserContext) -> BrowserContext:
    """Count what the server sends each page of `context`, so that `tap` waits for the
    server's answer instead of a fixed pause (tests/e2e/conftest.py's `new_context`)."""

    def on_page(page: Page) -> None:
        page.on("websocket", _LINKS.setdefault(page, _Link()).follow)

    context.on("page", on_page)
    return context


def tapped(page: Page, click: Callable[[], None]) -> None:
    """`click()`, then wait for the server's answer: a frame on the page's socket (a tap
    is an event the server answers with the redrawn controls), at most HUMAN_PAUSE_MS,
    which a tap that changes nothing on screen waits whole. Without a followed socket
    (a page not made by `new_context`, the phone-alone site): the pause itself."""
    link = _LINKS.get(page)
    before = link.frames if link is not None else 0
    click()
    if link is None or link.socket is None or link.socket.is_closed():
        page.wait_for_timeout(HUMAN_PAUSE_MS)
        return
    if link.frames == before:  # events arrive only while Playwright is called: no race
        with contextlib.suppress(PlaywrightTimeoutError):
            link.socket.wait_for_event("framereceived", timeout=HUMAN_PAUSE_MS)
    # The answer is drawn at the next frames: the next tap must find the new controls.
    page.evaluate(DRAWN)


ROUTE_JS = """(path) => {
  history.pushState(null, "", path);
  dispatchEvent(new PopStateEvent("popstate", { state: null }));
}"""


def route_to(page: Page, path: str, first_text: str) -> None:
    """Show the app's screen at `path` ("rules", "game/ab12cd34/hand", "ratings?group=x")
    in the page already open, as the browser's Back and Forward do: the address changes,
    the app asks the server for that screen, and `first_text` shows. For tests that walk
    screens: a new load of the app costs about 1 s of the browser's CPU, this about
    0.25 s. A test where the load itself is what is tested (a reload, a first visit, a
    request a load makes) opens the page (`open_app`). `first_text` must not be on the
    screen before (checked): it is how the new screen is known."""
    shown = page.get_by_text(first_text, exact=True)
    expect(shown, f"'{first_text}' before going to /{path}").to_have_count(0)
    tapped(page, lambda: page.evaluate(ROUTE_JS, "/" + path.lstrip("/")))
    expect(shown.first, f"'{first_text}' at /{path}").to_be_visible()


def tap(page: Page, name: str | re.Pattern[str], exact: bool = True) -> None:
    button = page.get_by_role("button", name=name, exact=exact) if isinstance(name, str) \
        else page.get_by_role("button", name=name)
    tapped(page, button.first.click)


def see(page: Page, text: str | re.Pattern[str], timeout: float | None = None) -> None:
    """The text is on screen within `timeout` ms (the run's expect timeout: 15 s)."""
    expect(page.get_by_text(text).first).to_be_visible(timeout=timeout)


DRAWN_DEALER = re.compile(r" deals first \(drawn\)$")


def draw_dealer(page: Page) -> None:
    """New game's Draw at random, until the dealer it drew shows: that line moves Start
    game down, so a tap on Start game before it lands where the button was."""
    tap(page, "Draw at random")
    see(page, DRAWN_DEALER)


def type_points(page: Page, digits: str) -> None:
    for digit in digits:
        tap(page, digit)


def record_counted_hand(page: Page, caller: str, suit: str, digits: str,
                        counted_by: str | None = None) -> None:
    """From the sheet: Record hand, caller, trump, (team box), digits, Save."""
    tap(page, "Record hand")
    see(page, "Who called?")
    tap(page, f"{caller} called")
    tap(page, re.compile(suit))
    if counted_by:
        tapped(page, page.get_by_role("button",
                                      name=re.compile(f"^{counted_by}.*tap to type")).click)
    type_points(page, digits)
    tap(page, "Save hand")
    see(page, "Undo last hand")
    # The sheet is sent before its address: the address bar follows a frame later.
    expect(page).to_have_url(re.compile(r"/game/[0-9a-f]{8}$"))


def totals(page: Page) -> tuple[str, str]:
    """The two big totals at the top of the sheet, as shown."""
    texts = page.get_by_text(re.compile(r"^\d+$")).all_inner_texts()
    return texts[0], texts[1]


def _png_pixels(png: bytes) -> list[tuple[int, int, int]]:
    """The (red, green, blue) of each pixel of a small 8-bit RGB or RGBA PNG (a clip of a
    screenshot), row after row, its filters undone (PNG spec, section 9)."""
    chunks: dict[str, bytes] = {}
    at = 8
    while at < len(png):
        size = int.from_bytes(png[at:at + 4], "big")
        kind = png[at + 4:at + 8].decode("ascii")
        chunks[kind] = chunks.get(kind, b"") + png[at + 8:at + 8 + size]
        at += 12 + size
    header = chunks["IHDR"]
    width, height = int.from_bytes(header[0:4], "big"), int.from_bytes(header[4:8], "big")
    assert header[8] == 8 and header[9] in (2, 6), "an 8-bit RGB or RGBA PNG"
    step = 3 if header[9] == 2 else 4
    raw, stride = zlib.decompress(chunks["IDAT"]), width * step
    pixels: list[tuple[int, int, int]] = []
    above = bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = above[i], (above[i - step] if i >= step else 0)
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                           (abs(guess - corner), 2, corner))[2]
                line[i] = (line[i] + near) & 255
        pixels += [(line[i], line[i + 1], line[i + 2]) for i in range(0, stride, step)]
        above = line
    return pixels


def looks_dark(page: Page) -> bool:
    """Whether the screen's background is dark: one pixel of the margin beside the
    content, decoded from a screenshot."""
    red, green, blue = _png_pixels(
        page.screenshot(clip={"x": 3, "y": 200, "width": 1, "height": 1}))[0]
    return (red + green + blue) / 3 < 100


Scheme = Literal["light", "dark"]
SCHEMES: tuple[Scheme, Scheme] = ("light", "dark")
SCHEME_WAIT_MS = 15_000
"""The most `show_scheme` waits for the screen to be drawn in the colours asked for."""
DARK_BELOW = 60
"""A margin darker than this is drawn dark. The app's background is #F7FBF1 light and
#10140F dark (the TV pages' #F4F6F2 and #0F1512); under a dialog's scrim (54 % black)
light is still about 113 and dark 7, so the line holds with a dialog open too."""


def margin_brightness(page: Page) -> float:
    """The median brightness (0 to 255) of the column of pixels 3 px in from the screen's
    left edge, top to bottom: the margin beside the content on every screen, so its
    background (or the scrim over it). The median leaves out a title bar or a snack
    bar across it."""
    height = (page.viewport_size or {"height": 640})["height"]
    column = _png_pixels(page.screenshot(clip={"x": 3, "y": 0, "width": 1, "height": height}))
    return statistics.median(sum(pixel) / 3 for pixel in column)


def shows_scheme(page: Page) -> Scheme:
    """The scheme the screen is drawn in, read off its margin (`margin_brightness`)."""
    return "dark" if margin_brightness(page) < DARK_BELOW else "light"


#: A page Flutter has not painted yet is one colour: a PNG of a few KB (2.7 KB at
#: 390x844). Text reads by its semantics before the first paint, so a shot taken
#: right after is blank twice in a row unless blank shots are not taken as settled.
BLANK_PNG_BYTES = 4_096


def settled_shot(page: Page, settle_ms: int = 5_000, still: bytes | None = None) -> bytes:
    """A screenshot of the screen once it is still: shots are taken until two in a row are
    identical and not blank (Flutter paints asynchronously: fonts arrive, ripples fade),
    or `settle_ms` passes. `still`: a shot of this screen taken once it was still (by
    this function); a first shot identical to it is taken as still at once."""
    deadline = time.monotonic() + settle_ms / 1000
    shot = page.screenshot()
    if still is not None and shot == still and len(shot) > BLANK_PNG_BYTES:
        return shot
    while time.monotonic() < deadline:
        page.wait_for_timeout(150)
        again = page.screenshot()
        if again == shot and len(shot) > BLANK_PNG_BYTES:
            break
        shot = again
    return shot


def show_scheme(page: Page, scheme: Scheme) -> None:
    """Turn the device's colours to `scheme` and wait until the screen is drawn in them
    (its margin's brightness). The app draws nothing again for it: every colour that
    differs is a role of the theme, which the phone resolves (scorer/app/theme.py)."""
    page.emulate_media(color_scheme=scheme)
    deadline = time.monotonic() + SCHEME_WAIT_MS / 1000
    page.evaluate(DRAWN)
    while ((seen := margin_brightness(page)) < DARK_BELOW) != (scheme == "dark"):
        assert time.monotonic() < deadline, (
            f"the screen drawn {scheme} within {SCHEME_WAIT_MS} ms of the device turning "
            f"{scheme}: its margin's brightness is still {seen:.0f} of 255")
        page.evaluate(DRAWN)


WORDS_JS = """() => {
  const snackBar = (el) => {  // a bar across the bottom of the window
    for (let n = el.closest('flt-semantics'); n; n = n.parentElement.closest('flt-semantics')) {
      const r = n.getBoundingClientRect();
      if (r.left <= 0.5 && r.width >= innerWidth - 1 && Math.abs(r.bottom - innerHeight) <= 1
          && r.height < innerHeight / 2) return true;
    }
    return false;
  };
  return [...document.querySelectorAll('flt-semantics[aria-label], flt-semantics span')]
    .filter((el) => {
      const r = el.getBoundingClientRect(), middle = r.top + r.height / 2;
      return r.width && r.height && middle > 0 && middle < innerHeight && !snackBar(el);
    }).map((el) => el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent || ''));
}"""
"""The words and labels in the window; not a snack bar's (a bar across the bottom of the
window), which goes by itself."""


def shown_words(page: Page) -> set[str]:
    """The words and labels of the app's screen in the window (its accessibility tree)."""
    return {words for words in page.evaluate(WORDS_JS) if words.split(" ", 1)[1].strip()}


def shown_words_within(page: Page, timeout_ms: float = 5_000) -> set[str]:
    """`shown_words`, or a Playwright TimeoutError after `timeout_ms`: for a report of a
    test that failed, where the page may be the one that stopped answering (a plain
    evaluate has no bound, and waited for ever once)."""
    found = page.wait_for_function(f"() => ({WORDS_JS})()", polling=250, timeout=timeout_ms)
    return {words for words in found.json_value() if words.split(" ", 1)[1].strip()}


def same_screen(page: Page, before: set[str], scheme: Scheme) -> None:
    """The screen drawn in `scheme` shows the words it showed `before`, in the other
    scheme, no more, no less."""
    now = shown_words(page)
    assert now == before, (
        f"the screen turned {scheme} shows the words it showed before: it lost "
        f"{sorted(before - now)} and gained {sorted(now - before)}")


def shoot(phone: Phone | Page, name: str, screenshot: Callable[..., Path],
          settle_ms: int = 5_000) -> list[Path]:
    """Save the screen on show as NAME-light.png and NAME-dark.png (`screenshot`, the
    fixture, each once still), each once the screen is drawn in its scheme; then turn the
    page back to light, and wait until it is still, before the test taps on. The screen
    turned back shows the words it showed in the other scheme: a phone turning dark keeps
    its screen as it was (a form's typed words, a code shown once). Returns the two
    files, light first.

    The words are read after a switch only: Flutter's accessibility tree can lag behind
    a scroll the app made (`scroll_to`) until something is drawn anew, as at a switch."""
    page = phone.page if isinstance(phone, Phone) else phone
    # The pointer off every control, in the margin: a button it rests on is drawn lit
    # (and may show its tooltip) in one shot and not in the other.
    page.mouse.move(1, (page.viewport_size or {"height": 640})["height"] / 2)
    shots, switched = [], ""
    seen: set[str] = set()
    for scheme in SCHEMES:
        if shows_scheme(page) != scheme:
            show_scheme(page, scheme)
            switched, seen = scheme, shown_words(page)
        shots.append(screenshot(page, f"{name}-{scheme}", settle_ms))
    last: Scheme = "dark" if switched == "light" else "light"
    show_scheme(page, last)
    if switched:
        same_screen(page, seen, last)
    if last != "light":
        show_scheme(page, "light")
    # Still once drawn as its light shot was (one shot, not two and a pause).
    settled_shot(page, settle_ms, still=shots[0].read_bytes())
    return shots


def seed_game_in(store: list[str], folder: Path, hands: list[dict[str, Any]],
                 **extra: Any) -> str:
    """`seed_game` into any store: `store` is the options of `tarabish import` that name
    it (["--data-dir", DIR] or ["--database", URL]), `folder` where the game's file is
    written. The table code it prints is kept for `enter_seeded_code`."""
    doc = {"format": "tarabish-game/1", "players": PLAYERS, "first_dealer": 3, "rules": {},
           "hands": hands, **extra}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"seed-{abs(hash(json.dumps(doc)))}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    done = run_cli(["import", str(path), *store], check=True)
    match = re.search(r"\b([0-9a-f]{8})\b", done.stdout)
    code = re.search(r"table code (\d{6})", done.stderr)
    assert match and code, (done.stdout, done.stderr)
    SEEDED_CODES[match.group(1)] = code.group(1)
    return match.group(1)
