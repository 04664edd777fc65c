"""A group's screens beside a bare Flet page of the same shape, CPU/4 (as bench_taps).

    uv run python benchmarks/bench_group_screens.py [--rounds 5] [--rates 4] [--games 500]

Starts on free loopback ports (1) a bare Flet app (`BARE_APP`: a group page with a
title, Leaderboard and Fair teams buttons, the members and the five newest games; a
fair-teams screen of member toggles that proposes teams once four are in; a
leaderboard of 20 rows) and (2) the Tarabish server with a group of `--games` finished
games of eight members. Both are driven in one headless Chromium (390x844), round
after round, alternating, with the CPU slowed by CDP `Emulation.setCPUThrottlingRate`.

A round, on each: group page → Fair teams, three member taps, the fourth (teams
proposed), Fair teams → group page (Back), group page → Leaderboard, leaderboard →
Fair teams, Fair teams → group page. Each tap is timed in the page as bench_taps does
(a click on the accessibility node, then a check per animation frame for the text that
answers it), with the websocket bytes received and the tab's main-thread time (CDP
TaskDuration over the tap and the 400 ms after it). Printed: medians, the middle half
of the samples, and the app/bare ratios. Loopback only; no thresholds.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))

from bench_page_load import CHROMIUM, CHROMIUM_ARGS, free_port, start, stop
from bench_taps import Phone, median, open_phone, quartiles, throttle
from table_steps import seed_won_games

MEMBERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
MEANS = "Rating: a careful estimate of skill"
ACTIONS = ["group → Fair teams", "member tap", "4th member → teams", "Fair teams → group",
           "group → Leaderboard", "Leaderboard → Fair teams"]

BARE_APP = textwrap.dedent('''
    """A bare Flet app with the shape of a group's screens, and nothing else."""
    import sys
    import flet as ft
    import flet_web.fastapi as flet_fastapi
    import uvicorn

    MEMBERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]

    def main(page: ft.Page) -> None:
        still = ft.PageTransitionTheme.NONE
        page.theme = ft.Theme(color_scheme_seed=ft.Colors.GREEN,
            page_transitions=ft.PageTransitionsTheme(
                android=still, ios=still, linux=still, macos=still, windows=still))
        here = []

        def go(route):
            page.run_task(page.push_route, route)

        def bar(title, back):
            return ft.AppBar(leading=ft.IconButton(ft.Icons.ARROW_BACK, tooltip="Back",
                                                   on_click=lambda _e: go(back)),
                             title=ft.Text(title, size=20), automatically_imply_leading=False)

        def wide(label, on_click, primary=True):
            kind = ft.FilledButton if primary else ft.OutlinedButton
            return ft.Row([kind(content=ft.Text(label, size=18), on_click=on_click,
                                height=56, expand=True)])

        def view(route, title, back, body):
            return ft.View(route=route, appbar=bar(title, back), controls=[ft.Column(
                body, scroll=ft.ScrollMode.AUTO, expand=True, spacing=16)],
                padding=ft.Padding.symmetric(horizontal=16, vertical=8))

        def group():
            games = [ft.Row([ft.OutlinedButton(content=ft.Column([
                ft.Text("Ann & Cid vs Bob & Dee", size=16), ft.Text("508–423 · finished")],
                tight=True), expand=True, on_click=lambda _e: None)]) for _ in range(5)]
            return view("/group", "Group", "/group", [
                ft.Text("Friday bish", size=22), ft.Text("8 members, 500 games"),
                wide("Leaderboard", lambda _e: go("/board")),
                wide("Fair teams", lambda _e: go("/teams"), primary=False),
                wide("Enter keeper code", None, primary=False),
                ft.Text("Members"), ft.Row([ft.TextButton(m) for m in MEMBERS], wrap=True),
                ft.Text("Games"), *games, wide("All 500 games", None, primary=False)])

        def teams():
            proposal = ft.Column()
            picker = ft.Row(wrap=True)

            def fill():
                picker.controls = [ft.OutlinedButton(content=ft.Text(
                    m, semantics_label=f"{m} here" if m in here else f"{m} not here"),
                    height=48, on_click=lambda _e, m=m: flip(m)) for m in MEMBERS]
                proposal.controls = ([ft.Text("Proposed teams"), ft.Text("Ann & Dee  51 %"),
                                      ft.Text("Bob & Cid  49 %")] if len(here) >= 4 else
                                     [ft.Text(f"{len(here)} picked")])

            def flip(m):
                here.remove(m) if m in here else here.append(m)
                fill()
                picker.update()
                proposal.update()

            here.clear()
            fill()
            return view("/teams", "Fair teams", "/group", [
                ft.Text("Friday bish", size=20), ft.Text("Fair teams"),
                ft.Text("Tap the 4 to 8 members here tonight."), picker, proposal])

        def board():
            rows = [ft.Container(ft.Row([ft.Text(f"{n}. {MEMBERS[n % 8]}\\n62 games, 31 wins"
                                                 "\\nPoints 31,000 for, 30,000 against",
                                                 expand=True), ft.Text("1.5", size=24)]),
                                 on_click=lambda _e: None, padding=8) for n in range(1, 9)]
            return view("/board", "Leaderboard", "/group", [
                ft.Text("Friday bish", size=22), ft.Row([ft.Text("All"), ft.Text("This year")]),
                ft.Text("Rating: a careful estimate of skill from wins and losses."),
                *rows, wide("Fair teams", lambda _e: go("/teams"), primary=False)])

        screens = {"/group": group, "/teams": teams, "/board": board}

        def show(route):
            page.views.clear()
            page.views.append(screens.get(route, group)())
            page.update()

        page.on_route_change = lambda e: show(e.route)
        show(page.route)

    app = flet_fastapi.FastAPI()
    app.mount("/", flet_fastapi.app(main, no_cdn=True))
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
                ws="websockets-sansio")
''')


def seed_group(data: Path, games: int) -> str:
    """A group of `games` finished games among MEMBERS; its id."""
    from scorer.groups.folder import FolderGroups
    from scorer.store.game_store import GameStore

    seatings = [[MEMBERS[(n + k) % 8] for k in (0, 1, 3, 4)] for n in range(games)]
    seed_won_games(data, seatings)
    with GameStore(data, read_only=True) as store:
        held = [(s.id, list(s.players)) for s in store.list_games()]
    groups = FolderGroups(data)
    group, _code = groups.create("Friday bish", MEMBERS)
    groups.add_games(group.id, held)
    return group.id


def one_round(phone: Phone, all_games: str) -> None:
    phone.page.wait_for_timeout(300)
    phone.tap("group → Fair teams", "Fair teams", "Tap the 4 to 8 members here tonight.")
    for name in MEMBERS[:3]:
        phone.tap("member tap", f"{name} not here", f"{name} here")
    phone.tap("4th member → teams", f"{MEMBERS[3]} not here", "Proposed teams")
    phone.tap("Fair teams → group", "Back", all_games)
    phone.tap("group → Leaderboard", "Leaderboard", MEANS)
    phone.tap("Leaderboard → Fair teams", "Fair teams", "Tap the 4 to 8 members here tonight.")
    phone.tap("Fair teams → group", "Back", all_games)


def report(rate: float, bare: Phone, app: Phone) -> dict[str, Any]:
    print(f"\nCPU/{rate:g} (medians, middle half of the samples beside them; ms in the page; "
          "KB = websocket bytes received; CPU = the tab's main-thread ms)")
    print(f"{'action':26} {'bare ms':>8} {'(p25-p75)':>10} {'app ms':>7} {'(p25-p75)':>10} "
          f"{'ratio':>6} {'bare KB':>8} {'app KB':>7} {'bare CPU':>9} {'app CPU':>8} {'ratio':>6}")
    out: dict[str, Any] = {}
    for action in ACTIONS:
        bt, at = bare.times.get(action, []), app.times.get(action, [])
        b, a = median(bt), median(at)
        bk = median([float(x) for x in bare.ws_bytes.get(action, [])]) / 1000
        ak = median([float(x) for x in app.ws_bytes.get(action, [])]) / 1000
        bc, ac = median(bare.renderer.get(action, [])), median(app.renderer.get(action, []))
        print(f"{action:26} {b:8.0f} {quartiles(bt):>10} {a:7.0f} {quartiles(at):>10} "
              f"{a / b:6.2f} {bk:8.1f} {ak:7.1f} {bc:9.0f} {ac:8.0f} {ac / bc:6.2f}")
        out[action] = {"bare_ms": b, "app_ms": a, "ratio": a / b, "bare_kb": bk,
                       "app_kb": ak, "bare_renderer_ms": bc, "app_renderer_ms": ac}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rates", type=float, nargs="+", default=[4])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="bench-group-"))
    bare_port, app_port = free_port(), free_port()
    bare_url = f"http://127.0.0.1:{bare_port}/"
    app_url = f"http://127.0.0.1:{app_port}/"
    data = tmp / "data-app"
    group_id = seed_group(data, args.games)
    bare = start([sys.executable, "-c", BARE_APP, str(bare_port)], bare_url, tmp / "bare.log")
    app = start([sys.executable, "-m", "scorer.cli", "--no-open", "--host", "127.0.0.1",
                 "--port", str(app_port), "--data-dir", str(data)], app_url, tmp / "app.log")
    results: dict[str, Any] = {"rounds": args.rounds, "games": args.games}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                         headless=True)
            b = open_phone(browser, "bare", bare_url + "group", bare.pid, "Friday bish")
            a = open_phone(browser, "app", f"{app_url}group/{group_id}", app.pid,
                           "Friday bish")
            phones = [(b, "All 500 games"), (a, f"All {args.games} games")]
            for rate in args.rates:
                for phone, _marker in phones:
                    throttle(phone.page, rate)
                    phone.times.clear()
                    phone.ws_bytes.clear()
                    phone.renderer.clear()
                for _ in range(args.rounds):
                    for phone, marker in phones:
                        one_round(phone, marker)
                results[f"cpu/{rate:g}"] = report(rate, b, a)
            browser.close()
    finally:
        stop(bare)
        stop(app)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
