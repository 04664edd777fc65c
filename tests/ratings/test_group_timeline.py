"""A group's ratings count only its games: the timeline per group, recomputed when a
game of the group changes or the group's games change, kept for the groups last
asked for; on a folder's store and a community's."""

from __future__ import annotations

from pathlib import Path

import pytest
from ratings_docs import game_doc

from scorer.app import ratings_access
from scorer.app.group_access import get_groups
from scorer.app.ratings_access import RatedFolder
from scorer.groups import GroupNotFound
from scorer.store import GameStore


def _add(store: GameStore, players: tuple[str, str, str, str], winner: int | None) -> str:
    return store.create_game(game_doc(players, winner)).id


def _players(folder: RatedFolder, group_id: str | None) -> set[str]:
    return {row.player for row in folder.board("all", group_id)}


def test_a_groups_timeline_counts_only_its_games(store: GameStore) -> None:
    friday = _add(store, ("Ann", "Bob", "Cid", "Dee"), 0)
    _add(store, ("Eve", "Fay", "Gil", "Hal"), 1)
    groups = get_groups(store)
    group, _code = groups.create("Friday bish")
    groups.add_games(group.id, [(friday, ("Ann", "Bob", "Cid", "Dee"))])
    folder = RatedFolder(store)
    assert _players(folder, group.id) == {"Ann", "Bob", "Cid", "Dee"}
    assert _players(folder, None) == {"Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gil", "Hal"}
    row = folder.board("all", group.id)[0]
    assert row.games == 1 and row.points_for + row.points_against > 0


def test_adding_and_taking_out_a_game_rates_the_group_again(store: GameStore) -> None:
    first = _add(store, ("Ann", "Bob", "Cid", "Dee"), 0)
    second = _add(store, ("Ann", "Eve", "Cid", "Fay"), 1)
    groups = get_groups(store)
    group, _code = groups.create("Family")
    groups.add_games(group.id, [(first, ("Ann", "Bob", "Cid", "Dee"))])
    folder = RatedFolder(store)
    before = folder.timeline(group.id)
    assert folder.timeline(group.id) is before and len(before.steps) == 1
    groups.add_games(group.id, [(second, ("Ann", "Eve", "Cid", "Fay"))])
    assert len(folder.timeline(group.id).steps) == 2
    groups.remove_game(group.id, first)
    after = folder.timeline(group.id)
    assert [s.game.game_id for s in after.steps] == [second]
    # A game of the group changing (its revision) rates the group again too.
    rated = folder.rated
    store.delete_game(second)
    assert folder.timeline(group.id).steps == () and folder.rated == rated + 1


def test_a_change_to_the_groups_is_seen_while_the_games_folder_is_unchanged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder's change time skips listing the games: groups.json is not in it."""
    monkeypatch.setattr(ratings_access, "TRUSTED_AFTER_NS", 0)
    with GameStore(tmp_path / "data") as store:
        first = _add(store, ("Ann", "Bob", "Cid", "Dee"), 0)
        second = _add(store, ("Eve", "Bob", "Fay", "Dee"), 0)
        groups = get_groups(store)
        group, _code = groups.create("League")
        groups.add_games(group.id, [(first, ("Ann", "Bob", "Cid", "Dee"))])
        folder = RatedFolder(store)
        assert len(folder.timeline(group.id).steps) == 1
        groups.add_games(group.id, [(second, ("Eve", "Bob", "Fay", "Dee"))])
        assert len(folder.timeline(group.id).steps) == 2
        assert "Eve" in _players(folder, group.id)


def test_two_anns_in_two_groups_are_two_people(store: GameStore) -> None:
    won = _add(store, ("Ann", "Bob", "Cid", "Dee"), 0)
    lost = _add(store, ("ann", "Eve", "Fay", "Gil"), 1)
    groups = get_groups(store)
    family, _ = groups.create("Family")
    legion, _ = groups.create("Legion")
    groups.add_games(family.id, [(won, ("Ann", "Bob", "Cid", "Dee"))])
    groups.add_games(legion.id, [(lost, ("ann", "Eve", "Fay", "Gil"))])
    folder = RatedFolder(store)
    in_family = {r.player: r for r in folder.board("all", family.id)}
    in_legion = {r.player: r for r in folder.board("all", legion.id)}
    assert (in_family["Ann"].wins, in_family["Ann"].games) == (1, 1)
    assert (in_legion["ann"].wins, in_legion["ann"].games) == (0, 1)  # as the group writes her
    assert in_family["Ann"].rating > in_legion["ann"].rating


def test_the_timelines_kept_are_bounded(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ratings_access, "CACHED_GROUPS", 3)
    with GameStore(tmp_path / "data") as store:
        game = _add(store, ("Ann", "Bob", "Cid", "Dee"), 0)
        groups = get_groups(store)
        ids = []
        for n in range(4):
            group, _ = groups.create(f"Group {n}")
            groups.add_games(group.id, [(game, ("Ann", "Bob", "Cid", "Dee"))])
            ids.append(group.id)
        folder = RatedFolder(store)
        for group_id in ids[:3]:
            folder.timeline(group_id)
        rated = folder.rated
        folder.timeline(ids[0])  # kept: the least recently asked is now ids[1]
        folder.timeline(ids[3])  # a fourth: ids[1] goes out
        assert folder.rated == rated + 1
        folder.timeline(ids[0])
        folder.timeline(ids[2])
        assert folder.rated == rated + 1
        folder.timeline(ids[1])  # rated again: it was let go
        assert folder.rated == rated + 2


@pytest.mark.parametrize("bad", ["ZZZZZZZZ", "1234", "../etc/x", "deadbeef"])
def test_a_bad_or_unknown_group_is_refused(tmp_path: Path, bad: str) -> None:
    with GameStore(tmp_path / "data") as store, pytest.raises(GroupNotFound):
        RatedFolder(store).timeline(bad)


def test_chances_go_by_the_games_first_group_by_name(store: GameStore) -> None:
    from scorer.app.ratings_access import community, game_timeline, rated_folder

    won = _add(store, ("Ann", "Bob", "Cid", "Dee"), 0)
    other = _add(store, ("Ann", "Eve", "Cid", "Fay"), 1)
    fresh = _add(store, ("Ann", "Bob", "Cid", "Dee"), None)
    groups = get_groups(store)
    zulu, _ = groups.create("Zulu")
    alpha, _ = groups.create("alpha")
    seats = ("Ann", "Bob", "Cid", "Dee")
    groups.add_games(zulu.id, [(won, seats), (fresh, seats)])
    groups.add_games(alpha.id, [(other, ("Ann", "Eve", "Cid", "Fay")), (fresh, seats)])
    timeline = game_timeline(store, fresh)
    assert timeline is rated_folder(store).timeline(alpha.id)  # "alpha" before "Zulu"
    assert timeline is not None and [s.game.game_id for s in timeline.steps] == [other]
    # A game in no group: every game's ratings on a laptop, none on a community server.
    loose = _add(store, ("Gil", "Hal", "Ivy", "Jo"), None)
    if community(store):
        assert game_timeline(store, loose) is None
    else:
        assert len(game_timeline(store, loose).steps) == 2  # type: ignore[union-attr]


def test_each_games_finish_time_is_read_once_whichever_groups_ask(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with GameStore(tmp_path / "data") as store:
        ids = [_add(store, ("Ann", "Bob", "Cid", "Dee"), n % 2) for n in range(4)]
        groups = get_groups(store)
        first, _ = groups.create("First")
        second, _ = groups.create("Second")
        seats = ("Ann", "Bob", "Cid", "Dee")
        groups.add_games(first.id, [(g, seats) for g in ids[:3]])
        groups.add_games(second.id, [(g, seats) for g in ids[1:]])
        read: list[str] = []
        real = store.get_game

        def counted(game_id: str) -> object:
            read.append(game_id)
            return real(game_id)

        monkeypatch.setattr(store, "get_game", counted)
        folder = RatedFolder(store)
        folder.timeline(first.id)
        folder.timeline(second.id)
        folder.timeline()
        assert sorted(read) == sorted(ids)
        groups.remove_game(first.id, ids[0])  # the group changed, no game did
        folder.timeline(first.id)
        assert sorted(read) == sorted(ids)
