"""What a community's privacy (issue 38 §3) costs Past games: one phone's list of
1,000 games on PostgreSQL, beside the list of every game it replaces.

    uv run python benchmarks/bench_private_list.py            # 1,000 games of the phone
    uv run python benchmarks/bench_private_list.py --others 9000  # in a community of 10,000

One community database holds the phone's 1,000 games (400 it started, 300 it
opened by their address, 300 in a group it keeps) and `--others` games of other
homes. Timed (median of 15, warm): `list_games` (every game, what Past games read
before), the phone's sight (`game_sight.sight_of`: its held, opened, kept and
organised games, one read each), `list_games_in` of those ids, the two together
(what Past games reads now), and `sees_game` for one game opened by its address
(what a watching phone's sheet asks at every redraw, before the session keeps it).
PostgreSQL is a throwaway cluster (tests/pg_cluster.py) on this machine, TCP on
127.0.0.1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scorer.app import CONFIG  # noqa: E402
from scorer.app.game_sight import sees_game, sight_of, visible_games  # noqa: E402
from scorer.app.group_access import get_groups  # noqa: E402
from scorer.rights import TableRights  # noqa: E402
from scorer.store.database import Database, ensure_schema  # noqa: E402
from scorer.store.pg_games import PgGameStore  # noqa: E402
from tests.pg_cluster import running_cluster  # noqa: E402

HANDS = [{"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}},
         {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}] * 3
PHONE = "benchmark-phone-token-000001"


def doc(n: int) -> dict[str, Any]:
    return {"format": "tarabish-game/1", "first_dealer": 0, "rules": {},
            "players": [f"Ann{n % 50}", f"Bob{n % 50}", f"Cid{n % 50}", f"Dee{n % 50}"],
            "hands": [dict(h) for h in HANDS]}


def median_ms(fn: Callable[[], object], runs: int = 15) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def fill(store: PgGameStore, count: int) -> list[str]:
    made: list[str] = []
    for start in range(0, count, 500):
        made += [g.id for g in store.create_games([doc(n) for n in
                                                   range(start, min(count, start + 500))])]
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--mine", type=int, default=1000, help="the phone's games")
    parser.add_argument("--others", type=int, default=0, help="other homes' games")
    args = parser.parse_args()
    with running_cluster() as cluster, tempfile.TemporaryDirectory() as tmp:
        if cluster is None:
            raise SystemExit("No PostgreSQL on this machine (apt-get install postgresql).")
        url = cluster.new_database()
        ensure_schema(url)
        db = Database(url)
        CONFIG.database = db
        try:
            store = PgGameStore(db, data_dir=Path(tmp) / "cache")
            rights = TableRights.on_database(db)
            mine = fill(store, args.mine)
            fill(store, args.others)
            held, opened = int(len(mine) * 0.4), int(len(mine) * 0.7)
            rights.codes.give_codes(mine)
            for game in mine[:held]:
                rights.codes.grant(game, PHONE)
            for game in mine[held:opened]:
                rights.opened(game, PHONE)
            groups = get_groups(store)
            group, _ = groups.create("Benchmark", keeper=PHONE)
            groups.add_games(group.id, [(g, ("Ann", "Bob", "Cid", "Dee"))
                                        for g in mine[opened:]])

            sight = sight_of(store, rights, PHONE)
            assert len(sight.games) == len(mine), len(sight.games)
            assert len(visible_games(store, sight)) == len(mine)
            every = median_ms(store.list_games)
            sight_ms = median_ms(lambda: sight_of(store, rights, PHONE))
            only = median_ms(lambda: store.list_games_in(sight.games))
            both = median_ms(lambda: visible_games(store, sight_of(store, rights, PHONE)))
            one = median_ms(lambda: sees_game(store, rights, PHONE, mine[held]))
            total = args.mine + args.others
            print(f"{total} games in the community, {len(mine)} of them this phone's "
                  f"({held} started, {opened - held} opened, {len(mine) - opened} its "
                  "group's)\n")
            print(f"list_games (every game, Past games before)   {every:8.1f} ms")
            print(f"the phone's sight (4 reads)                  {sight_ms:8.1f} ms")
            print(f"list_games_in (its {len(mine)} games)              {only:8.1f} ms")
            print(f"Past games now: sight + list_games_in        {both:8.1f} ms "
                  f"({both / every:.2f} x before)")
            print(f"sees_game, one opened game (a sheet's check) {one:8.2f} ms")
        finally:
            CONFIG.database = None
            db.close()


if __name__ == "__main__":
    main()
