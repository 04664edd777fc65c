"""What one watching phone costs the server when a hand is saved: in one process,
no sockets, the real app's sessions (Flet's own Session, Page, diff and msgpack).

    uv run python benchmarks/bench_watcher_redraw.py             # 8 phones, 12 hands
    uv run python benchmarks/bench_watcher_redraw.py --profile   # and where it goes

Opens `--phones` sessions on one game's sheet (table_app.main, as the table server
does), then saves `--hands` hands one by one; after each, every session redraws its
sheet as a watching phone does (`Router.game_changed`), and each message it would
send is packed with msgpack as flet_web packs it. Reported: CPU per watching phone
per save (median and mean over the saves), the first phone's apart from the others
(the first to draw a revision may do work the others share), and bytes sent.
Figures only; nothing is judged.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import msgpack  # noqa: E402
from flet.controls.base_control import BaseControl  # noqa: E402
from flet.controls.context import _context_page  # noqa: E402
from flet.messaging.connection import Connection  # noqa: E402
from flet.messaging.protocol import configure_encode_object_for_msgpack  # noqa: E402
from flet.messaging.session import Session  # noqa: E402
from flet.pubsub.pubsub_hub import PubSubHub  # noqa: E402

from scorer.app.store_access import use_backends  # noqa: E402
from scorer.app.table_app import main as page_main  # noqa: E402
from scorer.backends import backends_of  # noqa: E402
from scorer.store import GameStore  # noqa: E402

GAME: dict[str, Any] = {
    "format": "tarabish-game/1", "players": ["Ann", "Bob", "Cid", "Dee"], "first_dealer": 0,
    "rules": {"target": 100000}, "hands": [],
}


class Packing(Connection):
    """A connection that packs every message as flet_web does, and counts its bytes."""

    def __init__(self, hub: PubSubHub) -> None:
        super().__init__()
        self.pubsubhub = hub
        self.sent = 0
        self._encode = configure_encode_object_for_msgpack(BaseControl)

    def pack(self, body: Any) -> int:
        return len(msgpack.packb(body, default=self._encode))

    def send_message(self, message: Any) -> None:
        self.sent += self.pack([message.action, message.body])


def hand(n: int) -> dict[str, Any]:
    caller = (n + 1) % 4  # the eldest calls; the dealer moves on each hand
    return {"caller": caller, "trump": "SHDC"[n % 4], "points": {"team": caller % 2, "tricks": 95}}


def open_sessions(loop: asyncio.AbstractEventLoop, hub: PubSubHub, route: str,
                  phones: int) -> list[tuple[Packing, Any, Session]]:
    opened = []
    for _ in range(phones):
        conn = Packing(hub)
        conn.loop = loop
        session = Session(conn)
        page = session.page
        page.route = route
        _context_page.set(page)  # as flet_web does for each session
        # What flet_web sends as the phone registers: packing it is what gives the
        # page the snapshots that Flet's later updates are compared against.
        conn.pack(session.get_page_patch())
        page_main(page)
        opened.append((conn, page, session))  # the page holds its session weakly
    return opened


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--profile", action="store_true", help="print where the CPU goes")
    args = parser.parse_args(argv)

    # The loop never runs: the sessions' own tasks (the phone's identity) wait forever.
    warnings.filterwarnings("ignore", message="coroutine .* was never awaited")
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    hub = PubSubHub(loop=loop, executor=ThreadPoolExecutor(1))
    with tempfile.TemporaryDirectory(prefix="tarabish-watch-") as tmp:
        store = GameStore(Path(tmp))
        use_backends(backends_of(store))
        game = store.create_game(GAME)
        route = f"/game/{game.id}"
        sessions = open_sessions(loop, hub, route, args.phones)
        pages = [page for _conn, page, _session in sessions]
        redraw = [_game_changed(page) for _conn, page, _session in sessions]
        first: list[float] = []
        others: list[float] = []
        profile = cProfile.Profile() if args.profile else None
        sent0 = sum(conn.sent for conn, _page, _session in sessions)
        for n in range(args.hands):
            store.add_hand(game.id, hand(n))
            for i, changed in enumerate(redraw):
                if profile is not None:
                    profile.enable()
                _context_page.set(pages[i])
                t0 = time.process_time()
                changed(game.id)
                spent = time.process_time() - t0
                if profile is not None:
                    profile.disable()
                (first if i == 0 else others).append(spent)
        sent = sum(conn.sent for conn, _page, _session in sessions) - sent0
        saves = args.hands
        print(f"{args.phones} phones on one sheet, {saves} saves: per phone per save "
              f"median {statistics.median(first + others) * 1000:.2f} ms, mean "
              f"{statistics.mean(first + others) * 1000:.2f} ms; the first phone to draw "
              f"a revision {statistics.mean(first) * 1000:.2f} ms, each other "
              f"{statistics.mean(others) * 1000:.2f} ms; "
              f"{sent / saves / args.phones:.0f} bytes a phone a save")
        if profile is not None:
            stats = pstats.Stats(profile)
            stats.sort_stats("cumulative").print_stats(45)
            stats.sort_stats("tottime").print_stats(25)
        store.close()
    loop.close()
    return 0


def _game_changed(page: Any) -> Any:
    """The session's `Router.game_changed`, as the page function wired it."""
    for cell in page.on_route_change.__closure__ or ():
        router = cell.cell_contents
        if hasattr(router, "game_changed"):
            return router.game_changed
    raise LookupError("no router")


if __name__ == "__main__":
    sys.exit(main())
