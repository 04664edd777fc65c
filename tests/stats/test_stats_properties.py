"""Properties of the statistics: seat rotation and an export -> import round trip
change nothing, and every counted call is made, half-bait or bait."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import game_docs, rotate_doc

from rules.stats import PlayedGame, Stats, compute_stats
from scorer.cli import main
from scorer.stats import load_stats
from scorer.stats.facts import facts_of_doc
from scorer.store import GameStore

START = datetime(2026, 1, 1, tzinfo=UTC)
# TARABISH_PROPERTY_SCALE=20 runs twenty times the examples (as in tests/rules).
SCALE = int(os.environ.get("TARABISH_PROPERTY_SCALE", "1"))


def fast(max_examples: int) -> Any:
    return settings(
        max_examples=max_examples * SCALE, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


@st.composite
def respelled(draw: st.DrawFn, doc: dict[str, Any]) -> dict[str, Any]:
    """The same game with its names typed another way ("ann ", "ANN"): one player each."""
    spellings = [draw(st.sampled_from([n, n.lower(), n.upper(), f" {n}", f"{n}  "]))
                 for n in doc["players"]]
    return {**doc, "players": spellings}


def many_games(max_games: int = 4) -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(game_docs(max_hands=10).flatmap(respelled), min_size=1, max_size=max_games)


def played(docs: list[dict[str, Any]]) -> list[PlayedGame]:
    return [
        PlayedGame(facts=facts_of_doc(doc), started=START + timedelta(hours=i),
                   day=(START + timedelta(hours=i)).date(), game_id=f"{i:08x}")
        for i, doc in enumerate(docs)
    ]


def everything(stats: Stats) -> dict[str, Any]:
    """The contract and every extra figure."""
    return stats.model_dump(mode="json")


@fast(40)
@given(many_games())
def test_calls_are_made_plus_half_baits_plus_baits(docs: list[dict[str, Any]]) -> None:
    stats = compute_stats(played(docs))
    games = sum(1 for doc in docs if doc["hands"])  # a game with no hands is no game
    assert stats.games == games
    for player in stats.players:
        assert player.calls == player.made + player.half_baits + player.baits
        assert 0 <= player.wins <= player.finished <= player.games
        assert player.forced_calls <= player.calls
        assert player.runs_scored <= player.runs_shown
    # Four seats a game, two partnerships a game.
    assert sum(p.games for p in stats.players) == 4 * games
    assert sum(q.games for q in stats.partnerships) == 2 * games
    finished = sum(1 for game in played(docs) if game.facts.winner is not None)
    assert sum(q.wins for q in stats.partnerships) == finished
    assert sum(p.wins for p in stats.players) == 2 * finished


@fast(40)
@given(many_games(), st.data())
def test_rotating_seats_changes_no_figure(docs: list[dict[str, Any]], data: st.DataObject) -> None:
    before = everything(compute_stats(played(docs)))
    rotated = []
    for doc in docs:
        for _ in range(data.draw(st.integers(1, 3), label="turns")):
            doc = rotate_doc(doc)
        rotated.append(doc)
    assert everything(compute_stats(played(rotated))) == before


@fast(8)
@given(many_games(max_games=3))
def test_export_import_round_trip_into_a_fresh_folder(docs: list[dict[str, Any]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        first, second = root / "first", root / "second"
        store = GameStore(first)
        ids = []
        for doc in docs:  # as a table plays it: started, then hand by hand, so the
            # trail says when (a game stored with its hands at once has no time before
            # now to carry: imported again it is as new as its import)
            game = store.create_game({**doc, "hands": []})
            for hand in doc["hands"]:
                game = store.add_hand(game.id, hand, expected_revision=game.revision)
            ids.append(game.id)
        before = everything(load_stats(store))
        files = []
        for n, game_id in enumerate(ids):  # oldest first, so the latest stays latest
            out = root / f"game{n}.json"
            assert main(["export", game_id, "-o", str(out), "--data-dir", str(first)]) == 0
            files.append(str(out))
        assert main(["import", *files, "--data-dir", str(second)]) == 0
        assert everything(load_stats(GameStore(second))) == before
        assert before["games"] == sum(1 for doc in docs if doc["hands"])
        assert json.loads((root / "game0.json").read_text(encoding="utf-8"))["players"] \
            == docs[0]["players"]
