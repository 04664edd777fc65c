"""The leaderboard beside a score sheet: a group of 200 members and 5,000 games.

    uv run python benchmarks/bench_leaderboard.py               # 200 members, 5,000 games
    uv run python benchmarks/bench_leaderboard.py --games 500   # a quicker look
    uv run python benchmarks/bench_leaderboard.py --group       # the same games as a group

A data folder gets 5,000 finished games (four of 200 members seated at random,
each game the won game of tests/data/won_game.json) and one game in play of five
hands, the score sheet. The table server starts on it and one headless Chromium
tab (390x844) goes back and forth from home, round after round, alternating:

- home → Leaderboard, timed until the leaderboard's first line is in the
  accessibility tree (its first 20 rows are sent with it; "Show all" sends the rest);
- home → Continue → the score sheet, timed until its title is.

Both are taps timed the same way inside the page (bench_taps' TAP_JS: a click on
the accessibility node, then a check per animation frame), so the ratio compares
opening one screen with opening the other on the same machine at the same moment.
Printed: the medians, the middle half, and leaderboard / sheet (issue 33 §6 wants
<= 1.5). Also the first open after the server started (the ratings of every game
worked out: each game's finish time read and 5,000 matches rated) and, in this
process, the time to rate the folder cold and to find it unchanged. Figures only;
nothing is judged here. Loopback only.

With --group every game is also put in a group ("Bench group", 200 members and
5,000 games): the leaderboard timed is then the group's, opened from the
all-games board by a tap on the group's name (/ratings -> /ratings?group=), and
the in-process figures are the group's timeline (the group read from
groups.json at each visit).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_taps import TAP_JS  # noqa: E402
from conftest import enable_semantics, start_app_server  # noqa: E402

from scorer.app.ratings_access import TRUSTED_AFTER_NS, RatedFolder  # noqa: E402
from scorer.app.views.leaderboard import FIRST_ROWS  # noqa: E402
from scorer.groups.folder import FolderGroups  # noqa: E402
from scorer.store import GameStore  # noqa: E402

WON = json.loads((ROOT / "tests" / "data" / "won_game.json").read_text("utf-8"))
CHROMIUM = os.environ.get("TARABISH_CHROMIUM", "/usr/bin/chromium")
VIEWPORT = {"width": 390, "height": 844}
BOARD_TEXT = "Rating: a careful estimate"
SHEET_TEXT = "Score sheet"
GROUP_TEXT = "finished games in this group"
"""Under the group board's title: the group's board is drawn (its rows are the same as
all games' here, the same games)."""


def fill(data_dir: Path, members: int, games: int, seed: int = 7) -> str:
    """The group's finished games and one game in play; the game in play's id."""
    chosen = random.Random(seed)
    names = [f"Member {n:03d}" for n in range(members)]
    base = {"format": "tarabish-game/1", "first_dealer": 3, "rules": {"forced_at": 400}}
    with GameStore(data_dir) as store:
        for start in range(0, games, 500):
            store.create_games([{**base, "players": chosen.sample(names, 4),
                                 "hands": WON["hands"]}
                                for _ in range(start, min(games, start + 500))])
        playing = store.create_game({**base, "players": names[:4],
                                     "hands": WON["hands"][:5]})
    return playing.id


GROUP = "Bench group"


def make_group(data_dir: Path) -> str:
    """Every stored game in one group; its id."""
    with GameStore(data_dir, read_only=True) as store:
        games = [(s.id, s.players) for s in store.list_games() if s.winner is not None]
    groups = FolderGroups(data_dir)
    group, _code = groups.create(GROUP)
    groups.add_games(group.id, games)
    return group.id


def in_process(data_dir: Path, group: str | None = None) -> tuple[float, float, float]:
    """Seconds to rate the folder (the group) cold, to find it unchanged by listing its
    games (the folder changed in the last second), and by the folder's change time
    alone."""
    with GameStore(data_dir, read_only=True) as store:
        folder = RatedFolder(store)
        t0 = time.perf_counter()
        folder.timeline(group)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        folder.timeline(group)
        listed = time.perf_counter() - t0
        time.sleep(TRUSTED_AFTER_NS / 1e9)
        folder.timeline(group)
        t0 = time.perf_counter()
        folder.timeline(group)
        return cold, listed, time.perf_counter() - t0


def tap(page: object, button: str, want: str, labelled: bool = False) -> float:
    node = (page.get_by_label(button, exact=True) if labelled  # type: ignore[attr-defined]
            else page.get_by_role("button", name=button))  # type: ignore[attr-defined]
    handle = node.first.element_handle(timeout=60_000)
    ms = float(page.evaluate(TAP_JS, [handle, want, 60_000]))  # type: ignore[attr-defined]
    if ms < 0:
        raise RuntimeError(f"{button!r} never showed {want!r}")
    page.wait_for_timeout(400)  # type: ignore[attr-defined]
    return ms


def spread(values: list[float]) -> str:
    q = statistics.quantiles(values, n=4) if len(values) >= 4 else [min(values), 0, max(values)]
    return f"{statistics.median(values):7.0f} ms  (middle half {q[0]:.0f}-{q[2]:.0f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--members", type=int, default=200)
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--group", action="store_true",
                        help="time the group's leaderboard (every game in one group)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        t0 = time.perf_counter()
        playing = fill(data, args.members, args.games)
        print(f"{args.games} games of {args.members} members stored in "
              f"{time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.1f}")
        group = make_group(data) if args.group else None
        cold, listed, marked = in_process(data, group)
        print(f"in process{' (the group)' if group else ''}: rating the folder cold {cold * 1000:.0f} ms; unchanged: "
              f"{listed * 1000:.1f} ms listing the games, {marked * 1000:.2f} ms by the "
              "folder's change time")
        server = start_app_server(data)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=[
                    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"])
                page = browser.new_context(viewport=VIEWPORT).new_page()
                page.goto(f"{server.url}game/{playing}", wait_until="commit")
                enable_semantics(page)
                page.get_by_text(SHEET_TEXT).first.wait_for(timeout=60_000)
                tap(page, "Back", "New game", labelled=True)
                first = tap(page, "Leaderboard", BOARD_TEXT)
                tap(page, "Back", "New game", labelled=True)
                board: list[float] = []
                sheet: list[float] = []
                for _ in range(args.rounds):
                    if group is None:
                        board.append(tap(page, "Leaderboard", BOARD_TEXT))
                    else:  # the all-games board, then the group's by a tap on its name
                        tap(page, "Leaderboard", BOARD_TEXT)
                        board.append(tap(page, GROUP, GROUP_TEXT))
                    tap(page, "Back", "New game", labelled=True)
                    sheet.append(tap(page, "Continue", SHEET_TEXT))
                    tap(page, "Back", "New game", labelled=True)
                browser.close()
        finally:
            server.stop()
    print(f"first leaderboard after the start (every game rated): {first:.0f} ms")
    rows = min(FIRST_ROWS, args.members)
    opened = "all games → the group's board" if args.group else "home → Leaderboard"
    print(f"{opened} ({rows} of {args.members} rows): {spread(board)}")
    print(f"home → score sheet (5 hands):   {spread(sheet)}")
    print(f"leaderboard / sheet: {statistics.median(board) / statistics.median(sheet):.2f} "
          f"(issue 33 §6: <= 1.5); load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
