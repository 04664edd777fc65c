"""Tap latency: Tarabish beside a bare Flet page of the same shape, CPU/1 and CPU/4.

    uv run python benchmarks/bench_taps.py [--rounds 5] [--watchers 11] [--json out.json]
    uv run python benchmarks/bench_taps.py --rates 4 --watchers 0 --no-loads  # switches, quick

Starts on free loopback ports (1) a bare Flet app (`BARE_APP` below: a home
with "New game" and "Continue", a new-game-shaped screen, a sheet, and a
record-hand-shaped screen with caller buttons round a felt, trump buttons, a
number pad, two figures, a fixed-height ruling box and Save; every handler
sets a few fields and lets Flet update the page) and (2) the Tarabish
server with a seeded game. Both are driven in one headless Chromium
(390x844), round after round, alternating, so both see the same noise on a
shared machine. Chromium's CPU is slowed with CDP
`Emulation.setCPUThrottlingRate` (1 and 4: a mid-range phone).

Each tap is timed inside the page: `performance.now()`, a click on the
button's accessibility node, then one check per animation frame until the
text that answers the tap is in the accessibility tree (a Flutter frame
builds it with the paint). Measured per round:

- sheet → Record hand (screen shown), caller tap and trump tap (ruling box
  updated), four number-pad taps (ruling box shows the new figure), two more
  caller taps with a figure in, Save → sheet, sheet → home, home → New game, New game → home;
- reload of the home page → interactive (as bench_page_load measures it);
- first load → interactive in a fresh profile (cold cache) over a network shaped
  with CDP `Network.emulateNetworkConditions` to 30 Mbit/s and 20 ms latency,
  CPU slowed as in the rest of the run.

Printed: medians per action for both pages and their ratio with the middle
half of the samples (noise: at CPU/4 one Flutter frame is a fifth of a tap),
websocket bytes the page received per tap, the tab's main-thread busy time per
tap (CDP `Performance.getMetrics` TaskDuration, over the tap and the 400 ms
after it: the work a tap costs the phone, which neither frames nor the server's
answer round), and the server's CPU per tap (user+system time
of the server process from /proc, over the four pad taps and over a Save).
Last, `--watchers` more tabs watch the Tarabish game's sheet (11: with the
recording phone, 12 phones on one game, as many pages as the server lets one
address keep open, scorer/web/sessions.py) and the server
CPU per pad tap and per Save is measured again: the cost of the pubsub
fan-out to the watching phones, and how long until the last watcher shows
the saved hand. Loopback only; no timing thresholds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, CDPSession, Page, WebSocket, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))

from bench_page_load import (
    CHROMIUM,
    CHROMIUM_ARGS,
    VIEWPORT,
    free_port,
    interactive,
    start,
    start_tarabish,
    stop,
    wait_best,
)
from table_steps import TAP_JS, enter_seeded_code, seed_game

TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")

BARE_APP = textwrap.dedent('''
    """A bare Flet app with the shape of Tarabish's screens, and nothing else."""
    import sys
    import flet as ft
    import flet_web.fastapi as flet_fastapi
    import uvicorn

    NAMES = ["Ann", "Bob", "Cid", "Dee"]
    TEAMS = ["Ann & Cid", "Bob & Dee"]
    HANDS = []  # shared by every session, as the store is

    def main(page: ft.Page) -> None:
        still = ft.PageTransitionTheme.NONE
        page.theme = ft.Theme(color_scheme_seed=ft.Colors.GREEN,
            page_transitions=ft.PageTransitionsTheme(
                android=still, ios=still, linux=still, macos=still, windows=still))

        def go(route):
            page.run_task(page.push_route, route)

        def bar(title, back=None):
            lead = None if back is None else ft.IconButton(
                ft.Icons.ARROW_BACK, tooltip="Back", on_click=lambda _e: go(back))
            return ft.AppBar(leading=lead, title=ft.Text(title, size=20),
                             automatically_imply_leading=False)

        def wide(label, on_click, primary=True, height=56):
            kind = ft.FilledButton if primary else ft.OutlinedButton
            return ft.Row([kind(content=ft.Text(label, size=18), on_click=on_click,
                                height=height, expand=True)])

        def view(route, title, back, body, bottom=None):
            col = ft.Column(body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=16)
            parts = [col] + ([bottom] if bottom is not None else [])
            return ft.View(route=route, appbar=bar(title, back),
                           controls=[ft.Column(parts, expand=True)],
                           padding=ft.Padding.symmetric(horizontal=16, vertical=8))

        def totals():
            a = sum(h[0] for h in HANDS)
            return a, sum(h[1] for h in HANDS)

        def home():
            a, b = totals()
            return view("/", "Tarabish", None, [
                ft.Text("Game in progress", size=15),
                wide(f"Continue: {TEAMS[0]} {a} – {b} {TEAMS[1]}", lambda _e: go("/game")),
                wide("New game", lambda _e: go("/new"), primary=False),
                wide("Past games", None, primary=False),
                wide("Rules", None, primary=False)])

        def new_game():
            def field(i):
                return ft.TextField(label=f"Player {i + 1}", width=None if i % 2 else 140,
                                    expand=bool(i % 2), text_align=ft.TextAlign.CENTER)
            felt = ft.Container(ft.Text("vs", color=ft.Colors.WHITE), width=100, height=96,
                                bgcolor=ft.Colors.GREEN_800, alignment=ft.Alignment.CENTER)
            table = ft.Column([ft.Row([field(2)], alignment=ft.MainAxisAlignment.CENTER),
                               ft.Row([field(1), felt, field(3)]),
                               ft.Row([field(0)], alignment=ft.MainAxisAlignment.CENTER)])
            dealers = ft.Row([ft.OutlinedButton(f"Player {i + 1}", expand=True)
                              for i in range(4)])
            targets = ft.Row([ft.OutlinedButton(str(t), expand=True) for t in (300, 500, 1000)])
            return view("/new", "New game", "/", [
                ft.Text("Who sits where", size=15), table,
                ft.Text("Who deals first", size=15), dealers,
                wide("Draw at random", None, primary=False, height=48),
                ft.Text("Play to", size=15), targets,
                ft.ExpansionTile(title=ft.Text("House rules"), subtitle=ft.Text("Standard"),
                                 controls=[]),
                ft.Text("Team names (optional)", size=15),
                ft.TextField(label="Team 1 name"), ft.TextField(label="Team 2 name"),
            ], wide("Start game", None))

        def sheet():
            a, b = totals()
            cards = ft.Row([ft.Container(ft.Column([ft.Text(t, size=15),
                                                    ft.Text(str(s), size=46),
                                                    ft.Text(f"{1000 - s} to go")],
                                                   horizontal_alignment="center"),
                                         expand=True, padding=10,
                                         bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
                            for t, s in zip(TEAMS, (a, b))])
            rows = [ft.Container(ft.Row([ft.Text(f"{n}. Ann called ♥", expand=True),
                                         ft.Text(str(x)), ft.Text(str(y))]), padding=8,
                                 bgcolor=ft.Colors.SURFACE_CONTAINER_LOW)
                    for n, (x, y) in reversed(list(enumerate(HANDS, 1)))]
            body = [cards, ft.Text(f"Hand {len(HANDS) + 1}", size=16), *rows]
            if HANDS:
                body.append(wide("Undo last hand", None, primary=False))
            return view("/game", "Score sheet", "/", body, wide("Record hand",
                        lambda _e: go("/game/hand"), height=64))

        def record_hand():
            state = {"caller": None, "trump": None, "digits": ""}
            dealing = ft.Container(ft.Text("Dee deals", color=ft.Colors.WHITE), width=96,
                                   height=60, bgcolor=ft.Colors.GREEN_800)

            def toggle(label, on_click, spoken=None, height=48, width=None, expand=True):
                return ft.OutlinedButton(content=ft.Text(label, semantics_label=spoken),
                                         on_click=on_click, height=height, width=width,
                                         expand=expand)

            def pick(kind, value, buttons):
                state[kind] = value
                for key, b in buttons.items():
                    b.style = ft.ButtonStyle(bgcolor=ft.Colors.PRIMARY if key == value
                                             else None)
                rule()

            callers = {}
            for s in range(4):
                callers[s] = toggle(NAMES[s], lambda _e, s=s: pick("caller", s, callers),
                                    spoken=f"{NAMES[s]} called", height=52,
                                    width=None if s % 2 else 140, expand=bool(s % 2))
            trumps = {}
            for code, word in (("S", "Spades"), ("H", "Hearts"), ("D", "Diamonds"),
                               ("C", "Clubs")):
                trumps[code] = ft.OutlinedButton(content=ft.Column(
                    [ft.Text("♠♥♦♣"["SHDC".index(code)], size=26), ft.Text(word, size=11)],
                    spacing=0, tight=True), height=60, expand=True,
                    on_click=lambda _e, c=code: pick("trump", c, trumps))
            mine = ft.Text("–", size=40)
            other = ft.Text("–", size=40)
            ruling = ft.Text("Tap the player who called trump", size=15, max_lines=3)
            box = ft.Container(ruling, height=100, padding=10,
                               bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
            save = ft.FilledButton(content=ft.Text("Save hand", size=18), height=60,
                                   expand=True, disabled=True)

            def rule():
                d = state["digits"]
                mine.value = d or "–"
                other.value = str(162 - int(d)) if d else "–"
                ready = False
                if state["caller"] is None:
                    ruling.value = "Tap the player who called trump"
                elif state["trump"] is None:
                    ruling.value = "Tap the trump suit"
                elif not d:
                    ruling.value = "Enter the trick points"
                else:
                    n = int(d) if state["caller"] % 2 == 0 else 162 - int(d)
                    team = TEAMS[state["caller"] % 2]
                    ruling.value = f"{team} called: {n} of 162, needed 82: " + (
                        "made" if n >= 82 else "short")
                    ready = True
                save.disabled = not ready

            def digit(k):
                if k == "C":
                    state["digits"] = ""
                elif k == "⌫":
                    state["digits"] = state["digits"][:-1]
                elif len(state["digits"]) < 3:
                    state["digits"] = (state["digits"] + k).lstrip("0") or "0"
                rule()

            def key(k):
                return ft.OutlinedButton(content=ft.Text(k, size=24), height=56, expand=True,
                                         on_click=lambda _e: digit(k))

            def do_save(_e):
                d = int(state["digits"])
                HANDS.append((d, 162 - d) if state["caller"] % 2 == 0 else (162 - d, d))
                go("/game")

            save.on_click = do_save
            pad = ft.Column([ft.Row([key(k) for k in row]) for row in
                             ("123", "456", "789", "C0⌫")])
            figures = ft.Row([ft.Container(ft.Column([ft.Text(t, size=13), f]), expand=True,
                                           bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH)
                              for t, f in zip(TEAMS, (mine, other))])
            endings = ft.Row([toggle(w, None) for w in ("Counted", "Misplay", "Thrown in")])
            body = [
                ft.Text("Who called?", size=15),
                ft.Column([ft.Row([callers[2]], alignment=ft.MainAxisAlignment.CENTER),
                           ft.Row([callers[1], dealing, callers[3]]),
                           ft.Row([callers[0]], alignment=ft.MainAxisAlignment.CENTER)]),
                ft.Text("Trump", size=15), ft.Row(list(trumps.values())),
                wide("Runs or bella shown?", None, primary=False, height=48),
                ft.Text("Trick points", size=15), endings, figures, pad,
                wide("Count the cards", None, primary=False, height=48),
            ]
            bottom = ft.Column([box, ft.Row([save])])
            return view("/game/hand", "Record hand", "/game", body, bottom)

        screens = {"/": home, "/new": new_game, "/game": sheet, "/game/hand": record_hand}

        def show(route):
            page.views.clear()
            page.views.append(screens.get(route, home)())
            page.update()

        page.on_route_change = lambda e: show(e.route)
        show(page.route)

    app = flet_fastapi.FastAPI()
    app.mount("/", flet_fastapi.app(main, no_cdn=True))
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                ws="websockets-sansio")
''')

"""Click an accessibility node and wait, frame by frame, for a text: ms, -1 on timeout."""

SETTLE_MS = 400
"""After each answer, time for the page to finish the tap's work (a scroll, a second
message, the frames after) before the next tap: the renderer's time is then the
tap's own, and taps do not overlap."""

PAD_STEPS = [("9", "called: 9 of 162"), ("0", "called: 90 of 162"),
             ("⌫", "called: 9 of 162"), ("5", "called: 95 of 162")]
LABELLED = {"Back"}
"""Icon buttons: named by their tooltip on an outer node (docs/FLET_NOTES.md, section 6)."""
RESUME = "Continue"
"""The button on home that goes back to the game (home's Continue card in the app)."""
PARTIAL = {"Hearts", RESUME}
"""Buttons whose name holds more than the word (a suit symbol, the score)."""
ACTIONS = ["sheet → Record hand", "caller tap", "trump tap", "pad tap", "caller tap (figure in)",
           "Save → sheet", "sheet → home", "home → New game", "New game → home",
           "reload → interactive", "first load, 30 Mbit/s"]
MBIT_30 = {"offline": False, "latency": 20, "downloadThroughput": 30e6 / 8,
           "uploadThroughput": 30e6 / 8}
"""30 Mbit/s both ways and 20 ms: table Wi-Fi with a laptop on it."""


def _thread_stat(path: Path) -> tuple[int, int]:
    """(user + system ticks, nice) of one thread from its /proc stat line."""
    fields = path.read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12]), int(fields[16])


_BACKGROUND: dict[tuple[int, str], int] = {}
"""(process, thread) -> CPU ticks last seen, of the threads below the main one's priority."""


def server_cpu_ms(pid: int) -> float:
    """User + system CPU of a server process so far, in ms (clock-tick resolution),
    less its threads at a lower priority than the main one: Tarabish's
    background compression pass, which runs for minutes after the first load."""
    total, main_nice = _thread_stat(Path(f"/proc/{pid}/stat"))
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            ticks, nice = _thread_stat(task / "stat")
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that just ended: counted below as last seen
        if nice > main_nice:
            _BACKGROUND[(pid, task.name)] = ticks
    # An ended thread's time stays in the process's total: keep taking it off, or
    # the pass's minutes of CPU would land on the tap measured when it ended.
    total -= sum(ticks for (owner, _tid), ticks in _BACKGROUND.items() if owner == pid)
    return total * TICK_MS


@dataclass
class Phone:
    """One tab driving one server, with what it measured."""

    name: str
    page: Page
    pid: int
    url: str
    times: dict[str, list[float]] = field(default_factory=dict)
    ws_bytes: dict[str, list[int]] = field(default_factory=dict)
    cpu: dict[str, list[tuple[float, int]]] = field(default_factory=dict)
    """Server CPU ms and the number of taps it was spent on, per kind of tap."""
    renderer: dict[str, list[float]] = field(default_factory=dict)
    """The tab's main-thread task time per tap, ms, until the page was still again."""
    received: int = 0
    hands: int = 0
    """Hands this phone has saved: the sheet then reads "Hand <hands + 1>" at its top
    (the end of a long sheet, such as Undo, may be built only once scrolled to)."""
    _cdp: CDPSession | None = None
    """The tab's DevTools session for its metrics, opened at the first tap."""

    def listen(self) -> None:
        def on_ws(ws: WebSocket) -> None:
            ws.on("framereceived", lambda payload: self._count(payload))
        self.page.on("websocket", on_ws)

    def _count(self, payload: str | bytes) -> None:
        self.received += len(payload)

    def task_ms(self) -> float:
        """The renderer main thread's busy time so far (CDP `TaskDuration`), ms: unlike
        the time to the answer it does not round to frames or wait on the server."""
        if self._cdp is None:
            self._cdp = self.page.context.new_cdp_session(self.page)
            self._cdp.send("Performance.enable")
        metrics = self._cdp.send("Performance.getMetrics")["metrics"]
        return 1000 * float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))

    def tap(self, action: str, button: str, want: str, timeout_ms: float = 30_000) -> float:
        node = (self.page.get_by_label(button, exact=True) if button in LABELLED else
                self.page.get_by_role("button", name=button, exact=button not in PARTIAL)).first
        handle = node.element_handle(timeout=timeout_ms)
        before, busy = self.received, self.task_ms()
        ms = float(self.page.evaluate(TAP_JS, [handle, want, timeout_ms]))
        if ms < 0:
            raise RuntimeError(f"{self.name}: {button!r} never showed {want!r}")
        self.page.wait_for_timeout(SETTLE_MS)
        self.renderer.setdefault(action, []).append(self.task_ms() - busy)
        self.times.setdefault(action, []).append(ms)
        self.ws_bytes.setdefault(action, []).append(self.received - before)
        return ms

    def note_cpu(self, what: str, ms: float, taps: int = 1) -> None:
        self.cpu.setdefault(what, []).append((ms, taps))

    def cpu_per_tap(self, what: str) -> float:
        """Total CPU over total taps (one clock tick is 10 ms: a median would round)."""
        spent = self.cpu.get(what, [])
        taps = sum(n for _ms, n in spent)
        return sum(ms for ms, _n in spent) / taps if taps else float("nan")


def throttle(page: Page, rate: float) -> None:
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def one_round(phone: Phone, resume: str) -> None:
    """Record one hand from the sheet, go home, open New game, back to the sheet."""
    phone.page.wait_for_timeout(300)
    phone.tap("sheet → Record hand", "Record hand", "Tap the player who called trump")
    phone.tap("caller tap", "Ann called", "Tap the trump suit")
    phone.tap("trump tap", "Hearts", "Enter the trick points")
    phone.page.wait_for_timeout(300)  # the jump to the number pad
    cpu0 = server_cpu_ms(phone.pid)
    for key, want in PAD_STEPS:
        phone.tap("pad tap", key, want)
    phone.note_cpu("pad tap", server_cpu_ms(phone.pid) - cpu0, len(PAD_STEPS))
    phone.tap("caller tap (figure in)", "Bob called", "Bob & Dee called")
    phone.tap("caller tap (figure in)", "Ann called", "Ann & Cid called")
    cpu0 = server_cpu_ms(phone.pid)
    phone.tap("Save → sheet", "Save hand", f"Hand {phone.hands + 2}")
    phone.hands += 1
    phone.page.wait_for_timeout(300)
    phone.note_cpu("Save", server_cpu_ms(phone.pid) - cpu0)
    phone.tap("sheet → home", "Back", "New game")
    phone.tap("home → New game", "New game", "Who sits where")
    phone.tap("New game → home", "Back", resume)
    phone.page.get_by_role("button", name=resume).first.click()
    phone.page.get_by_text("Record hand").first.wait_for(timeout=30_000)


def reload_round(phone: Phone, first_text: str) -> None:
    t0 = time.perf_counter()
    phone.page.reload(wait_until="commit")
    seconds = interactive(phone.page, first_text, t0)
    phone.times.setdefault("reload → interactive", []).append(seconds * 1000)


def first_load(browser: Browser, phone: Phone, first_text: str, rate: float) -> None:
    """A phone that never opened the page: fresh profile, shaped network, slowed CPU."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", MBIT_30)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        t0 = time.perf_counter()
        home = urlsplit(phone.url)._replace(path="/", query="").geturl()
        page.goto(home, wait_until="commit")
        seconds = interactive(page, first_text, t0)
        phone.times.setdefault("first load, 30 Mbit/s", []).append(seconds * 1000)
    finally:
        context.close()


def open_phone(browser: Browser, name: str, url: str, pid: int, first: str) -> Phone:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    phone = Phone(name, page, pid, url)
    phone.listen()
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit")
    interactive(page, first, t0)
    return phone


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def quartiles(values: list[float]) -> str:
    """The middle half of the samples, `p25-p75`: how far a median can be trusted."""
    if len(values) < 4:
        return "-"
    q = statistics.quantiles(values, n=4)
    return f"{q[0]:.0f}-{q[2]:.0f}"


def report(rate: float, bare: Phone, app: Phone) -> dict[str, Any]:
    print(f"\nCPU/{rate:g} (medians of {len(app.times.get('Save → sheet', []))} rounds, "
          f"middle half of the samples beside them; ms in the page; "
          f"KB = websocket bytes the page received; CPU = the tab's main-thread ms)")
    print(f"{'action':24} {'bare ms':>8} {'(p25-p75)':>10} {'app ms':>7} {'(p25-p75)':>10} "
          f"{'ratio':>6} {'bare KB':>8} {'app KB':>7} {'bare CPU':>9} {'app CPU':>8} {'ratio':>6}")
    out: dict[str, Any] = {}
    for action in ACTIONS:
        bt, at = bare.times.get(action, []), app.times.get(action, [])
        b, a = median(bt), median(at)
        bk = median([float(x) for x in bare.ws_bytes.get(action, [])]) / 1000
        ak = median([float(x) for x in app.ws_bytes.get(action, [])]) / 1000
        bc, ac = median(bare.renderer.get(action, [])), median(app.renderer.get(action, []))
        print(f"{action:24} {b:8.0f} {quartiles(bt):>10} {a:7.0f} {quartiles(at):>10} "
              f"{a / b:6.2f} {bk:8.1f} {ak:7.1f} {bc:9.0f} {ac:8.0f} {ac / bc:6.2f}")
        out[action] = {"bare_ms": b, "app_ms": a, "ratio": a / b, "bare_kb": bk, "app_kb": ak,
                       "bare_samples": bt, "app_samples": at,
                       "bare_renderer_ms": bc, "app_renderer_ms": ac}
    for what in ("pad tap", "Save"):
        b, a = bare.cpu_per_tap(what), app.cpu_per_tap(what)
        print(f"server CPU per {what:8} bare {b:6.1f} ms   app {a:6.1f} ms")
        out[f"server cpu {what}"] = {"bare_ms": b, "app_ms": a}
    return out


def watch(browser: Browser, app: Phone, game_url: str, watchers: int, rounds: int
          ) -> dict[str, float]:
    """Server CPU per pad tap and per Save with `watchers` more tabs on the sheet."""
    context = browser.new_context(viewport=VIEWPORT)
    tabs = []
    for _ in range(watchers):
        tab = context.new_page()
        t0 = time.perf_counter()
        tab.goto(game_url, wait_until="commit")
        interactive(tab, "Score sheet", t0)
        tabs.append(tab)
    app.page.wait_for_timeout(2_000)
    fan_out: list[float] = []
    try:
        for _ in range(rounds):
            app.tap("w: sheet → Record hand", "Record hand", "Tap the player who called trump")
            app.tap("w: caller", "Ann called", "Tap the trump suit")
            app.tap("w: trump", "Hearts", "Enter the trick points")
            app.page.wait_for_timeout(300)
            cpu0 = server_cpu_ms(app.pid)
            for key, want in PAD_STEPS:
                app.tap("w: pad tap", key, want)
            app.note_cpu("w: pad tap", server_cpu_ms(app.pid) - cpu0, len(PAD_STEPS))
            hands = app.hands
            cpu0 = server_cpu_ms(app.pid)
            t0 = time.perf_counter()
            app.tap("w: Save → sheet", "Save hand", f"Hand {hands + 2}")
            app.hands += 1
            for tab in tabs:  # every watcher shows the new hand
                tab.get_by_text(f"{hands + 1}. ", exact=False).first.wait_for(timeout=60_000)
            fan_out.append((time.perf_counter() - t0) * 1000)
            app.page.wait_for_timeout(500)
            app.note_cpu("w: Save", server_cpu_ms(app.pid) - cpu0)
    finally:
        context.close()
    result = {"pad_cpu_ms": app.cpu_per_tap("w: pad tap"),
              "pad_cpu_alone_ms": app.cpu_per_tap("pad tap"),
              "save_cpu_ms": app.cpu_per_tap("w: Save"),
              "save_cpu_alone_ms": app.cpu_per_tap("Save"),
              "save_ms": median(app.times["w: Save → sheet"]),
              "last_watcher_ms": median(fan_out)}
    per_watcher = (result["save_cpu_ms"] - result["save_cpu_alone_ms"]) / watchers
    print(f"\n{watchers} more phones watching the game (CPU/1, {rounds} rounds): server CPU per pad "
          f"tap {result['pad_cpu_ms']:.1f} ms (alone {result['pad_cpu_alone_ms']:.1f}), per Save "
          f"{result['save_cpu_ms']:.1f} ms (alone {result['save_cpu_alone_ms']:.1f}: "
          f"{per_watcher:.1f} ms a watcher); the saving phone's Save → sheet "
          f"{result['save_ms']:.0f} ms; Save → last watcher shows the hand "
          f"{result['last_watcher_ms']:.0f} ms")
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rates", type=float, nargs="+", default=[1, 4])
    parser.add_argument("--watchers", type=int, default=11)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--no-warm-up", action="store_true",
                        help="do not wait for the server's background compression pass "
                             "(quicker; its CPU then mixes into the figures)")
    parser.add_argument("--no-loads", action="store_true",
                        help="taps and screen switches only, no reloads or first loads "
                             "(quicker A/B runs of a screen)")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-taps-"))
    bare_port, app_port = free_port(), free_port()
    bare_url = f"http://127.0.0.1:{bare_port}/"
    app_url = f"http://127.0.0.1:{app_port}/"
    data_dir = tmp / "data-app"
    game = seed_game(data_dir, [], rules={"target": 5000})
    bare = start([sys.executable, "-c", BARE_APP, str(bare_port)], bare_url, tmp / "bare.log")
    app = start_tarabish(app_port, tmp, "app")
    results: dict[str, Any] = {"rounds": args.rounds}
    setups: list[tuple[Phone, str, str]] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                         headless=True)
            b = open_phone(browser, "bare", bare_url + "game", bare.pid, "Record hand")
            a = open_phone(browser, "app", f"{app_url}game/{game}", app.pid, "Score sheet")
            # An imported game is held by nobody: the phone enters the code it was given.
            enter_seeded_code(a.page, game)
            a.page.get_by_text("Record hand", exact=True).first.wait_for(timeout=30_000)
            if not args.no_warm_up:
                print(f"app: best-level compression done after {wait_best(app_url):.0f} s",
                      flush=True)
            setups = [(b, RESUME, "Tarabish"), (a, RESUME, "Tarabish")]
            for rate in args.rates:
                for phone, _resume, _first in setups:
                    throttle(phone.page, rate)
                    phone.times.clear()
                    phone.ws_bytes.clear()
                    phone.cpu.clear()
                for _ in range(args.rounds):
                    for phone, resume, _first in setups:
                        one_round(phone, resume)
                # Reloads last: home, where a phone is after the screen switches.
                for phone, _resume, _first in setups:
                    phone.tap("sheet → home", "Back", "New game")
                for _ in range(0 if args.no_loads else args.rounds):
                    for phone, _resume, first in setups:
                        reload_round(phone, first)
                for _ in range(0 if args.no_loads else args.rounds):
                    for phone, _resume, first in setups:
                        first_load(browser, phone, first, rate)
                results[f"cpu/{rate:g}"] = report(rate, b, a)
                for phone, resume, _first in setups:
                    phone.page.get_by_role("button", name=resume).first.click()
                    phone.page.get_by_text("Record hand").first.wait_for(timeout=30_000)
            if args.watchers:
                throttle(a.page, 1)
                results["watchers"] = watch(browser, a, f"{app_url}game/{game}",
                                            args.watchers, max(2, args.rounds // 2))
                results["watchers"]["count"] = args.watchers
            browser.close()
    finally:
        stop(bare)
        stop(app)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
