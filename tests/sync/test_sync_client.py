"""The phone's sync core: its copy, its outbox, and how it meets the server (through the
in-memory network, on a folder's store; the server's side is tested on both stores)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sync_setup import ANN, BAD_TRUMP, BOB, CID, MADE, Clock, game_doc, made, phone

from scorer.rights import TableCodes, TableRights
from scorer.store import GameStore, InvalidGame
from scorer.sync.client import (
    Choice,
    ClashFirst,
    MemoryKeeper,
    NotHeld,
    OutboxFull,
    SyncClient,
)
from scorer.sync.loopback import Network
from scorer.sync.messages import (
    AddHand,
    Applied,
    Details,
    Limits,
    Push,
    Reason,
    Refused,
    ReplaceHand,
    Undo,
    decode_client,
)
from scorer.sync.service import SyncService


class Table:
    """A server and three phones; ann starts a game the others hold."""

    def __init__(self, folder: Path) -> None:
        self.store = GameStore(folder)
        self.service = SyncService(self.store, TableRights(TableCodes(folder)))
        self.net = Network(self.service)
        self.keepers = {n: MemoryKeeper() for n in ("ann", "bob", "cid")}
        self.ann = self.net.add("ann", phone(ANN, 1, self.keepers["ann"]))
        self.bob = self.net.add("bob", phone(BOB, 2, self.keepers["bob"]))
        self.cid = self.net.add("cid", phone(CID, 3, self.keepers["cid"]))
        for name in ("ann", "bob", "cid"):
            self.net.connect(name)
        self.net.settle()

    def start(self, target: int = 5000, **claimed: bool) -> str:
        key = self.ann.start(game_doc(target=target))
        self.net.settle()
        game = self.ann.key_of(key)
        code = self.ann.games[game].code
        assert code is not None
        for name in ("bob", "cid"):
            self.net.phones[name].claim(game, code)
        self.net.settle()
        return game

    def hands(self, who: SyncClient | None, game: str) -> list[int]:
        doc = (self.store.get_game(game) if who is None else who.view(game)).doc  # type: ignore[union-attr]
        return [h["points"]["tricks"] for h in doc["hands"]]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    made_table = Table(tmp_path / "data")
    yield made_table
    made_table.store.close()


def test_a_save_shows_at_once_and_reaches_the_others(table: Table) -> None:
    game = table.start()
    table.ann.record(game, AddHand(hand=made(10)))
    assert table.hands(table.ann, game) == [10]
    assert table.ann.status().waiting == 1 and table.hands(None, game) == []
    table.net.settle()
    assert table.ann.status().waiting == 0
    for who in (table.ann, table.bob, table.cid):
        assert table.hands(who, game) == [10]
        # The whole record, trail and times too (the starting phone's key stays its own).
        assert who.view(game).model_dump(exclude={"origin"}) == (  # type: ignore[union-attr]
            table.store.get_game(game).model_dump(exclude={"origin"}))


def test_a_game_started_offline_goes_with_its_hands_in_order(table: Table) -> None:
    table.net.disconnect("ann")
    key = table.ann.start(game_doc(target=5000))
    for tricks in (10, 20, 30):
        table.ann.record(key, AddHand(hand=made(tricks)))
    table.ann.record(key, Undo())
    assert table.hands(table.ann, key) == [10, 20]
    assert table.ann.status().waiting == 5 and not table.ann.status().connected
    table.net.connect("ann")
    table.net.settle()
    game = table.ann.key_of(game := key)
    assert len(game) == 8 and table.hands(None, game) == [10, 20]
    assert table.ann.view(key) == table.store.get_game(game)
    trail = [e["change"] for e in table.store.get_game(game).history]
    assert trail == ["started", "added", "added", "added", "undone"]


def test_closing_the_tab_loses_nothing(table: Table) -> None:
    game = table.start()
    table.net.disconnect("bob")
    table.bob.record(game, AddHand(hand=made(11)))
    table.bob.record(game, AddHand(hand=made(12)))
    again = table.net.replace("bob", phone(BOB, 22, table.keepers["bob"]))
    assert again.waiting() == 2 and table.hands(again, game) == [11, 12]
    table.net.connect("bob")
    table.net.settle()
    assert table.hands(None, game) == [11, 12] == table.hands(table.ann, game)


def test_an_answer_lost_is_not_a_second_hand(table: Table) -> None:
    game = table.start()
    table.ann.record(game, AddHand(hand=made(10)))
    table.net.pump("ann")
    table.net.deliver_up("ann")  # saved; the answer is lost with the connection
    table.net.disconnect("ann")
    table.net.settle()
    table.cid.record(game, Undo())  # and another phone undoes it meanwhile
    table.net.settle()
    assert table.hands(None, game) == []
    table.net.connect("ann")
    table.net.settle()
    assert table.hands(table.ann, game) == [] and table.ann.notices() == []


def test_the_same_hand_recorded_on_two_phones_is_kept_once(table: Table) -> None:
    game = table.start()
    table.net.disconnect("bob")
    table.ann.record(game, AddHand(hand=made(10)))
    table.bob.record(game, AddHand(hand=made(10)))
    table.net.settle()
    table.net.connect("bob")
    table.net.settle()
    assert table.hands(None, game) == [10] == table.hands(table.bob, game)
    [notice] = table.bob.notices()
    assert notice.reason == "already_recorded" and "already recorded" in notice.words
    assert notice.hand == made(10)


def test_a_different_hand_in_the_same_place_is_a_clash_for_the_player(table: Table) -> None:
    game = table.start()
    table.net.disconnect("bob")
    table.ann.record(game, AddHand(hand=made(10)))
    table.bob.record(game, AddHand(hand=made(20)))
    table.bob.record(game, AddHand(hand=made(30)))
    table.net.settle()
    table.net.connect("bob")
    table.net.settle()
    clash = table.bob.clash(game)
    assert clash is not None and clash.is_new and clash.situation.number == 1
    assert clash.choices == (Choice.KEEP_THEIRS, Choice.USE_MINE, Choice.RECORD_NEXT)
    # The sheet shows theirs; mine and what came after it wait, kept on the phone.
    assert table.hands(table.bob, game) == [10] and table.bob.waiting(game) == 2
    with pytest.raises(ClashFirst, match="hand 1"):
        table.bob.record(game, AddHand(hand=made(40)))
    table.bob.choose(game, Choice.RECORD_NEXT)
    table.net.settle()
    assert table.hands(None, game) == [10, 20, 30] == table.hands(table.bob, game)


@pytest.mark.parametrize(("choice", "hands"), [(Choice.KEEP_THEIRS, [10]),
                                               (Choice.USE_MINE, [20])])
def test_keep_theirs_or_use_mine(table: Table, choice: Choice, hands: list[int]) -> None:
    game = table.start()
    table.net.disconnect("bob")
    table.ann.record(game, AddHand(hand=made(10)))
    table.bob.record(game, AddHand(hand=made(20)))
    table.net.settle()
    table.net.connect("bob")
    table.net.settle()
    table.bob.choose(game, choice)
    table.net.settle()
    assert table.hands(None, game) == hands == table.hands(table.ann, game)
    if choice is Choice.USE_MINE:  # theirs stays in the trail
        assert table.store.get_game(game).history[-1]["change"] == "edited"
    else:
        assert table.bob.notices()[-1].reason == "kept_theirs"


def test_an_edit_of_a_hand_edited_elsewhere_is_a_clash(table: Table) -> None:
    game = table.start()
    table.ann.record(game, AddHand(hand=made(10)))
    table.net.settle()
    table.net.disconnect("bob")
    table.ann.record(game, ReplaceHand(index=0, hand=made(11)))
    table.bob.record(game, ReplaceHand(index=0, hand=made(12)))
    table.net.settle()
    table.net.connect("bob")
    table.net.settle()
    clash = table.bob.clash(game)
    assert clash is not None and not clash.is_new
    assert clash.choices == (Choice.KEEP_THEIRS, Choice.USE_MINE)


def test_a_change_elsewhere_is_made_again_on_the_new_revision(table: Table) -> None:
    game = table.start()
    table.ann.record(game, AddHand(hand=made(10)))
    table.net.settle()
    table.net.disconnect("bob")
    table.ann.record(game, ReplaceHand(index=0, hand=made(11)))
    table.bob.record(game, AddHand(hand=made(20)))
    table.net.settle()
    table.net.connect("bob")
    table.net.settle()
    assert table.hands(None, game) == [11, 20] and table.bob.notices() == []


def test_an_undo_that_no_longer_fits_is_dropped_with_a_notice(table: Table) -> None:
    game = table.start()
    table.ann.record(game, AddHand(hand=made(10)))
    table.net.settle()
    table.net.disconnect("bob")
    table.ann.record(game, AddHand(hand=made(20)))
    table.bob.record(game, Undo())
    table.net.settle()
    table.net.connect("bob")
    table.net.settle()
    assert table.hands(None, game) == [10, 20]
    assert "was not undone" in table.bob.notices()[-1].words


def test_details_changed_apart_are_merged_when_they_do_not_clash(table: Table) -> None:
    game = table.start()
    table.net.disconnect("bob")
    doc = {k: v for k, v in game_doc(target=5000).items() if k != "hands"}
    table.ann.record(game, Details(doc={**doc, "teams": ["Us", "Them"]}))
    table.bob.record(game, Details(doc={**doc, "first_dealer": 2}))
    table.net.settle()
    table.net.connect("bob")
    table.net.settle()
    saved = table.store.get_game(game).doc
    assert saved["teams"] == ["Us", "Them"] and saved["first_dealer"] == 2


def test_a_refused_change_is_told_and_the_rest_go_on(table: Table) -> None:
    game = table.start()
    dee = table.net.add("dee", phone("dee-device-token-0004", 4))
    table.net.connect("dee")
    own = dee.start(game_doc(target=5000))
    dee.follow(game)
    table.net.settle()
    # A forged copy: the phone thinks it holds the table's game; the server judges.
    dee.games[game] = dee.games[game].model_copy(update={"holds": True})
    dee.record(game, AddHand(hand=made(10)))
    dee.record(game, AddHand(hand=made(20)))
    dee.record(dee.key_of(own), AddHand(hand=made(30)))
    table.net.settle()
    [notice] = dee.notices()
    assert (notice.reason, notice.hand) == (Reason.NOT_ALLOWED, made(10))
    assert "table code" in notice.words
    # The game's other hand was made after the refused one: its place is gone, the
    # player chooses; the other game's change went on.
    clash = dee.clash(game)
    assert clash is not None and clash.situation.mine is not None
    assert table.hands(None, game) == [] and table.hands(None, dee.key_of(own)) == [30]
    dee.choose(game, Choice.KEEP_THEIRS)
    assert dee.waiting() == 0 and table.hands(dee, game) == []


def test_a_watcher_cannot_record(table: Table) -> None:
    game = table.start()
    watcher = table.net.add("dee", phone("dee-device-token-0004", 4))
    watcher.follow(game)
    table.net.connect("dee")
    table.net.settle()
    assert watcher.view(game) is not None
    with pytest.raises(NotHeld):
        watcher.record(game, AddHand(hand=MADE))


def test_the_rules_refuse_on_the_phone_first(table: Table) -> None:
    game = table.start()
    with pytest.raises(InvalidGame):
        table.ann.record(game, AddHand(hand=BAD_TRUMP))
    assert table.ann.waiting() == 0
    assert table.ann.record(game, Details(doc={
        k: v for k, v in game_doc(target=5000).items() if k != "hands"})) is None


def test_the_outbox_is_bounded(table: Table) -> None:
    game = table.start(target=10**6)
    table.net.disconnect("ann")
    table.ann.limits = Limits(max_pending=3)
    for tricks in (10, 20, 30):
        table.ann.record(game, AddHand(hand=made(tricks)))
    with pytest.raises(OutboxFull, match="3 changes are waiting"):
        table.ann.record(game, AddHand(hand=made(40)))
    assert table.ann.waiting() == 3


def test_pushes_stay_within_the_servers_bounds(table: Table) -> None:
    game = table.start(target=10**6)
    table.net.disconnect("ann")
    for tricks in range(40):
        table.ann.record(game, AddHand(hand=made(10 + tricks)))
    table.net.connect("ann")
    table.net.deliver_up("ann")  # Hello
    table.net.deliver_down("ann")  # Welcome: the phone sends what it can
    sent = [decode_client(m) for m in table.net.links["ann"].up]
    assert [len(p.changes) for p in sent if isinstance(p, Push)] == [32]
    assert table.ann.outgoing() == []  # one push at a time
    table.net.settle()
    assert len(table.store.get_game(game).doc["hands"]) == 40


def test_a_busy_server_is_tried_again_later(table: Table) -> None:
    game = table.start()
    clock = Clock()
    table.ann.clock = clock
    table.ann.record(game, AddHand(hand=made(10)))
    [push] = table.ann.outgoing()
    assert isinstance(push, Push)
    change = push.changes[0]
    table.ann.receive(Refused(change=change.id, game=game, reason=Reason.BUSY,
                              words="The disk is full: nothing was saved.", retry_after=5))
    assert table.ann.waiting() == 1 and table.ann.outgoing() == []
    assert table.ann.wake_at() == 5
    clock.t = 5
    assert [p.changes for p in table.ann.outgoing()] == [(change,)]  # type: ignore[union-attr]
    table.ann.receive(Applied(change=change.id, game=game, revision=2))
    assert table.ann.waiting() == 0 and table.hands(table.ann, game) == [10]


def test_an_old_app_is_told_to_update_and_keeps_its_changes(table: Table) -> None:
    game = table.start()
    old = table.net.replace("ann", SyncClient(ANN, table.keepers["ann"], rules="0" * 16))
    old.record(game, AddHand(hand=made(10)))
    table.net.connect("ann")
    table.net.settle()
    assert old.status().update and old.waiting() == 1 and old.outgoing() == []
    assert table.hands(None, game) == []


def test_play_again_on_two_phones_is_one_game_with_both_hands(table: Table) -> None:
    game = table.start(target=1)
    table.ann.record(game, AddHand(hand=MADE))
    table.net.settle()
    table.net.disconnect("bob")
    ann_next = table.ann.play_again(game, game_doc(target=5000))
    table.ann.record(ann_next, AddHand(hand=made(10)))
    bob_next = table.bob.play_again(game, game_doc(target=5000))
    table.bob.record(bob_next, AddHand(hand=made(10)))
    table.bob.record(bob_next, AddHand(hand=made(20)))
    table.net.settle()
    table.net.connect("bob")
    table.net.settle()
    made_game = table.ann.key_of(ann_next)
    assert table.bob.key_of(bob_next) == made_game
    assert table.hands(None, made_game) == [10, 20] == table.hands(table.bob, made_game)
    assert table.store.get_game(made_game).follows == game


def test_what_the_phone_keeps_survives_a_damaged_entry() -> None:
    keeper = MemoryKeeper()
    keeper.keep("deadbeef", "{not json")
    keeper.keep("client", "[]")
    client = SyncClient(ANN, keeper)
    assert client.games == {} and client.notices() == []


