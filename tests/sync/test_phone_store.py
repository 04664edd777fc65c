"""The phone's synced store as the app uses it (issue 40 phase 2): the games port over
the sync client, its kept state, its rights and its link, against a server core over
fake sockets (tests/sync/phone_wire.py). No browser: the same Python the page runs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from phone_wire import AppPhone, Wire
from sync_setup import ANN, BOB, CID, game_doc, made

from scorer.app.phone_sync import alone_line
from scorer.browser.link import MAX_DELAY_S
from scorer.store.errors import StaleRevision, StoreError
from scorer.sync.client import Choice, ClashFirst, NotHeld
from scorer.sync.phone import CodeSent, NeedsNetwork
from tests.in_thread import run_async


def run(body: Callable[[], Awaitable[None]]) -> None:
    """The page's Python runs on an asyncio loop: so do these tests (a loop of their
    own thread: a browser test before them in this worker left one running here)."""
    run_async(body())


class Table:
    """A server and the phones of its table, each running the app."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.wire = Wire(tmp / "server")
        self.phones: list[AppPhone] = []

    def phone(self, device: str, name: str, game: str | None = None) -> AppPhone:
        made_phone = AppPhone(self.wire, self.tmp / name, device, game)
        made_phone.connect()
        self.phones.append(made_phone)
        self.wire.settle()
        return made_phone

    def reopen(self, old: AppPhone, name: str, *, connect: bool = True) -> AppPhone:
        """The tab closed and opened again: a new app over what the phone kept."""
        old.close()
        self.phones.remove(old)
        new = AppPhone(self.wire, self.tmp / name, old.device)
        if connect:
            new.connect()
        self.phones.append(new)
        self.wire.settle()
        return new

    def start(self, ann: AppPhone, *others: AppPhone) -> str:
        """Ann starts a game on the server (as the drawn page would), the others follow it
        and enter its code."""
        stored = self.wire.store.create_game(game_doc(target=5000))
        self.wire.rights.start(stored.id, ann.device)
        code = self.wire.rights.code(stored.id)
        assert code is not None
        for phone in (ann, *others):
            phone.sync.follow(stored.id)
        self.wire.settle()
        for phone in others:
            with pytest.raises(CodeSent):
                phone.sync.rights.enter_code(stored.id, phone.device, "x", code)
        self.wire.settle()
        return stored.id

    def server_hands(self, game: str) -> list[int]:
        return [h["points"]["tricks"] for h in self.wire.store.get_game(game).doc["hands"]]

    def close(self) -> None:
        for phone in self.phones:
            phone.close()
        self.wire.store.close()


def hands(phone: AppPhone, game: str) -> list[int]:
    return [h["points"]["tricks"] for h in phone.games.get_game(game).doc["hands"]]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path)


def test_a_save_shows_at_once_with_its_mark_until_the_server_has_it(table: Table) -> None:
    async def body() -> None:
        ann, bob = table.phone(ANN, "ann"), table.phone(BOB, "bob")
        game = table.start(ann, bob)
        shown = ann.games.get_game(game)
        saved = ann.games.add_hand(game, made(10), expected_revision=shown.revision)
        assert saved.doc["hands"][0]["points"]["tricks"] == 10  # on the phone at once
        assert ann.sync.unsent(game) == {1}
        assert ann.writes[-1] is True  # kept (and committed) before the screen says saved
        assert alone_line(ann.sync.line()) is None  # connected: the mark says it all
        assert table.server_hands(game) == []
        table.wire.settle()
        assert table.server_hands(game) == [10] == hands(ann, game) == hands(bob, game)
        assert ann.sync.unsent(game) == frozenset()
        assert game in bob.redrawn  # the other phone's sheet is drawn again
        table.close()

    run(body)


def test_offline_recording_survives_a_closed_tab_and_goes_out_once(table: Table) -> None:
    async def body() -> None:
        ann, bob = table.phone(ANN, "ann"), table.phone(BOB, "bob")
        game = table.start(ann, bob)
        table.wire.cut()
        assert ann.sync.line().alone
        for tricks in (10, 20):
            rev = ann.games.get_game(game).revision
            ann.games.add_hand(game, made(tricks), expected_revision=rev)
        assert alone_line(ann.sync.line()) == (
            "This phone is recording alone: 2 hands wait to be sent.")
        assert ann.sync.unsent(game) == {1, 2}
        # The tab is closed and opened again, still offline.
        ann = table.reopen(ann, "ann")
        table.wire.settle()
        assert hands(ann, game) == [10, 20] and ann.sync.unsent(game) == {1, 2}
        assert ann.sync.line().alone and ann.sync.line().waiting == 2
        # Bob recorded meanwhile too? No: the network is back, and Ann's go out in order.
        table.wire.up = True
        ann.later(MAX_DELAY_S)
        bob.later(MAX_DELAY_S)
        table.wire.settle()
        assert table.server_hands(game) == [10, 20] == hands(bob, game) == hands(ann, game)
        assert not ann.sync.line().alone and ann.sync.line().waiting == 0
        table.close()

    run(body)


def test_the_same_hand_recorded_apart_is_already_recorded(table: Table) -> None:
    async def body() -> None:
        ann, bob = table.phone(ANN, "ann"), table.phone(BOB, "bob")
        game = table.start(ann, bob)
        table.wire.cut()
        for phone in (ann, bob):
            phone.games.add_hand(game, made(30), expected_revision=1)
        table.wire.up = True
        ann.later(MAX_DELAY_S)
        table.wire.settle()
        bob.later(MAX_DELAY_S)
        table.wire.settle()
        assert table.server_hands(game) == [30] == hands(bob, game)
        words = [n.words for n in bob.sync.notices(game)]
        assert any("already recorded by another phone" in w for w in words)
        bob.sync.dismiss(game)
        assert bob.sync.notices(game) == []
        table.close()

    run(body)


def test_a_clash_is_chosen_on_the_phone_and_blocks_more_until_then(table: Table) -> None:
    async def body() -> None:
        ann, bob = table.phone(ANN, "ann"), table.phone(BOB, "bob")
        game = table.start(ann, bob)
        table.wire.cut()
        ann.games.add_hand(game, made(30), expected_revision=1)
        bob.games.add_hand(game, made(40), expected_revision=1)
        table.wire.up = True
        ann.later(MAX_DELAY_S)
        table.wire.settle()
        bob.later(MAX_DELAY_S)
        table.wire.settle()
        clash = bob.sync.clash(game)
        assert clash is not None and clash.situation.number == 1
        assert clash.situation.theirs is not None and clash.situation.mine is not None
        assert hands(bob, game) == [30]  # theirs shows meanwhile
        assert bob.sync.unsent(game) == frozenset()  # theirs is not marked as Bob's
        with pytest.raises(ClashFirst):
            bob.games.add_hand(game, made(50), expected_revision=bob.games.get_game(game).revision)
        bob.sync.choose(game, Choice.RECORD_NEXT)
        table.wire.settle()
        assert bob.sync.clash(game) is None
        assert table.server_hands(game) == [30, 40] == hands(ann, game) == hands(bob, game)
        table.close()

    run(body)


def test_rights_come_from_the_server_and_a_code_needs_the_network(table: Table) -> None:
    async def body() -> None:
        ann = table.phone(ANN, "ann")
        game = table.start(ann)
        cid = table.phone(CID, "cid", game=game)  # opened by the game's address
        assert cid.sync.synced(game)
        assert not cid.sync.rights.may_edit(game, CID)
        assert cid.sync.rights.code(game) is None and ann.sync.rights.code(game) is not None
        with pytest.raises(NotHeld):
            cid.games.add_hand(game, made(10), expected_revision=1)
        table.wire.cut()
        with pytest.raises(NeedsNetwork, match="needs the table server"):
            cid.sync.rights.enter_code(game, CID, "x", "000000")
        table.wire.up = True
        cid.later(MAX_DELAY_S)
        table.wire.settle()
        with pytest.raises(CodeSent):
            cid.sync.rights.enter_code(game, CID, "x", ann.sync.rights.code(game) or "")
        table.wire.settle()
        assert cid.sync.rights.may_edit(game, CID)
        table.close()

    run(body)


def test_a_stale_sheet_is_refused_as_the_server_would(table: Table) -> None:
    async def body() -> None:
        ann, bob = table.phone(ANN, "ann"), table.phone(BOB, "bob")
        game = table.start(ann, bob)
        seen = bob.games.get_game(game).revision
        ann.games.add_hand(game, made(10), expected_revision=seen)
        table.wire.settle()
        with pytest.raises(StaleRevision):
            bob.games.add_hand(game, made(20), expected_revision=seen)
        table.close()

    run(body)


def test_a_game_started_on_the_phone_is_sent_and_keeps_its_address(table: Table) -> None:
    async def body() -> None:
        ann = table.phone(ANN, "ann")
        assert ann.games.start_synced  # the server answered Hello: it speaks sync
        table.wire.cut()
        started = ann.games.create_game(game_doc())
        alias = started.id
        assert len(alias) == 8 and ann.sync.synced(alias)
        ann.games.add_hand(alias, made(10), expected_revision=started.revision)
        assert hands(ann, alias) == [10]
        table.wire.up = True
        ann.later(MAX_DELAY_S)
        table.wire.settle()
        ids = [s.id for s in table.wire.store.list_games()]
        assert len(ids) == 1
        server_id = ids[0]
        assert table.server_hands(server_id) == [10]
        assert ann.games.get_game(alias).id == server_id  # the old address still opens it
        assert ann.sync.rights.code(server_id) is not None  # held, with its code
        assert [r.id for r in ann.games.list_games()] == [server_id]
        assert alias in ann.redrawn or server_id in ann.redrawn
        table.close()

    run(body)


def test_a_game_without_a_server_stays_the_phones_own(table: Table) -> None:
    async def body() -> None:
        table.wire.up = False  # a server that never answered: today's way
        ann = table.phone(ANN, "ann")
        assert not ann.games.start_synced
        started = ann.games.create_game(game_doc())
        assert not ann.sync.synced(started.id)
        ann.games.add_hand(started.id, made(10), expected_revision=started.revision)
        assert ann.local.get_game(started.id).doc["hands"][0]["points"]["tricks"] == 10
        assert ann.sync.rights.may_edit(started.id, None)
        table.close()

    run(body)


def test_a_refused_waiting_change_says_why_and_the_rest_are_kept(table: Table) -> None:
    async def body() -> None:
        ann, bob = table.phone(ANN, "ann"), table.phone(BOB, "bob")
        game, other = table.start(ann, bob), table.start(ann, bob)
        table.wire.cut()
        ann.games.add_hand(game, made(10), expected_revision=1)
        ann.games.add_hand(other, made(30), expected_revision=1)
        ann.games.add_hand(game, made(20), expected_revision=2)
        # Meanwhile Ann's right to the first game is taken away on the server.
        table.wire.rights.forget(game)
        stored = table.wire.store.get_game(game)
        table.wire.rights.start(stored.id, BOB)
        table.wire.up = True
        ann.later(MAX_DELAY_S)
        bob.later(MAX_DELAY_S)
        table.wire.settle()
        words = [n.words for n in ann.sync.notices(game)]
        assert words and all(isinstance(w, str) and w for w in words)
        assert table.server_hands(game) == []
        assert hands(ann, game) == []  # what the server refused is not shown as saved
        # The rest went on: the other game's hand, waiting between the refused two.
        assert table.server_hands(other) == [30] == hands(ann, other) == hands(bob, other)
        assert ann.sync.unsent(other) == frozenset() and not ann.sync.notices(other)
        table.close()

    run(body)


def test_a_game_not_here_yet_says_so(table: Table) -> None:
    async def body() -> None:
        table.wire.up = False
        cid = table.phone(CID, "cid", game="0badc0de")
        with pytest.raises(StoreError, match="has not reached this phone yet"):
            cid.games.get_game("0badc0de")
        table.close()

    run(body)


def test_the_keeper_keeps_whole_files_and_skips_what_is_not_its_own(tmp_path: Path) -> None:
    from scorer.browser.keeper import FolderKeeper

    told: list[bool] = []
    keeper = FolderKeeper(tmp_path / "sync", told.append)
    keeper.keep("abc", '{"a": 1}')
    keeper.hold = True
    keeper.keep("client", "{}")
    (tmp_path / "sync" / ".abc.json.tmp").write_text("torn")
    (tmp_path / "sync" / "notes.txt").write_text("x")
    assert keeper.load() == {"abc": '{"a": 1}', "client": "{}"}
    keeper.forget("abc")
    keeper.forget("abc")  # twice: nothing to do
    assert keeper.load() == {"client": "{}"}
    assert told == [False, True, True]
    with pytest.raises(ValueError):
        keeper.keep("../escape", "x")


def test_a_games_address_opened_on_the_phone_follows_it(table: Table) -> None:
    async def body() -> None:
        ann = table.phone(ANN, "ann")
        game = table.start(ann)
        bob = table.phone(BOB, "bob")
        with pytest.raises(StoreError, match="has not reached this phone yet"):
            bob.games.get_game(game)  # the page at /game/<id>: followed from now on
        table.wire.settle()
        assert bob.games.get_game(game).id == game
        assert game in bob.redrawn
        with pytest.raises(StoreError):
            bob.games.get_game("not-an-id")
        with pytest.raises(StoreError, match="has not reached this phone yet"):
            bob.games.get_game("0badc0de")
        table.wire.settle()  # the server has no such game: it says so, and it is not asked again
        with pytest.raises(StoreError) as gone:
            bob.games.get_game("0badc0de")
        assert "has not reached" not in str(gone.value)
        for n in range(40):  # addresses that lead nowhere do not pile up on the phone
            with pytest.raises(StoreError):
                bob.games.get_game(f"{n:08x}")
        assert len(bob.sync.client.games) <= 17
        table.close()

    run(body)
