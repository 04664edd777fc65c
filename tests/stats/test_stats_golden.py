"""Golden statistics: tests/stats/golden_stats.json holds games and the figures
worked out by hand for them (the notes in the file show the working)."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from rules.stats import (
    PARTNERSHIP_KEYS,
    PLAYER_KEYS,
    PlayedGame,
    Relation,
    StatsFilter,
    compute_stats,
)
from scorer.cli import main
from scorer.stats.facts import facts_of_doc
from scorer.store import GameStore

GOLDEN = json.loads((Path(__file__).parent / "golden_stats.json").read_text(encoding="utf-8"))


def played_games() -> list[PlayedGame]:
    games = []
    for entry in GOLDEN["games"]:
        started = datetime.fromisoformat(entry["started"])
        games.append(PlayedGame(facts=facts_of_doc(entry["doc"]), started=started,
                                day=started.date(), game_id=entry["id"]))
    return games


def as_filter(raw: dict[str, Any]) -> StatsFilter:
    return StatsFilter(
        since=date.fromisoformat(raw["since"]) if "since" in raw else None,
        until=date.fromisoformat(raw["until"]) if "until" in raw else None,
        player=raw.get("player"),
        relation=Relation(raw.get("relation", "partners")),
    )


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=[c["id"] for c in GOLDEN["cases"]])
def test_golden_stats(case: dict[str, Any]) -> None:
    stats = compute_stats(played_games(), as_filter(case["filter"]))
    assert stats.contract() == case["expect"]
    by_name = {p.name: p for p in stats.players}
    for name, extras in case.get("extras", {}).items():
        for key, value in extras.items():
            assert getattr(by_name[name], key) == value, (name, key)


def test_golden_games_are_valid_and_the_order_of_games_does_not_matter() -> None:
    games = played_games()
    assert compute_stats(games).contract() == compute_stats(games[::-1]).contract()
    # Every hand of the golden games is valid: nothing counted is a fallback.
    assert [g.facts.hands for g in games] == [5, 4, 2, 0]
    assert [g.facts.winner for g in games] == [1, None, 1, None]


def test_contract_keys_are_exactly_the_published_ones() -> None:
    contract = compute_stats(played_games()).contract()
    assert set(contract) == {"games", "players", "partnerships"}
    assert all(tuple(p) == PLAYER_KEYS for p in contract["players"])
    assert all(tuple(q) == PARTNERSHIP_KEYS for q in contract["partnerships"])
    # The published keys stay; `finished` (games won by a team) came after them.
    assert PLAYER_KEYS == ("name", "games", "wins", "calls", "made", "half_baits", "baits",
                           "call_points", "bellas", "finished")
    assert PARTNERSHIP_KEYS == ("players", "games", "wins", "finished")


def test_tarabish_stats_json_over_a_stored_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = GameStore(tmp_path)
    for entry in GOLDEN["games"]:  # stored in order: the last one is the latest
        store.create_game(entry["doc"])
    store.close()
    assert main(["stats", "--json", "--data-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == GOLDEN["cases"][0]["expect"]
    # The second run reads the cached facts, and says the same.
    assert (tmp_path / "stats-cache.json").exists()
    assert main(["stats", "--json", "--data-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == GOLDEN["cases"][0]["expect"]
    assert main(["stats", "--json", "--player", "eve", "--opponents",
                 "--data-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == GOLDEN["cases"][3]["expect"]
