"""Members and keepers leave (issue 41, point 6): a keeper takes a member out (their past
games stay), sees the phones that keep the group and removes one, and a new keeper code
can end the old phones' rights. Every change checked on the server; both stores."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest

from scorer.app.group_access import get_groups
from scorer.groups.model import BadGroup, NotKeeper
from scorer.groups.service import Groups
from tests.groups.test_group_actions import AnyStore, doc, phone

KEEPER = "keeper-token-00000000001"
SECOND = "second-keeper-token-0001"
STRANGER = "stranger-token-000000001"



def seat(store: AnyStore, group_id: str, game_id: str) -> None:
    """The game joins the group (seeded as the store's own groups would have it)."""
    get_groups(store).add_games(group_id, [(game_id, store.get_game(game_id).doc["players"])])


def test_a_keeper_takes_a_member_out_and_their_games_stay(store: AnyStore) -> None:
    keeper = phone(store, KEEPER, f"10.8.{secrets.randbelow(250)}.1")
    group, _code = keeper.create("Friday bish", ["Ann", "Bob", "Cid", "Dee", "Eve"])
    game = store.create_game(doc()).id
    seat(store, group.id, game)
    with pytest.raises(NotKeeper):
        phone(store, STRANGER).remove_member(group.id, "Eve")
    after = keeper.remove_member(group.id, "eve")
    assert "Eve" not in after.members and after.games == (game,)
    after = keeper.remove_member(group.id, "Dee")  # sat in the game: the game stays
    assert "Dee" not in after.members and after.games == (game,)
    with pytest.raises(BadGroup, match="not a member"):
        keeper.remove_member(group.id, "Zed")


def test_a_keeper_sees_and_removes_the_phones_that_keep_the_group(store: AnyStore) -> None:
    keeper = phone(store, KEEPER, f"10.8.{secrets.randbelow(250)}.2")
    group, code = keeper.create("Friday bish")
    second = phone(store, SECOND)
    second.enter_code(group.id, code)
    listed = keeper.keepers(group.id)
    assert [k.this_phone for k in listed] == [True, False]
    assert all(len(k.mark) == 12 and SECOND not in k.mark for k in listed)
    stranger = phone(store, STRANGER)
    with pytest.raises(NotKeeper):
        stranger.keepers(group.id)
    with pytest.raises(NotKeeper):
        stranger.remove_keeper(group.id, listed[1].mark)
    with pytest.raises(BadGroup):
        keeper.remove_keeper(group.id, "0" * 12)
    keeper.remove_keeper(group.id, listed[1].mark)
    assert not second.keeps(group.id) and keeper.keeps(group.id)
    with pytest.raises(NotKeeper):
        second.add_member(group.id, "Zed")


def test_a_new_code_can_end_the_old_phones_rights(store: AnyStore) -> None:
    keeper = phone(store, KEEPER, f"10.8.{secrets.randbelow(250)}.3")
    group, code = keeper.create("Friday bish")
    second = phone(store, SECOND)
    second.enter_code(group.id, code)
    keeper.new_code(group.id)  # as before: the other phones keep it
    assert second.keeps(group.id)
    new = keeper.new_code(group.id, end_others=True)
    assert keeper.keeps(group.id) and not second.keeps(group.id)
    with pytest.raises(NotKeeper):
        second.new_code(group.id, end_others=True)
    second.enter_code(group.id, new)
    assert second.keeps(group.id)
    groups: Groups = get_groups(store)
    groups.new_code(group.id, None, end_others=True)  # the operator's command line
    assert not keeper.keeps(group.id) and not second.keeps(group.id)


def test_the_command_line_ends_every_phones_rights_with_a_new_code(tmp_path: Path) -> None:
    from scorer.cli import main
    from scorer.groups.folder import FolderGroups

    groups = FolderGroups(tmp_path)
    group, _code = groups.create("Friday bish", keeper=KEEPER)
    assert main(["group", "code", "Friday bish", "--data-dir", str(tmp_path)]) == 0
    assert FolderGroups(tmp_path).holds(group.id, KEEPER)
    assert main(["group", "code", "Friday bish", "--end-others", "--data-dir",
                 str(tmp_path)]) == 0
    assert not FolderGroups(tmp_path).holds(group.id, KEEPER)
