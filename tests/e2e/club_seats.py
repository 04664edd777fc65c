"""Club nights of any size stored straight into a data folder before the server starts
(the engine and the store, as `tarabish event` would), for the board's tests; or made by
`tarabish event new` beside a running server, which it hands the night to."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from scorer.events.model import parse_spec
from scorer.events.service import EventService
from scorer.store.game_store import GameStore
from tests.server_zygote import run_cli

FIRST = ["Margaret", "Catherine", "Alexander", "Angus", "Flora", "Malcolm", "Christina",
         "Roderick", "Theresa", "Dougald", "Marion", "Lachlan", "Josephine", "Hector",
         "Rosemary", "Archibald", "Mairi", "Kenneth", "Elizabeth", "Donald"]
LAST = "MBDCRS"
# Seat 0's team wins every hand but the first: 1134 to 162 by the end, to 1000.
FIRST_HAND = {"caller": 1, "trump": "H", "points": {"team": 1, "tricks": 162}}
WON = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 162}}
WHOLE_GAME = [FIRST_HAND] + [WON] * 7
HALF_GAME = [FIRST_HAND] + [WON] * 3


def teams(count: int) -> list[list[str]]:
    """`count` teams of long, real-looking names ("Margaret M. & Catherine M.")."""
    people = [f"{first} {last}." for last in LAST for first in FIRST]
    return [[people[2 * n], people[2 * n + 1]] for n in range(count)]


def seed_night(data_dir: Path, tables: int, moment: str) -> str:
    """A swiss night of 2 x `tables` teams, to 1000: `before` round 1, just `started`
    (no hand yet), at its `first hand` (table 1 has one), `during` it (a third of the tables done, a third half way, a third
    not started) or `after` it."""
    with GameStore(data_dir) as store:
        service = EventService(store)
        spec = parse_spec({"name": f"Legion {tables} tables {moment}", "format": "swiss",
                           "rounds": 4, "target": 1000, "house_rules": {},
                           "teams": teams(2 * tables), "seed": 7})
        stored, _code = service.create(spec)
        if moment != "before":
            record = service.start_round(stored.id).night.played[-1]
            for n, t in enumerate(record.tables):
                hands: list[dict[str, Any]] = (
                    [] if moment == "started" else
                    ([FIRST_HAND] if n == 0 else []) if moment == "first hand" else
                    WHOLE_GAME if moment == "after" or n % 3 == 0 else
                    HALF_GAME if n % 3 == 1 else [])
                for hand in hands:
                    store.add_hand(t.game or "", hand)
        return stored.id


def paper_game(sides: list[list[str]]) -> dict[str, Any]:
    """A finished game of a board table's two teams (seats 0 and 2 partners)."""
    return {"format": "tarabish-game/1",
            "players": [sides[0][0], sides[1][0], sides[0][1], sides[1][1]],
            "first_dealer": 3, "rules": {"target": 1000}, "hands": WHOLE_GAME}


def night_by_command(data_dir: Path, name: str, teams: list[str], target: int) -> tuple[str, str]:
    """A round robin of `teams` ("Ann & Bob") to `target`, made by `tarabish event new`
    while the server holds `data_dir`: (its id, its organiser code), as the command
    prints them for the organiser. The night New club night makes from the same words,
    for a test whose subject is not the set-up."""
    spec = {"name": name, "format": "round_robin", "target": target, "house_rules": {},
            "teams": [team.split(" & ") for team in teams]}
    path = data_dir.parent / f"night-{abs(hash(json.dumps(spec)))}.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    done = run_cli(["event", "new", str(path), "--data-dir", str(data_dir)], check=True)
    code = re.search(r"organiser code (\d{4}) (\d{4})", done.stderr)
    assert code, done.stderr
    return done.stdout.strip(), code.group(1) + code.group(2)
