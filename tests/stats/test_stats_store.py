"""The store's side of the statistics: the per-revision cache, renaming and
merging players, the CSV of every hand, and the commands."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from scorer.cli import main
from scorer.stats import RenameError, StatsService, hands_csv, rename_player
from scorer.stats import service as service_module
from scorer.stats.cache import CACHE_FILE
from scorer.stats.renaming import NOT_YOURS
from scorer.store import GameStore

MADE_1: dict[str, Any] = {"caller": 1, "trump": "H", "points": {"team": 0, "tricks": 70}}
MADE_0: dict[str, Any] = {"caller": 0, "trump": "S", "points": {"team": 0, "tricks": 100}}
BAIT_0: dict[str, Any] = {"caller": 0, "trump": "C", "points": {"team": 0, "tricks": 50}}


def doc(players: list[str], hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": "tarabish-game/1", "players": players, "first_dealer": 0, "rules": {},
            "hands": hands}


def by_name(stats: Any) -> dict[str, Any]:
    return {p.name: p for p in stats.players}


def test_only_changed_games_are_replayed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = GameStore(tmp_path)
    a = store.create_game(doc(["Ann", "Bob", "Cid", "Dee"], [MADE_1]))
    store.create_game(doc(["Ann", "Eve", "Cid", "Fay"], [MADE_0]))
    replayed: list[str] = []
    real = service_module.facts_of_doc

    def counting(game_doc: dict[str, Any]) -> Any:
        replayed.append(game_doc["players"][1])
        return real(game_doc)

    monkeypatch.setattr(service_module, "facts_of_doc", counting)
    assert by_name(StatsService(store).stats())["Ann"].calls == 1
    assert sorted(replayed) == ["Bob", "Eve"]
    # A new process (a new service) reads the cache file: nothing is replayed.
    replayed.clear()
    service = StatsService(store)
    assert by_name(service.stats())["Ann"].calls == 1
    assert replayed == []
    # A hand added to one game: only that game is replayed, and it counts.
    store.add_hand(a.id, BAIT_0)
    stats = service.stats()
    assert replayed == ["Bob"]
    assert (by_name(stats)["Ann"].calls, by_name(stats)["Ann"].baits) == (2, 1)
    # A deleted game leaves the figures and the cache.
    store.delete_game(a.id)
    assert "Bob" not in by_name(service.stats())
    cached = json.loads((tmp_path / CACHE_FILE).read_text(encoding="utf-8"))
    assert len(cached["games"]) == 1


def test_a_damaged_or_foreign_cache_is_only_rebuilt(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    store.create_game(doc(["Ann", "Bob", "Cid", "Dee"], [MADE_1]))
    expected = StatsService(store).stats().contract()
    for junk in ("{", '{"meta": {"1": {"schema": 1, "scoring": "other"}}, "games": {}}',
                 json.dumps({"meta": {"1": {"schema": 1, "scoring": "x"}},
                             "games": {"zz": {"revision": "1"}}})):
        (tmp_path / CACHE_FILE).write_text(junk, encoding="utf-8")
        assert StatsService(store).stats().contract() == expected
    # A cache entry lying about a game at the same revision is trusted only with
    # the same save time, so an edited game is never read from a stale entry.
    cache = json.loads((tmp_path / CACHE_FILE).read_text(encoding="utf-8"))
    entry = next(iter(cache["games"].values()))
    entry["updated"] = "2000-01-01T00:00:00+00:00"
    entry["facts"]["seats"][1]["calls"] = 99
    (tmp_path / CACHE_FILE).write_text(json.dumps(cache), encoding="utf-8")
    assert StatsService(store).stats().contract() == expected


def test_rename_merges_two_spellings_with_a_revision_each(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    g1 = store.create_game(doc(["annie", "Bob", "Cid", "Dee"], [MADE_0]))
    g2 = store.create_game(doc(["Ann", "Bob", "Cid", "Eve"], [MADE_0]))
    g3 = store.create_game(doc(["Fay", "Bob", "Gus", "Eve"], []))
    before = store.get_game(g1.id)
    assert set(by_name(StatsService(store).stats())) >= {"annie", "Ann"}

    result = rename_player(store, " ANNIE", "Ann")
    assert result.renamed == [g1.id] and result.skipped == []
    after = store.get_game(g1.id)
    assert after.doc["players"] == ["Ann", "Bob", "Cid", "Dee"]
    assert after.revision == before.revision + 1
    assert after.doc["hands"] == before.doc["hands"]
    assert store.get_game(g3.id).revision == g3.revision  # not at that table
    assert StatsService(store).player_names() == ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]
    ann = by_name(StatsService(store).stats())["Ann"]
    assert (ann.games, ann.calls, ann.made) == (2, 2, 2)
    assert "annie" not in by_name(StatsService(store).stats())
    # A new spelling of the same name relabels every game it is in.
    assert sorted(rename_player(store, "ann", "ANN").renamed) == sorted([g1.id, g2.id])
    assert "ANN" in by_name(StatsService(store).stats())


def test_rename_refuses_what_would_lose_a_player(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    both = store.create_game(doc(["Ann", "Bob", "Cid", "Dee"], []))
    alone = store.create_game(doc(["Bob", "Eve", "Cid", "Fay"], []))
    result = rename_player(store, "Bob", "ann")
    assert result.renamed == [alone.id]
    assert result.skipped == [(both.id, "Ann and Bob sat at the same table")]
    assert store.get_game(both.id).revision == both.revision
    with pytest.raises(RenameError, match="No saved game has a player called 'Zed'"):
        rename_player(store, "Zed", "Ann")
    with pytest.raises(RenameError, match="blank"):
        rename_player(store, "Cid", "   ")
    with pytest.raises(RenameError, match="too long"):
        rename_player(store, "Cid", "x" * 31)


def test_rename_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = GameStore(tmp_path)
    game = store.create_game(doc(["Ann", "Bob", "Cid", "Dee"], []))
    assert main(["rename-player", "dee", "Dee-Anne", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == f"Renamed in 1 game: {game.id}"
    assert main(["rename-player", "Ann", "Bob", "--data-dir", str(tmp_path)]) == 1
    assert "sat at the same table" in capsys.readouterr().err
    assert main(["rename-player", "Zed", "Bob", "--data-dir", str(tmp_path)]) == 2
    assert "No saved game" in capsys.readouterr().err
    assert store.get_game(game.id).doc["players"] == ["Ann", "Bob", "Cid", "Dee-Anne"]


def test_csv_has_one_row_a_hand_with_running_totals(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    # A spreadsheet must not run a typed name as a formula: it gets an apostrophe.
    first = store.create_game(doc(["=SUM(A1)", "Bob", "Cid", "Dee"], [MADE_1, MADE_0]))
    second = store.create_game({**doc(["Eve", "Fay", "Gus", "Hal"], [BAIT_0]),
                                "teams": ["Reds", "Blues"], "first_dealer": 2})
    rows = list(csv.DictReader(io.StringIO(hands_csv(store))))
    assert [(r["game"], r["hand"]) for r in rows] == [(first.id, "1"), (first.id, "2"),
                                                      (second.id, "1")]
    one, two, three = rows
    assert one["date"] == first.created.astimezone().date().isoformat()
    assert (one["team_1"], one["team_2"]) == ("'=SUM(A1) & Cid", "Bob & Dee")
    assert (one["dealer"], one["caller"], one["trump"], one["outcome"]) == ("'=SUM(A1)", "Bob",
                                                                           "H", "made")
    assert (one["points_1"], one["points_2"], one["score_1"], one["score_2"]) == ("70", "92",
                                                                                  "70", "92")
    assert (two["dealer"], two["caller"], two["total_1"], two["total_2"]) == (
        "Bob", "'=SUM(A1)", "170", "154")
    assert three["team_1"] == "Reds"
    assert (three["dealer"], three["caller"], three["outcome"]) == ("Gus", "Eve", "bait")
    assert (three["score_1"], three["score_2"], three["total_1"], three["total_2"]) == (
        "0", "162", "0", "162")
    assert "'=SUM(A1)" in hands_csv(store, [first.id])
    assert second.id not in hands_csv(store, [first.id])


def test_csv_marks_a_hand_that_needs_fixing(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    game = store.create_game({**doc(["Ann", "Bob", "Cid", "Dee"], [MADE_1, MADE_0]),
                              "rules": {"dealer_may_pass": True}})
    store.add_hand(game.id, {"passed": True})
    # Turning the house rule off (an edit) makes the passed hand impossible.
    now = store.get_game(game.id)
    store.update_game(game.id, {**now.doc, "rules": {}}, now.revision)
    rows = list(csv.DictReader(io.StringIO(hands_csv(store))))
    assert [r["outcome"] for r in rows] == ["made", "made", "invalid"]
    assert (rows[2]["score_1"], rows[2]["total_1"], rows[2]["points_1"]) == ("0", "170", "")


def test_csv_running_totals_end_at_the_game_list_totals(tmp_path: Path) -> None:
    golden = json.loads((Path(__file__).parent / "golden_stats.json").read_text(encoding="utf-8"))
    store = GameStore(tmp_path)
    for entry in golden["games"]:
        store.create_game(entry["doc"])
    rows = list(csv.DictReader(io.StringIO(hands_csv(store))))
    for summary in store.list_games():
        mine = [r for r in rows if r["game"] == summary.id]
        assert len(mine) == summary.hand_count
        if mine:
            assert (int(mine[-1]["total_1"]), int(mine[-1]["total_2"])) == summary.totals
            assert sum(int(r["score_1"]) for r in mine) == summary.totals[0]
    assert [r["outcome"] for r in rows] == [
        "made", "made", "half_bait", "passed", "bait",  # the first game
        "bait", "misplay", "thrown", "made",  # half-bait is bait there
        "made", "made",
    ]


def test_export_csv_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = GameStore(tmp_path)
    game = store.create_game(doc(["Ann", "Bob", "Cid", "Dée"], [MADE_1]))
    store.create_game(doc(["Eve", "Fay", "Gus", "Hal"], [MADE_1, MADE_0]))
    assert main(["export", "--csv", "--data-dir", str(tmp_path)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4
    out = tmp_path / "hands.csv"
    assert main(["export", "--csv", game.id[:5], "-o", str(out),
                 "--data-dir", str(tmp_path)]) == 0
    text = out.read_text(encoding="utf-8-sig")
    assert len(text.splitlines()) == 2 and "Dée" in text
    assert capsys.readouterr().out == f"Wrote 1 hand of game {game.id} to {out}.\n"
    assert main(["export", "--csv", "-o", str(out), "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out == f"Wrote 3 hands of every saved game to {out}.\n"
    assert main(["export", "--csv", "ffffffff", "--data-dir", str(tmp_path)]) == 1
    assert "no saved game" in capsys.readouterr().err
    assert main(["export", "--data-dir", str(tmp_path)]) == 2
    assert "say which game" in capsys.readouterr().err


def test_stats_text_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "No games to count."
    store = GameStore(tmp_path)
    store.create_game(doc(["Ann", "Bob", "Cid", "Dee"], [MADE_1, MADE_0, BAIT_0]))
    assert main(["stats", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1 game"
    header = lines[3].split()
    assert header[:9] == ["NAME", "GAMES", "FINISHED", "WINS", "CALLS", "MADE", "½", "BAIT",
                          "BAIT"]
    ann = next(line.split() for line in lines if line.startswith("Ann "))
    # Ann called twice: made 100, bait 0, so 50 a call on average; not finished.
    assert ann[:10] == ["Ann", "1", "0", "0", "2", "1", "0", "1", "50", "0"]
    assert "Ann & Cid" in "\n".join(lines) and "Partnerships" in lines


def test_stats_filters_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = GameStore(tmp_path)
    game = store.create_game(doc(["Ann", "Bob", "Cid", "Dee"], [MADE_1]))
    day = game.created.astimezone().date().isoformat()
    assert main(["stats", "--json", "--since", day, "--until", day,
                 "--data-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1
    assert main(["stats", "--json", "--until", "2000-01-01", "--data-dir", str(tmp_path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"games": 0, "players": [],
                                                   "partnerships": []}
    assert main(["stats", "--json", "--player", "bob", "--data-dir", str(tmp_path)]) == 0
    names = [p["name"] for p in json.loads(capsys.readouterr().out)["players"]]
    assert names == ["Bob", "Dee"]
    assert main(["stats", "--player", " bob", "--opponents", "--since", day,
                 "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"1 game: Bob and opponents, from {day}"  # as typed in the game
    assert [line.split()[0] for line in lines[4:7]] == ["Ann", "Bob", "Cid"]
    assert main(["stats", "--until", "2000-01-01", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "No games to count (to 2000-01-01)."
    assert main(["stats", "--opponents", "--data-dir", str(tmp_path)]) == 2
    assert "--opponents needs --player" in capsys.readouterr().err
    with pytest.raises(SystemExit) as bad_date:
        main(["stats", "--since", "22/11/2026", "--data-dir", str(tmp_path)])
    assert bad_date.value.code == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err


def test_rename_changes_only_the_games_the_asker_may_change(tmp_path: Path) -> None:
    """A phone without a game's table code cannot re-label that game's players."""
    store = GameStore(tmp_path)
    mine = store.create_game(doc(["Ann", "Bob", "Cid", "Dee"], [MADE_0]))
    theirs = store.create_game(doc(["Ann", "Eve", "Cid", "Fay"], [MADE_0]))
    result = rename_player(store, "Ann", "Annie", allowed=lambda game_id: game_id == mine.id)
    assert result.renamed == [mine.id]
    assert result.skipped == [(theirs.id, NOT_YOURS)]
    assert store.get_game(theirs.id).doc["players"][0] == "Ann"
    assert store.get_game(theirs.id).revision == theirs.revision


def test_a_player_and_opponents_shows_their_name_as_typed_and_both_partnerships(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = GameStore(tmp_path)
    store.create_game(doc(["angus", "Bob", "Cid", "Dee"], [MADE_1]))
    store.create_game(doc(["Angus ", "Bob", "Cid", "Dee"], [MADE_0]))  # the latest spelling
    store.close()
    assert main(["stats", "--player", "ANGUS", "--opponents", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "2 games: Angus and opponents"
    partners = out[out.index("Partnerships"):out.index("Head to head")]
    assert "Angus & Cid" in partners and "Bob & Dee" in partners
    assert main(["stats", "--json", "--player", "angus", "--opponents",
                 "--data-dir", str(tmp_path)]) == 0
    pairs = [q["players"] for q in json.loads(capsys.readouterr().out)["partnerships"]]
    assert pairs == [["Angus", "Cid"], ["Bob", "Dee"]]
    assert main(["stats", "--player", "nobody", "--data-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "No games to count (nobody and partners)."
